"""Numberlink (amaze) view: each path (value v > 0) in its own colour, 0 blank, endpoints circled.

Data: `points` (or `endpoints`, `pairs`): one pair of endpoints per path, [(r1, c1), (r2, c2)],
given in the drawn array's own coordinates.
"""

from __future__ import annotations

from collections.abc import Mapping

from kernelext.grid import Grid
from kernelext.views._common import base_cells, cell_pairs, colour, description, first, mark

DATA_NAMES = ("points", "endpoints", "pairs")
LEGEND = "· = 0, * = no constraint on it yet, [v] = changed by this step"


def describe(grid: Grid, data: Mapping) -> dict:
    rows, cols = grid.shape
    cells = base_cells(grid)
    for r in range(rows):
        for c in range(cols):
            value = grid.values[r][c]
            if value == 0:
                cells[r][c]["text"] = ""
            elif value is not None and value > 0 and (r, c) not in grid.holes:
                cells[r][c]["fill"] = colour(value)
    mark(cells, [end for pair in cell_pairs(first(data, DATA_NAMES)) for end in pair], "endpoint")
    return description("numberlink", grid, cells, LEGEND)
