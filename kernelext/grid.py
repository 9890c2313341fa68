"""The picture of one array after a solve: values, free cells, holes and what changed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kernelext.pycsp3_glue.model_state import ArrayInfo


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
        changed = frozenset((r, c) for r in range(rows) for c in range(cols)
                            if frozen[r][c] != previous.values[r][c] and (r, c) not in holes)
    return Grid(info.name, frozen, holes, changed)
