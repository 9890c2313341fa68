"""Star Battle: an n x n grid cut into n regions; k stars in every row, column and region, and no two stars
touch, not even diagonally. Variables are 0/1: 1 is a star.

View: each region in its own colour, thick borders between regions; stars as ★; in red, the stars that
touch another star, the stars of a row, column or region with more than k, and the cells of a complete
row, column or region with fewer than k.

Data: `regions` (or `areas`, `zones`): n x n ints, the region of each cell (any labels, e.g. 0..n-1);
`stars` (or `k`): the number of stars per row, column and region (1 when not given).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from kernelext.grid import Grid
from kernelext.kinds._cells import (
    base_cells,
    colour,
    description,
    first,
    int_matrix,
    is_int,
    mark,
    no_data_note,
)
from kernelext.kinds._rules import Cell, Values, lines, shape_problem, values_problem

ALIASES = ("star_battle", "two_not_touch")
REGIONS, STARS = ("regions", "areas", "zones"), ("stars", "k")
DATA_NAMES = REGIONS + STARS
STAR = "★"
SIDES = (("t", (-1, 0)), ("r", (0, 1)), ("b", (1, 0)), ("l", (0, -1)))
LEGEND = f"{STAR} = star, · = empty, * = no constraint on it yet, [v] = changed by this step"


def stars_per_group(data: Mapping) -> int:
    """k: `stars` (or `k`) when it is a positive int, else 1."""
    k = first(data, STARS)
    return k if is_int(k) and k > 0 else 1


def groups(regions: Sequence[Sequence[int]]) -> list[tuple[str, list[Cell]]]:
    """The rows, the columns and the regions, each named: `row 0`, `column 2`, `region 5`."""
    n = len(regions)
    named = [(f"{'row' if k < n else 'column'} {k % n}", cells) for k, cells in enumerate(lines(n, n))]
    labels = sorted({label for row in regions for label in row})
    return named + [
        (f"region {label}", [(r, c) for r in range(n) for c in range(n) if regions[r][c] == label]) for label in labels
    ]


def touching(stars: list[Cell]) -> list[tuple[Cell, Cell]]:
    """The pairs of stars that are neighbours, diagonals included."""
    return [(a, b) for a, b in combinations(sorted(stars), 2) if max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1]


def conflicts(values: Values, regions: Sequence[Sequence[int]], k: int = 1) -> set[Cell]:
    """The stars that touch another star, the stars of a group (row, column, region) with more than k,
    and every cell of a fully known group with fewer than k."""
    stars = [(r, c) for r, row in enumerate(values) for c, v in enumerate(row) if v == 1]
    found = {cell for pair in touching(stars) for cell in pair}
    for _, cells in groups(regions):
        on = [(r, c) for r, c in cells if values[r][c] == 1]
        if len(on) > k:
            found.update(on)
        elif len(on) < k and all(values[r][c] is not None for r, c in cells):
            found.update(cells)
    return found


def describe(grid: Grid, data: Mapping) -> dict:
    rows, cols = grid.shape
    regions = int_matrix(first(data, REGIONS), rows, cols) if rows == cols else None
    cells = base_cells(grid)
    shade = {label: k for k, label in enumerate(sorted({v for row in regions or () for v in row}), start=1)}
    for r in range(rows):
        for c in range(cols):
            if (r, c) in grid.holes:
                continue
            if grid.values[r][c] == 1:
                cells[r][c]["text"] = STAR
                mark(cells, [(r, c)], "star")
            elif grid.values[r][c] == 0:
                cells[r][c]["text"] = ""
            if regions:
                label = regions[r][c]
                cells[r][c]["fill"] = colour(shade[label])
                cells[r][c]["borders"] = "".join(
                    side
                    for side, (dr, dc) in SIDES
                    if not (0 <= r + dr < rows and 0 <= c + dc < cols) or regions[r + dr][c + dc] != label
                )
    if not regions:
        return description("starbattle", grid, cells, LEGEND, note=no_data_note("starbattle", DATA_NAMES))
    mark(cells, conflicts(grid.values, regions, stars_per_group(data)) - grid.holes, "conflict")
    return description("starbattle", grid, cells, LEGEND)


def check_answer(answer, data: dict, expected: dict) -> str:
    """An n x n 0/1 array with k stars (1s) in every row, column and region, no two of them touching."""
    regions = first(data, REGIONS)
    n = len(regions) if isinstance(regions, (list, tuple)) else 0
    if not n or int_matrix(regions, n, n) is None:
        return "the instance has no n x n regions"
    problem = shape_problem(answer, n, n) or values_problem(answer, {0, 1})
    if problem:
        return problem
    k = stars_per_group(data)
    for name, cells in groups(regions):
        count = sum(answer[r][c] for r, c in cells)
        if count != k:
            return f"{name} has {count} stars, it should have {k}"
    pairs = touching([(r, c) for r in range(n) for c in range(n) if answer[r][c] == 1])
    return f"the stars at {pairs[0][0]} and {pairs[0][1]} touch" if pairs else ""


ANSWER_CHECKS = {"starbattle": check_answer}
