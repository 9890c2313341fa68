"""Nonogram (picross) view: row and column clues; 1 is a filled (black) cell, 0 an empty one;
the cells of a line whose runs do not match its clue in red.

Data: `rows` (or `row_clues`) and `cols` (or `columns`, `col_clues`): one clue per line, the lengths
of its runs of filled cells (lists of lists of ints).
"""

from __future__ import annotations

from collections.abc import Mapping

from kernelext.checkers import nonogram
from kernelext.grid import Grid
from kernelext.views._common import base_cells, description, first, is_int, mark

DATA_NAMES = ("rows", "row_clues", "cols", "columns", "col_clues")
FILLED = "#222222"
LEGEND = "■ = filled, · = empty, * = no constraint on it yet, [v] = changed by this step"


def clues(value, count: int) -> list[list[int]] | None:
    """`value` if it is `count` lists of ints, else None."""
    if (isinstance(value, (list, tuple)) and len(value) == count
            and all(isinstance(clue, (list, tuple)) and all(map(is_int, clue)) for clue in value)):
        return [list(clue) for clue in value]
    return None


def describe(grid: Grid, data: Mapping) -> dict:
    rows, cols = grid.shape
    row_clues = clues(first(data, ("rows", "row_clues")), rows)
    col_clues = clues(first(data, ("cols", "columns", "col_clues")), cols)
    cells = base_cells(grid)
    for r in range(rows):
        for c in range(cols):
            if grid.values[r][c] == 1 and (r, c) not in grid.holes:
                cells[r][c].update(text="", fill=FILLED)
                mark(cells, [(r, c)], "filled")
            elif grid.values[r][c] == 0:
                cells[r][c]["text"] = ""
    if row_clues and col_clues:
        mark(cells, nonogram.conflicts(grid.values, row_clues, col_clues), "conflict")
    extra = {key: value for key, value in (("row_clues", row_clues), ("col_clues", col_clues)) if value}
    return description("nonogram", grid, cells, LEGEND, **extra)
