"""Puzzle kinds: one module per kind holds everything the kit knows about it.

A kind module `kernelext/kinds/KIND.py` defines:
  - `DATA_NAMES`: the names of the notebook data its view reads (synonyms included), in its docstring's words;
  - `describe(grid, data) -> dict`: the grid description (below), with a `note` when it finds no data it can use;
  optionally:
  - `conflicts(values, ...)`: its rules as a pure function, the cells of a grid that break them (drawn in red);
  - `ALIASES`: other names of the kind (`--view picross` is the nonogram kind);
  - `recognise(grid, data) -> bool`: the data look like this kind's (a puzzle named after no kind);
  - `ANSWER_CHECKS`: {checker name: check(answer, data, expected) -> "" or what is wrong}, for the grader;
  - `block_size(grid) -> int`: blocks drawn thicker on pencil marks.
The registry below (names, aliases, `--view` help, the grader's checkers) is built from those modules.

A grid description is JSON-able: {"kind", "name", "legend", "cells": rows of {"text", "fill"?, "classes"?,
"borders"?, "cage"?, "corner"?}, and optionally "note", "row_clues", "col_clues" (lists of lists of ints) and
"signs" ([{"cells": [[r, c], [r, c]], "text"}], between adjacent cells)}. Cell classes: hole, free, given,
solved, changed, conflict, filled, endpoint, queen, star, clue (a black cell showing its clues); "borders"
lists the thick sides among "trbl", "cage" the sides of a cage outline (dashed, inside the cell) and
"corner" a small text in the top-left corner (a sum).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from types import MappingProxyType, ModuleType

from kernelext.errors import PuzzleUsageError
from kernelext.grid import Grid

AnswerCheck = Callable[[object, dict, dict], str]


def kinds() -> list[str]:
    """The names of the kinds there are (aliases left out)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def modules() -> dict[str, ModuleType]:
    """Every kind's module, by name."""
    return {name: importlib.import_module(f"{__name__}.{name}") for name in kinds()}


def aliases() -> dict[str, str]:
    """{alias: kind} over every kind's ALIASES."""
    return {alias: name for name, module in modules().items() for alias in getattr(module, "ALIASES", ())}


def kind_for(name: str) -> ModuleType:
    """The module of the kind `name` (or of the kind it is an alias of); PuzzleUsageError if there is none."""
    lowered = name.lower()
    found = aliases().get(lowered, lowered)
    if found not in kinds():
        raise PuzzleUsageError(f"--view {name}: no such view (views: {view_choices()}).")
    return importlib.import_module(f"{__name__}.{found}")


def view_choices() -> str:
    """The `--view` choices in one line, aliases in brackets: `nonogram (picross), ...`."""
    by_kind = {name: list(getattr(module, "ALIASES", ())) for name, module in modules().items()}
    return ", ".join(f"{name} ({', '.join(names)})" if names else name for name, names in by_kind.items())


def detect_kind(puzzle_name: str, grid: Grid | None = None, data: Mapping | None = None) -> str:
    """The kind a puzzle probably is: a kind (or alias) named in `puzzle_name`, else the first kind whose
    `recognise` accepts `data` (view data or the user's namespace) for `grid`, else generic."""
    lowered = puzzle_name.lower()
    names = aliases()
    for name in sorted([*kinds(), *names], key=len, reverse=True):
        if name != "generic" and name in lowered:
            return names.get(name, name)
    for name, module in modules().items():
        recognise = getattr(module, "recognise", None)
        if recognise is not None and recognise(grid, data or {}):
            return name
    return "generic"


def view_data(kind: str, namespace: Mapping) -> dict:
    """The plain data (lists, tuples, dicts, numbers, strings) the view of `kind` reads from `namespace`."""
    found = {}
    for name in kind_for(kind).DATA_NAMES:
        try:
            found[name] = plain(namespace[name])
        except (KeyError, ValueError):
            continue
    return found


def answer_checks() -> Mapping[str, AnswerCheck]:
    """The grader's answer checks of every kind, by checker name (as `exercise.json` gives it)."""
    checks = {}
    for module in modules().values():
        checks.update(getattr(module, "ANSWER_CHECKS", {}))
    return MappingProxyType(checks)


def block_size(kind: str, grid: Grid) -> int:
    """The side of the blocks drawn thicker on `kind`'s pencil marks (0: none)."""
    sizer = getattr(kind_for(kind), "block_size", None)
    return sizer(grid) if sizer is not None else 0


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
