"""The model's constraints as rules a walkthrough reasons with in the kernel: each one, alone, says which
candidates of its variables it still allows. Most say exactly (the values of its variables in some solution
of it); a few global ones (AllDifferentList, Channel, and a Table too large to enumerate) keep some values
no solution uses, but never drop one that a solution uses, and refuse every assignment they forbid, so
that a walkthrough's search over them stays exact. `kernelext.solver.kit.reading` reads them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

Domains = tuple[frozenset[int], ...]
MAX_MASKS = 100_000  # sets of candidates an allDifferent remembers as integers, at most
MAX_TUPLES = 200_000  # an intension or a table of conflicts is enumerated over at most this many tuples


class ValueBits:
    """Candidates as the bits of an integer, a bit per value (numbered as the values first come), each set's
    integer remembered: a rule sees the same few sets of candidates again and again. Both ways take time in
    proportion to the values, however many (adding the bits one by one would take their square)."""

    def __init__(self):
        self.numbers: dict[int, int] = {}  # value -> the number of its bit
        self.values: list[int] = []  # the number of a bit -> its value
        self.masks: dict[frozenset[int], int] = {}
        self.domains: dict[int, frozenset[int]] = {}  # the other way round

    def mask(self, domain: frozenset[int]) -> int:
        found = self.masks.get(domain)
        if found is None:
            if len(self.masks) >= MAX_MASKS:
                self.masks.clear()
            numbers = [self._number(value) for value in domain]
            flags = bytearray(max(numbers, default=0) // 8 + 1)
            for number in numbers:
                flags[number >> 3] |= 1 << (number & 7)
            found = self.masks[domain] = int.from_bytes(flags, "little")
        return found

    def _number(self, value: int) -> int:
        found = self.numbers.get(value)
        if found is None:
            found = self.numbers[value] = len(self.values)
            self.values.append(value)
        return found

    def domain(self, mask: int) -> frozenset[int]:
        found = self.domains.get(mask)
        if found is None:
            if len(self.domains) >= MAX_MASKS:
                self.domains.clear()
            digits = bin(mask)[:1:-1]  # the lowest bit first
            found = self.domains[mask] = frozenset(self.values[i] for i, digit in enumerate(digits) if digit == "1")
        return found


@dataclass(frozen=True)
class AllDifferent:
    """Pairwise different values, filtered by matching (Régin): a value stays when some matching uses it."""

    scope: tuple[str, ...]
    bits: ValueBits = field(default_factory=ValueBits, init=False, repr=False, compare=False)
    kind = "allDifferent"

    def filter(self, domains: Domains) -> Domains | None:
        masks = list(map(self.bits.mask, domains))
        fixed = 0  # the values that are some position's only candidate: every matching gives them to it
        for mask in masks:
            if not mask & (mask - 1):
                if not mask or mask & fixed:
                    return None
                fixed |= mask
        unfixed = [position for position, mask in enumerate(masks) if mask & (mask - 1)]
        kept = _matched([masks[position] & ~fixed for position in unfixed]) if unfixed else []
        if kept is None:
            return None
        result = list(domains)
        for position, keep in zip(unfixed, kept):
            if keep != masks[position]:
                result[position] = self.bits.domain(keep)
        return tuple(result)


def _matched(masks: list[int]) -> list[int] | None:
    """The values (bits) of the candidates `masks` that some matching of all positions uses (Régin); None when
    there is no such matching. A matched value stays; another value stays when its holder can give it up: the
    holder reaches a position with a free value, or the position it leaves (the two are on a cycle)."""
    n = len(masks)
    owner: dict[int, int] = {}  # value bit -> the position matched to it
    mate = [0] * n  # position -> its value bit
    taken = 0
    for position, mask in enumerate(masks):
        free = mask & ~taken
        if free:
            low = free & -free
        else:
            low = _augmented(position, masks, owner, mate, [0])
            if not low:
                return None
        owner[low], mate[position] = position, low
        taken = taken | low if free else sum(mate)
    free_values = 0
    for mask in masks:
        free_values |= mask
    free_values &= ~taken
    reach = []  # position -> the positions it reaches, itself included (p reaches q: p can take q's value)
    for position, mask in enumerate(masks):
        reached, others = 1 << position, mask & taken & ~mate[position]
        while others:
            low = others & -others
            others ^= low
            reached |= 1 << owner[low]
        reach.append(reached)
    for k in range(n):
        through, reached_k = 1 << k, reach[k]
        for i in range(n):
            if reach[i] & through:
                reach[i] |= reached_k
    with_free = 0
    for position, mask in enumerate(masks):
        if mask & free_values:
            with_free |= 1 << position
    kept = []
    for position, mask in enumerate(masks):
        keep = mate[position] | (mask & free_values)
        others, here = mask & ~keep, 1 << position
        while others:
            low = others & -others
            others ^= low
            if reach[owner[low]] & (with_free | here):
                keep |= low
        kept.append(keep)
    return kept


def _augmented(position: int, masks: list[int], owner: dict[int, int], mate: list[int], seen: list[int]) -> int:
    """A value bit for `position`, the positions on an augmenting path moved along (0 when there is none);
    `seen[0]`: the value bits the path has tried."""
    while True:
        untried = masks[position] & ~seen[0]
        if not untried:
            return 0
        low = untried & -untried
        seen[0] |= low
        holder = owner.get(low)
        if holder is None:
            return low
        moved = _augmented(holder, masks, owner, mate, seen)
        if moved:
            owner[moved], mate[holder] = holder, moved
            return low


@dataclass(frozen=True)
class Sum:
    """`sum(coeffs[i] * x[i]) OP limit`, filtered exactly from the sums each prefix and suffix can reach (a set
    of sums is held as `(offset, bits)`: `offset + k` for each bit k of the integer `bits`)."""

    scope: tuple[str, ...]
    coeffs: tuple[int, ...]
    test: Callable[[int], bool]
    equal: int | None = None  # the limit, when OP is `eq` (a faster filter)
    kind = "sum"

    def filter(self, domains: Domains) -> Domains | None:
        prefix = _reachable(self.coeffs, domains)
        suffix = _reachable(self.coeffs[::-1], domains[::-1])[::-1]
        if not any(self.test(s) for s in _members(*prefix[-1])):
            return None
        kept = []
        for i, (c, domain) in enumerate(zip(self.coeffs, domains)):
            (low, bits), (other_low, other_bits) = prefix[i], suffix[i + 1]
            low, bits = low + other_low, _sumset(bits, other_bits)  # the sums of all the other terms
            if self.equal is not None:
                kept.append(
                    frozenset(v for v in domain if self.equal - c * v >= low and bits >> (self.equal - c * v - low) & 1)
                )
                continue
            others = _members(low, bits)
            kept.append(frozenset(v for v in domain if any(self.test(r + c * v) for r in others)))
        return tuple(kept)


def _reachable(coeffs: tuple[int, ...], domains: Domains) -> list[tuple[int, int]]:
    """The sums each prefix of the terms can reach, the empty prefix first."""
    reached = [(0, 1)]
    for c, domain in zip(coeffs, domains):
        low, bits = reached[-1]
        steps = [c * v for v in domain] or [0]
        least = min(steps)
        grown = 0
        for step in steps:
            grown |= bits << (step - least)
        reached.append((low + least, grown if domain else 0))
    return reached


def _sumset(bits: int, other: int) -> int:
    """Every sum of one of `bits` and one of `other` (offsets added apart)."""
    total = 0
    while bits:
        lowest = bits & -bits
        total |= other << (lowest.bit_length() - 1)
        bits ^= lowest
    return total


def _members(low: int, bits: int) -> list[int]:
    """The sums `(low, bits)` holds, smallest first."""
    found = []
    while bits:
        lowest = bits & -bits
        found.append(low + lowest.bit_length() - 1)
        bits ^= lowest
    return found


@dataclass(frozen=True)
class Count:
    """How many of the scope's variables take one of `values`, tested: a sum of 0/1 marks, filtered as one."""

    scope: tuple[str, ...]
    values: frozenset[int]
    test: Callable[[int], bool]
    kind = "count"

    def filter(self, domains: Domains) -> Domains | None:
        marks = tuple(frozenset(int(v in self.values) for v in d) for d in domains)
        kept = Sum(self.scope, (1,) * len(domains), self.test).filter(marks)
        if kept is None:
            return None
        return tuple(frozenset(v for v in d if int(v in self.values) in k) for d, k in zip(domains, kept))


@dataclass(frozen=True)
class Table:
    """Allowed tuples given by a predicate over the scope's values, filtered by enumeration."""

    scope: tuple[str, ...]
    allows: Callable[[tuple[int, ...]], bool]
    kind: str = "table"

    def filter(self, domains: Domains) -> Domains | None:
        size = 1
        for d in domains:
            size *= len(d)
        if size > MAX_TUPLES:
            return domains
        kept: list[set[int]] = [set() for _ in domains]
        for values in itertools.product(*(sorted(d) for d in domains)):
            if self._allows(values):
                for slot, value in zip(kept, values):
                    slot.add(value)
        return None if not kept[0] else tuple(map(frozenset, kept))

    def _allows(self, values: tuple[int, ...]) -> bool:
        """Whether the tuple is allowed; one that divides by zero is not (as in XCSP3)."""
        try:
            return self.allows(values)
        except ZeroDivisionError:
            return False


@dataclass(frozen=True)
class Supports:
    """A table of allowed tuples (`None` in a tuple for `*`: any value), filtered exactly row by row: a value
    stays when a tuple that fits the candidates uses it."""

    scope: tuple[str, ...]
    rows: tuple[tuple[int | None, ...], ...]
    kind = "extension"

    def filter(self, domains: Domains) -> Domains | None:
        kept: list[set[int]] = [set() for _ in domains]
        for row in self.rows:
            if all(value is None or value in domain for value, domain in zip(row, domains)):
                for slot, value, domain in zip(kept, row, domains):
                    if value is None:
                        slot.update(domain)
                    else:
                        slot.add(value)
        return None if not kept[0] else tuple(map(frozenset, kept))


@dataclass(frozen=True)
class Regular:
    """A word of the scope's values accepted by a finite automaton, filtered by the states each prefix reaches."""

    scope: tuple[str, ...]
    start: str
    finals: frozenset[str]
    moves: tuple[tuple[str, int, str], ...]
    kind = "regular"

    def filter(self, domains: Domains) -> Domains | None:
        forward = [frozenset((self.start,))]
        for d in domains:
            forward.append(frozenset(b for a, v, b in self.moves if a in forward[-1] and v in d))
        alive = forward[-1] & self.finals
        if not alive:
            return None
        kept: list[set[int]] = [set() for _ in domains]
        for i in range(len(domains) - 1, -1, -1):
            before = set()
            for a, v, b in self.moves:
                if b in alive and a in forward[i] and v in domains[i]:
                    kept[i].add(v)
                    before.add(a)
            alive = frozenset(before)
        return tuple(map(frozenset, kept))


@dataclass(frozen=True)
class AllDifferentOf:
    """The values of expressions, each of its own variable (`q[r] - r`), all differ: an allDifferent on the
    values they can take, filtered by matching, then read back through each expression."""

    scope: tuple[str, ...]
    functions: tuple[Callable[[int], int], ...]
    images: AllDifferent = field(init=False, repr=False, compare=False)  # the allDifferent on their values
    kind = "allDifferent"

    def __post_init__(self):
        object.__setattr__(self, "images", AllDifferent(self.scope))

    def filter(self, domains: Domains) -> Domains | None:
        images = tuple(frozenset(_defined(f, d).values()) for f, d in zip(self.functions, domains))
        kept = self.images.filter(images)
        if kept is None:
            return None
        return tuple(
            frozenset(v for v, image in _defined(f, d).items() if image in k)
            for f, d, k in zip(self.functions, domains, kept)
        )


def _defined(function: Callable[[int], int], domain: frozenset[int]) -> dict[int, int]:
    """{value: its image} for the values where `function` is defined (a division by zero is not)."""
    images = {}
    for value in domain:
        try:
            images[value] = function(value)
        except ZeroDivisionError:
            pass
    return images


@dataclass(frozen=True)
class AllDifferentList:
    """No two lists equal (the scope holds the lists one after another, `width` each): a list equal to a placed
    one everywhere but one cell loses that cell's value there; two equal placed lists fail."""

    scope: tuple[str, ...]
    width: int
    kind = "allDifferentList"

    def filter(self, domains: Domains) -> Domains | None:
        width = self.width
        lists = [domains[k : k + width] for k in range(0, len(domains), width)]
        values = [tuple(min(d) if len(d) == 1 else None for d in cells) for cells in lists]
        placed = [v for v in values if None not in v]
        if len(set(placed)) < len(placed):
            return None  # two lists placed alike
        if not placed:
            return domains
        out = list(domains)
        for k, (cells, known) in enumerate(zip(lists, values)):
            if known.count(None) != 1:
                continue
            apart = known.index(None)
            rest = known[:apart] + known[apart + 1 :]
            taken = frozenset(v[apart] for v in placed if v[:apart] + v[apart + 1 :] == rest)
            if taken & cells[apart]:
                out[k * width + apart] = cells[apart] - taken
        after = [
            v
            for v in (
                tuple(min(d) if len(d) == 1 else None for d in out[k : k + width]) for k in range(0, len(out), width)
            )
            if None not in v
        ]
        if len(set(after)) < len(after):
            return None  # two lists placed alike
        return tuple(out)

    def focus(self, candidates: dict[str, frozenset[int]], touched: frozenset[str]) -> AllDifferentList:
        """The lists that matter beside rules over `touched`: those with a variable there, and those with no
        more ways to be filled (any one cell placed) than lists they can still equal. A list left out can
        always be filled apart from all others, with any of its candidates, so leaving it out changes nothing
        that the rules force together."""
        lists = [self.scope[k : k + self.width] for k in range(0, len(self.scope), self.width)]
        kept = []
        for cells in lists:
            sizes = [len(candidates[v]) for v in cells]
            ways = math.prod(sizes) // max(sizes)
            rivals = sum(
                all(candidates[a] & candidates[b] for a, b in zip(cells, other))
                for other in lists
                if other is not cells
            )
            if ways <= rivals or any(v in touched for v in cells):
                kept.extend(cells)
        return AllDifferentList(tuple(kept), self.width)


@dataclass(frozen=True)
class Element:
    """`list[index] = value` (or `list[index]` OP a number), filtered exactly: an index stays where its cell can
    hold an allowed value, a cell keeps every value unless the index is placed on it."""

    scope: tuple[str, ...]  # the list, then the index, then the value (when it is a variable)
    size: int
    start: int
    test: Callable[[int], bool] | None = None  # the condition, when the value is not a variable
    kind = "element"

    def filter(self, domains: Domains) -> Domains | None:
        cells, index = list(domains[: self.size]), domains[self.size]
        value = domains[self.size + 1] if self.test is None else None

        def allowed(v: int) -> bool:
            return v in value if value is not None else self.test(v)

        index = frozenset(
            i for i in index if 0 <= i - self.start < self.size and any(allowed(v) for v in cells[i - self.start])
        )
        if not index:
            return None
        reachable = frozenset(v for i in index for v in cells[i - self.start] if allowed(v))
        if len(index) == 1:
            only = next(iter(index)) - self.start
            cells[only] = frozenset(v for v in cells[only] if allowed(v))
        kept = (*cells, index)
        return kept + ((value & reachable,) if value is not None else ())


@dataclass(frozen=True)
class Ordered:
    """The list in order (`lt`, `le`, `ge` or `gt` between each two neighbours), filtered exactly by the
    smallest value each cell's left side allows and the largest its right side allows."""

    scope: tuple[str, ...]
    operator: str
    kind = "ordered"

    def filter(self, domains: Domains) -> Domains | None:
        if self.operator in ("ge", "gt"):
            kept = Ordered(self.scope, {"ge": "le", "gt": "lt"}[self.operator]).filter(tuple(reversed(domains)))
            return None if kept is None else tuple(reversed(kept))
        strict = self.operator == "lt"
        kept = list(domains)
        for i in range(1, len(kept)):  # each cell above the smallest value left of it
            low = min(kept[i - 1])
            kept[i] = frozenset(v for v in kept[i] if v > low or (not strict and v == low))
            if not kept[i]:
                return None
        for i in range(len(kept) - 2, -1, -1):  # and below the largest value right of it
            high = max(kept[i + 1])
            kept[i] = frozenset(v for v in kept[i] if v < high or (not strict and v == high))
            if not kept[i]:
                return None
        return tuple(kept)


@dataclass(frozen=True)
class Channel:
    """`x[i] = j` exactly when `y[j] = i` (the scope holds x, then y; one list alone is its own inverse)."""

    scope: tuple[str, ...]
    size: int  # the length of x; y is the rest of the scope (x again when there is no second list)
    start: tuple[int, int] = (0, 0)
    kind = "channel"

    def filter(self, domains: Domains) -> Domains | None:
        xs = list(domains[: self.size])
        ys = list(domains[self.size :]) if len(domains) > self.size else xs  # one list: its own inverse
        (sx, sy), changed = self.start, True
        while changed:
            changed = False
            for a, b, start_a, start_b in ((xs, ys, sx, sy), (ys, xs, sy, sx)):
                for i, d in enumerate(a):
                    kept = frozenset(j for j in d if 0 <= j - start_b < len(b) and i + start_a in b[j - start_b])
                    if not kept:
                        return None
                    if kept != d:
                        a[i], changed = kept, True
        return tuple(xs + ys) if ys is not xs else tuple(xs)


@dataclass(frozen=True)
class Conjunction:
    """Several rules over some of the same variables (a slide's windows, a cardinality's counts), filtered
    together to a fixpoint: what each of them filters, no more."""

    scope: tuple[str, ...]
    parts: tuple
    kind: str = "conjunction"

    def filter(self, domains: Domains) -> Domains | None:
        current = dict(zip(self.scope, domains))
        changed = True
        while changed:
            changed = False
            for part in self.parts:
                before = tuple(current[v] for v in part.scope)
                after = part.filter(before)
                if after is None or not all(after):
                    return None
                for variable, kept in zip(part.scope, after):
                    narrowed = current[variable] & kept  # a variable twice in a scope keeps what both allow
                    if narrowed != current[variable]:
                        current[variable], changed = narrowed, True
        return tuple(current[v] for v in self.scope)


Rule = (
    AllDifferent
    | Sum
    | Count
    | Table
    | Supports
    | Regular
    | AllDifferentOf
    | AllDifferentList
    | Element
    | Ordered
    | Channel
    | Conjunction
)
