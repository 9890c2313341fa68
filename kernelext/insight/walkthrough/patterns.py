"""Named patterns over houses, as HoDoKu names them: locked candidates (pointing, claiming), fish (X-wing,
swordfish, jellyfish), wings (XY-wing, XYZ-wing, W-wing), single-digit chains (skyscraper, 2-string kite,
turbot fish, X-chain) and simple colouring (trap and wrap).

A house is an allDifferent over a row, a column or a block (`techniques.houses`). Two cells see each other
when a house holds both. A strong link on a digit is a house with exactly two places left for it, when the
house must hold the digit (it has as many cells as values). Each pattern found comes with the houses it
uses (the rules of its step), the candidates it removes, and its links (to show a chain on the grid).
Everything here reads candidates only: a pattern's removals are forced by its houses, whatever else holds.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

Position = tuple[int, int]
ORDER = (
    "locked candidates (pointing)",
    "locked candidates (claiming)",
    "X-wing",
    "swordfish",
    "jellyfish",
    "skyscraper",
    "2-string kite",
    "turbot fish",
    "W-wing",
    "XY-wing",
    "XYZ-wing",
    "simple colouring (trap)",
    "simple colouring (wrap)",
    "X-chain",
)  # HoDoKu's order, easiest first
FISH = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}
LONGEST_CHAIN = 8  # strong links in an X-chain, at most


@dataclass(frozen=True)
class Link:
    """Two cells linked on a digit: strong (one of them holds it) or weak (not both)."""

    a: Position
    b: Position
    digit: int
    strong: bool


@dataclass(frozen=True)
class Pattern:
    """One pattern: its name, the houses (rule ids) it uses, what it removes (cell -> digits) and its links."""

    name: str
    houses: frozenset[int]
    removals: Mapping[Position, frozenset[int]]
    links: tuple[Link, ...] = ()


class Board:
    """The candidates of a grid's cells, and its houses."""

    def __init__(
        self, house_of: Mapping[int, tuple[str, frozenset[Position]]], candidates: Mapping[Position, frozenset[int]]
    ):
        self.candidates = dict(candidates)
        self.kind = {h: kind for h, (kind, _) in house_of.items()}
        self.cells = {h: cells for h, (_, cells) in house_of.items()}
        around: dict[Position, set[int]] = {}
        for h, cells in self.cells.items():
            for cell in cells:
                around.setdefault(cell, set()).add(h)
        self.around = {cell: frozenset(hs) for cell, hs in around.items()}
        self.open = [p for p in sorted(self.candidates) if len(self.candidates[p]) > 1]

    def shared(self, a: Position, b: Position) -> tuple[int, ...]:
        """The houses holding both cells."""
        if a == b:
            return ()
        return tuple(sorted(self.around.get(a, frozenset()) & self.around.get(b, frozenset())))

    def sees(self, a: Position, b: Position) -> bool:
        return a != b and not self.around.get(a, frozenset()).isdisjoint(self.around.get(b, frozenset()))

    def must_hold(self, house: int, digit: int) -> bool:
        """True when the house must hold `digit` and has not placed it yet (it has as many cells as values)."""
        cells = self.cells[house]
        values = frozenset().union(*(self.candidates[p] for p in cells))
        return (
            len(values) == len(cells)
            and any(digit in self.candidates[p] for p in cells)
            and not any(self.candidates[p] == frozenset((digit,)) for p in cells)
        )

    def places(self, house: int, digit: int) -> frozenset[Position]:
        """The open cells of the house with `digit` among their candidates."""
        return frozenset(p for p in self.cells[house] if digit in self.candidates[p] and len(self.candidates[p]) > 1)

    def holding(self, digit: int) -> list[Position]:
        """The open cells with `digit` among their candidates."""
        return [p for p in self.open if digit in self.candidates[p]]

    def strong_links(self, digit: int) -> list[tuple[int, Position, Position]]:
        """(house, a, b) for each house whose only two places for `digit` are a and b."""
        return [
            (h, *sorted(self.places(h, digit)))
            for h in sorted(self.cells)
            if len(self.places(h, digit)) == 2 and self.must_hold(h, digit)
        ]

    def cover(self, pairs: list[tuple[Position, Position]], fixed: frozenset[int] = frozenset()) -> frozenset[int]:
        """The fewest houses, with `fixed`, holding each pair of cells (each pair sees each other)."""
        options = [self.shared(a, b) for a, b in pairs]
        best = None
        for choice in itertools.product(*options):
            houses = fixed | frozenset(choice)
            if best is None or len(houses) < len(best):
                best = houses
        return best if best is not None else fixed

    def seeing_all(self, digit: int, cells: list[Position]) -> list[Position]:
        """Open cells other than `cells` that hold `digit` and see each of `cells`."""
        skip = dict.fromkeys(cells)
        return [t for t in self.holding(digit) if t not in skip and all(self.sees(t, c) for c in cells)]


def find(board: Board) -> list[Pattern]:
    """Every pattern on the board, one per removing target cell (or per colour, for a wrap)."""
    digits = sorted(frozenset().union(*(board.candidates[p] for p in board.open))) if board.open else []
    links = {digit: board.strong_links(digit) for digit in digits}
    found = [*_xy_wings(board), *_xyz_wings(board), *_w_wings(board, links)]
    for digit in digits:
        found += [
            *_locked(board, digit),
            *_fish(board, digit),
            *_short_chains(board, digit, links[digit]),
            *_x_chains(board, digit, links[digit]),
            *_colourings(board, digit, links[digit]),
        ]
    return found


def rank(pattern: Pattern) -> tuple:
    """Fewer houses first, then HoDoKu's order."""
    return len(pattern.houses), ORDER.index(pattern.name), sorted(pattern.removals)


# -- intersections and fish -------------------------------------------------------------------------------------


def _locked(board: Board, digit: int) -> Iterator[Pattern]:
    """A digit of a block only in one line goes from the rest of the line (pointing); a digit of a line only
    in one block goes from the rest of the block (claiming)."""
    blocks = [h for h, kind in sorted(board.kind.items()) if kind == "block"]
    lines = [h for h, kind in sorted(board.kind.items()) if kind != "block"]
    for block in blocks:
        for line in lines:
            common = board.cells[block] & board.cells[line]
            if not common:
                continue
            for inner, outer, name in ((block, line, "pointing"), (line, block, "claiming")):
                places = board.places(inner, digit)
                if places and places <= common and board.must_hold(inner, digit):
                    removed = board.places(outer, digit) - common
                    if removed:
                        yield Pattern(
                            f"locked candidates ({name})",
                            frozenset((block, line)),
                            {p: frozenset((digit,)) for p in removed},
                        )


def _fish(board: Board, digit: int) -> Iterator[Pattern]:
    """k rows whose places for a digit lie in k columns: it goes from those columns' other cells (and the same
    with rows and columns swapped): X-wing, swordfish, jellyfish."""
    for base_kind, cover_kind, index in (("row", "column", 1), ("column", "row", 0)):
        bases = [
            h
            for h, kind in sorted(board.kind.items())
            if kind == base_kind and board.must_hold(h, digit) and 2 <= len(board.places(h, digit)) <= max(FISH)
        ]
        covers = {h: cells for h, cells in board.cells.items() if board.kind[h] == cover_kind}
        for k, name in FISH.items():
            for chosen in itertools.combinations(bases, k):
                places = frozenset().union(*(board.places(h, digit) for h in chosen))
                lines = {p[index] for p in places}
                if len(lines) != k:
                    continue
                cover = [h for h, cells in covers.items() if {p[index] for p in cells} <= lines]
                base_cells = frozenset().union(*(board.cells[h] for h in chosen))
                removed = frozenset(p for h in cover for p in board.places(h, digit)) - base_cells
                if len(cover) == k and removed:
                    yield Pattern(name, frozenset(chosen) | frozenset(cover), {p: frozenset((digit,)) for p in removed})


# -- wings ---------------------------------------------------------------------------------------------------


def _xy_wings(board: Board) -> Iterator[Pattern]:
    """A pivot {x,y} sees pincers {x,z} and {y,z}: z goes from cells seeing both pincers."""
    cand = board.candidates
    bivalue = [p for p in board.open if len(cand[p]) == 2]
    for pivot in bivalue:
        pincers = [q for q in bivalue if q != pivot and board.sees(pivot, q) and len(cand[q] & cand[pivot]) == 1]
        for a, b in itertools.combinations(pincers, 2):
            z = cand[a] - cand[pivot]
            if z != cand[b] - cand[pivot] or cand[a] & cand[b] != z:
                continue
            (digit,) = z
            for target in board.seeing_all(digit, [a, b]):
                if target == pivot:
                    continue
                houses = board.cover([(pivot, a), (pivot, b), (target, a), (target, b)])
                yield Pattern("XY-wing", houses, {target: z})


def _xyz_wings(board: Board) -> Iterator[Pattern]:
    """A pivot {x,y,z} sees pincers {x,z} and {y,z}: z goes from cells seeing all three."""
    cand = board.candidates
    bivalue = [p for p in board.open if len(cand[p]) == 2]
    for pivot in (p for p in board.open if len(cand[p]) == 3):
        pincers = [q for q in bivalue if board.sees(pivot, q) and cand[q] <= cand[pivot]]
        for a, b in itertools.combinations(pincers, 2):
            z = cand[a] & cand[b]
            if len(z) != 1 or cand[a] == cand[b]:
                continue
            (digit,) = z
            for target in board.seeing_all(digit, [pivot, a, b]):
                houses = board.cover([(pivot, a), (pivot, b), (target, pivot), (target, a), (target, b)])
                yield Pattern("XYZ-wing", houses, {target: z})


def _w_wings(board: Board, links: Mapping[int, list]) -> Iterator[Pattern]:
    """Two cells {x,y} apart, a strong link on x from a cell seeing one to a cell seeing the other: y goes
    from cells seeing both."""
    cand = board.candidates
    bivalue = [p for p in board.open if len(cand[p]) == 2]
    for a, b in itertools.combinations(bivalue, 2):
        if cand[a] != cand[b] or board.sees(a, b):
            continue
        for x in sorted(cand[a]):
            (y,) = cand[a] - {x}
            targets = board.seeing_all(y, [a, b])
            if not targets:
                continue
            for house, c, d in links[x]:
                for near_a, near_b in ((c, d), (d, c)):
                    if a in (c, d) or b in (c, d) or not board.sees(near_a, a) or not board.sees(near_b, b):
                        continue
                    chain = (Link(a, near_a, x, False), Link(near_a, near_b, x, True), Link(near_b, b, x, False))
                    for target in targets:
                        houses = board.cover([(a, near_a), (near_b, b), (target, a), (target, b)], frozenset((house,)))
                        yield Pattern("W-wing", houses, {target: frozenset((y,))}, chain)


# -- single-digit chains ---------------------------------------------------------------------------------------


def _short_chains(board: Board, digit: int, links: list) -> Iterator[Pattern]:
    """Two strong links joined by a weak one: one of the outer ends holds the digit, so it goes from cells
    seeing both ends (skyscraper, 2-string kite, turbot fish)."""
    for (h1, a1, a2), (h2, b1, b2) in itertools.permutations(links, 2):
        for start, inner1 in ((a1, a2), (a2, a1)):
            for inner2, end in ((b1, b2), (b2, b1)):
                if len({start, inner1, inner2, end}) < 4 or not board.sees(inner1, inner2):
                    continue
                name = _short_chain_name(board, h1, h2, (start, inner1, inner2, end))
                chain = (
                    Link(start, inner1, digit, True),
                    Link(inner1, inner2, digit, False),
                    Link(inner2, end, digit, True),
                )
                for target in board.seeing_all(digit, [start, end]):
                    if target in (inner1, inner2):
                        continue
                    houses = board.cover([(inner1, inner2), (target, start), (target, end)], frozenset((h1, h2)))
                    yield Pattern(name, houses, {target: frozenset((digit,))}, chain)


def _short_chain_name(board: Board, h1: int, h2: int, cells: tuple[Position, ...]) -> str:
    start, inner1, inner2, end = cells
    kinds = board.kind[h1], board.kind[h2]
    weak = {board.kind[h] for h in board.shared(inner1, inner2)}
    if kinds in (("row", "row"), ("column", "column")) and ({"row", "column"} - {kinds[0]}) & weak:
        ends = {board.kind[h] for h in board.shared(start, end)}
        return "X-wing" if ends & weak else "skyscraper"  # both ends in one line too: a fish
    if sorted(kinds) == ["column", "row"] and "block" in weak:
        return "2-string kite"
    return "turbot fish"


def _x_chains(board: Board, digit: int, links: list) -> Iterator[Pattern]:
    """Longer alternating chains (3 to LONGEST_CHAIN strong links), the shortest from each start to each end:
    one end holds the digit, so it goes from cells seeing both."""
    strong: dict[Position, list[tuple[Position, int]]] = {}
    for h, a, b in links:
        strong.setdefault(a, []).append((b, h))
        strong.setdefault(b, []).append((a, h))
    holding = board.holding(digit)
    for start in sorted(strong):
        for end, path in _alternating_paths(board, start, strong, holding).items():
            if len(path) < 5:  # 3 links: the short chains
                continue
            targets = [t for t in board.seeing_all(digit, [start, end]) if t not in dict.fromkeys(path)]
            chain = tuple(Link(path[i], path[i + 1], digit, i % 2 == 0) for i in range(len(path) - 1))
            fixed = frozenset(
                next(h for other, h in strong[path[i]] if other == path[i + 1]) for i in range(0, len(path) - 1, 2)
            )
            weak = [(path[i], path[i + 1]) for i in range(1, len(path) - 1, 2)]
            for target in targets:
                houses = board.cover(weak + [(target, start), (target, end)], fixed)
                yield Pattern("X-chain", houses, {target: frozenset((digit,))}, chain)


def _alternating_paths(
    board: Board, start: Position, strong, holding: list[Position]
) -> dict[Position, list[Position]]:
    """The shortest strong-weak-...-strong path from `start` to each cell (breadth first, cells not repeated)."""
    paths = {}
    reached = {start: None}  # cells a strong link leaves from, each reached once
    frontier = [[start]]
    for _ in range(LONGEST_CHAIN):
        grown = []
        for path in frontier:
            for after_strong, _ in strong.get(path[-1], ()):
                if after_strong in dict.fromkeys(path):
                    continue
                ended = path + [after_strong]
                if after_strong not in paths and after_strong != start:
                    paths[after_strong] = ended
                for nxt in holding:
                    if (
                        nxt not in reached
                        and nxt not in dict.fromkeys(ended)
                        and nxt in strong
                        and board.sees(after_strong, nxt)
                    ):
                        reached[nxt] = None
                        grown.append(ended + [nxt])
        frontier = grown
    return paths


# -- simple colouring ---------------------------------------------------------------------------------------------


def _colourings(board: Board, digit: int, links: list) -> Iterator[Pattern]:
    """Each cluster of strong links on the digit, two-coloured: a cell seeing both colours loses it (trap);
    a colour that sees itself is false, so its cells lose it (wrap)."""
    strong: dict[Position, list[tuple[Position, int]]] = {}
    for h, a, b in links:
        strong.setdefault(a, []).append((b, h))
        strong.setdefault(b, []).append((a, h))
    done: dict[Position, None] = {}
    for root in sorted(strong):
        if root in done:
            continue
        colour, parent = {root: 0}, {root: None}
        queue = [root]
        while queue:
            cell = queue.pop(0)
            for other, h in strong[cell]:
                if other not in colour:
                    colour[other], parent[other] = 1 - colour[cell], (cell, h)
                    queue.append(other)
        done.update(dict.fromkeys(colour))
        if len(colour) < 4 or any(colour[a] == colour[b] for a in colour for b, _ in strong[a]):
            continue
        yield from _traps(board, digit, colour, parent)
        yield from _wraps(board, digit, colour, parent)


def _tree_path(parent, cell: Position) -> list[tuple[Position, Position, int]]:
    path = []
    while parent[cell] is not None:
        up, h = parent[cell]
        path.append((up, cell, h))
        cell = up
    return path


def _between(parent, a: Position, b: Position) -> list[tuple[Position, Position, int]]:
    """The tree's links between two cells of a cluster."""
    up_a, up_b = _tree_path(parent, a), _tree_path(parent, b)
    common = dict.fromkeys(up_a).keys() & dict.fromkeys(up_b).keys()
    return [link for link in up_a + up_b if link not in common]


def _traps(board: Board, digit: int, colour, parent) -> Iterator[Pattern]:
    for target in board.holding(digit):
        if target in colour:
            continue
        seen = [c for c in sorted(colour) if board.sees(target, c)]
        pair = next(((a, b) for a in seen for b in seen if colour[a] == 0 and colour[b] == 1), None)
        if pair is None:
            continue
        a, b = pair
        path = _between(parent, a, b)
        chain = tuple(Link(x, y, digit, True) for x, y, _ in path)
        houses = board.cover([(target, a), (target, b)], frozenset(h for _, _, h in path))
        yield Pattern("simple colouring (trap)", houses, {target: frozenset((digit,))}, chain)


def _wraps(board: Board, digit: int, colour, parent) -> Iterator[Pattern]:
    for side in (0, 1):
        cells = [c for c in sorted(colour) if colour[c] == side]
        clash = next(((a, b) for a, b in itertools.combinations(cells, 2) if board.sees(a, b)), None)
        if clash is None:
            continue
        tree = {link for cell in colour for link in _tree_path(parent, cell)}
        chain = tuple(Link(x, y, digit, True) for x, y, _ in sorted(tree)) + (Link(*clash, digit, False),)
        houses = board.cover([clash], frozenset(h for _, _, h in tree))
        yield Pattern("simple colouring (wrap)", houses, {c: frozenset((digit,)) for c in cells}, chain)
