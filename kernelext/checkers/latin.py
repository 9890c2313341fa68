"""Duplicate values within groups of cells (rows, columns, blocks)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

Cell = tuple[int, int]
Values = Sequence[Sequence["int | None"]]


def duplicates(values: Values, groups: Iterable[Iterable[Cell]]) -> set[Cell]:
    """The cells whose known value occurs twice or more in one of `groups`."""
    found: set[Cell] = set()
    for group in groups:
        seen: dict[int, list[Cell]] = defaultdict(list)
        for r, c in group:
            if values[r][c] is not None:
                seen[values[r][c]].append((r, c))
        found.update(cell for cells in seen.values() if len(cells) > 1 for cell in cells)
    return found


def lines(rows: int, cols: int) -> list[list[Cell]]:
    """The rows then the columns of a rows x cols grid, as lists of cells."""
    return ([[(r, c) for c in range(cols)] for r in range(rows)]
            + [[(r, c) for r in range(rows)] for c in range(cols)])
