"""Layout (polyomino) view: each piece (value v > 0) in its own colour with thick borders around it;
cells not used (holes, value 0, or 0 in the board data) blank.

Data: `grid` (or `board`): the board, a list of lists of ints with 0 where a cell is not part of it.
"""

from __future__ import annotations

from collections.abc import Mapping

from kernelext.grid import Grid
from kernelext.views._common import base_cells, colour, description, first, int_matrix

DATA_NAMES = ("grid", "board")
LEGEND = "· = unused, * = no constraint on it yet, [v] = changed by this step"


def describe(grid: Grid, data: Mapping) -> dict:
    rows, cols = grid.shape
    board = int_matrix(first(data, DATA_NAMES), rows, cols)
    cells = base_cells(grid)

    def piece(r: int, c: int) -> int | None:
        unused = not (0 <= r < rows and 0 <= c < cols) or (r, c) in grid.holes or (board and not board[r][c])
        return 0 if unused else grid.values[r][c]

    for r in range(rows):
        for c in range(cols):
            value = piece(r, c)
            if value == 0:
                cells[r][c].update(text="", classes=["hole"])
            elif value is not None:
                cells[r][c]["fill"] = colour(value)
                cells[r][c]["borders"] = "".join(side for side, (dr, dc) in
                                                 (("t", (-1, 0)), ("r", (0, 1)), ("b", (1, 0)), ("l", (0, -1)))
                                                 if piece(r + dr, c + dc) != value)
    return description("layout", grid, cells, LEGEND)
