"""A whole solve explained step by step, as a puzzle book would (a hint is its first step): the walkthrough's
driver. It reasons in the kernel (`deduction`), and hands the searches that grow long there to the session's
solver (CP-SAT; MiniZinc in a browser)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kernelext.errors import PuzzleUsageError
from kernelext.insight.findings import (
    Deduction,
    Walkthrough,
)
from kernelext.insight.pencil_marks import declared_domains, pencil_grid
from kernelext.insight.subset_solves import DEFAULT_TIMEOUT, SubsetSolves
from kernelext.insight.walkthrough.deduction import Deducer, Found, NoSolution
from kernelext.insight.walkthrough.techniques import (
    houses,
    pattern_step,
    rating,
    shape_name,
)
from kernelext.pycsp3_glue import operators
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.kit.propagation import (
    Candidates,
    Reasoner,
    TimeUp,
    TooLong,
)
from kernelext.solver.kit.reading import rule_of
from kernelext.solver.result import Status

OUTSIDE_SECONDS = 1.0  # a walkthrough's search handed to a solver gets this long; past it, the answer is unsure


def walkthrough(
    session, *, timeout: float = DEFAULT_TIMEOUT, limit: int | None = None, prove: bool = False
) -> Walkthrough:
    """The solve of the current model from its givens, as deductions one after the other (up to `limit`);
    with `prove`, each step not proven smallest is proven so, or replaced by a smaller one (much slower)."""
    with SubsetSolves(session, timeout, backend="auto") as context:  # CP-SAT for the searches it hands out
        if context.info is None:
            raise PuzzleUsageError("A walkthrough needs a drawn array (a 1-D or 2-D variable array).")
        optimum = context.post_optimum()
        with operators.plain_operators():  # pycsp3's `in` on sets is slow, and the walk needs none of it
            walk = _Walk(context)
            walk.deducer.prove = prove
            return replace(walk.run(limit), optimum=optimum)


class _Walk:
    """A walkthrough under way: the model's constraints read as rules, the givens as starting candidates."""

    def __init__(self, context: SubsetSolves):
        self.context = context
        constraints = context.model.constraints
        self.declared = {v: frozenset(values) for v, values in declared_domains().items()}
        self.domains: Candidates = {v: self.declared[v] for c in constraints for v in c.scope}
        self.left_out = []
        rules, self.constraint_of = [], []
        for index, constraint in enumerate(constraints):
            rule = rule_of(constraint, context.model.declarations)
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
        self.deducer = Deducer(
            self.reasoner,
            lambda ids, before, after: shape_name(self.house_of, self.positions, ids, before, after),
            outside=self._solve_outside,
            conflict=self._conflict,
        )
        if self.house_of:
            self.deducer.named_pattern = lambda domains: pattern_step(self.house_of, self.positions, domains)

    def _solve_outside(self, ids: Sequence[int], domains: Candidates, patient: bool) -> Candidates | None:
        """A solution of the rules `ids` within `domains` from a solver (the values of their variables it
        gives, each checked against the rules), or None when there is none; TooLong when it cannot tell in
        `OUTSIDE_SECONDS` (until the deadline when `patient`), TimeUp when the deadline passed."""
        scope = self.reasoner.scope(ids)
        try:
            result = self.context.solve_within(
                tuple(self.constraint_of[i] for i in ids),
                self._narrowed(scope, domains),
                None if patient else OUTSIDE_SECONDS,
            )
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
        found = {v: frozenset((values[v],)) for v in scope if values.get(v) is not None}
        if self.reasoner.propagate(ids, {**domains, **found}) is None:  # an answer not to be trusted: none
            raise TooLong
        return found

    def _conflict(self, ids: Sequence[int], domains: Candidates, below: int | None) -> tuple[int, ...] | None:
        """A minimal list of the rules `ids` (earlier ones kept first) with no solution within `domains`, from
        the solver's unsat cores; None when it cannot give one (see SubsetSolves.conflict_within)."""
        index_of = {self.constraint_of[i]: i for i in ids}
        narrowed = self._narrowed(self.reasoner.scope(ids), domains)
        found = self.context.conflict_within(list(index_of), narrowed, below)
        return None if found is None else tuple(index_of[k] for k in found)

    def _narrowed(self, scope: Sequence[str], domains: Candidates) -> dict[str, frozenset[int]]:
        """The variables of `scope` whose candidates in `domains` are fewer than declared, with those."""
        return {v: domains[v] for v in scope if domains[v] != self.declared[v]}

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
            except KeyboardInterrupt:
                stopped = "Stop was pressed"
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
        return Walkthrough(
            self.context.session.name,
            tuple(deductions),
            self._solved(),
            rated,
            "" if self._solved() else stopped,
            start,
            self._marks(self.domains, None),
        )

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
        known = (
            ()
            if len(found.ids) > 1 and found.technique == "singles"
            else tuple((v, next(iter(before[v]))) for v in scope if len(before[v]) == 1)
        )
        self.domains = after
        marks = self._marks(after, before, {cell for c in culprits for cell in c.cells})
        if marks is not None and found.links:
            marks = replace(marks, links=tuple((k.a, k.b, k.digit, k.strong) for k in found.links))
        links = tuple((self.variable_at[k.a], self.variable_at[k.b], k.digit, k.strong) for k in found.links)
        return Deduction(placed, removed, culprits, known, found.technique, found.smallest, marks, links, found.minimal)

    def _marks(self, domains: Candidates, before: Candidates | None, highlighted=frozenset()):
        info = self.context.info
        if len(info.shape) > 2:
            return None
        plain = {v: tuple(sorted(d)) for v, d in domains.items()}
        previous = None if before is None else {v: tuple(sorted(d)) for v, d in before.items()}
        return replace(pencil_grid(info, plain, previous), highlighted=frozenset(highlighted), left="candidates left")

    def _order(self, variable: str) -> tuple:
        return (0, self.positions[variable]) if variable in self.positions else (1, variable)
