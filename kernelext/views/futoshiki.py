"""Futoshiki view: `<` `>` between cells of a row, `^` `v` between cells of a column (the point towards
the smaller value), givens in bold, broken rules in red.

Data: `less_than` (or `lt`, `less`): pairs ((r1, c1), (r2, c2)) of 0-based cells with x[r1][c1] < x[r2][c2];
`givens` (or `clues`): the starting grid, a list of lists with 0 for an empty cell; or `hints`: the given
cells, as {(r, c): v} or [(r, c, v), ...].
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from kernelext.checkers import futoshiki
from kernelext.grid import Grid
from kernelext.views._common import base_cells, cell_pairs, description, first, int_matrix, is_int, mark

DATA_NAMES = ("less_than", "lt", "less", "givens", "clues", "hints")


def hinted(value, rows: int, cols: int) -> list[list[int]] | None:
    """The grid of givens that `hints` describe ({(r, c): v}, read back as {"(r, c)": v}, or [(r, c, v)])."""
    if isinstance(value, dict):
        items = [(*map(int, re.findall(r"-?\d+", key)), v) for key, v in value.items()]
    elif isinstance(value, (list, tuple)):
        items = [tuple(item) for item in value if isinstance(item, (list, tuple))]
    else:
        return None
    grid = [[0] * cols for _ in range(rows)]
    for item in items:
        if len(item) == 3 and all(map(is_int, item)) and 0 <= item[0] < rows and 0 <= item[1] < cols:
            grid[item[0]][item[1]] = item[2]
    return grid


def sign(smaller: tuple[int, int], larger: tuple[int, int]) -> dict | None:
    """The sign between two adjacent cells (the top or left one first), or None if not adjacent."""
    (r1, c1), (r2, c2) = smaller, larger
    if r1 == r2 and abs(c1 - c2) == 1:
        left, right = sorted((smaller, larger), key=lambda cell: cell[1])
        return {"cells": [list(left), list(right)], "text": "<" if left == smaller else ">"}
    if c1 == c2 and abs(r1 - r2) == 1:
        top, bottom = sorted((smaller, larger))
        return {"cells": [list(top), list(bottom)], "text": "^" if top == smaller else "v"}
    return None


def describe(grid: Grid, data: Mapping) -> dict:
    rows, cols = grid.shape
    cells = base_cells(grid)
    pairs = [(a, b) for a, b in cell_pairs(first(data, ("less_than", "lt", "less")))
             if all(0 <= r < rows and 0 <= c < cols for r, c in (a, b))]
    givens = int_matrix(first(data, ("givens", "clues")), rows, cols) or hinted(data.get("hints"), rows, cols)
    if givens:
        mark(cells, [(r, c) for r in range(rows) for c in range(cols) if givens[r][c]], "given")
        mark(cells, [(r, c) for r in range(rows) for c in range(cols)
                     if not givens[r][c] and grid.values[r][c] is not None], "solved")
    mark(cells, futoshiki.conflicts(grid.values, pairs) - grid.holes, "conflict")
    signs = [s for s in (sign(a, b) for a, b in pairs) if s]
    return description("futoshiki", grid, cells, signs=signs)
