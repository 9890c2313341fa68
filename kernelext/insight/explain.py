"""Explanations, the algorithms: why a model has no solution, why a cell has its value, and a whole solve
explained step by step (a walkthrough; a hint is its first step).

They work on the compiled XCSP3 model, cut into single constraints (`kernelext.xcsp.subsets`). For a
conflict and for `why`, subsets are written to temporary files and solved with warm ACE; a walkthrough
reasons in the kernel (`kernelext.insight.walkthrough.deduction`), and hands the searches that grow long
there to CP-SAT (or ACE, for a model CP-SAT does not read; MiniZinc in a browser). pycsp3's model itself is
only rebuilt from the steps, as the session does on undo. Each call has a time limit; a set found when time
ran out is reported as not minimal.
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from kernelext.errors import PuzzleUsageError
from kernelext.grid import Grid, build_grid
from kernelext.insight.findings import (
    Culprit,
    Deduction,
    Explanation,
    Walkthrough,
    WhyAnswer,
)
from kernelext.insight.pencil_marks import declared_domains, pencil_grid
from kernelext.insight.walkthrough.deduction import Deducer, Found, NoSolution
from kernelext.insight.walkthrough.propagation import (
    Candidates,
    Reasoner,
    TimeUp,
    TooLong,
    quickxplain,
)
from kernelext.insight.walkthrough.reading import rule_of
from kernelext.insight.walkthrough.techniques import houses, pattern_step, rating, shape_name
from kernelext.pycsp3_glue import model_state, operators
from kernelext.scratch import scratch_folder
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.minizinc_browser import in_browser
from kernelext.solver.result import SolveResult, Status
from kernelext.xcsp.subsets import XcspModel, objective_constraint, read_model

DEFAULT_TIMEOUT = 30.0
OUTSIDE_SECONDS = 1.0  # a walkthrough's search handed to a solver gets this long; past it, the answer is unsure


# -- the three questions ----------------------------------------------------------------------------

def explain(session, *, timeout: float = DEFAULT_TIMEOUT) -> Explanation:
    """A minimal set of conflicting steps, then a minimal set of conflicting constraints within them.

    Raises PuzzleUsageError when the model has a solution (or none was decided in `timeout` seconds).
    """
    found = conflict(session, timeout=timeout)
    if found is None:
        raise PuzzleUsageError("explain looks for a conflict, but the model has solutions: use %puzzle why CELL to "
                               "ask why a cell has its value.")
    return found


def conflict(session, *, timeout: float = DEFAULT_TIMEOUT, given_step: int | None = None,
             backend: str = "auto") -> Explanation | None:
    """As `explain`, but None when the model has a solution.

    Arguments:
        given_step: the number of a step whose constraints are facts (values fixed in the cells): they are
            part of every set tried, and never named.
        backend: the solver of the subsets (the kit's default, CP-SAT).
    Raises PuzzleUsageError when nothing was decided in `timeout` seconds.
    """
    with _Context(session, timeout, backend) as context:
        everything = tuple(range(len(context.model.constraints)))
        first = context.solve(everything)
        if first is not None and first.status in (Status.SAT, Status.OPTIMUM):
            return None
        _require(first, Status.UNSAT, "")
        given = tuple(i for i, step in enumerate(context.owners) if step == given_step)
        by_step = defaultdict(list)
        for index, step in enumerate(context.owners):
            if step != given_step:
                by_step[step].append(index)
        steps = quickxplain(context.unsat, given, [tuple(ids) for _, ids in sorted(by_step.items())])
        core = quickxplain(context.unsat, given, [(i,) for ids in steps for i in ids])
        culprits = tuple(context.culprit(i) for (i,) in sorted(core))
        return Explanation(session.name, tuple(sorted({c.step for c in culprits})), culprits,
                           not context.expired, context.grid(None, culprits))


def why(session, cell: str, *, timeout: float = DEFAULT_TIMEOUT) -> WhyAnswer:
    """Why `cell` (a variable id such as `x[3][4]`) has its value: a minimal set of constraints forcing it,
    or, when it is not forced, a solution where it differs."""
    with _Context(session, timeout) as context:
        variable = context.variable(cell)
        everything = tuple(range(len(context.model.constraints)))
        first = _require(context.solve(everything), Status.SAT, "The model has no solution: use %puzzle explain "
                         "to see why.")
        value = first.solution.get(variable)
        if value is None:
            return WhyAnswer(session.name, variable, None, False, grid=context.grid(first.solution))
        other = context.add(f"<intension> ne({variable},{value}) </intension>")
        second = context.solve(everything + (other,))
        if second is not None and second.status is Status.SAT:
            alternative = context.grid(second.solution, previous=context.grid(first.solution))
            return WhyAnswer(session.name, variable, value, False, grid=context.grid(first.solution),
                             alternative=alternative)
        if second is None or second.status is not Status.UNSAT:
            raise PuzzleUsageError(f"Could not decide within {timeout:g} s whether {variable} is forced: "
                                   "give more time (--timeout).")
        core = quickxplain(context.unsat, (other,), [(i,) for i in everything])
        culprits = tuple(context.culprit(i) for (i,) in sorted(core))
        return WhyAnswer(session.name, variable, value, True, culprits, not context.expired,
                         context.grid(first.solution, culprits))


def walkthrough(session, *, timeout: float = DEFAULT_TIMEOUT, limit: int | None = None,
                prove: bool = False) -> Walkthrough:
    """The solve of the current model from its givens, as deductions one after the other (up to `limit`);
    with `prove`, each step not proven smallest is proven so, or replaced by a smaller one (much slower)."""
    with _Context(session, timeout, backend="auto") as context:  # CP-SAT for the searches it hands out
        if context.info is None:
            raise PuzzleUsageError("A walkthrough needs a drawn array (a 1-D or 2-D variable array).")
        optimum = context.post_optimum()
        with operators.plain_operators():  # pycsp3's `in` on sets is slow, and the walk needs none of it
            walk = _Walk(context)
            walk.deducer.prove = prove
            return replace(walk.run(limit), optimum=optimum)


# -- the model, its constraints' steps, and the solver ------------------------------------------------

class _Context:
    """A session's model cut into constraints that know their step, and solves of subsets of them until a
    deadline. Used as a context manager (its temporary folder is removed at the end)."""

    def __init__(self, session, timeout: float, backend: str = "auto"):
        if not session.steps:
            raise PuzzleUsageError("This puzzle has no steps yet: start it with %%puzzle NAME.")
        self.deadline = time.monotonic() + timeout
        self.session = session
        self.backend = "minizinc" if in_browser() else backend  # a browser's one solver
        self.expired = False
        self._folder = scratch_folder("explain")
        self.folder = Path(self._folder.name)
        self.model, self.owners, self.objective_step = _rebuild(session, self.folder / "step.xml")
        self.pool = [c.xml for c in self.model.constraints]
        self.cells = model_state.solution_cells()
        self.info = session.shown_array()
        self.positions = self.info.positions() if self.info is not None else {}

    def __enter__(self) -> _Context:
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

    def solve(self, ids: tuple[int, ...], extra: Sequence[str] = (), most_seconds: float | None = None
              ) -> SolveResult | None:
        """Solve the variables with the constraints `ids` of the pool and the `extra` ones (XCSP3 elements),
        within `most_seconds` if given; None once the deadline has passed."""
        if self.remaining() <= 0.05:
            self.expired = True
            return None
        if not ids and not extra:
            return SolveResult(Status.SAT, ({},))
        path = self.model.write(self.folder / "subset.xml", [self.pool[i] for i in ids] + list(extra))
        timeout = self.remaining() if most_seconds is None else min(most_seconds, self.remaining())
        return self.session.solver.solve(path, self.cells, timeout=timeout, backend=self.backend)

    def unsat(self, ids: tuple[int, ...]) -> bool:
        """True when the constraints `ids` have no solution; False when they have one or time ran out."""
        result = self.solve(ids)
        if result is None or result.status is Status.UNKNOWN:
            self.expired = True
        return result is not None and result.status is Status.UNSAT

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

    def grid(self, values: Mapping | None, culprits: Sequence[Culprit] = (), *, previous: Grid | None = None
             ) -> Grid | None:
        """The drawn array with `values`; the cells of `culprits` as changed, else those
        that differ from `previous`."""
        if self.info is None:
            return None
        grid = build_grid(self.info, values, previous)
        if previous is not None:
            return grid
        return replace(grid, changed=frozenset(cell for c in culprits for cell in c.cells))


def _rebuild(session, path: Path) -> tuple[XcspModel, tuple[int, ...], int | None]:
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
        models.append(read_model(session.compile(path)))
        counts = Counter(c.xml for c in models[-1].constraints)
        for xml, more in (counts - seen).items():
            origins[xml] += [number] * more
        seen = counts

    session.replay(after_each=compiled)
    model = models[-1] if models else None
    if model is None or not model.constraints:
        raise PuzzleUsageError("This puzzle has no constraints yet: there is nothing to explain.")
    taken: Counter = Counter()
    owners = []
    for constraint in model.constraints:
        steps = origins[constraint.xml]
        owners.append(steps[min(taken[constraint.xml], len(steps) - 1)])
        taken[constraint.xml] += 1
    return model, tuple(owners), objective[-1] if objective else None


def _require(result: SolveResult | None, status: Status, message: str) -> SolveResult:
    if result is not None and result.status is status:
        return result
    if result is not None and result.status in (Status.SAT, Status.UNSAT, Status.OPTIMUM):
        raise PuzzleUsageError(message)
    raise PuzzleUsageError("The solver gave no answer in time: give more time (--timeout).")


# -- walkthroughs -------------------------------------------------------------------------------------------

class _Walk:
    """A walkthrough under way: the model's constraints read as rules, the givens as starting candidates."""

    def __init__(self, context: _Context):
        self.context = context
        constraints = context.model.constraints
        self.declared = {v: frozenset(values) for v, values in declared_domains().items()}
        self.domains: Candidates = {v: self.declared[v] for c in constraints for v in c.scope}
        self.left_out = []
        rules, self.constraint_of = [], []
        for index, constraint in enumerate(constraints):
            rule = rule_of(constraint)
            if rule is None:
                self.left_out.append(constraint.text)
            elif len(set(rule.scope)) == 1:  # a given: part of the starting candidates
                kept = rule.filter(tuple(self.domains[v] for v in rule.scope))
                variable = rule.scope[0]
                self.domains[variable] = kept[0] if kept else frozenset()
            else:
                rules.append(rule)
                self.constraint_of.append(index)
        self.positions = context.positions
        self.variable_at = {p: v for v, p in self.positions.items()}
        self.house_of = houses(rules, self.positions)
        self.reasoner = Reasoner(rules, context.deadline)
        self.deducer = Deducer(self.reasoner, lambda ids, before, after: shape_name(
            self.house_of, self.positions, ids, before, after), outside=self._solve_outside)
        if self.house_of:
            self.deducer.named_pattern = lambda domains: pattern_step(self.house_of, self.positions, domains)

    def _solve_outside(self, ids: Sequence[int], domains: Candidates, patient: bool) -> Candidates | None:
        """A solution of the rules `ids` within `domains` from a solver (the values of their variables it
        prints), or None when there is none; TooLong when it cannot tell in `OUTSIDE_SECONDS` (until the
        deadline when `patient`), TimeUp when the deadline passed."""
        scope = self.reasoner.scope(ids)
        within = [f"<extension><list> {v} </list><supports> {' '.join(map(str, sorted(domains[v])))} </supports>"
                  "</extension>" for v in scope if domains[v] != self.declared[v]]
        try:
            result = self.context.solve(tuple(self.constraint_of[i] for i in ids), within,
                                        None if patient else OUTSIDE_SECONDS)
        except BackendUnsupported:  # no solver to hand out to (a browser that cannot wait for one)
            self.deducer.outside = None
            found = self.reasoner.solution(ids, domains)
            return None if found is None else {v: found[v] for v in scope}
        if result is None or self.context.remaining() <= 0:
            raise TimeUp
        if result.status is Status.UNSAT:
            return None
        if result.status is not Status.SAT:
            raise TooLong
        values = result.solutions[0]
        return {v: frozenset((values[v],)) for v in scope if values.get(v) is not None}

    def run(self, limit: int | None) -> Walkthrough:
        start = self._marks(self.domains, None)
        deductions: list[Deduction] = []
        over_houses: list[bool] = []
        stopped = ""
        while not self._solved() and (limit is None or len(deductions) < limit):
            if any(not d for d in self.domains.values()):
                stopped = "the constraints have no solution: use %puzzle explain"
                break
            try:
                if self.context.remaining() <= 0:
                    raise TimeUp
                found = self.deducer.next(self.domains)
            except TimeUp:
                self.context.expired = True
                stopped = "time ran out: give more time with --timeout"
                break
            except NoSolution:
                stopped = "the constraints have no solution: use %puzzle explain"
                break
            if found is None:
                stopped = "the constraints allow several solutions from here"
                break
            deductions.append(self._deduction(found))
            over_houses.append(all(i in self.house_of for i in found.ids))
        if stopped and self.left_out:
            stopped += f"; {len(self.left_out)} constraint(s) the walkthrough cannot read were left out"
        steps = [(d.technique, d.size, houses_only) for d, houses_only in zip(deductions, over_houses)]
        rated = rating(steps) if self._solved() else ""
        return Walkthrough(self.context.session.name, tuple(deductions), self._solved(), rated,
                           "" if self._solved() else stopped, start, self._marks(self.domains, None))

    def _solved(self) -> bool:
        return all(len(self.domains.get(v, ())) == 1 for _, v in self.context.info.cells)

    def _deduction(self, found: Found) -> Deduction:
        before = self.domains
        after = {**before, **found.after}
        order = sorted(found.after, key=self._order)
        placed = tuple((v, next(iter(after[v]))) for v in order if len(after[v]) == 1 and len(before[v]) > 1)
        removed = tuple((v, tuple(sorted(before[v] - after[v]))) for v in order if before[v] - after[v])
        culprits = tuple(self.context.culprit(self.constraint_of[i]) for i in found.ids)
        scope = sorted({v for i in found.ids for v in self.reasoner.rules[i].scope}, key=self._order)
        known = () if len(found.ids) > 1 and found.technique == "singles" else \
            tuple((v, next(iter(before[v]))) for v in scope if len(before[v]) == 1)
        self.domains = after
        marks = self._marks(after, before, {cell for c in culprits for cell in c.cells})
        if marks is not None and found.links:
            marks = replace(marks, links=tuple((k.a, k.b, k.digit, k.strong) for k in found.links))
        links = tuple((self.variable_at[k.a], self.variable_at[k.b], k.digit, k.strong) for k in found.links)
        return Deduction(placed, removed, culprits, known, found.technique, found.smallest, marks, links,
                         found.minimal)

    def _marks(self, domains: Candidates, before: Candidates | None, highlighted=frozenset()):
        info = self.context.info
        if len(info.shape) > 2:
            return None
        plain = {v: tuple(sorted(d)) for v, d in domains.items()}
        previous = None if before is None else {v: tuple(sorted(d)) for v, d in before.items()}
        return replace(pencil_grid(info, plain, previous), highlighted=frozenset(highlighted), left="candidates left")

    def _order(self, variable: str) -> tuple:
        return (0, self.positions[variable]) if variable in self.positions else (1, variable)
