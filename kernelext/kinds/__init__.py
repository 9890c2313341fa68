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
The registry below (`KINDS`, a `kernelext.plugins.Plugins`: names, aliases, `--view` help, the grader's checkers) is
built from those modules, and from the modules installed packages name in the `kernelext.kinds` entry-point group (in their pyproject.toml:
`[project.entry-points."kernelext.kinds"] takuzu = "mycourse.takuzu"`), which define the same names.

A grid description is JSON-able: {"kind", "name", "legend", "cells": rows of {"text", "fill"?, "classes"?,
"borders"?, "cage"?, "corner"?}, and optionally "note", "row_clues", "col_clues" (lists of lists of ints) and
"signs" ([{"cells": [[r, c], [r, c]], "text"}], between adjacent cells)}. Cell classes: hole, free, given,
solved, changed, conflict, filled, endpoint, queen, star, clue (a black cell showing its clues); "borders"
lists the thick sides among "trbl", "cage" the sides of a cage outline (dashed, inside the cell) and
"corner" a small text in the top-left corner (a sum).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType, ModuleType

from kernelext.errors import PuzzleUsageError
from kernelext.grid import Grid
from kernelext.plugins import Plugins, aliases, choices

AnswerCheck = Callable[[object, dict, dict], str]
# Installed packages add kinds through this entry-point group: `NAME = package.module`.
KINDS = Plugins("puzzle kind", __name__, "kernelext.kinds", ("describe",))


def kinds() -> list[str]:
    """The names of the kinds there are, built-in and installed (aliases left out)."""
    return KINDS.names()


def kind_for(name: str) -> ModuleType:
    """The module of the kind `name` (or of the kind it is an alias of); PuzzleUsageError if there is none."""
    found = KINDS.find(name)
    if found is None:
        raise PuzzleUsageError(f"--view {name}: no such view (views: {kind_choices()}).")
    return found


def kind_choices() -> str:
    """The kinds in one line, aliases in brackets: `nonogram (picross), ...`."""
    return choices(KINDS.modules())


def detect_kind(
    puzzle_name: str,
    grid: Grid | None = None,
    data: Mapping | None = None,
    every: Mapping[str, ModuleType] | None = None,
) -> str:
    """The kind a puzzle probably is: a kind (or alias) named in `puzzle_name`, else the first kind whose
    `recognise` accepts `data` (view data or the user's namespace) for `grid`, else generic.

    `every`: the kinds' modules to choose from, as `KINDS.modules()` gives them (looked up when not given).
    """
    lowered = puzzle_name.lower()
    every = KINDS.modules() if every is None else every
    names = aliases(every)
    for name in sorted([*every, *names], key=len, reverse=True):
        if name != "generic" and name in lowered:
            return names.get(name, name)
    for name, module in every.items():
        recognise = getattr(module, "recognise", None)
        if recognise is not None and recognise(grid, data or {}):
            return name
    return "generic"


def answer_checks() -> Mapping[str, AnswerCheck]:
    """The grader's answer checks of every kind, by checker name (as `exercise.json` gives it)."""
    checks = {}
    for module in KINDS.modules().values():
        checks.update(getattr(module, "ANSWER_CHECKS", {}))
    return MappingProxyType(checks)


def block_size(kind: str, grid: Grid) -> int:
    """The side of the blocks drawn thicker on `kind`'s pencil marks (0: none)."""
    sizer = getattr(kind_for(kind), "block_size", None)
    return sizer(grid) if sizer is not None else 0
