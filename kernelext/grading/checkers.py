"""Independent checkers: does an answer satisfy the puzzle's rules? Pure Python, no solver.

Each checker takes the answer array's values (nested lists), the instance's data and its
expected facts, and returns "" when the answer is right, else one line saying what is wrong.
"""

from __future__ import annotations

from math import isqrt
from types import MappingProxyType


def picross(answer, data: dict, expected: dict) -> str:
    """Every row and column shows its clue: the lengths of its runs of 1s, in order."""
    rows, columns = data["rows"], data["columns"]
    problem = _shape(answer, len(rows), len(columns)) or _values_in(answer, {0, 1})
    if problem:
        return problem
    for i, clue in enumerate(rows):
        if _runs(answer[i]) != list(clue):
            return f"row {i} has runs {_runs(answer[i])}, its clue is {list(clue)}"
    for j, clue in enumerate(columns):
        column = [row[j] for row in answer]
        if _runs(column) != list(clue):
            return f"column {j} has runs {_runs(column)}, its clue is {list(clue)}"
    return ""


def futoshiki(answer, data: dict, expected: dict) -> str:
    """A Latin square of 1..n that keeps the hints and the `<` signs."""
    n = data["n"]
    problem = _shape(answer, n, n) or _latin(answer, n)
    if problem:
        return problem
    for i, j, v in data["hints"]:
        if answer[i][j] != v:
            return f"cell ({i}, {j}) is {answer[i][j]}, the hint says {v}"
    for (a, b), (c, d) in data["less"]:
        if not answer[a][b] < answer[c][d]:
            return f"cell ({a}, {b}) = {answer[a][b]} should be less than cell ({c}, {d}) = {answer[c][d]}"
    return ""


def sudoku_boolean(answer, data: dict, expected: dict) -> str:
    """y[i][j][k] = 1 when cell (i, j) holds k + 1: one digit per cell, a valid Sudoku that keeps the clues."""
    grid = data["grid"]
    n = len(grid)
    if _shape(answer, n, n) or any(len(cell) != n for row in answer for cell in row):
        return f"the answer should be an {n}x{n}x{n} array"
    digits = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            ones = [k for k, v in enumerate(answer[i][j]) if v == 1]
            if len(ones) != 1 or any(v not in (0, 1) for v in answer[i][j]):
                return f"cell ({i}, {j}) should have exactly one 1 among its {n} Booleans"
            digits[i][j] = ones[0] + 1
    problem = _latin(digits, n)
    if problem:
        return problem
    b = isqrt(n)
    for r in range(0, n, b):
        for c in range(0, n, b):
            if len({digits[r + i][c + j] for i in range(b) for j in range(b)}) != n:
                return f"the block at ({r}, {c}) repeats a digit"
    for i in range(n):
        for j in range(n):
            if grid[i][j] and digits[i][j] != grid[i][j]:
                return f"cell ({i}, {j}) is {digits[i][j]}, the clue says {grid[i][j]}"
    return ""


def amaze(answer, data: dict, expected: dict) -> str:
    """Each pair of points is joined by one path of its number; the paths use the optimal number of cells.

    The answer is the n x m board, or the board with a border of 0s around it.
    """
    n, m, points = data["n"], data["m"], data["points"]
    if len(answer) == n + 2 and answer and len(answer[0]) == m + 2:
        border = answer[0] + answer[-1] + [row[0] for row in answer] + [row[-1] for row in answer]
        if any(border):
            return "the border around the board should be all 0"
        answer = [row[1:-1] for row in answer[1:-1]]
    problem = _shape(answer, n, m) or _values_in(answer, set(range(len(points) + 1)))
    if problem:
        return problem
    for v, ends in enumerate(points, start=1):
        problem = _path(answer, v, [(i - 1, j - 1) for i, j in ends])
        if problem:
            return problem
    cells = sum(1 for row in answer for value in row if value)
    if "optimum" in expected and cells != expected["optimum"]:
        return f"the paths use {cells} cells; the fewest possible is {expected['optimum']}"
    return ""


def layout(answer, data: dict, expected: dict) -> str:
    """pos[p] = (row, column) of shape p's top-left corner: every shape on usable cells, no overlap."""
    grid, shapes = data["grid"], data["shapes"]
    problem = _shape(answer, len(shapes), 2)
    if problem:
        return problem
    used = {}
    for p, ((r, c), shape) in enumerate(zip(answer, shapes)):
        for a, line in enumerate(shape):
            for b, filled in enumerate(line):
                if not filled:
                    continue
                i, j = r + a, c + b
                if not (0 <= i < len(grid) and 0 <= j < len(grid[0])) or not grid[i][j]:
                    return f"shape {p} at ({r}, {c}) covers ({i}, {j}), which is not a usable cell"
                if (i, j) in used:
                    return f"shapes {used[i, j]} and {p} overlap at ({i}, {j})"
                used[i, j] = p
    return ""


CHECKERS = MappingProxyType({f.__name__: f for f in (picross, futoshiki, sudoku_boolean, amaze, layout)})


def _shape(answer, rows: int, columns: int) -> str:
    if not isinstance(answer, list) or len(answer) != rows or any(
            not isinstance(row, list) or len(row) != columns for row in answer):
        return f"the answer should be a {rows}x{columns} array"
    return ""


def _values_in(answer, allowed: set) -> str:
    bad = next(((i, j) for i, row in enumerate(answer) for j, v in enumerate(row) if v not in allowed), None)
    return f"cell {bad} holds {answer[bad[0]][bad[1]]}, not one of {sorted(allowed)}" if bad else ""


def _latin(square, n: int) -> str:
    for i, row in enumerate(square):
        if sorted(row) != list(range(1, n + 1)):
            return f"row {i} should hold 1..{n} once each"
    for j in range(n):
        if sorted(row[j] for row in square) != list(range(1, n + 1)):
            return f"column {j} should hold 1..{n} once each"
    return ""


def _runs(line) -> list[int]:
    runs, length = [], 0
    for value in list(line) + [0]:
        if value:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs


def _path(board, v: int, ends: list[tuple[int, int]]) -> str:
    """The cells holding `v` form one simple path between the two `ends`."""
    cells = {(i, j) for i, row in enumerate(board) for j, value in enumerate(row) if value == v}
    if not set(ends) <= cells:
        return f"the points of path {v} do not both hold {v}"

    def neighbours(cell):
        i, j = cell
        return [c for c in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)) if c in cells]

    for cell in cells:
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
