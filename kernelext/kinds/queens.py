"""Queens: no two queens share a row, a column or a diagonal.

View: queens (♛) on a checkered board, queens that attack another in red.

Data: none. A 1-D array q (one row of n values) puts the queen of row r at column q[r] (0-based);
a 2-D 0/1 array puts a queen on each 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations

from kernelext.grid import Grid
from kernelext.kinds._cells import description, mark
from kernelext.kinds._rules import Cell

DATA_NAMES: tuple[str, ...] = ()
QUEEN = "♛"
LIGHT, DARK = "#f7efe1", "#e3cfa9"
LEGEND = f"{QUEEN} = queen, · = empty, * = not known yet, [v] = changed by this step"


def conflicts(queens: Iterable[Cell]) -> set[Cell]:
    """The queens that attack another queen."""
    found: set[Cell] = set()
    for (r1, c1), (r2, c2) in combinations(sorted(set(queens)), 2):
        if r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2):
            found |= {(r1, c1), (r2, c2)}
    return found


def board(grid: Grid) -> tuple[list[list[int | None]], set[tuple[int, int]]]:
    """The board as 0/1/None rows and the changed cells, from a 1-D or a 2-D array."""
    rows, cols = grid.shape
    if rows > 1 or cols == 1:
        return [list(row) for row in grid.values], set(grid.changed)
    squares: list[list[int | None]] = []
    changed = set()
    for r, q in enumerate(grid.values[0]):
        squares.append([None if q is None else int(q == c) for c in range(cols)])
        if (0, r) in grid.changed:
            changed |= {(r, q)} if q is not None else {(r, c) for c in range(cols)}
    return squares, changed


def describe(grid: Grid, data: Mapping) -> dict:
    squares, changed = board(grid)
    holes = grid.holes if len(squares) == grid.shape[0] > 1 else frozenset()
    cells = []
    for r, row in enumerate(squares):
        cells.append([])
        for c, value in enumerate(row):
            if (r, c) in holes:
                text, classes = "", ["hole"]
            elif value is None:
                text, classes = "*", ["free"]
            else:
                text, classes = (QUEEN, ["queen"]) if value == 1 else ("", [])
            cells[r].append({"text": text, "classes": classes, "fill": DARK if (r + c) % 2 else LIGHT})
    mark(cells, changed, "changed")
    queen_cells = [(r, c) for r, row in enumerate(squares) for c, value in enumerate(row) if value == 1]
    mark(cells, conflicts(queen_cells), "conflict")
    return description("queens", grid, cells, LEGEND)
