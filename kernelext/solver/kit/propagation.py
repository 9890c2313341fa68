"""Reasoning with a set of rules (`kernelext.solver.kit.rules`) over candidate values, in the kernel: propagation to a
fixpoint, a search for one solution, and the exact consequences of a few rules together.

Domains map a variable id to its candidates (a frozenset). Every call checks the deadline it is given and
raises `TimeUp` past it. What a rule leaves of given candidates is remembered (the same questions come back
at every node of a search).
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterator, Sequence

from kernelext.solver.browser_stop import passed
from kernelext.solver.kit.rules import Rule

Candidates = dict[str, frozenset[int]]
MEMORY = 300_000  # filter results remembered, at most
LOOK_EVERY = 64  # filterings between two looks at the deadline (and, in a browser, at Stop)


class TimeUp(Exception):
    """The deadline passed."""


class TooLong(Exception):
    """A search would take longer than it was allowed."""


class Reasoner:
    """The rules of a model, with a deadline for everything asked of them."""

    def __init__(self, rules: Sequence[Rule], deadline: float):
        self.rules = tuple(rules)
        self.deadline = deadline
        self.filtered: dict = {}
        self.same: dict[frozenset[int], frozenset[int]] = {}  # one object per set of candidates (see `one`)
        self.watching: dict[str, list[int]] = {}
        for index, rule in enumerate(self.rules):
            for variable in dict.fromkeys(rule.scope):
                self.watching.setdefault(variable, []).append(index)

    def focused(self, ids: Sequence[int], domains: Candidates) -> tuple[Reasoner, Sequence[int]]:
        """A reasoner over the rules `ids` alone, each without the parts that cannot change what they force
        together within `domains` (a rule's `focus`), and their ids there: same consequences, a smaller
        search. This reasoner and `ids` when none of them has a focus."""
        rules = [self.rules[i] for i in ids]
        if not any(hasattr(rule, "focus") for rule in rules):
            return self, ids
        focused = []
        for index, rule in enumerate(rules):
            if hasattr(rule, "focus"):
                touched = frozenset(v for other in rules[:index] + rules[index + 1 :] for v in other.scope)
                rule = rule.focus(domains, touched)
            focused.append(rule)
        return Reasoner(focused, self.deadline), range(len(rules))

    def scope(self, ids: Sequence[int]) -> tuple[str, ...]:
        """The variables of the rules `ids`, each once, in order."""
        return tuple(dict.fromkeys(v for i in ids for v in self.rules[i].scope))

    def propagate(
        self, ids: Sequence[int], domains: Candidates, fired: list[int] | None = None, changed: str | None = None
    ) -> Candidates | None:
        """`domains` narrowed by the rules `ids` until none narrows more; None when one has no solution left.
        The rules that narrowed something (and the one that failed) are appended to `fired`. With `changed`,
        `domains` are such a fixpoint but for that variable's candidates: only its rules are looked at first."""
        domains = dict(domains)
        member = frozenset(ids)  # frozensets and dicts: pycsp3 slows `in` on sets, lists and tuples down
        queued = dict.fromkeys(ids if changed is None else (i for i in self.watching.get(changed, ()) if i in member))
        queue = deque(queued)
        rules, watching, value_of, remembered = self.rules, self.watching, domains.__getitem__, self.filtered.get
        until_look = 0  # filterings before the deadline is looked at again
        while queue:
            if not until_look:
                if passed(self.deadline):
                    raise TimeUp
                until_look = LOOK_EVERY
            until_look -= 1
            index = queue.popleft()
            del queued[index]
            scope = rules[index].scope
            before = tuple(map(value_of, scope))
            key = index, before
            after = remembered(key, key)  # the key itself when not remembered: a rule may leave None
            if after is key:
                after = self.filter(index, before)
            if after is None or not all(after):
                if fired is not None:
                    fired.append(index)
                return None
            if after == before:
                continue
            if fired is not None:
                fired.append(index)
            for variable, old, new in zip(scope, before, after):
                if new != old:
                    domains[variable] = self.one(domains[variable] & new)
                    for other in watching[variable]:
                        if other in member and other not in queued and other != index:
                            queue.append(other)
                            queued[other] = None
        return domains

    def one(self, candidates: frozenset[int]) -> frozenset[int]:
        """The object kept for these candidates: equal sets found again are then the same object, which
        comparisons (of remembered filterings among them) tell at once."""
        if len(self.same) >= MEMORY:
            self.same.clear()
        return self.same.setdefault(candidates, candidates)

    def filter(self, index: int, before: tuple[frozenset[int], ...]) -> tuple[frozenset[int], ...] | None:
        """What rule `index` leaves of the candidates `before` of its scope (None: no solution of it)."""
        key = index, before
        found = self.filtered.get(key, key)  # the key itself when not remembered: a rule may leave None
        if found is key:
            if len(self.filtered) >= MEMORY:  # forgotten together: the sets kept are those filterings hold
                self.filtered.clear()
                self.same.clear()
            found = self.filtered[key] = self.rules[index].filter(before)
        return found

    def solution(
        self,
        ids: Sequence[int],
        domains: Candidates,
        wanted: dict | None = None,
        most_nodes: int | None = None,
        changed: str | None = None,
    ) -> Candidates | None:
        """Domains of one solution of the rules `ids` (every variable of theirs fixed), or None when none exists.
        Values in `wanted` (variable -> values) are tried first, so that one solution covers many of them.
        Raises TooLong when the search would visit more than `most_nodes` nodes. With `changed`, as in
        `propagate`."""
        return self._search(ids, self.scope(ids), domains, wanted, itertools.count(), most_nodes, changed)

    def _search(
        self,
        ids: Sequence[int],
        scope: tuple[str, ...],
        domains: Candidates,
        wanted: dict | None,
        nodes: Iterator[int],
        most_nodes: int | None,
        changed: str | None = None,
    ) -> Candidates | None:
        """One solution within `domains` (at a fixpoint but for the variable `changed`, when given)."""
        if most_nodes is not None and next(nodes) >= most_nodes:
            raise TooLong
        narrowed = self.propagate(ids, domains, changed=changed)
        if narrowed is None:
            return None
        variable = _first_smallest_open(scope, narrowed)
        if variable is None:
            return narrowed
        values = sorted(narrowed[variable])
        if wanted is not None:
            values.sort(key=lambda value: value not in wanted.get(variable, ()))
        for value in values:
            fixed = {**narrowed, variable: self.one(frozenset((value,)))}
            found = self._search(ids, scope, fixed, wanted, nodes, most_nodes, variable)
            if found is not None:
                return found
        return None

    def consequences(
        self,
        ids: Sequence[int],
        domains: Candidates,
        solve: Callable[[Sequence[int], Candidates, dict], Candidates | None] | None = None,
        examples: list[Candidates] | None = None,
    ) -> Candidates | None:
        """The candidates of the rules' variables that some solution of the rules `ids` uses (exact); None
        when they have no solution together. `solve` finds the solutions (as `solution` does, by default).
        `examples`: solutions of the rules found before; those still within `domains` are solutions here and
        support their values with no search. The solutions found are added to it."""
        solve = solve or self.solution
        narrowed = self.propagate(ids, domains)
        if narrowed is None:
            return None
        scope = self.scope(ids)
        if self.acyclic(ids):  # then each rule's own filtering leaves only values of solutions (Berge-acyclic)
            return {v: narrowed[v] for v in scope}
        candidates = {v: narrowed[v] for v in scope}
        unsupported = {v: dict.fromkeys(narrowed[v]) for v in scope}  # in no solution found yet: tried first
        for example in examples or ():
            if all(v in example and example[v] <= domains[v] for v in scope):
                for v in scope:
                    for used in example[v]:
                        unsupported[v].pop(used, None)
        for variable in scope:
            for value in sorted(narrowed[variable]):
                if value not in unsupported[variable]:
                    continue
                found = solve(ids, {**narrowed, variable: frozenset((value,))}, unsupported)
                if found is None:
                    narrowed[variable] = narrowed[variable] - {value}
                    continue
                if examples is not None:
                    examples.append(found)
                for v in scope:
                    for used in found.get(v, ()):
                        unsupported[v].pop(used, None)
        supported = {v: candidates[v] - frozenset(unsupported[v]) for v in scope}
        return supported if all(supported.values()) else None

    def acyclic(self, ids: Sequence[int]) -> bool:
        """True when the rules `ids` and their variables form a forest (Berge-acyclic): two rules share at
        most one variable, and no chain of shared variables leads back to where it started."""
        group = {i: i for i in ids}

        def root(i: int) -> int:
            while group[i] != i:
                i = group[i]
            return i

        for a, b in itertools.combinations(ids, 2):
            shared = len(set(self.rules[a].scope) & set(self.rules[b].scope))
            if shared > 1 or (shared and root(a) == root(b)):
                return False
            if shared:
                group[root(a)] = root(b)
        return True

    def unsat(
        self, ids: Sequence[int], domains: Candidates, most_nodes: int | None = None, changed: str | None = None
    ) -> bool:
        """True when the rules `ids` have no solution within `domains` (searched over them focused; TooLong past
        `most_nodes` nodes). With `changed`, as in `propagate`."""
        return self.example(ids, domains, most_nodes, changed) is None

    def example(
        self, ids: Sequence[int], domains: Candidates, most_nodes: int | None = None, changed: str | None = None
    ) -> Candidates | None:
        """Domains of one solution of the rules `ids` within `domains`, searched as `unsat` says; empty when only
        their focused rules were solved (a solution of those need not be one of the rules); None when there is
        none."""
        reasoner, focused_ids = self.focused(ids, domains)
        at_fixpoint = changed if reasoner is self else None  # focused rules may narrow where the rules did not
        found = reasoner.solution(focused_ids, domains, most_nodes=most_nodes, changed=at_fixpoint)
        return found if found is None or reasoner is self else {}


def _first_smallest_open(scope: tuple[str, ...], domains: Candidates) -> str | None:
    """The first variable of `scope` with the fewest candidates but one or more (None when all are fixed)."""
    chosen, fewest = None, 0
    for variable in scope:
        size = len(domains[variable])
        if size > 1 and (chosen is None or size < fewest):
            chosen, fewest = variable, size
            if size == 2:  # none has fewer
                break
    return chosen


def quickxplain(
    unsat: Callable[[tuple[int, ...]], bool], background: tuple[int, ...], items: Sequence[tuple[int, ...]]
) -> list[tuple[int, ...]]:
    """QuickXplain (Junker, 2004): a minimal list of `items` that, with `background`, is `unsat`.

    `items` (tuples of constraint indices) together with `background` must be unsat; earlier items are
    preferred. An `unsat` that answers False when unsure keeps items, so the result stays a conflict.
    """

    def flat(parts) -> tuple[int, ...]:
        return tuple(i for part in parts for i in part)

    def split(base: tuple[int, ...], grew: bool, candidates: list) -> list:
        if grew and unsat(base):
            return []
        if len(candidates) == 1:
            return candidates
        half = len(candidates) // 2
        first, second = candidates[:half], candidates[half:]
        needed_second = split(base + flat(first), True, second)
        needed_first = split(base + flat(needed_second), bool(needed_second), first)
        return needed_first + needed_second

    return split(background, False, list(items)) if items else []
