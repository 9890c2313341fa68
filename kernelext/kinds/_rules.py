"""Rule pieces the kinds share: duplicates within groups of cells, lines, runs, and the answer checks'
first questions (is the answer an array of the right shape and values?)."""

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
    return [[(r, c) for c in range(cols)] for r in range(rows)] + [[(r, c) for r in range(rows)] for c in range(cols)]


def runs(line: Sequence[int]) -> list[int]:
    """The lengths of the runs of non-zero values in `line`, e.g. [1, 1, 0, 1] -> [2, 1]."""
    found, length = [], 0
    for value in list(line) + [0]:
        if value:
            length += 1
        elif length:
            found.append(length)
            length = 0
    return found


def shape_problem(answer, rows: int, columns: int) -> str:
    """ "" when `answer` is a rows x columns list of lists, else what is wrong."""
    if (
        not isinstance(answer, list)
        or len(answer) != rows
        or any(not isinstance(row, list) or len(row) != columns for row in answer)
    ):
        return f"the answer should be a {rows}x{columns} array"
    return ""


def values_problem(answer, allowed: set) -> str:
    """ "" when every cell of `answer` holds one of `allowed`, else the first cell that does not."""
    bad = next(((i, j) for i, row in enumerate(answer) for j, v in enumerate(row) if v not in allowed), None)
    return f"cell {bad} holds {answer[bad[0]][bad[1]]}, not one of {sorted(allowed)}" if bad else ""


def latin_problem(square, n: int) -> str:
    """ "" when each row and column of `square` holds 1..n once each, else the first line that does not."""
    for i, row in enumerate(square):
        if sorted(row) != list(range(1, n + 1)):
            return f"row {i} should hold 1..{n} once each"
    for j in range(n):
        if sorted(row[j] for row in square) != list(range(1, n + 1)):
            return f"column {j} should hold 1..{n} once each"
    return ""
