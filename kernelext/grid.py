"""A declared array (its shape and variable ids) and its picture after a solve: values, free cells, holes and
what changed."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class ArrayInfo:
    """A declared variable array (or single variable): its name, shape and variable ids."""

    name: str
    shape: tuple[int, ...]
    cells: tuple[tuple[tuple[int, ...], str], ...]  # (index, variable id), row-major, holes left out

    @property
    def grid_shape(self) -> tuple[int, int]:
        """Rows and columns when drawn as a grid (a 1-D array is one row, a single variable one cell)."""
        return (1, self.shape[0]) if len(self.shape) == 1 else (1, 1) if not self.shape else self.shape[:2]

    def positions(self) -> dict[str, tuple[int, int]]:
        """{variable id: its (row, col) in that grid}, row-major."""
        return {
            vid: (0, 0) if not index else (0, index[0]) if len(index) == 1 else tuple(index[:2])
            for index, vid in self.cells
        }

    def holes(self) -> frozenset[tuple[int, int]]:
        """The (row, col) of the grid that no variable fills.

        Sets and frozensets are subtracted here, never searched with `in`: pycsp3 redefines `in` on
        sets, lists and tuples while a model is built, and its version scans the whole container.
        """
        rows, cols = self.grid_shape
        everywhere = frozenset(itertools.product(range(rows), range(cols)))
        return everywhere - frozenset(self.positions().values())


@dataclass(frozen=True)
class Grid:
    """A 2-D picture of an array (a 1-D array is one row).

    Attributes:
        name: the array's name.
        values: rows of values; None where no constraint involves the variable yet (shown `*`).
        holes: (row, col) positions with no variable at all.
        changed: (row, col) positions whose value differs from the previous step's grid.
    """

    name: str
    values: tuple[tuple[int | None, ...], ...]
    holes: frozenset[tuple[int, int]] = frozenset()
    changed: frozenset[tuple[int, int]] = frozenset()

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.values), len(self.values[0]) if self.values else 0


def drawable(info: ArrayInfo) -> bool:
    return len(info.shape) in (1, 2)


def build_grid(info: ArrayInfo, solution: Mapping[str, int | None] | None, previous: Grid | None = None) -> Grid:
    """Lay `solution`'s values (by variable id) for `info` out as rows; mark cells that differ from `previous`."""
    rows, cols = info.grid_shape
    values = [[None] * cols for _ in range(rows)]
    for variable, (r, c) in info.positions().items():
        values[r][c] = solution.get(variable) if solution else None
    holes = info.holes()
    frozen = tuple(tuple(row) for row in values)
    changed = frozenset()
    if previous is not None and previous.name == info.name and previous.shape == (rows, cols):
        changed = frozenset(
            (r, c)
            for r in range(rows)
            for c in range(cols)
            if frozen[r][c] != previous.values[r][c] and (r, c) not in holes
        )
    return Grid(info.name, frozen, holes, changed)
