"""An instance's clue grid: the entry of its `data` that gives cells of the answer, an empty cell written 0, None
or "." (in rows written as strings, "." or "0"). It is found by comparing the data with the instance's
solution, and written back with other clues in the same representation.

The grid has the answer's shape, or, for a 0/1 answer with one more axis that holds each cell's value one-hot
(`y[i][j][k] = 1` when cell (i, j) holds k + 1), the answer's shape without that axis.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from dataclasses import dataclass

from kernelext.grading.runs.answer_values import at, shape_of

Index = tuple[int, ...]
EMPTY = (0, None, ".", "0")  # the empty markers tried, in this order ("0" only in text)


@dataclass(frozen=True)
class ClueGrid:
    """Where the clues are, and how they are written.

    Attributes:
        key: the data entry holding the grid.
        shape: the grid's shape (rows written as strings count as a dimension).
        empty: the empty marker, as the grid writes it (0, None, "." or "0").
        text: True when cells are characters (rows written as strings, or one-character strings).
        one_hot: None when the answer holds the values; else the value of the first position of the answer's
            last axis (1 for `y[i][j][k] = 1` when the cell holds k + 1).
    """

    key: str
    shape: tuple[int, ...]
    empty: object
    text: bool
    one_hot: int | None

    def values(self, answer) -> dict[Index, int]:
        """Each cell's value in a solution (`answer`: the answer array's values as nested lists)."""
        return {index: _value(at(answer, index), self.one_hot) for index in _indices(self.shape)}

    def choices(self, domains: Mapping[Index, tuple[int, ...]]) -> dict[Index, tuple[int, ...]]:
        """The values each cell may take as a clue, from the answer array's domains (by its cells' indices);
        values the grid cannot write (the empty marker, more than one character in text) are left out."""
        found = {}
        for index in _indices(self.shape):
            if self.one_hot is None:
                values = domains.get(index, ())
            else:
                values = tuple(
                    self.one_hot + k for k in range(self._depth(domains, index)) if 1 in domains.get((*index, k), ())
                )
            found[index] = tuple(v for v in values if self.writable(v))
        return found

    def writable(self, value: int) -> bool:
        """Whether the grid can write `value` as a clue."""
        cell = str(value) if self.text else value
        return not _same(cell, self.empty) and (not self.text or len(cell) == 1)

    def with_clues(self, data: Mapping, clues: Mapping[Index, int]) -> dict:
        """A copy of `data` whose grid holds exactly `clues`, written as the grid writes its cells."""
        grid = data[self.key]
        cells = {
            index: (str(clues[index]) if self.text else clues[index]) if index in clues else self.empty
            for index in _indices(self.shape)
        }
        written = _nested(self.shape, cells, ())
        if isinstance(grid, str):
            written = "".join(written)
        elif isinstance(grid[0], str):  # rows written as strings
            written = ["".join(row) for row in written]
        return {**copy.deepcopy(dict(data)), self.key: written}

    def _depth(self, domains: Mapping, index: Index) -> int:
        depth = 0
        while (*index, depth) in domains:
            depth += 1
        return depth


def find_clue_grid(data, answer) -> ClueGrid | None:
    """The first entry of `data` that is a clue grid of the solution `answer` (see the module), or None."""
    if not isinstance(data, Mapping):
        return None
    for key, grid in data.items():
        cells = _cells(grid)
        if not cells:
            continue
        shape = _shape(grid)
        answer_shape = shape_of(answer)
        if answer_shape == shape:
            bases = (None,)
        elif answer_shape[:-1] == shape and _is_one_hot(answer, shape):
            bases = (1, 0)
        else:
            continue
        text = isinstance(grid, str) or any(isinstance(cell, str) for cell in cells.values())
        for empty in EMPTY:
            if isinstance(empty, str) != text or not any(_same(cell, empty) for cell in cells.values()):
                continue
            for base in bases:
                found = ClueGrid(key, shape, empty, text, base)
                solution = found.values(answer)
                if all(_same(cell, empty) or _matches(cell, solution[index]) for index, cell in cells.items()):
                    return found
    return None


def _cells(grid) -> dict[Index, object]:
    """The cells of a rectangular grid (nested lists, rows written as strings) by index; {} for anything else."""
    shape = _shape(grid)
    if not shape or 0 in shape or sum(1 for _ in _leaves(grid)) != math.prod(shape):
        return {}
    cells = {}
    for index in _indices(shape):
        try:
            cell = at(grid, index)
        except (IndexError, TypeError):
            return {}
        if not (cell is None or type(cell) is int or isinstance(cell, str) and len(cell) == 1):
            return {}
        cells[index] = cell
    return cells


def _shape(grid) -> tuple[int, ...]:
    shape = []
    while isinstance(grid, (list, str)):
        shape.append(len(grid))
        if isinstance(grid, str) or not grid:
            break
        grid = grid[0]
    return tuple(shape)


def _leaves(grid):
    if isinstance(grid, str):
        yield from grid
    elif isinstance(grid, list):
        for item in grid:
            yield from _leaves(item)
    else:
        yield grid


def _indices(shape: tuple[int, ...]):
    if not shape:
        yield ()
        return
    for i in range(shape[0]):
        for rest in _indices(shape[1:]):
            yield (i, *rest)


def _nested(shape: tuple[int, ...], cells: Mapping[Index, object], prefix: Index) -> list:
    if len(shape) == 1:
        return [cells[(*prefix, i)] for i in range(shape[0])]
    return [_nested(shape[1:], cells, (*prefix, i)) for i in range(shape[0])]


def _is_one_hot(answer, shape: tuple[int, ...]) -> bool:
    for index in _indices(shape):
        values = at(answer, index)
        if not isinstance(values, list) or any(v not in (0, 1) for v in values) or sum(values) != 1:
            return False
    return True


def _value(cell, one_hot: int | None):
    return cell if one_hot is None else one_hot + cell.index(1)


def _same(cell, empty) -> bool:
    return type(cell) is type(empty) and cell == empty


def _matches(cell, value) -> bool:
    return value is not None and cell == (str(value) if isinstance(cell, str) else value)
