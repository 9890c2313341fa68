"""Names for a walkthrough's steps on row/column/block puzzles, and a puzzle's difficulty rating.

A house is an allDifferent over a whole row, a whole column or a rectangular block of the drawn grid. A
step over houses is named from its shape: one value locked in a block and a line (locked candidates), or
k rows and k columns that cover one value (X-wing, swordfish, jellyfish). Wings, chains and colouring are
found as patterns on the candidates (`patterns`), each a step of its own. The rating is the level of the
hardest step, on HoDoKu's scale (easy, medium, hard, unfair, extreme); see docs/reference/walkthrough.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kernelext.insight.walkthrough.deduction import Found
from kernelext.insight.walkthrough.patterns import FISH, Board, find, rank
from kernelext.solver.kit.propagation import Candidates
from kernelext.solver.kit.rules import AllDifferent

Position = tuple[int, int]
LEVELS = ("easy", "medium", "hard", "unfair", "extreme")
TECHNIQUE_LEVEL = {
    "singles": 0,
    "naked single": 0,
    "hidden single": 0,
    "locked candidates (pointing)": 1,
    "locked candidates (claiming)": 1,
    "naked pair": 1,
    "hidden pair": 1,
    "naked triple": 1,
    "hidden triple": 1,
    "naked quad": 2,
    "hidden quad": 2,
    "X-wing": 2,
    "swordfish": 2,
    "jellyfish": 2,
    "skyscraper": 2,
    "2-string kite": 2,
    "turbot fish": 2,
    "W-wing": 2,
    "XY-wing": 2,
    "XYZ-wing": 2,
    "simple colouring (trap)": 2,
    "simple colouring (wrap)": 2,
    "X-chain": 3,
}


def houses(rules: Sequence, positions: Mapping[str, Position]) -> dict[int, tuple[str, frozenset[Position]]]:
    """The rules that are houses: index -> ("row" | "column" | "block", their cells)."""
    found = {}
    rows = {r for r, _ in positions.values()}
    cols = {c for _, c in positions.values()}
    for index, rule in enumerate(rules):
        if not isinstance(rule, AllDifferent) or not all(v in positions for v in rule.scope):
            continue
        cells = frozenset(positions[v] for v in rule.scope)
        r_set, c_set = {r for r, _ in cells}, {c for _, c in cells}
        if len(r_set) == 1 and c_set == cols:
            found[index] = "row", cells
        elif len(c_set) == 1 and r_set == rows:
            found[index] = "column", cells
        elif (
            len(r_set) > 1
            and len(c_set) > 1
            and len(cells) == len(r_set) * len(c_set)
            and max(r_set) - min(r_set) == len(r_set) - 1
            and max(c_set) - min(c_set) == len(c_set) - 1
        ):
            found[index] = "block", cells
    return found


def shape_name(
    house_of: Mapping[int, tuple[str, frozenset[Position]]],
    positions: Mapping[str, Position],
    ids: Sequence[int],
    before: Mapping[str, frozenset[int]],
    after: Mapping[str, frozenset[int]],
) -> str:
    """The technique a step of several houses shows, or "" (several values, or another shape). The cells
    the step places are left aside: a placement that follows from the named removal does not change it."""
    if not ids or not all(i in house_of for i in ids):
        return ""
    removed = {v: before[v] - d for v, d in after.items() if before[v] - d and len(d) > 1}
    values = set().union(*removed.values()) if removed else set()
    if len(values) != 1 or not all(v in positions for v in removed):
        return ""
    (value,) = values
    cells = frozenset(positions[v] for v in removed)
    holding = {p for v, p in positions.items() if value in before.get(v, ())}  # where the value could go
    lines = [house_of[i] for i in ids]
    kinds = sorted(kind for kind, _ in lines)
    if len(ids) == 2 and kinds in (["block", "row"], ["block", "column"]):
        block = next(cells_ for kind, cells_ in lines if kind == "block")
        line = next(cells_ for kind, cells_ in lines if kind != "block")
        if holding & block <= line and cells <= line - block:
            return "locked candidates (pointing)"
        if holding & line <= block and cells <= block - line:
            return "locked candidates (claiming)"
    k = len(ids) // 2
    if k in FISH and kinds == ["column"] * k + ["row"] * k:
        rows = [c for kind, c in lines if kind == "row"]
        columns = [c for kind, c in lines if kind == "column"]
        for base, cover in ((rows, columns), (columns, rows)):
            covered, based = frozenset().union(*cover), frozenset().union(*base)
            if all(holding & line <= covered for line in base) and cells <= covered - based:
                return FISH[k]
    return ""


def pattern_step(
    house_of: Mapping[int, tuple[str, frozenset[Position]]], positions: Mapping[str, Position], domains: Candidates
) -> Found | None:
    """The best named pattern on the houses as a step (fewest houses, then HoDoKu's order), with the other
    removals of patterns of the same name and links that its houses force; None when there is none."""
    variable_at = {p: v for v, p in positions.items() if v in domains}
    found = sorted(find(Board(house_of, {p: domains[v] for p, v in variable_at.items()})), key=rank)
    if not found:
        return None
    best = found[0]
    removed: dict[str, frozenset[int]] = {}
    for pattern in found:
        if pattern.name == best.name and pattern.links == best.links and pattern.houses <= best.houses:
            for cell, digits in pattern.removals.items():
                variable = variable_at[cell]
                removed[variable] = removed.get(variable, frozenset()) | digits
    after = {v: domains[v] - digits for v, digits in removed.items()}
    return Found(tuple(sorted(best.houses)), after, best.name, False, best.links)


def rating(steps: Sequence[tuple[str, int, bool]]) -> str:
    """The difficulty of a walkthrough from its steps (technique, size, whether all its constraints are
    houses): the level of its hardest step, and that step (the largest of that level).

    A named step has its technique's level; another step's level follows its number of constraints
    (1 easy, 2 medium, 3-4 hard, 5 or more extreme).
    """
    hardest = None
    for technique, size, over_houses in steps:
        if technique in TECHNIQUE_LEVEL:
            level, name = TECHNIQUE_LEVEL[technique], technique
        else:
            level = 0 if size <= 1 else 1 if size == 2 else 2 if size <= 4 else 4
            kind = "house" if over_houses else "constraint"
            name = f"a step of {size} {kind}{'s' if size > 1 else ''}" + (" with no name" if over_houses else "")
        if hardest is None or (level, size) > hardest[:2]:
            hardest = level, size, name
    return f"{LEVELS[hardest[0]]} ({hardest[2]})" if hardest else ""
