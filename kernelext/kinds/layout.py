"""Layout (polyomino): shapes placed on the usable cells of a board, without overlapping.

View: each piece (value v > 0) in its own colour with thick borders around it; cells not used (holes,
value 0, or 0 in the board data) blank.

Data: `grid` (or `board`): the board, a list of lists of ints with 0 where a cell is not part of it.
"""

from __future__ import annotations

from collections.abc import Mapping

from kernelext.grid import Grid
from kernelext.kinds._cells import (
    base_cells,
    colour,
    description,
    first,
    int_matrix,
    no_data_note,
)
from kernelext.kinds._rules import shape_problem

ALIASES = ("polyomino",)
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
                cells[r][c]["borders"] = "".join(
                    side
                    for side, (dr, dc) in (("t", (-1, 0)), ("r", (0, 1)), ("b", (1, 0)), ("l", (0, -1)))
                    if piece(r + dr, c + dc) != value
                )
    return description("layout", grid, cells, LEGEND, note="" if board else no_data_note("layout", DATA_NAMES))


def check_positions(answer, data: dict, expected: dict) -> str:
    """pos[p] = (row, column) of shape p's top-left corner: every shape on usable cells, no overlap."""
    board, shapes = first(data, DATA_NAMES), data["shapes"]
    problem = shape_problem(answer, len(shapes), 2)
    if problem:
        return problem
    used = {}
    for p, ((r, c), shape) in enumerate(zip(answer, shapes)):
        for a, line in enumerate(shape):
            for b, filled in enumerate(line):
                if not filled:
                    continue
                i, j = r + a, c + b
                if not (0 <= i < len(board) and 0 <= j < len(board[0])) or not board[i][j]:
                    return f"shape {p} at ({r}, {c}) covers ({i}, {j}), which is not a usable cell"
                if (i, j) in used:
                    return f"shapes {used[i, j]} and {p} overlap at ({i}, {j})"
                used[i, j] = p
    return ""


ANSWER_CHECKS = {"layout": check_positions}
