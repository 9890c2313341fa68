"""Futoshiki: a latin square (1..n once in each row and column) that keeps the givens and the `<` signs
between some cells.

View: `<` `>` between cells of a row, `^` `v` between cells of a column (the point towards the smaller
value), givens in bold, broken rules in red.

Signs and givens are read off the posted model (`x[0][1] < x[0][2]`, `x[2][3] == 4`), whatever the data are
called. Where the model has none yet, from the data: `less_than` (or `lt`, `less`): pairs ((r1, c1), (r2, c2))
of 0-based cells with x[r1][c1] < x[r2][c2]; `givens` (or `clues`): the starting grid, a list of lists with 0
for an empty cell; or `hints`: the given cells, as {(r, c): v} or [(r, c, v), ...].
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from kernelext.grid import Grid
from kernelext.kinds._cells import (
    base_cells,
    cell_pairs,
    description,
    first,
    hinted,
    int_matrix,
    mark,
    no_data_note,
)
from kernelext.kinds._rules import (
    Cell,
    Values,
    duplicates,
    latin_problem,
    lines,
    shape_problem,
)

DATA_NAMES = ("less_than", "lt", "less", "givens", "clues", "hints")
SIGNS = ("less_than", "lt", "less")
READS_POSTED = True  # the view's data get `posted_less_than` and `posted_givens` (kernelext.steps.posted_facts)


def conflicts(values: Values, less_than: Iterable[tuple[Cell, Cell]] = ()) -> set[Cell]:
    """The repeated cells of rows and columns, and both cells of each broken `a < b` pair."""
    found = duplicates(values, lines(len(values), len(values[0]) if values else 0))
    for (r1, c1), (r2, c2) in less_than:
        a, b = values[r1][c1], values[r2][c2]
        if a is not None and b is not None and not a < b:
            found |= {(r1, c1), (r2, c2)}
    return found


def read_givens(data: Mapping, rows: int, cols: int) -> list[list[int]] | None:
    """The grid of givens (0 where empty) from `givens`/`clues` (a grid) or `hints` (cells and values)."""
    return int_matrix(first(data, ("givens", "clues")), rows, cols) or hinted(data.get("hints"), rows, cols)


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
    pairs = [
        (a, b)
        for a, b in cell_pairs(first(data, ("posted_less_than", *SIGNS)))
        if all(0 <= r < rows and 0 <= c < cols for r, c in (a, b))
    ]
    givens = hinted(data.get("posted_givens"), rows, cols) or read_givens(data, rows, cols)
    if givens:
        mark(cells, [(r, c) for r in range(rows) for c in range(cols) if givens[r][c]], "given")
        mark(
            cells,
            [(r, c) for r in range(rows) for c in range(cols) if not givens[r][c] and grid.values[r][c] is not None],
            "solved",
        )
    mark(cells, conflicts(grid.values, pairs) - grid.holes, "conflict")
    signs = [s for s in (sign(a, b) for a, b in pairs) if s]
    note = "" if pairs or givens else no_data_note("futoshiki", DATA_NAMES)
    return description("futoshiki", grid, cells, signs=signs, note=note)


def check_answer(answer, data: dict, expected: dict) -> str:
    """A latin square of 1..n that keeps the givens and the `<` signs (`n`, else the givens' size)."""
    givens_data = first(data, ("givens", "clues"))
    n = data.get("n") or len(givens_data or ())
    problem = shape_problem(answer, n, n) or latin_problem(answer, n)
    if problem:
        return problem
    givens = read_givens(data, n, n) or [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if givens[i][j] and answer[i][j] != givens[i][j]:
                return f"cell ({i}, {j}) is {answer[i][j]}, the hint says {givens[i][j]}"
    for (a, b), (c, d) in cell_pairs(first(data, SIGNS)):
        if not answer[a][b] < answer[c][d]:
            return f"cell ({a}, {b}) = {answer[a][b]} should be less than cell ({c}, {d}) = {answer[c][d]}"
    return ""


ANSWER_CHECKS = {"futoshiki": check_answer}
