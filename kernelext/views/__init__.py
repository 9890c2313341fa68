"""Views: one module per puzzle kind, each a pure `describe(grid, data) -> dict` (a grid description).

A grid description is JSON-able: {"kind", "name", "legend", "cells": rows of {"text", "fill"?, "classes"?,
"borders"?, "cage"?, "corner"?}, and optionally "row_clues", "col_clues" (lists of lists of ints) and "signs"
([{"cells": [[r, c], [r, c]], "text"}], between adjacent cells)}. Cell classes: hole, free, given, solved,
changed, conflict, filled, endpoint, queen; "borders" lists the thick sides among "trbl", "cage" the sides of
a cage outline (dashed, inside the cell) and "corner" a small text in the top-left corner (a cage's sum).
A module `kernelext/views/KIND.py` with `DATA_NAMES` and `describe` is all a new kind needs.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from types import ModuleType

from kernelext.errors import PuzzleUsageError
from kernelext.grid import Grid

ALIASES = {"picross": "nonogram", "amaze": "numberlink", "polyomino": "layout"}


def kinds() -> list[str]:
    """The names of the views there are (aliases left out)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def view_for(kind: str) -> ModuleType:
    """The view module of `kind` (or of its alias); PuzzleUsageError if there is none."""
    name = ALIASES.get(kind.lower(), kind.lower())
    if name not in kinds():
        raise PuzzleUsageError(f"--view {kind}: no such view (views: {', '.join(kinds() + sorted(ALIASES))}).")
    return importlib.import_module(f"{__name__}.{name}")


def detect_kind(puzzle_name: str, grid: Grid | None = None, data: Mapping | None = None) -> str:
    """The view a puzzle probably wants: a kind (or alias) named in `puzzle_name`, else guessed from `data`
    (view data or the user's namespace): clue lists `rows` and `cols` (one per line of `grid`, when given)
    mean nonogram, a list of `points` numberlink."""
    lowered = puzzle_name.lower()
    for name in kinds() + sorted(ALIASES):
        if name != "generic" and name in lowered:
            return ALIASES.get(name, name)
    data = data or {}
    rows, cols = grid.shape if grid is not None else (None, None)

    def has_list(name: str, length: int | None = None) -> bool:
        value = data.get(name)
        return isinstance(value, (list, tuple)) and length in (None, len(value))

    if has_list("rows", rows) and (has_list("cols", cols) or has_list("columns", cols)):
        return "nonogram"
    if has_list("points"):
        return "numberlink"
    return "generic"


def view_data(kind: str, namespace: Mapping) -> dict:
    """The plain data (lists, tuples, dicts, numbers, strings) the view of `kind` reads from `namespace`."""
    found = {}
    for name in view_for(kind).DATA_NAMES:
        try:
            found[name] = plain(namespace[name])
        except (KeyError, ValueError):
            continue
    return found


def plain(value, depth: int = 0):
    """`value` as JSON-able lists, dicts and scalars; ValueError for anything else (functions, variables)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "tolist") and hasattr(value, "dtype"):  # numpy arrays and numbers
        return plain(value.tolist(), depth)
    if depth < 6 and isinstance(value, (list, tuple)):
        return [plain(item, depth + 1) for item in value]
    if depth < 6 and isinstance(value, dict):
        return {str(key): plain(item, depth + 1) for key, item in value.items()}
    raise ValueError(f"not plain data: {type(value).__name__}")
