"""A session's model cut into single constraints that know the step that posted them, and solves of subsets of
them until a deadline: what explanations and walkthroughs work on. pycsp3's model itself is only rebuilt from
the steps, as the session does on undo."""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from kernelext.errors import ModelRejected, PuzzleUsageError, Untranslatable
from kernelext.grid import Grid, build_grid
from kernelext.insight.findings import Culprit
from kernelext.pycsp3_glue import model_state
from kernelext.scratch import scratch_folder
from kernelext.solver.choice import in_browser
from kernelext.solver.compiled import holes_of
from kernelext.solver.cpsat.subsets import ConstraintSubsets
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.kit.propagation import quickxplain
from kernelext.solver.portfolio import FIRST_SLICE
from kernelext.solver.result import SolveResult, Status
from kernelext.xcsp.check import Checker
from kernelext.xcsp.subsets import XcspModel, objective_constraint, read_model

DEFAULT_TIMEOUT = 30.0  # seconds, for an explanation or a walkthrough
NO_CONSTRAINTS = "This puzzle has no constraints yet: there is nothing to explain."


class SubsetSolves:
    """A session's model cut into constraints that know their step, and solves of subsets of them until a
    deadline. Used as a context manager (its temporary folder is removed at the end)."""

    def __init__(self, session, timeout: float, backend: str = "auto"):
        if not session.steps:
            raise PuzzleUsageError("This puzzle has no steps yet: start it with %%puzzle NAME.")
        self.deadline = time.monotonic() + timeout
        self.session = session
        self.backend = backend  # in the browser, `auto` asks the kit's own search first, then MiniZinc
        self.expired = False
        self._folder = scratch_folder("explain")
        self.folder = Path(self._folder.name)
        found = session.posted_by() or rebuild(session, self.folder / "step.xml")  # rebuilt: not read in parts
        self.model, self.owners, self.objective_step = found
        if not self.model.constraints:
            raise PuzzleUsageError(NO_CONSTRAINTS)
        self.pool = [c.xml for c in self.model.constraints]
        self.cells = model_state.solution_cells()
        self.info = session.shown_array()
        self.positions = self.info.positions() if self.info is not None else {}
        self._in_memory: ConstraintSubsets | None = None  # parsed on the first question asked of it
        self._checker: Checker | None = None  # of the constraints whose solution from memory was checked last
        self._files_only = in_browser() or backend not in ("auto", "cp-sat")  # the kit's search, or a choice

    def __enter__(self) -> SubsetSolves:
        return self

    def __exit__(self, *exc_info) -> None:
        self._folder.cleanup()

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def post_optimum(self) -> str:
        """For an optimisation model, solve it and add `objective = optimum` to its constraints (a walkthrough
        then deduces the optimal solutions); what became of the objective, in words ("" without one)."""
        if self.objective_step is None:
            return ""
        result = self.session.solve(timeout=max(1.0, self.remaining() / 2))
        if result.status is not Status.OPTIMUM:
            return "its optimum was not proven in time: deduced without it"
        constraint = objective_constraint(self.model, result.bound)
        if constraint is None:
            return f"its optimum {result.bound} is of a form the walkthrough does not post: deduced without it"
        self.model = replace(self.model, constraints=(*self.model.constraints, constraint))
        self.owners = (*self.owners, self.objective_step)
        self.pool.append(constraint.xml)
        return f"its optimum posted as the constraint {constraint.text.removesuffix(' (the optimum)')}"

    def add(self, xml: str) -> int:
        """Add a constraint (an XCSP3 element) to the pool; its index."""
        self.pool.append(xml)
        return len(self.pool) - 1

    def solve(
        self, ids: tuple[int, ...], extra: Sequence[str] = (), most_seconds: float | None = None
    ) -> SolveResult | None:
        """Solve the variables with the constraints `ids` of the pool and the `extra` ones (XCSP3 elements),
        within `most_seconds` if given; None once the deadline has passed. KeyboardInterrupt when Stop ended it."""
        if self.remaining() <= 0.05:
            self.expired = True
            return None
        if not ids and not extra:
            return SolveResult(Status.SAT, ({},))
        path = self.model.write(self.folder / "subset.xml", [self.pool[i] for i in ids] + list(extra))
        timeout = self.remaining() if most_seconds is None else min(most_seconds, self.remaining())
        result = self.session.solver.solve(path, self.cells, timeout=timeout, backend=self.backend)
        if result.stopped == "interrupted":  # Stop ends the whole explanation, not this one solve
            raise KeyboardInterrupt
        return result

    def checked_solve(self, ids: tuple[int, ...]) -> SolveResult | None:
        """As `solve`, asked first of CP-SAT in memory for a first slice: its answer is given when it has none,
        or once the kit's checker finds that its solution satisfies the constraints `ids`; else the session's
        solver answers on a file (and checks its own)."""
        result = self._asked_in_memory(ids, None, FIRST_SLICE)
        if result is not None and result.status is Status.UNSAT:
            return result
        if result is not None and result.status is Status.SAT and self._holds(ids, result.solutions[0]):
            return result
        return self.solve(ids)

    def solve_within(
        self, ids: tuple[int, ...], domains: Mapping[str, Collection[int]], most_seconds: float | None = None
    ) -> SolveResult | None:
        """As `solve`, with each variable of `domains` held to those values: asked of CP-SAT in memory where it
        reads the model (the values of every variable it reads), else of the session's solver on a file."""
        result = self._asked_in_memory(ids, domains, most_seconds)
        if result is None:
            within = [
                f"<extension><list> {v} </list><supports> {' '.join(map(str, sorted(values)))} </supports></extension>"
                for v, values in domains.items()
            ]
            return self.solve(ids, within, most_seconds)
        return None if result.status is Status.UNKNOWN and self.remaining() <= 0.05 else result

    def _asked_in_memory(
        self, ids: tuple[int, ...], domains: Mapping[str, Collection[int]] | None, most_seconds: float | None
    ) -> SolveResult | None:
        """A solve of the constraints `ids` by CP-SAT in memory (UNKNOWN when time ran out): within `domains` in
        the model of every constraint, else in a model of their own; None where CP-SAT does not read the model
        here, or the deadline is near."""
        subsets = self._subsets()
        if subsets is None or self.remaining() <= 0.05:
            return None
        seconds = self.remaining() if most_seconds is None else min(most_seconds, self.remaining())
        try:
            found = (
                subsets.solution(ids, seconds) if domains is None else subsets.solution_within(ids, domains, seconds)
            )
        except (BackendUnsupported, ModelRejected):
            self._files_only = True
            return None
        if found is None:
            return SolveResult(Status.UNKNOWN, ())
        return SolveResult(Status.SAT, (found,)) if found else SolveResult(Status.UNSAT, ())

    def _holds(self, ids: tuple[int, ...], solution: Mapping[str, int]) -> bool:
        """Whether `solution` satisfies the constraints `ids` of the pool, as the kit's checker reads them (False
        for a constraint it cannot evaluate)."""
        elements = [self._in_memory.elements[k] for k in ids]
        try:
            if self._checker is None:
                self._checker = Checker(self._in_memory.variables, elements, None, holes_of(self.cells))
            else:
                self._checker = self._checker.extended(self._in_memory.variables, elements, None, holes_of(self.cells))
        except Untranslatable:
            return False
        return self._checker.broken(solution) is None

    def conflict_within(
        self, ids: Sequence[int], domains: Mapping[str, Collection[int]], below: int | None = None
    ) -> list[int] | None:
        """A minimal list of the constraints `ids` (earlier ones kept first) with no solution where each variable
        of `domains` takes one of its values, from CP-SAT's unsat cores in memory (as it stands once `below` are
        known to be needed); None where CP-SAT does not read the model here, when time ran out, or when they
        have a solution."""
        subsets = self._subsets()
        if subsets is None or self.remaining() <= 0.05:
            return None
        try:
            return subsets.conflict_within(ids, domains, self.remaining(), below)
        except (BackendUnsupported, ModelRejected):
            self._files_only = True
            return None

    def unsat(self, ids: tuple[int, ...]) -> bool:
        """True when the constraints `ids` have no solution; False when they have one or time ran out.

        Asked of CP-SAT in memory (kernelext.solver.cpsat.subsets: no file written); of the session's solver on
        a file of the subset when CP-SAT does not read the model, or the session asked for another solver."""
        found = None
        subsets = self._subsets()
        if subsets is not None and self.remaining() > 0.05:
            try:
                found = subsets.unsat(ids, self.remaining())
            except (BackendUnsupported, ModelRejected):  # the session's solver takes it, or names the error
                self._files_only, subsets = True, None
        if subsets is None:
            result = self.solve(ids)
            found = None if result is None or result.status is Status.UNKNOWN else result.status is Status.UNSAT
        if found is None:
            self.expired = True
        return bool(found)

    def minimal_conflict(self, background: tuple[int, ...], items: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """A minimal list of `items` (tuples of constraint ids) that has no solution with `background`; `items` and
        `background` together must have none.

        From CP-SAT's unsat cores in memory where it reads the model (the conflict found is then checked as every
        other subset is); else, or when that finds none in time, by QuickXplain over `unsat`."""
        subsets = self._subsets()
        if subsets is not None and self.remaining() > 0.05:
            try:
                found = subsets.minimal_conflict(background, items, self.remaining())
            except (BackendUnsupported, ModelRejected):
                found = None
            if found is not None and self.unsat(background + tuple(i for item in found for i in item)):
                return found
        return quickxplain(self.unsat, background, items)

    def _subsets(self) -> ConstraintSubsets | None:
        """The pool's constraints, parsed for CP-SAT in memory (None: the session asked for another solver)."""
        if self._files_only:
            return None
        try:
            if self._in_memory is None:
                self._in_memory = ConstraintSubsets(self.model.variables, holes_of(self.cells))
            self._in_memory.add(self.pool[len(self._in_memory.elements) :])
        except Untranslatable:
            self._files_only = True
            return None
        return self._in_memory

    def variable(self, cell: str) -> str:
        """The id of the variable `cell` names (spaces ignored); PuzzleUsageError if there is none."""
        name = re.sub(r"\s+", "", cell)
        if not any(name == vid for cells in self.cells.values() for _, vid in cells):
            example = next((vid for cells in self.cells.values() for _, vid in cells), "x[0][0]")
            raise PuzzleUsageError(f"why {cell}: no variable has that name; give one like {example}.")
        return name

    def culprit(self, index: int) -> Culprit:
        constraint = self.model.constraints[index]
        cells = tuple(self.positions[v] for v in constraint.scope if v in self.positions)
        return Culprit(constraint.text, self.owners[index], constraint.scope, cells)

    def grid(
        self, values: Mapping | None, culprits: Sequence[Culprit] = (), *, previous: Grid | None = None
    ) -> Grid | None:
        """The drawn array with `values`; the cells of `culprits` as changed, else those
        that differ from `previous`."""
        if self.info is None:
            return None
        grid = build_grid(self.info, values, previous)
        if previous is not None:
            return grid
        return replace(grid, changed=frozenset(cell for c in culprits for cell in c.cells))


def rebuild(session, path: Path) -> tuple[XcspModel, tuple[int, ...], int | None]:
    """Replay the session's steps, compiling the model after each; return the final model, for each of its
    constraints the number of the step that posted it, and the number of the step that set the objective."""
    seen: Counter = Counter()
    origins: dict[str, list[int]] = defaultdict(list)
    models: list[XcspModel] = []
    objective: list[int] = []

    def compiled(number: int) -> None:
        nonlocal seen
        if model_state.has_objective() and not objective:
            objective.append(number)
        if not session.anything_to_solve():
            return
        model = session.xcsp_model()  # from the parts the session compiled, each step reading what it posted
        models.append(model if model is not None else read_model(session.compile(path)))
        counts = Counter(c.xml for c in models[-1].constraints)
        for xml, more in (counts - seen).items():
            origins[xml] += [number] * more
        seen = counts

    session.replay(after_each=compiled)
    model = models[-1] if models else None
    if model is None or not model.constraints:
        raise PuzzleUsageError(NO_CONSTRAINTS)
    taken: Counter = Counter()
    owners = []
    for constraint in model.constraints:
        steps = origins[constraint.xml]
        owners.append(steps[min(taken[constraint.xml], len(steps) - 1)])
        taken[constraint.xml] += 1
    return model, tuple(owners), objective[-1] if objective else None


def require(result: SolveResult | None, status: Status, message: str) -> SolveResult:
    if result is not None and result.status is status:
        return result
    if result is not None and result.status in (Status.SAT, Status.UNSAT, Status.OPTIMUM):
        raise PuzzleUsageError(message)
    raise PuzzleUsageError("The solver gave no answer in time: give more time (--timeout).")
