"""Numberlink (amaze): each pair of endpoints is joined by one path of cells holding the pair's number.

View: each path (value v > 0) in its own colour, 0 blank, endpoints circled.

Data: `points` (or `endpoints`, `pairs`): one pair of endpoints per path, [(r1, c1), (r2, c2)],
given in the drawn array's own coordinates.
"""

from __future__ import annotations

from collections.abc import Mapping

from kernelext.grid import Grid
from kernelext.kinds._cells import (
    base_cells,
    cell_pairs,
    colour,
    description,
    first,
    mark,
    no_data_note,
)
from kernelext.kinds._rules import Cell, Values, shape_problem, values_problem

ALIASES = ("amaze",)
DATA_NAMES = ("points", "endpoints", "pairs")
LEGEND = "· = 0, * = no constraint on it yet, [v] = changed by this step"


def recognise(grid: Grid | None, data: Mapping) -> bool:
    """A list of `points` (or `endpoints`, `pairs`)."""
    return isinstance(first(data, DATA_NAMES), (list, tuple))


def path_problem(values: Values, v: int, ends: list[Cell]) -> str:
    """ "" when the cells holding `v` form one simple path between the two `ends`, else what is wrong."""
    cells = {(i, j) for i, row in enumerate(values) for j, value in enumerate(row) if value == v}
    if not set(ends) <= cells:
        return f"the points of path {v} do not both hold {v}"

    def neighbours(cell):
        i, j = cell
        return [c for c in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)) if c in cells]

    for cell in sorted(cells):
        wanted = 1 if cell in ends else 2
        if len(neighbours(cell)) != wanted:
            return f"cell {cell} of path {v} has {len(neighbours(cell))} neighbours of its number, not {wanted}"
    seen, todo = {ends[0]}, [ends[0]]
    while todo:
        for near in neighbours(todo.pop()):
            if near not in seen:
                seen.add(near)
                todo.append(near)
    return "" if seen == cells else f"path {v} is not one connected line between its points"


def check_amaze(answer, data: dict, expected: dict) -> str:
    """Each pair of points is joined by one path of its number; the paths use the optimal number of cells.

    `points` are 1-based on an n x m board; the answer is the board, or the board with a border of 0s around it.
    """
    n, m, points = data["n"], data["m"], data["points"]
    if len(answer) == n + 2 and answer and len(answer[0]) == m + 2:
        border = answer[0] + answer[-1] + [row[0] for row in answer] + [row[-1] for row in answer]
        if any(border):
            return "the border around the board should be all 0"
        answer = [row[1:-1] for row in answer[1:-1]]
    problem = shape_problem(answer, n, m) or values_problem(answer, set(range(len(points) + 1)))
    if problem:
        return problem
    for v, ends in enumerate(points, start=1):
        problem = path_problem(answer, v, [(i - 1, j - 1) for i, j in ends])
        if problem:
            return problem
    cells = sum(1 for row in answer for value in row if value)
    if "optimum" in expected and cells != expected["optimum"]:
        return f"the paths use {cells} cells; the fewest possible is {expected['optimum']}"
    return ""


ANSWER_CHECKS = {"amaze": check_amaze}


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
    points = first(data, DATA_NAMES)
    mark(cells, [end for pair in cell_pairs(points) for end in pair], "endpoint")
    note = "" if points else no_data_note("numberlink", DATA_NAMES)
    return description("numberlink", grid, cells, LEGEND, note=note)
