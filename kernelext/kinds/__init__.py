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
The registry below (names, aliases, `--view` help, the grader's checkers) is built from those modules, and
from the modules installed packages name in the `kernelext.kinds` entry-point group (in their pyproject.toml:
`[project.entry-points."kernelext.kinds"] takuzu = "mycourse.takuzu"`), which define the same names.

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
import sys
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from types import MappingProxyType, ModuleType

from kernelext.errors import PuzzleUsageError
from kernelext.grid import Grid
from kernelext.plugins import load_plugin

AnswerCheck = Callable[[object, dict, dict], str]
ENTRY_POINTS = "kernelext.kinds"  # the group through which an installed package adds kinds: `NAME = package.module`


def kinds() -> list[str]:
    """The names of the kinds there are, built-in and installed (aliases left out)."""
    return sorted({*_built_in(), *_installed()})


def modules() -> dict[str, ModuleType]:
    """Every kind's module, by name (a built-in kind wins over an installed one of the same name)."""
    found = {name: module for name, entry in _installed().items() if (module := _load(name, entry)) is not None}
    found.update({name: importlib.import_module(f"{__name__}.{name}") for name in _built_in()})
    return dict(sorted(found.items()))


def aliases(every: Mapping[str, ModuleType] | None = None) -> dict[str, str]:
    """{alias: kind} over the ALIASES of every kind (of the modules `every`, when given)."""
    every = modules() if every is None else every
    return {alias: name for name, module in every.items() for alias in getattr(module, "ALIASES", ())}


def kind_for(name: str) -> ModuleType:
    """The module of the kind `name` (or of the kind it is an alias of); PuzzleUsageError if there is none."""
    lowered = name.lower()
    built_in = f"{__name__}.{lowered}"
    if built_in in sys.modules and not lowered.startswith("_"):  # a kind drawn before: no file looked at
        return sys.modules[built_in]
    if lowered in _built_in():  # the common case, without looking at installed packages
        return importlib.import_module(built_in)
    every = modules()
    found = every.get(aliases(every).get(lowered, lowered))
    if found is None:
        raise PuzzleUsageError(f"--view {name}: no such view (views: {view_choices()}).")
    return found


def _built_in() -> list[str]:
    return [m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]


def _installed() -> dict:
    """The kinds installed packages add through the `kernelext.kinds` entry-point group, by name."""
    return {entry.name.lower(): entry for entry in entry_points(group=ENTRY_POINTS)}


def _load(name: str, entry) -> ModuleType | None:
    return load_plugin("puzzle kind", name, entry, ("describe",))


def view_choices() -> str:
    """The `--view` choices in one line, aliases in brackets: `nonogram (picross), ...`."""
    by_kind = {name: list(getattr(module, "ALIASES", ())) for name, module in modules().items()}
    return ", ".join(f"{name} ({', '.join(names)})" if names else name for name, names in by_kind.items())


def detect_kind(
    puzzle_name: str,
    grid: Grid | None = None,
    data: Mapping | None = None,
    every: Mapping[str, ModuleType] | None = None,
) -> str:
    """The kind a puzzle probably is: a kind (or alias) named in `puzzle_name`, else the first kind whose
    `recognise` accepts `data` (view data or the user's namespace) for `grid`, else generic.

    `every`: the kinds' modules to choose from, as `modules()` gives them (looked up when not given).
    """
    lowered = puzzle_name.lower()
    every = modules() if every is None else every
    names = aliases(every)
    for name in sorted([*every, *names], key=len, reverse=True):
        if name != "generic" and name in lowered:
            return names.get(name, name)
    for name, module in every.items():
        recognise = getattr(module, "recognise", None)
        if recognise is not None and recognise(grid, data or {}):
            return name
    return "generic"


def grid_data(kind: str, namespace: Mapping) -> dict:
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
