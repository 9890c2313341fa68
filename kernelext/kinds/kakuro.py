"""Kakuro (cross sums): each white cell holds a digit 1..9; each run of white cells, across or down, adds
up to the clue in the black cell before it and repeats no digit.

View: black cells show their clues as `down╲across` (`16╲7`, `╲7`, `16╲`, or `╲` without clues), light on
dark; white cells show their digits; repeated digits, digits outside 1..9 and the cells of a complete run
that misses its sum in red.

Data: `board` (or `kakuro`, `puzzle`, `grid`): the board as rows of cells, each `0` for a white cell, or
for a black cell `[down, across]`: the sums of the run below it and of the run to its right (0 where it
starts no run), or None (JSON null) for a black cell without clues. For instance
`[[None, [4, 0], [6, 0]], [[0, 3], 0, 0], [[0, 7], 0, 0]]`: rows 3 = 1 + 2 and 7 = 3 + 4, columns 4 and 6.
"""

from __future__ import annotations

from collections.abc import Mapping

from kernelext.grid import Grid
from kernelext.kinds._cells import (
    base_cells,
    description,
    first,
    is_int,
    mark,
    no_data_note,
)
from kernelext.kinds._rules import Cell, Values, duplicates, shape_problem

ALIASES = ("cross_sum", "cross_sums")
DATA_NAMES = ("board", "kakuro", "puzzle", "grid")
DIGITS = range(1, 10)
LEGEND = "16╲7 = clue cell (sum down ╲ sum across), * = no constraint on it yet, [v] = changed by this step"
Board = list[list["tuple[int, int] | None"]]  # None: white cell; (down, across): black cell


def read_board(value, rows: int | None = None, cols: int | None = None) -> Board | None:
    """`value` as a board (white cells None, black cells (down, across)), or None if it is not one
    (of `rows` x `cols` cells, when given)."""
    if not isinstance(value, (list, tuple)) or not value or rows not in (None, len(value)):
        return None
    board = [[read_cell(cell) for cell in row] if isinstance(row, (list, tuple)) else [] for row in value]
    width = cols if cols is not None else len(board[0])
    if not width or any(len(row) != width or "bad" in row for row in board):
        return None
    return board


def read_cell(cell) -> tuple[int, int] | str | None:
    """A board cell: None (white), (down, across) (black), or "bad"."""
    if cell is None:
        return 0, 0
    if is_int(cell) and cell == 0:
        return None
    if isinstance(cell, (list, tuple)) and len(cell) == 2 and all(map(is_int, cell)):
        return tuple(cell)
    return "bad"


def runs(board: Board) -> list[tuple[int | None, list[Cell]]]:
    """Every run of two or more white cells, across then down, with the clue before it (None if none)."""
    rows, cols = len(board), len(board[0])

    def white(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and board[r][c] is None

    found = []
    for clue, (dr, dc) in ((1, (0, 1)), (0, (1, 0))):
        for r in range(rows):
            for c in range(cols):
                if not white(r, c) or white(r - dr, c - dc):
                    continue
                cells = [(r, c)]
                while white(cells[-1][0] + dr, cells[-1][1] + dc):
                    cells.append((cells[-1][0] + dr, cells[-1][1] + dc))
                if len(cells) > 1:
                    total = board[r - dr][c - dc][clue] if r - dr >= 0 and c - dc >= 0 else None
                    found.append((total or None, cells))
    return found


def where(cells: list[Cell]) -> str:
    """A run in words: `the run across from (1, 1)`."""
    return f"the run {'across' if cells[0][0] == cells[1][0] else 'down'} from {cells[0]}"


def conflicts(values: Values, board: Board) -> set[Cell]:
    """The white cells holding no digit 1..9, the repeated digits of each run, and all the cells of a run
    whose digits, all known, miss its sum."""
    found = {
        (r, c)
        for r, row in enumerate(board)
        for c, cell in enumerate(row)
        if cell is None and values[r][c] is not None and values[r][c] not in DIGITS
    }
    for total, cells in runs(board):
        found |= duplicates(values, [cells])
        known = [values[r][c] for r, c in cells if values[r][c] is not None]
        if total and len(known) == len(cells) and sum(known) != total:
            found.update(cells)
    return found


def recognise(grid: Grid | None, data: Mapping) -> bool:
    """A board with at least one clue pair (of the shape of `grid`, when given)."""
    rows, cols = grid.shape if grid is not None else (None, None)
    board = read_board(first(data, DATA_NAMES), rows, cols)
    return board is not None and any(cell not in (None, (0, 0)) for row in board for cell in row)


def clue_text(down: int, across: int) -> str:
    return f"{down or ''}╲{across or ''}"


def describe(grid: Grid, data: Mapping) -> dict:
    rows, cols = grid.shape
    board = read_board(first(data, DATA_NAMES), rows, cols)
    cells = base_cells(grid)
    if board is None:
        return description("kakuro", grid, cells, LEGEND, note=no_data_note("kakuro", DATA_NAMES))
    for r in range(rows):
        for c in range(cols):
            if board[r][c] is not None:
                cells[r][c] = {"text": clue_text(*board[r][c]), "classes": ["clue"]}
    mark(cells, conflicts(grid.values, board) - grid.holes, "conflict")
    return description("kakuro", grid, cells, LEGEND)


def check_answer(answer, data: dict, expected: dict) -> str:
    """Each white cell of the board holds a digit 1..9; each run repeats none and adds up to its clue."""
    board = read_board(first(data, DATA_NAMES))
    if board is None:
        return "the instance has no kakuro board"
    problem = shape_problem(answer, len(board), len(board[0]))
    if problem:
        return problem
    for r, row in enumerate(board):
        for c, cell in enumerate(row):
            if cell is None and (not is_int(answer[r][c]) or answer[r][c] not in DIGITS):
                return f"white cell ({r}, {c}) holds {answer[r][c]}, not a digit 1..9"
    for total, cells in runs(board):
        digits = [answer[r][c] for r, c in cells]
        if len(set(digits)) < len(digits):
            return f"{where(cells)} repeats a digit: {digits}"
        if total and sum(digits) != total:
            return f"{where(cells)} adds up to {sum(digits)}, its clue is {total}"
    return ""


ANSWER_CHECKS = {"kakuro": check_answer}
