"""Nonogram rules: the runs of filled cells (value 1) of each line match the line's clue."""

from __future__ import annotations

from collections.abc import Sequence

from kernelext.checkers.latin import Cell, Values


def runs(line: Sequence[int]) -> list[int]:
    """The lengths of the runs of 1s in `line`, e.g. [1, 1, 0, 1] -> [2, 1]."""
    found, length = [], 0
    for value in list(line) + [0]:
        if value == 1:
            length += 1
        elif length:
            found.append(length)
            length = 0
    return found


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
