"""Generic: any array, no rules of its own.

View: each cell shows its value, `*` where no constraint involves the variable yet.

Data: none.
"""

from __future__ import annotations

from collections.abc import Mapping

from kernelext.grid import Grid
from kernelext.kinds._cells import base_cells, description

DATA_NAMES: tuple[str, ...] = ()


def describe(grid: Grid, data: Mapping) -> dict:
    return description("generic", grid, base_cells(grid))
