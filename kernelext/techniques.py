"""Names for a walkthrough's steps on row/column/block puzzles, and a puzzle's difficulty rating.

A house is an allDifferent over a whole row, a whole column or a rectangular block of the drawn grid. A
step over houses is named from its shape: one value locked in a block and a line (locked candidates), or
k rows and k columns that cover one value (X-wing, swordfish, jellyfish). The rating is the level of the
hardest step, on HoDoKu's scale (easy, medium, hard, unfair, extreme); see the README.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kernelext.rules import AllDifferent

Position = tuple[int, int]
FISH = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}
LEVELS = ("easy", "medium", "hard", "unfair", "extreme")
TECHNIQUE_LEVEL = {
    "singles": 0, "naked single": 0, "hidden single": 0,
    "locked candidates (pointing)": 1, "locked candidates (claiming)": 1,
    "naked pair": 1, "hidden pair": 1, "naked triple": 1, "hidden triple": 1,
    "naked quad": 2, "hidden quad": 2, "X-wing": 2, "swordfish": 2,
    "jellyfish": 3,
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
        elif len(r_set) > 1 and len(c_set) > 1 and len(cells) == len(r_set) * len(c_set) and \
                max(r_set) - min(r_set) == len(r_set) - 1 and max(c_set) - min(c_set) == len(c_set) - 1:
            found[index] = "block", cells
    return found


def shape_name(house_of: Mapping[int, tuple[str, frozenset[Position]]], positions: Mapping[str, Position],
               ids: Sequence[int], before: Mapping[str, frozenset[int]], after: Mapping[str, frozenset[int]]) -> str:
    """The technique a step of several houses shows, or "" (placements, several values, or another shape)."""
    if not ids or not all(i in house_of for i in ids):
        return ""
    removed = {v: before[v] - d for v, d in after.items() if before[v] - d}
    values = set().union(*removed.values()) if removed else set()
    if len(values) != 1 or any(len(d) == 1 for d in after.values()) or not all(v in positions for v in removed):
        return ""
    cells = {positions[v] for v in removed}
    kinds = sorted(house_of[i][0] for i in ids)
    if len(ids) == 2 and kinds in (["block", "row"], ["block", "column"]):
        block = next(house_of[i][1] for i in ids if house_of[i][0] == "block")
        line = next(house_of[i][1] for i in ids if house_of[i][0] != "block")
        if cells <= line - block:
            return "locked candidates (pointing)"
        if cells <= block - line:
            return "locked candidates (claiming)"
    k = len(ids) // 2
    if k in FISH and kinds == ["column"] * k + ["row"] * k:
        return FISH[k]
    return ""


def rating(steps: Sequence[tuple[str, int, bool]]) -> str:
    """The difficulty of a walkthrough from its steps (technique, size, whether all its constraints are
    houses): the level of its hardest step, and that step (the largest of that level).

    A step over houses with several constraints and no name is `extreme`; another step's level follows its
    number of constraints (1 easy, 2 medium, 3-4 hard, 5 or more extreme).
    """
    hardest = None
    for technique, size, over_houses in steps:
        if technique in TECHNIQUE_LEVEL:
            level, name = TECHNIQUE_LEVEL[technique], technique
        elif over_houses and size > 1:
            level, name = 4, f"a step of {size} houses with no name"
        else:
            level = 0 if size <= 1 else 1 if size == 2 else 2 if size <= 4 else 4
            name = f"a step of {size} constraint{'s' if size > 1 else ''}"
        if hardest is None or (level, size) > hardest[:2]:
            hardest = level, size, name
    return f"{LEVELS[hardest[0]]} ({hardest[2]})" if hardest else ""
