"""The next deduction of a walkthrough: new facts and a smallest set of rules that forces them.

Steps are looked for from the smallest up: a cell one rule alone leaves with one value (a hidden or naked
single), one step each; then every other fact single rules force, merged into one step of singles; an
allDifferent's naked and hidden subsets, each its own named step; what one rule forces beyond those. Then
a named pattern of two houses (locked candidates: `named_pattern`), and every connected pair of rules (a
step found so far is proven smallest), each focused on what matters between them, and left out when it
still needs a search over more than `NARROW` open variables. Then the best named pattern over more houses
(a fish, a wing, a chain) when no refuting set found by propagation has fewer rules; else, per ruled-out
candidate, a minimal set of rules that refutes it: found by propagation, shrunk by QuickXplain and one rule
at a time with search, and when the smallest such set has more than `SEARCHED` rules, sought again by
QuickXplain with search for a few candidates (each candidate's set is kept for the later steps, where it is
only shrunk). A step is proven smallest when it has `EXHAUSTIVE + 1` rules
and no pair was left out, else only minimal; with `prove`, such a step is proven smallest by OCUS, or
replaced by a smaller one (`smallest.py`). A pattern's facts are the removals its houses force, as the
pattern says; every other fact comes from `Reasoner.consequences`, exact for its rules. A search that
grows past `KERNEL_NODES` nodes in the kernel is handed to an outside solver when there is one; a set of
rules shrunk on an answer it could not give in time is a true step, marked as not proven minimal.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from kernelext.insight.walkthrough.smallest import smallest_refutation
from kernelext.solver.kit.propagation import Candidates, Reasoner, TimeUp, TooLong, quickxplain
from kernelext.solver.kit.rules import AllDifferent

EXHAUSTIVE = 2  # every connected set of up to this many rules is tried
NARROW = 24  # sets with more open variables than this (focused) are not tried one by one
SEARCHED = 6  # past this many rules, refuting sets are also looked for with search...
SEARCHED_LITERALS = 12  # ...for this many candidates, those with the smallest sets by propagation first
KERNEL_NODES = 300  # a search in the kernel past this many nodes is handed to the outside solver, if any
MAX_SUBSET = 4  # naked and hidden subsets are named up to quads
SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


class NoSolution(Exception):
    """The rules have no solution within the candidates."""


@dataclass(frozen=True)
class Found:
    """A deduction in terms of rules: their indices, the candidates they leave (changed variables only),
    the technique when the shape is known, whether no smaller set forces anything, and a named pattern's
    links (`patterns.Link`) when it has some."""

    ids: tuple[int, ...]
    after: Candidates
    technique: str
    smallest: bool
    links: tuple = ()
    minimal: bool = True  # False when an answer the set was shrunk on was cut short (see Deducer.outside)


@dataclass
class Deducer:
    """Finds deductions one after the other over candidates that only shrink.

    Arguments:
        reasoner: the rules (givens left out: they are the starting candidates).
        name_shape: names a multi-rule step from its rule ids and facts ("" when it has no name).
        named_pattern: the best named pattern at the candidates (fewest rules first) as a step, or None: taken
            before pairs of rules when it has two, else when no refuting set found has fewer rules.
        prove: a step not proven smallest is then proven so, or replaced by a smaller one (`smallest`):
            exact, and much slower.
        outside: a solver outside the kernel, for the searches that grow long in it: `outside(ids, candidates,
            patient)` is a solution of the rules `ids` within the candidates (values of the variables it
            knows), or None when there is none. It raises TooLong when it cannot tell within a short limit
            (until the deadline when `patient`), TimeUp past the deadline.
        conflict: a solver's unsat cores, for the sets a search refutes: `conflict(ids, candidates, below)` is a
            minimal list of the rules `ids` (earlier ones kept first) with no solution within the candidates (as
            it stands once `below` are known to be needed), or None when it cannot give one (QuickXplain over
            searches then finds it). A step's set is checked by the exact consequences of its rules: a core
            that does not rule its candidate out ends its use.
    """

    reasoner: Reasoner
    name_shape: Callable[[tuple[int, ...], Candidates, Candidates], str] = lambda ids, before, after: ""
    named_pattern: Callable[[Candidates], Found | None] = lambda domains: None
    prove: bool = False
    outside: Callable[[Sequence[int], Candidates, bool], Candidates | None] | None = None
    conflict: Callable[[Sequence[int], Candidates, int | None], tuple[int, ...] | None] = lambda *asked: None
    _sets: dict = field(default_factory=dict)  # rule ids -> (candidates of their scope, what they remove)
    _cores: dict = field(default_factory=dict)  # (variable, value) -> a set of rules refuting it
    _refuting: dict = field(default_factory=dict)  # (variable, value) -> its core's candidates, when minimal there
    _searched: dict = field(default_factory=dict)  # (variable, value) -> a set of rules refuting it by search
    _examples: dict = field(default_factory=dict)  # (variable, value set, rule ids) -> a solution of those rules
    _set_examples: dict = field(default_factory=dict)  # rule ids -> solutions of those rules found
    _near: dict = field(default_factory=dict)  # variable -> every rule's distance from it
    _solution: Candidates | None = None
    _supported: dict = field(default_factory=dict)  # (variable, value) -> None: in a solution found
    _skipped: bool = False  # a wide set was left out of the sets tried, at the latest step
    _witnesses: list = field(default_factory=list)  # assignments of earlier proofs (`smallest.Witness`)
    _unsure: bool = False  # an answer of the outside solver was cut short at the latest step

    def next(self, domains: Candidates) -> Found | None:
        """The next deduction from `domains`, or None when no set of rules forces anything more.
        Raises NoSolution when the rules have no solution within `domains`."""
        found = self._next(domains)
        if found is not None and self._unsure and not found.smallest:
            return replace(found, minimal=False)
        return found

    def _next(self, domains: Candidates) -> Found | None:
        active = [i for i, rule in enumerate(self.reasoner.rules) if any(len(domains[v]) > 1 for v in rule.scope)]
        self._skipped = self._unsure = False
        cuts = self._single_cuts(active, domains)
        found = (
            self._placement(cuts, domains)
            or self._singles(cuts, domains)
            or self._subsets(active, domains)
            or self._alone(active, domains)
        )
        if found is not None:
            return found
        pattern = self._minimal(self.named_pattern(domains), domains)
        if pattern is not None and len(pattern.ids) <= EXHAUSTIVE:  # no single rule forces anything more
            return replace(pattern, smallest=True)
        found = self._connected(active, domains) or self._refuted(active, domains, pattern)
        return self._proven(found, active, domains) if self.prove and found and not found.smallest else found

    # -- one rule alone -----------------------------------------------------------------------------------

    def _single_cuts(self, active: list[int], domains: Candidates) -> list[tuple[int, Candidates]]:
        """What each rule forces alone as a single: an allDifferent its placed values and hidden singles,
        another rule all it forces (changed variables only)."""
        cuts = []
        for index in active:
            rule = self.reasoner.rules[index]
            cut = _house_singles(rule, domains) if isinstance(rule, AllDifferent) else self._filtered(index, domains)
            if cut is None or not all(cut.values()):
                raise NoSolution
            changed = {v: d for v, d in cut.items() if d != domains[v]}
            if changed:
                cuts.append((index, changed))
        return cuts

    def _placement(self, cuts: list[tuple[int, Candidates]], domains: Candidates) -> Found | None:
        """The first cell one rule alone leaves with one candidate (a hidden single in a house)."""
        for index, changed in cuts:
            rule = self.reasoner.rules[index]
            for variable, left in changed.items():
                if len(left) == 1:
                    return Found((index,), {variable: left}, _single_name(rule, variable, left, domains), True)
        return None

    def _singles(self, cuts: list[tuple[int, Candidates]], domains: Candidates) -> Found | None:
        """Every candidate one rule alone removes, at once (a cell left with one candidate is a naked single)."""
        after: dict[str, frozenset[int]] = {}
        for _, changed in cuts:
            for variable, left in changed.items():
                after[variable] = after.get(variable, domains[variable]) & left
        if not cuts:
            return None
        return Found(tuple(index for index, _ in cuts), after, "singles", True)

    def _subsets(self, active: list[int], domains: Candidates) -> Found | None:
        """The smallest naked or hidden subset of an allDifferent that removes something."""
        best = None
        for index in active:
            rule = self.reasoner.rules[index]
            if not isinstance(rule, AllDifferent):
                continue
            for size, kind, cut in _house_subsets(rule, domains):
                if best is None or (size, kind != "naked") < best[0]:
                    best = (size, kind != "naked"), index, cut, kind
                break
        if best is None:
            return None
        (size, _), index, cut, kind = best
        return Found((index,), cut, f"{kind} {SUBSET_NAMES[size]}", True)

    def _alone(self, active: list[int], domains: Candidates) -> Found | None:
        """What one rule forces alone, beyond singles and named subsets."""
        for index in active:
            cut = self._filtered(index, domains)
            changed = {v: d for v, d in (cut or {}).items() if d != domains[v]}
            if changed:
                return Found((index,), changed, "", True)
        return None

    def _minimal(self, pattern: Found | None, domains: Candidates) -> Found | None:
        """The pattern with the rules its facts do not need left out; then it is no longer the named pattern
        (its name and links go)."""
        if pattern is None:
            return None
        facts = [(v, x) for v, left in pattern.after.items() for x in domains[v] - left]
        ids = list(pattern.ids)
        for index in pattern.ids:
            trial = [i for i in ids if i != index]
            if trial and all(self._unsat(trial, {**domains, v: frozenset((x,))}) for v, x in facts):
                ids = trial
        if len(ids) == len(pattern.ids):
            return pattern
        return Found(tuple(ids), pattern.after, "", False)

    def _filtered(self, index: int, domains: Candidates) -> Candidates | None:
        rule = self.reasoner.rules[index]
        after = rule.filter(tuple(domains[v] for v in rule.scope))
        return None if after is None else dict(zip(rule.scope, after))

    # -- connected sets of rules ----------------------------------------------------------------------------

    def _connected(self, active: list[int], domains: Candidates) -> Found | None:
        """The first connected set of 2..EXHAUSTIVE rules that forces something, placements first, then steps
        with a name. Sets that need a search and have more than `NARROW` open variables, even focused, are
        left out."""
        for size in range(2, EXHAUSTIVE + 1):
            best = None
            for ids in connected_sets(self.reasoner, active, size):
                changed = self._set_consequences(ids, domains, NARROW)
                if changed is None:
                    self._skipped = True
                    continue
                if not changed:
                    continue
                places = any(len(d) == 1 for d in changed.values())
                name = self.name_shape(ids, domains, changed)
                if best is None or (places, bool(name)) > best[0]:
                    best = (places, bool(name)), Found(ids, changed, name, True)
                    if places:
                        break
            if best is not None:
                return best[1]
        return None

    def _set_consequences(
        self, ids: tuple[int, ...], domains: Candidates, most_open: int | None = None
    ) -> Candidates | None:
        """The candidates the rules `ids` remove together (changed variables only), cached per candidates;
        None when they need a search and, focused, have more than `most_open` open variables."""
        scope = self.reasoner.scope(ids)
        key = tuple(domains[v] for v in scope)
        cached = self._sets.get(ids)
        if cached is not None and cached[0] == key and (cached[1] is not None or most_open is not None):
            return cached[1]
        focused, focused_ids = self.reasoner.focused(ids, domains)
        if (
            most_open is not None
            and not focused.acyclic(focused_ids)
            and sum(len(domains[v]) > 1 for v in focused.scope(focused_ids)) > most_open
        ):
            changed = None
        else:
            solve = (
                None
                if self.outside is None
                else lambda some, within, wanted: self._solve(some, within, wanted, focused, ids)
            )
            examples = self._set_examples.setdefault(ids, []) if focused is self.reasoner else None
            after = focused.consequences(focused_ids, domains, solve, examples) or {}
            changed = {v: d for v, d in after.items() if d != domains[v]}
        self._sets[ids] = key, changed
        return changed

    # -- a minimal set refuting one candidate ------------------------------------------------------------------

    def _refuted(self, active: list[int], domains: Candidates, pattern: Found | None) -> Found | None:
        """The smallest of the minimal sets of rules that refute a candidate outside the solutions, or the named
        `pattern` when it has no more rules."""
        solution = self._solution_within(active, domains)
        if solution is None:
            raise NoSolution
        if pattern is not None:
            pattern = replace(pattern, smallest=len(pattern.ids) <= self._proven_up_to())
            if pattern.smallest:
                return pattern
        cores = {}
        best = refuted = None  # the smallest set found, and the candidate it rules out
        literals = list(self._candidates(active, domains, solution))
        for literal in literals:
            core = self._core(active, domains, *literal, None if best is None else len(best))
            if core is not None:
                cores[literal] = core
                if best is None or len(core) < len(best):
                    best, refuted = core, literal
                if len(core) <= EXHAUSTIVE + 1:
                    break
        if pattern is not None and (best is None or len(pattern.ids) <= len(best)):
            return pattern
        if best is None or len(best) > SEARCHED:  # a search may need fewer rules than propagation
            tried = 0
            for literal in sorted(literals, key=lambda lit: len(cores.get(lit) or self._searched.get(lit, active))):
                if tried >= SEARCHED_LITERALS and best is not None:
                    break
                if literal in self._supported:
                    continue
                core = self._searched_core(active, domains, *literal, None if best is None else len(best))
                if core is None:  # some solution has it
                    continue
                tried += 1
                if best is None or len(core) < len(best):
                    self._cores[literal], best, refuted = core, core, literal
                if len(best) <= SEARCHED:
                    break
        if pattern is not None and (best is None or len(pattern.ids) <= len(best)):
            return pattern
        if best is None:
            return None
        ids = tuple(sorted(best))
        changed = self._set_consequences(ids, domains)
        variable, value = refuted
        if value in changed.get(variable, domains[variable]):  # a solver's core that is not one: asked no more
            self.conflict = lambda *asked: None
            self._searched.clear()
            return self._refuted(active, domains, pattern)
        smallest = len(ids) <= self._proven_up_to()
        return Found(ids, changed, self.name_shape(ids, domains, changed), smallest)

    def _proven_up_to(self) -> int:
        """The size up to which a step found now is proven smallest: every smaller set was tried."""
        return (1 if self._skipped else EXHAUSTIVE) + 1

    def _proven(self, found: Found, active: list[int], domains: Candidates) -> Found:
        """`found` proven smallest, or a smaller step that is; `found` as it was when time runs out."""
        solution = self._solution_within(active, domains)
        literals = list(self._candidates(active, domains, solution))
        try:
            smaller = smallest_refutation(
                self.reasoner, active, domains, literals, self._proven_up_to(), len(found.ids), self._witnesses
            )
        except TimeUp:
            return found
        if smaller is None:
            return replace(found, smallest=True)
        ids = tuple(sorted(smaller[0]))
        changed = self._set_consequences(ids, domains)
        return Found(ids, changed, self.name_shape(ids, domains, changed), True)

    def _solution_within(self, active: list[int], domains: Candidates) -> Candidates | None:
        if self._solution is None or any(not self._solution[v] <= domains[v] for v in domains if v in self._solution):
            self._solution = self._solve(active, domains)
        return self._solution

    def _candidates(self, active, domains: Candidates, solution: Candidates) -> Iterator[tuple[str, int]]:
        """Candidates in none of the solutions found, those with a refuting set already known first."""
        scope = self.reasoner.scope(active)
        literals = [
            (v, value)
            for v in scope
            for value in sorted(domains[v])
            if len(domains[v]) > 1 and value not in solution.get(v, ()) and (v, value) not in self._supported
        ]
        known = [lit for lit in literals if lit in self._cores]
        yield from known + [lit for lit in literals if lit not in self._cores]

    def _core(
        self, active: list[int], domains: Candidates, variable: str, value: int, below: int | None = None
    ) -> tuple[int, ...] | None:
        """A minimal set of rules whose propagation refutes `variable` = `value` (shrunk by QuickXplain with
        propagation, then one rule at a time with search); None when propagation alone does not refute it.
        Once `below` of its rules are known to be needed, it is no longer shrunk (a set that refutes it, maybe
        not minimal, of `below` rules or more)."""
        assumed = {**domains, variable: frozenset((value,))}
        cached = self._cores.get((variable, value))
        if cached is not None and self._refuting.get((variable, value)) == self._candidates_of(cached, assumed):
            return cached
        fired: list[int] = []
        if cached is not None and self.reasoner.propagate(cached, assumed, changed=variable) is None:
            core = list(cached)  # minimal at an earlier step: now only some of its rules may do without the others
        elif self.reasoner.propagate(active, assumed, fired) is not None:
            return None
        else:
            refuted = lambda ids: self.reasoner.propagate(ids, assumed, changed=variable) is None  # noqa: E731
            fired = list(dict.fromkeys(fired))
            nearest = sorted(fired, key=self._distances(variable).__getitem__)
            core = min(
                ([i for (i,) in quickxplain(refuted, (), [(i,) for i in order])] for order in (nearest, fired)),
                key=len,
            )
        shrunk = self._cores[(variable, value)] = self._shrunk(tuple(core), assumed, variable, below)
        whole = below is None or len(core) < below  # shrunk to the end
        if whole and len(shrunk) == len(core):  # minimal, and refuting by propagation: so while its candidates stay
            self._refuting[(variable, value)] = self._candidates_of(shrunk, assumed)
        return shrunk

    def _candidates_of(self, ids: tuple[int, ...], domains: Candidates) -> tuple[frozenset[int], ...]:
        return tuple(domains[v] for v in self.reasoner.scope(ids))

    def _searched_core(
        self, active: list[int], domains: Candidates, variable: str, value: int, below: int | None = None
    ) -> tuple[int, ...] | None:
        """A small minimal set of rules with no solution where `variable` = `value`, over the rules nearest the
        variable first: from the solver's unsat cores (maybe not minimal once `below` of its rules are known to
        be needed), or by QuickXplain with search; None when some solution has that value (its values are then
        known to be in a solution). A set found at an earlier step still refutes the value (candidates only
        shrink): only a minimal set within it is looked for."""
        assumed = {**domains, variable: frozenset((value,))}
        known = self._searched.get((variable, value))
        nearest = sorted(active if known is None else known, key=self._distances(variable).__getitem__)
        core = self.conflict(nearest, assumed, below)
        if core is None and known is not None:
            core = self._shrunk(known, assumed, variable)
        elif core is None:
            found = self._solve(active, assumed)
            if found is not None:  # solutions stay solutions: a walkthrough only removes values none of them uses
                self._supported.update(dict.fromkeys((v, x) for v, values in found.items() for x in values))
                return None
            unsat = lambda ids: self._unsat(ids, assumed, variable)  # noqa: E731
            core = tuple(i for (i,) in quickxplain(unsat, (), [(i,) for i in nearest]))
        self._searched[(variable, value)] = core
        return core

    def _shrunk(
        self, core: tuple[int, ...], assumed: Candidates, variable: str, below: int | None = None
    ) -> tuple[int, ...]:
        """`core` with each rule left out that the others do without, within `assumed` (a fixpoint of the
        rules' propagation but for `variable`); as it stands once `below` rules are known to be needed."""
        kept = list(core)
        needed = 0
        known = [i for i in core if self._known_example([j for j in core if j != i], assumed, variable)]
        for index in known + [i for i in core if i not in known]:  # the rules known to be needed first: no search
            if below is not None and needed >= below:
                break
            trial = [i for i in kept if i != index]
            if trial and self._solved_without(trial, assumed, variable) is None:
                kept = trial
            else:
                needed += 1  # needed still once others are left out: fewer rules only have more solutions
        return tuple(kept)

    def _solved_without(self, ids: list[int], assumed: Candidates, variable: str) -> Candidates | None:
        """`_example` of the rules `ids` within `assumed`, or the one found at an earlier step (`_known_example`)."""
        found = self._known_example(ids, assumed, variable)
        if found is None:
            found = self._example(ids, assumed, variable)
            if found:
                self._examples[variable, assumed[variable], frozenset(ids)] = found
        return found

    def _known_example(self, ids: list[int], assumed: Candidates, variable: str) -> Candidates | None:
        """A solution found at an earlier step for the rules `ids` and the same value of `variable`, while its
        values are still candidates (they only shrink: it is still one); None when there is none."""
        known = self._examples.get((variable, assumed[variable], frozenset(ids)))
        return known if known is not None and all(values <= assumed[v] for v, values in known.items()) else None

    def _solve(
        self,
        ids: Sequence[int],
        domains: Candidates,
        wanted: dict | None = None,
        reasoner: Reasoner | None = None,
        rules: Sequence[int] | None = None,
    ) -> Candidates | None:
        """A solution of the rules `ids` of `reasoner` (this one's by default) within `domains`, the values
        in `wanted` first; None when there is none. Searched in the kernel, or when that search grows long,
        by the outside solver over the same `rules` of this reasoner (the values of the variables it knows).
        Raises TimeUp when neither can tell."""
        reasoner = reasoner or self.reasoner
        if self.outside is None:
            return reasoner.solution(ids, domains, wanted)
        try:
            return reasoner.solution(ids, domains, wanted, KERNEL_NODES)
        except TooLong:
            pass
        try:
            return self.outside(ids if rules is None else rules, domains, True)
        except TooLong:
            raise TimeUp from None

    def _unsat(self, ids: Sequence[int], domains: Candidates, changed: str | None = None) -> bool:
        """True when the rules `ids` have no solution within `domains` (see `_solve`); False when the outside
        solver cannot tell within its short limit (`_unsure` is then set: a set of rules kept on that answer
        may hold more than it needs). With `changed`, `domains` are a fixpoint of the rules' propagation but
        for that variable (as in Reasoner.propagate)."""
        return self._example(ids, domains, changed) is None

    def _example(self, ids: Sequence[int], domains: Candidates, changed: str | None = None) -> Candidates | None:
        """A solution of the rules `ids` within `domains` (the domains of its variables), None when there is
        none: as `_unsat` decides it. Empty where one may exist but is not at hand (the outside solver could
        not tell, or only focused rules were solved)."""
        if self.outside is None:
            return self.reasoner.example(ids, domains, changed=changed)
        try:
            return self.reasoner.example(ids, domains, KERNEL_NODES, changed)
        except TooLong:
            pass
        try:
            return self.outside(ids, domains, False)
        except TooLong:
            self._unsure = True
            return {}

    def _distances(self, variable: str) -> dict[int, int]:
        """Every rule's distance from `variable` (0: its rules; 1: rules sharing a variable with those, ...);
        the rules never change, so each variable's distances are worked out once."""
        if variable not in self._near:
            self._near[variable] = self._breadth_first(variable)
        return self._near[variable]

    def _breadth_first(self, variable: str) -> dict[int, int]:
        rules = self.reasoner.rules
        distance = {i: 0 for i in self.reasoner.watching.get(variable, ())}
        frontier = list(distance)
        while frontier:
            reached = []
            for i in frontier:
                for v in rules[i].scope:
                    for j in self.reasoner.watching[v]:
                        if j not in distance:
                            distance[j] = distance[i] + 1
                            reached.append(j)
            frontier = reached
        return {i: distance.get(i, len(rules)) for i in range(len(rules))}


def connected_sets(reasoner: Reasoner, active: list[int], size: int) -> Iterator[tuple[int, ...]]:
    """Sets of `size` rules among `active` linked by shared variables, each once, in a deterministic order."""
    scopes = {i: frozenset(reasoner.rules[i].scope) for i in active}
    seen: dict[tuple[int, ...], None] = {}  # dicts and frozensets: pycsp3 slows `in` on sets and tuples down
    frontier = [(i,) for i in active]
    for _ in range(size - 1):
        grown = []
        for ids in frontier:
            members = frozenset(ids)
            for j in active:
                if j not in members and any(scopes[j] & scopes[i] for i in ids):
                    key = tuple(sorted(ids + (j,)))
                    if key not in seen:
                        seen[key] = None
                        grown.append(key)
        frontier = grown
    yield from sorted(frontier)


def _single_name(rule, variable: str, left: frozenset[int], domains: Candidates) -> str:
    """`hidden single` when the value has no other place in the allDifferent, `naked single` when the
    cell's other values are placed there, "" for another kind of rule."""
    if not isinstance(rule, AllDifferent):
        return ""
    others = [v for v in rule.scope if v != variable]
    if not any(left <= domains[v] for v in others):
        return "hidden single"
    return "naked single"


def _house_singles(rule: AllDifferent, domains: Candidates) -> Candidates | None:
    """An allDifferent's singles: placed values removed from the other cells, and hidden singles placed."""
    cells = rule.scope
    after = {v: domains[v] for v in cells}
    for cell in cells:
        if len(domains[cell]) == 1:
            for other in cells:
                if other != cell:
                    after[other] = after[other] - domains[cell]
    values = set().union(*(domains[v] for v in cells))
    if len(values) == len(cells):
        for value in values:
            places = [v for v in cells if value in domains[v]]
            if len(places) == 1 and len(domains[places[0]]) > 1:
                after[places[0]] = frozenset((value,))
    return after


def _house_subsets(rule: AllDifferent, domains: Candidates) -> Iterator[tuple[int, str, Candidates]]:
    """An allDifferent's naked and hidden subsets of 2..MAX_SUBSET cells that remove candidates, smallest first."""
    cells = rule.scope
    open_cells = [v for v in cells if len(domains[v]) > 1]
    values = set().union(*(domains[v] for v in cells))
    permutation = len(values) == len(cells)
    open_values = sorted({x for v in open_cells for x in domains[v]})
    for size in range(2, MAX_SUBSET + 1):
        for group in map(frozenset, itertools.combinations(open_cells, size)):
            union = frozenset().union(*(domains[v] for v in group))
            if len(union) == size:
                cut = {v: domains[v] - union for v in cells if v not in group and domains[v] & union}
                if cut:
                    yield size, "naked", cut
        if not permutation:
            continue
        for group in itertools.combinations(open_values, size):
            places = [v for v in cells if domains[v] & set(group)]
            if len(places) == size:
                cut = {v: domains[v] & frozenset(group) for v in places if domains[v] - set(group)}
                if cut:
                    yield size, "hidden", cut
