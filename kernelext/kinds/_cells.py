"""Building blocks shared by the kinds' views: cells, colours and checks on user data."""

from __future__ import annotations

import re
from collections.abc import Mapping

from kernelext.grid import Grid

LEGEND = "* = no constraint on it yet, [v] = changed by this step"
PALETTE = (
    "#8ecae6",
    "#ffb703",
    "#95d5b2",
    "#f4a3a8",
    "#cdb4db",
    "#f6bd60",
    "#a3c4f3",
    "#b5e48c",
    "#ffadad",
    "#9bf6ff",
    "#e9c46a",
    "#bdb2ff",
    "#caffbf",
    "#ffc6ff",
    "#d4a373",
    "#90e0ef",
)


def colour(value: int) -> str:
    """A light colour for a positive value, the same every time."""
    return PALETTE[(value - 1) % len(PALETTE)]


def base_cell(grid: Grid, r: int, c: int) -> dict:
    """A cell showing its value (`*` if free), with the classes `hole`, `free` and `changed`."""
    value = grid.values[r][c]
    if (r, c) in grid.holes:
        cell = {"text": "", "classes": ["hole"]}
    else:
        cell = {"text": "*" if value is None else str(value), "classes": ["free"] if value is None else []}
    if (r, c) in grid.changed:
        cell["classes"].append("changed")
    return cell


def base_cells(grid: Grid) -> list[list[dict]]:
    rows, cols = grid.shape
    return [[base_cell(grid, r, c) for c in range(cols)] for r in range(rows)]


def mark(cells: list[list[dict]], positions, name: str) -> None:
    """Add the class `name` to the cells at `positions` that exist."""
    for r, c in positions:
        if 0 <= r < len(cells) and 0 <= c < len(cells[r]) and name not in cells[r][c]["classes"]:
            cells[r][c]["classes"].append(name)


def description(kind: str, grid: Grid, cells: list[list[dict]], legend: str = LEGEND, **extra) -> dict:
    """The grid description: kind, name, legend, cells and any extra parts (empty keys and parts dropped)."""
    clean = [
        [
            {"text": cell["text"], **{key: value for key, value in cell.items() if value and key != "text"}}
            for cell in row
        ]
        for row in cells
    ]
    return {
        "kind": kind,
        "name": grid.name,
        "legend": legend,
        "cells": clean,
        **{key: value for key, value in extra.items() if value},
    }


def no_data_note(kind: str, names: tuple[str, ...]) -> str:
    """The line a view adds when it finds none of its data: what it reads."""
    return f"note: the {kind} view found no data it can use (it reads {', '.join(names[:-1])} or {names[-1]})."


def first(data: Mapping, names: tuple[str, ...]):
    """The value of the first of `names` present in `data`, else None."""
    return next((data[name] for name in names if data.get(name) is not None), None)


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def int_matrix(value, rows: int, cols: int) -> list[list[int]] | None:
    """`value` if it is a rows x cols list of lists of ints, else None."""
    if (
        isinstance(value, (list, tuple))
        and len(value) == rows
        and all(isinstance(row, (list, tuple)) and len(row) == cols and all(map(is_int, row)) for row in value)
    ):
        return [list(row) for row in value]
    return None


def cell_pairs(value) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """`value` as a list of ((r1, c1), (r2, c2)) pairs, skipping items of any other shape."""
    pairs = []
    for item in value if isinstance(value, (list, tuple)) else ():
        try:
            (r1, c1), (r2, c2) = item
        except (TypeError, ValueError):
            continue
        if all(map(is_int, (r1, c1, r2, c2))):
            pairs.append(((r1, c1), (r2, c2)))
    return pairs


def hinted(value, rows: int, cols: int) -> list[list[int]] | None:
    """The grid of givens that `hints` describe ({(r, c): v}, read back as {"(r, c)": v}, or [(r, c, v)])."""
    if isinstance(value, dict):
        items = [(*map(int, re.findall(r"-?\d+", key)), v) for key, v in value.items()]
    elif isinstance(value, (list, tuple)):
        items = [tuple(item) for item in value if isinstance(item, (list, tuple))]
    else:
        return None
    grid = [[0] * cols for _ in range(rows)]
    for item in items:
        if len(item) == 3 and all(map(is_int, item)) and 0 <= item[0] < rows and 0 <= item[1] < cols:
            grid[item[0]][item[1]] = item[2]
    return grid
