"""Futoshiki rules: a latin square (no value twice in a row or column) with `<` between some cells."""

from __future__ import annotations

from collections.abc import Iterable

from kernelext.checkers.latin import Cell, Values, duplicates, lines


def conflicts(values: Values, less_than: Iterable[tuple[Cell, Cell]] = ()) -> set[Cell]:
    """The repeated cells of rows and columns, and both cells of each broken `a < b` pair."""
    found = duplicates(values, lines(len(values), len(values[0]) if values else 0))
    for (r1, c1), (r2, c2) in less_than:
        a, b = values[r1][c1], values[r2][c2]
        if a is not None and b is not None and not a < b:
            found |= {(r1, c1), (r2, c2)}
    return found
