"""Sudoku rules: no value twice in a row, a column or a block (blocks of sqrt(n) x sqrt(n))."""

from __future__ import annotations

import math

from kernelext.checkers.latin import Cell, Values, duplicates, lines


def block_size(n: int) -> int:
    """The side of a block of an n x n sudoku, or 0 when n is not a square."""
    root = math.isqrt(n)
    return root if root > 1 and root * root == n else 0


def conflicts(values: Values) -> set[Cell]:
    """The cells whose value is repeated in their row, column or block."""
    n = len(values)
    groups = lines(n, n)
    b = block_size(n)
    if b:
        groups += [[(r, c) for r in range(br, br + b) for c in range(bc, bc + b)]
                   for br in range(0, n, b) for bc in range(0, n, b)]
    return duplicates(values, groups)


def cage_conflicts(values: Values, cages: list[tuple[int, list[Cell]]]) -> set[Cell]:
    """Killer sudoku: the cells of each cage that repeats a value, or whose values, all known, miss its sum."""
    found = set()
    for total, cells in cages:
        known = [values[r][c] for r, c in cells if values[r][c] is not None]
        if len(set(known)) < len(known) or (len(known) == len(cells) and sum(known) != total):
            found.update(cells)
    return found
