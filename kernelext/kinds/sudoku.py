"""Sudoku: no value twice in a row, a column or a block (blocks of sqrt(n) x sqrt(n)); in a killer sudoku,
each cage's cells sum to its total and repeat no value.

View: thick borders around blocks, givens in bold, repeated values in red; killer sudoku cages outlined
(dashed) with their sum in their top-left cell.

Data: `clues` (or `givens`, `puzzle`, `grid`): the n x n starting grid, a list of lists with 0 for an empty cell;
`cages`: killer sudoku cages, each [sum, [(r, c), ...]] or {"sum": s, "cells": [(r, c), ...]}, 0-based.
Where the data give neither, givens and cages are read off the posted model, whatever the data are called:
`x[2][3] == 4` is a given, a sum of connected cells (more than one, fewer than a row) equal to a number a
cage. The data come first here: a killer sudoku's one-cell cages are posted as `x[i][j] == v`, not givens.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from kernelext.grid import Grid
from kernelext.kinds._cells import (
    base_cells,
    description,
    first,
    hinted,
    int_matrix,
    is_int,
    mark,
    no_data_note,
)
from kernelext.kinds._rules import (
    Cell,
    Values,
    duplicates,
    latin_problem,
    shape_problem,
)

DATA_NAMES = ("clues", "givens", "puzzle", "grid", "cages")
GIVENS = ("clues", "givens", "puzzle", "grid")
SIDES = (("t", (-1, 0)), ("r", (0, 1)), ("b", (1, 0)), ("l", (0, -1)))
READS_POSTED = True  # the view's data get `posted_givens` and `posted_sums` (kernelext.steps.posted_facts)


def side(n: int) -> int:
    """The side of a block of an n x n sudoku, or 0 when n is not a square."""
    root = math.isqrt(n)
    return root if root > 1 and root * root == n else 0


def block_size(grid: Grid) -> int:
    """The side of the blocks drawn on pencil marks: sqrt(n) for n columns (0 when n is not a square)."""
    return side(grid.shape[1])


def conflicts(values: Values) -> set[Cell]:
    """The cells whose value is repeated in their row, column or block."""
    n = len(values)
    groups = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
    b = side(n)
    if b:
        groups += [
            [(r, c) for r in range(br, br + b) for c in range(bc, bc + b)]
            for br in range(0, n, b)
            for bc in range(0, n, b)
        ]
    return duplicates(values, groups)


def cage_conflicts(values: Values, cages: list[tuple[int, list[Cell]]]) -> set[Cell]:
    """Killer sudoku: the cells of each cage that repeats a value, or whose values, all known, miss its sum."""
    found = set()
    for total, cells in cages:
        known = [values[r][c] for r, c in cells if values[r][c] is not None]
        if len(set(known)) < len(known) or (len(known) == len(cells) and sum(known) != total):
            found.update(cells)
    return found


def read_cages(value, rows: int, cols: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """`value` as (sum, cells) cages inside a rows x cols grid; items of any other shape are skipped."""
    cages = []
    for item in value if isinstance(value, (list, tuple)) else ():
        total, cells = (
            (item.get("sum"), item.get("cells"))
            if isinstance(item, dict)
            else (item if isinstance(item, (list, tuple)) and len(item) == 2 else (None, None))
        )
        try:
            cells = [(r, c) for r, c in cells]
        except (TypeError, ValueError):
            continue
        if (
            is_int(total)
            and cells
            and all(is_int(r) and is_int(c) and 0 <= r < rows and 0 <= c < cols for r, c in cells)
        ):
            cages.append((total, cells))
    return cages


def posted_cages(sums, rows: int, cols: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """The posted sums that draw as cages: connected cells, more than one and fewer than a row's, none of
    them in an earlier cage."""
    cages, taken = [], set()
    for total, cells in read_cages(sums, rows, cols):
        members = set(cells)
        if 1 < len(members) < cols and not members & taken and _connected(members):
            cages.append((total, sorted(members)))
            taken |= members
    return cages


def _connected(cells: set[tuple[int, int]]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for _, (dr, dc) in SIDES:
            if (r + dr, c + dc) in cells and (r + dr, c + dc) not in seen:
                seen.add((r + dr, c + dc))
                todo.append((r + dr, c + dc))
    return seen == cells


def outline_cages(cells: list[list[dict]], cages) -> None:
    """Give each caged cell the sides of its cage's outline ("cage") and the top-left one its sum ("corner")."""
    owner = {cell: k for k, (_, members) in enumerate(cages) for cell in members}
    for k, (total, members) in enumerate(cages):
        for r, c in members:
            cells[r][c]["cage"] = "".join(side for side, (dr, dc) in SIDES if owner.get((r + dr, c + dc)) != k)
        r, c = min(members)
        cells[r][c]["corner"] = str(total)


def describe(grid: Grid, data: Mapping) -> dict:
    rows, cols = grid.shape
    cells = base_cells(grid)
    givens = int_matrix(first(data, GIVENS), rows, cols)
    cages = read_cages(data.get("cages"), rows, cols)
    if not (givens or cages):
        givens = hinted(data.get("posted_givens"), rows, cols)
        cages = posted_cages(data.get("posted_sums"), rows, cols)
    block = side(rows) if rows == cols else 0
    for r in range(rows):
        for c in range(cols):
            if block:
                cells[r][c]["borders"] = "".join(
                    side
                    for side, thick in (
                        ("t", r % block == 0),
                        ("r", c == cols - 1),
                        ("b", r == rows - 1),
                        ("l", c % block == 0),
                    )
                    if thick
                )
            if givens and givens[r][c]:
                mark(cells, [(r, c)], "given")
            elif givens and grid.values[r][c] is not None:
                mark(cells, [(r, c)], "solved")
    if rows == cols:
        mark(cells, conflicts(grid.values) - grid.holes, "conflict")
    if cages:
        outline_cages(cells, cages)
        mark(cells, cage_conflicts(grid.values, cages) - grid.holes, "conflict")
    square = rows == cols > 1  # a board (a row of cells drawn as a sudoku's is not one)
    note = no_data_note("sudoku", DATA_NAMES) if square and not (givens or cages) else ""
    return description("sudoku", grid, cells, note=note)


def check_digits(answer, data: dict, expected: dict) -> str:
    """A valid Sudoku of 1..n that keeps the givens (`grid`, `clues`, `givens` or `puzzle`: 0 where empty)."""
    givens = first(data, GIVENS)
    n = len(givens)
    problem = shape_problem(answer, n, n) or latin_problem(answer, n)
    if problem:
        return problem
    b = side(n)
    for r in range(0, n, b or n):
        for c in range(0, n, b or n):
            if b and len({answer[r + i][c + j] for i in range(b) for j in range(b)}) != n:
                return f"the block at ({r}, {c}) repeats a digit"
    for i in range(n):
        for j in range(n):
            if givens[i][j] and answer[i][j] != givens[i][j]:
                return f"cell ({i}, {j}) is {answer[i][j]}, the clue says {givens[i][j]}"
    return ""


def check_booleans(answer, data: dict, expected: dict) -> str:
    """y[i][j][k] = 1 when cell (i, j) holds k + 1: one digit per cell, a valid Sudoku that keeps the clues."""
    n = len(first(data, GIVENS))
    if shape_problem(answer, n, n) or any(
        not isinstance(cell, list) or len(cell) != n for row in answer for cell in row
    ):
        return f"the answer should be an {n}x{n}x{n} array"
    digits = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            ones = [k for k, v in enumerate(answer[i][j]) if v == 1]
            if len(ones) != 1 or any(v not in (0, 1) for v in answer[i][j]):
                return f"cell ({i}, {j}) should have exactly one 1 among its {n} Booleans"
            digits[i][j] = ones[0] + 1
    return check_digits(digits, data, expected)


ANSWER_CHECKS = {"sudoku": check_digits, "sudoku_boolean": check_booleans}
