"""Sudoku view: thick borders around blocks (sqrt(n) x sqrt(n)), givens in bold, repeated values in red;
killer sudoku cages outlined (dashed) with their sum in their top-left cell.

Data: `clues` (or `givens`, `puzzle`): the n x n starting grid, a list of lists with 0 for an empty cell;
`cages`: killer sudoku cages, each [sum, [(r, c), ...]] or {"sum": s, "cells": [(r, c), ...]}, 0-based.
"""

from __future__ import annotations

from collections.abc import Mapping

from kernelext.checkers import sudoku
from kernelext.grid import Grid
from kernelext.views._common import base_cells, description, first, int_matrix, is_int, mark

DATA_NAMES = ("clues", "givens", "puzzle", "cages")
GIVENS = ("clues", "givens", "puzzle")
SIDES = (("t", (-1, 0)), ("r", (0, 1)), ("b", (1, 0)), ("l", (0, -1)))


def read_cages(value, rows: int, cols: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """`value` as (sum, cells) cages inside a rows x cols grid; items of any other shape are skipped."""
    cages = []
    for item in value if isinstance(value, (list, tuple)) else ():
        total, cells = (item.get("sum"), item.get("cells")) if isinstance(item, dict) else (
            item if isinstance(item, (list, tuple)) and len(item) == 2 else (None, None))
        try:
            cells = [(r, c) for r, c in cells]
        except (TypeError, ValueError):
            continue
        if is_int(total) and cells and all(is_int(r) and is_int(c) and 0 <= r < rows and 0 <= c < cols
                                           for r, c in cells):
            cages.append((total, cells))
    return cages


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
    if cages:
        outline_cages(cells, cages)
        mark(cells, sudoku.cage_conflicts(grid.values, cages) - grid.holes, "conflict")
    return description("sudoku", grid, cells)
