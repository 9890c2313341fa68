"""Sudoku view: thick borders around blocks (sqrt(n) x sqrt(n)), givens in bold, repeated values in red.

Data: `clues` (or `givens`, `puzzle`): the n x n starting grid, a list of lists with 0 for an empty cell.
"""

from __future__ import annotations

from collections.abc import Mapping

from kernelext.checkers import sudoku
from kernelext.grid import Grid
from kernelext.views._common import base_cells, description, first, int_matrix, mark

DATA_NAMES = ("clues", "givens", "puzzle")


def describe(grid: Grid, data: Mapping) -> dict:
    rows, cols = grid.shape
    cells = base_cells(grid)
    givens = int_matrix(first(data, DATA_NAMES), rows, cols)
    block = sudoku.block_size(rows) if rows == cols else 0
    for r in range(rows):
        for c in range(cols):
            if block:
                cells[r][c]["borders"] = "".join(side for side, thick in (
                    ("t", r % block == 0), ("r", c == cols - 1), ("b", r == rows - 1), ("l", c % block == 0)) if thick)
            if givens and givens[r][c]:
                mark(cells, [(r, c)], "given")
            elif givens and grid.values[r][c] is not None:
                mark(cells, [(r, c)], "solved")
    if rows == cols:
        mark(cells, sudoku.conflicts(grid.values) - grid.holes, "conflict")
    return description("sudoku", grid, cells)
