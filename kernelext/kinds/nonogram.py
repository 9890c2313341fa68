"""Nonogram (picross): the runs of filled cells (value 1) of each row and column match its clue.

View: row and column clues; 1 is a filled (black) cell, 0 an empty one; the cells of a line whose runs do
not match its clue in red.

Data: `rows` (or `row_clues`) and `cols` (or `columns`, `col_clues`): one clue per line, the lengths
of its runs of filled cells (lists of lists of ints).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kernelext.grid import Grid
from kernelext.kinds._cells import (
    base_cells,
    description,
    first,
    is_int,
    mark,
    no_data_note,
)
from kernelext.kinds._rules import Cell, Values, runs, shape_problem, values_problem

ALIASES = ("picross",)
DATA_NAMES = ("rows", "row_clues", "cols", "columns", "col_clues")
ROWS, COLS = ("rows", "row_clues"), ("cols", "columns", "col_clues")
FILLED = "#222222"
LEGEND = "■ = filled, · = empty, * = no constraint on it yet, [v] = changed by this step"


def clues(value, count: int) -> list[list[int]] | None:
    """`value` if it is `count` lists of ints, else None."""
    if (
        isinstance(value, (list, tuple))
        and len(value) == count
        and all(isinstance(clue, (list, tuple)) and all(map(is_int, clue)) for clue in value)
    ):
        return [list(clue) for clue in value]
    return None


def recognise(grid: Grid | None, data: Mapping) -> bool:
    """Clue lists for rows and columns (one per line of `grid`, when given)."""
    rows, cols = grid.shape if grid is not None else (None, None)
    found_rows, found_cols = first(data, ROWS), first(data, COLS)
    return all(
        isinstance(value, (list, tuple)) and length in (None, len(value))
        for value, length in ((found_rows, rows), (found_cols, cols))
    )


def conflicts(values: Values, rows: Sequence[Sequence[int]], cols: Sequence[Sequence[int]]) -> set[Cell]:
    """The cells of every fully known line whose runs differ from its clue (0s in a clue are ignored)."""
    found: set[Cell] = set()
    height, width = len(values), len(values[0]) if values else 0
    lines = [([(r, c) for c in range(width)], clue) for r, clue in enumerate(rows)]
    lines += [([(r, c) for r in range(height)], clue) for c, clue in enumerate(cols)]
    for cells, clue in lines:
        line = [values[r][c] for r, c in cells]
        if None not in line and runs(line) != [n for n in clue if n]:
            found.update(cells)
    return found


def check_answer(answer, data: dict, expected: dict) -> str:
    """Every row and column shows its clue: the lengths of its runs of 1s, in order."""
    rows, cols = first(data, ROWS), first(data, COLS)
    problem = shape_problem(answer, len(rows), len(cols)) or values_problem(answer, {0, 1})
    if problem:
        return problem
    for i, clue in enumerate(rows):
        if runs(answer[i]) != [n for n in clue if n]:
            return f"row {i} has runs {runs(answer[i])}, its clue is {list(clue)}"
    for j, clue in enumerate(cols):
        column = [row[j] for row in answer]
        if runs(column) != [n for n in clue if n]:
            return f"column {j} has runs {runs(column)}, its clue is {list(clue)}"
    return ""


ANSWER_CHECKS = {"picross": check_answer, "nonogram": check_answer}


def describe(grid: Grid, data: Mapping) -> dict:
    rows, cols = grid.shape
    row_clues = clues(first(data, ROWS), rows)
    col_clues = clues(first(data, COLS), cols)
    cells = base_cells(grid)
    for r in range(rows):
        for c in range(cols):
            if grid.values[r][c] == 1 and (r, c) not in grid.holes:
                cells[r][c].update(text="", fill=FILLED)
                mark(cells, [(r, c)], "filled")
            elif grid.values[r][c] == 0:
                cells[r][c]["text"] = ""
    if row_clues and col_clues:
        mark(cells, conflicts(grid.values, row_clues, col_clues), "conflict")
    note = "" if row_clues or col_clues else no_data_note("nonogram", DATA_NAMES)
    return description("nonogram", grid, cells, LEGEND, row_clues=row_clues, col_clues=col_clues, note=note)
