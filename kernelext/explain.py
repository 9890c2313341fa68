"""Explanations, the algorithms: why a model has no solution, why a cell has its value, which cell to fill next,
and a whole solve explained step by step (a walkthrough).

They work on the compiled XCSP3 model, cut into single constraints (`kernelext.xcsp_subsets`): subsets are
written to temporary files and solved with warm ACE; pycsp3's model itself is only rebuilt from the steps,
as the session does on undo. A walkthrough reasons in the kernel instead (`kernelext.deductions`). Each call has a time limit; a set found when time ran out is reported with
`minimal=False`.
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from kernelext import model_state
from kernelext.errors import PuzzleUsageError
from kernelext.deductions import Deducer, Found
from kernelext.explanations import Culprit, Deduction, Explanation, Hint, HintSequence, Walkthrough, WhyAnswer
from kernelext.grid import Grid, build_grid
from kernelext.pencil import declared_domains, pencil_grid
from kernelext.reasoning import Candidates, Reasoner, TimeUp, quickxplain
from kernelext.rules import rule_of
from kernelext.techniques import houses, rating, shape_name
from kernelext.solver.result import SolveResult, Status
from kernelext.xcsp_subsets import XcspModel, read_model, rename, variable_element
from kernelext.scratch import scratch_folder

DEFAULT_TIMEOUT = 30.0
MAX_LEVEL = 3  # hints look, by propagation, for forcing sets of up to this many constraints...
MAX_SETS = 1200  # ...among at most this many sets per level...
BATCH = 400  # ...propagated this many at a time, each on its own copy of the variables


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
             backend: str = "ace") -> Explanation | None:
    """As `explain`, but None when the model has a solution.

    Arguments:
        given_step: the number of a step whose constraints are facts (values fixed in the cells): they are
            part of every set tried, and never named.
        backend: the solver of the subsets (warm ACE by default; "auto" takes CP-SAT where it reads them).
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


def hint(session, *, timeout: float = DEFAULT_TIMEOUT) -> Hint | None:
    """The cell of the drawn array that can be deduced with the fewest constraints (clues count as known
    cells), or None when every cell is known or nothing more is forced."""
    with _Context(session, timeout) as context:
        deducer = _Deducer(context)
        return deducer.next(dict(deducer.givens))


def hint_sequence(session, limit: int | None = None, *, timeout: float = DEFAULT_TIMEOUT) -> HintSequence:
    """Up to `limit` hints (all by default), each one's cell added to the known cells for the next."""
    with _Context(session, timeout) as context:
        deducer = _Deducer(context)
        known = dict(deducer.givens)
        hints: list[Hint] = []
        while limit is None or len(hints) < limit:
            found = deducer.next(known)
            if found is None:
                break
            hints.append(found)
            known[found.cell] = found.value
        info = context.info
        solved = info is not None and all(v in known for _, v in info.cells)
        deduced = {h.position for h in hints}
        return HintSequence(session.name, tuple(hints), solved, context.grid(known, marked=deduced))


def walkthrough(session, *, timeout: float = DEFAULT_TIMEOUT, limit: int | None = None) -> Walkthrough:
    """The solve of the current model from its givens, as deductions one after the other (up to `limit`)."""
    with _Context(session, timeout) as context:
        if context.info is None:
            raise PuzzleUsageError("A walkthrough needs a drawn array (a 1-D or 2-D variable array).")
        with model_state.plain_operators():  # pycsp3's `in` on sets is slow, and the walk needs none of it
            return _Walk(context).run(limit)


# -- the model, its constraints' steps, and the solver ------------------------------------------------

class _Context:
    """A session's model cut into constraints that know their step, and solves of subsets of them until a
    deadline. Used as a context manager (its temporary folder is removed at the end)."""

    def __init__(self, session, timeout: float, backend: str = "ace"):
        if not session.steps:
            raise PuzzleUsageError("This puzzle has no steps yet: start it with %%puzzle NAME.")
        self.deadline = time.monotonic() + timeout
        self.session = session
        self.backend = backend
        self.expired = False
        self._folder = scratch_folder("explain")
        self.folder = Path(self._folder.name)
        self.model, self.owners = _rebuild(session, self.folder / "step.xml")
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

    def add(self, xml: str) -> int:
        """Add a constraint (an XCSP3 element) to the pool; its index."""
        self.pool.append(xml)
        return len(self.pool) - 1

    def solve(self, ids: tuple[int, ...]) -> SolveResult | None:
        """Solve the variables with the constraints `ids` of the pool; None once the deadline has passed."""
        if self.remaining() <= 0.05:
            self.expired = True
            return None
        if not ids:
            return SolveResult(Status.SAT, ({},))
        path = self.model.write(self.folder / "subset.xml", [self.pool[i] for i in ids])
        return self.session.solver.solve(path, self.cells, timeout=self.remaining(), backend=self.backend)

    def unsat(self, ids: tuple[int, ...]) -> bool:
        """True when the constraints `ids` have no solution; False when they have one or time ran out."""
        result = self.solve(ids)
        if result is None or result.status is Status.UNKNOWN:
            self.expired = True
        return result is not None and result.status is Status.UNSAT

    def propagate(self, variables: list[str], constraints: list[str]) -> dict[str, tuple[int, ...]]:
        """The domains after ACE's propagation at the root of a model of its own (`<var>`s and constraints)."""
        model = XcspModel("<variables>\n" + "\n".join(variables) + "\n</variables>", ())
        path = model.write(self.folder / "copies.xml", constraints)
        return self.session.solver.domains(path, timeout=max(self.remaining(), 1.0))

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

    def grid(self, values: Mapping | None, culprits: Sequence[Culprit] = (), *, previous: Grid | None = None,
             marked=frozenset()) -> Grid | None:
        """The drawn array with `values`; the cells of `culprits` (and `marked`) as changed, else those
        that differ from `previous`."""
        if self.info is None:
            return None
        grid = build_grid(self.info, values, previous)
        if previous is not None:
            return grid
        return replace(grid, changed=frozenset(marked) | {cell for c in culprits for cell in c.cells})


def _rebuild(session, path: Path) -> tuple[XcspModel, tuple[int, ...]]:
    """Replay the session's steps, compiling the model after each; return the final model and, for each of
    its constraints, the number of the step that posted it."""
    seen: Counter = Counter()
    origins: dict[str, list[int]] = defaultdict(list)
    models: list[XcspModel] = []

    def compiled(number: int) -> None:
        nonlocal seen
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
    return model, tuple(owners)


def _require(result: SolveResult | None, status: Status, message: str) -> SolveResult:
    if result is not None and result.status is status:
        return result
    if result is not None and result.status in (Status.SAT, Status.UNSAT, Status.OPTIMUM):
        raise PuzzleUsageError(message)
    raise PuzzleUsageError("The solver gave no answer in time: give more time (--timeout).")


# -- hints --------------------------------------------------------------------------------------------

class _Deducer:
    """Finds, cell after cell, the smallest sets of constraints that force a cell of the drawn array.

    Small sets (up to MAX_LEVEL connected constraints) are tried by propagation, many at once, each on its
    own copy of the variables with the known cells fixed; beyond that, QuickXplain on the first forced cell.
    """

    def __init__(self, context: _Context):
        if context.info is None:
            raise PuzzleUsageError("Hints need a drawn array (a 1-D or 2-D variable array).")
        self.context = context
        everything = tuple(range(len(context.model.constraints)))
        first = _require(context.solve(everything), Status.SAT, "The model has no solution: use %puzzle explain "
                         "to see why.")
        self.solution = first.solution
        self.domains = declared_domains()
        constraints = context.model.constraints
        unary = [i for i in everything if len(constraints[i].scope) == 1]
        fixed = self._fixed_by(tuple(unary)) if unary else {}
        self.givens = {vid: value for vid, value in fixed.items() if vid in context.positions}
        self.rules = [i for i in everything if not (i in unary and constraints[i].scope[0] in self.givens)]

    def next(self, known: dict[str, int]) -> Hint | None:
        unknown = [vid for _, vid in self.context.info.cells if vid not in known and self.solution.get(vid) is not None]
        if not unknown:
            return None
        for level in range(1, MAX_LEVEL + 1):
            sets = list(_connected_sets(self.rules, self.context.model.constraints, level, set(unknown)))
            for start in range(0, len(sets), BATCH):
                if self.context.remaining() <= 0:
                    self.context.expired = True
                    return self._fallback(known, unknown)
                found = self._forced(sets[start:start + BATCH], known)
                if found:
                    return found
        return self._fallback(known, unknown)

    def _forced(self, sets: list[tuple[int, ...]], known: dict[str, int]) -> Hint | None:
        """The best hint some set of `sets` forces by propagation, or None."""
        best = None
        for ids, values in zip(sets, self._propagate_copies(sets, known)):
            scope = {v for i in ids for v in self.context.model.constraints[i].scope}
            used = sorted((v for v in scope if v in known), key=self._order)
            for vid, domain in values.items():
                if vid in known or vid not in self.context.positions or domain != (self.solution.get(vid),):
                    continue
                rank = (len(used), self._order(vid))
                if best is None or rank < best[0]:
                    best = rank, vid, ids, used
        if best is None:
            return None
        _, vid, ids, used = best
        return self._hint(vid, ids, used, known, minimal=True)

    def _propagate_copies(self, sets: list[tuple[int, ...]], known: dict[str, int]) -> list[dict]:
        """For each set, the domains of its variables after propagation (on a copy, known cells fixed)."""
        variables, constraints, names = [], [], []
        for n, ids in enumerate(sets):
            scope = dict.fromkeys(v for i in ids for v in self.context.model.constraints[i].scope)
            copy = {vid: f"k{n}_" + re.sub(r"\W", "_", vid) for vid in scope}
            variables += [variable_element(name, self.domains[vid]) for vid, name in copy.items()]
            constraints += [rename(self.context.pool[i], copy) for i in ids]
            # known cells as constraints: ACE rejects an allDifferent over a variable declared with one value
            constraints += [f"<intension> eq({name},{known[vid]}) </intension>" for vid, name in copy.items()
                            if vid in known]
            names.append(copy)
        domains = self.context.propagate(variables, constraints)
        return [{vid: domains.get(name) for vid, name in copy.items()} for copy in names]

    def _fixed_by(self, ids: tuple[int, ...]) -> dict[str, int]:
        """The variables that propagating the constraints `ids` alone fixes, with their values."""
        values = self._propagate_copies([ids], {})[0]
        return {vid: domain[0] for vid, domain in values.items() if domain is not None and len(domain) == 1}

    def _fallback(self, known: dict[str, int], unknown: list[str]) -> Hint | None:
        """QuickXplain on the first unknown cell that is forced (a solve per cell until one is)."""
        context = self.context
        facts = {context.add(f"<intension> eq({vid},{value}) </intension>"): vid for vid, value in known.items()}
        for vid in unknown:
            value = self.solution[vid]
            other = context.add(f"<intension> ne({vid},{value}) </intension>")
            if not context.unsat(tuple(facts) + tuple(self.rules) + (other,)):
                if context.expired:
                    return None
                continue
            items = [(i,) for i in facts] + [(i,) for i in self.rules]
            core = {i for (i,) in quickxplain(context.unsat, (other,), items)}
            used = sorted((facts[i] for i in core if i in facts), key=self._order)
            rules = tuple(sorted(i for i in core if i not in facts))
            return self._hint(vid, rules, used, known, minimal=False)
        return None

    def _hint(self, vid: str, ids: tuple[int, ...], used: list[str], known: dict[str, int], minimal: bool) -> Hint:
        culprits = tuple(self.context.culprit(i) for i in sorted(ids))
        values = {**known, vid: self.solution[vid]}
        grid = self.context.grid(values, culprits, marked={self.context.positions[vid]})
        return Hint(self.context.session.name, vid, self.context.positions[vid], self.solution[vid], culprits,
                    tuple((v, known[v]) for v in used), minimal, grid)

    def _order(self, vid: str) -> tuple[int, int]:
        return self.context.positions.get(vid, (-1, -1))


def _connected_sets(rules: list[int], constraints, size: int, targets: set[str]) -> Iterator[tuple[int, ...]]:
    """Sets of `size` constraints among `rules` linked by shared variables, whose scopes meet `targets`
    (at most MAX_SETS, in a deterministic order)."""
    scopes = {i: set(constraints[i].scope) for i in rules}
    frontier = {(i,) for i in rules}
    for _ in range(size - 1):
        frontier = {tuple(sorted(s + (j,))) for s in frontier for j in rules
                    if j not in s and any(scopes[j] & scopes[i] for i in s)}
        if len(frontier) > 20 * MAX_SETS:
            break
    useful = sorted(s for s in frontier if len(s) == size and set().union(*(scopes[i] for i in s)) & targets)
    yield from useful[:MAX_SETS]


# -- walkthroughs -------------------------------------------------------------------------------------------

class _Walk:
    """A walkthrough under way: the model's constraints read as rules, the givens as starting candidates."""

    def __init__(self, context: _Context):
        self.context = context
        constraints = context.model.constraints
        declared = declared_domains()
        self.domains: Candidates = {v: frozenset(declared[v]) for c in constraints for v in c.scope}
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
        self.house_of = houses(rules, self.positions)
        self.reasoner = Reasoner(rules, context.deadline)
        self.deducer = Deducer(self.reasoner, lambda ids, before, after: shape_name(
            self.house_of, self.positions, ids, before, after))

    def run(self, limit: int | None) -> Walkthrough:
        start = self._marks(self.domains, None)
        deductions: list[Deduction] = []
        stopped = ""
        while not self._solved() and (limit is None or len(deductions) < limit):
            if any(not d for d in self.domains.values()):
                stopped = "the givens contradict the constraints: use %puzzle explain"
                break
            try:
                found = self.deducer.next(self.domains)
            except TimeUp:
                self.context.expired = True
                stopped = "time ran out: give more time with --timeout"
                break
            if found is None:
                stopped = "no constraints force anything more"
                break
            deductions.append(self._deduction(found))
        if stopped and self.left_out:
            stopped += f"; {len(self.left_out)} constraint(s) the walkthrough cannot read were left out"
        sizes = [d.size for d in deductions]
        rated = rating([d.technique for d in deductions], sizes, bool(self.house_of)) if self._solved() else ""
        return Walkthrough(self.context.session.name, tuple(deductions), self._solved(), rated,
                           "" if self._solved() else stopped or "stopped after the deductions asked for",
                           start, self._marks(self.domains, None))

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
        return Deduction(placed, removed, culprits, known, found.technique, found.smallest, marks)

    def _marks(self, domains: Candidates, before: Candidates | None, highlighted=frozenset()):
        info = self.context.info
        if len(info.shape) > 2:
            return None
        plain = {v: tuple(sorted(d)) for v, d in domains.items()}
        previous = None if before is None else {v: tuple(sorted(d)) for v, d in before.items()}
        return replace(pencil_grid(info, plain, previous), highlighted=frozenset(highlighted))

    def _order(self, variable: str) -> tuple:
        return (0, self.positions[variable]) if variable in self.positions else (1, variable)
