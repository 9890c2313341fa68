"""Feedback in the puzzle's words: an answer's cells named as the instance's data names them (regions, towns,
jobs), and, for a hidden instance, the kind of rule an answer breaks without anything of the instance."""

from __future__ import annotations

import re
from collections.abc import Callable

NAME_KEYS = ("names", "regions", "labels", "cities", "towns", "places", "jobs", "tasks", "items", "people")
_BROKEN = re.compile(r"^it breaks (\w+)\(")


def cell_namer(data, shape: tuple[int, ...]) -> Callable[[tuple[int, ...]], str | None]:
    """A cell's name, from a list of names in the data as long as the answer's first axis (`regions` for
    `c[i]`, `jobs` for `s[j][k]`); None where the data names nothing."""
    names = next((found for key in NAME_KEYS if (found := _names(data, key, shape)) is not None), None)
    if names is None:
        return lambda index: None
    if len(shape) == 1:
        return lambda index: names[index[0]]
    return lambda index: f"{names[index[0]]}, {', '.join(str(i) for i in index[1:])}"


def called(named: Callable[[tuple[int, ...]], str | None], vid: str) -> str:
    """` (Switzerland)` when `named` (see `cell_namer`) names the cell `vid` (`c[5]`), else ""."""
    try:
        name = named(tuple(int(i) for i in re.findall(r"\[(\d+)\]", vid)))
    except (IndexError, TypeError):
        return ""
    return f" ({name})" if name else ""


def broken_cells(problem: str) -> tuple[str, ...]:
    """The cell ids (`c[2]`) named in the constraint a problem says is broken (`it breaks ne(c[2],c[5])...`)."""
    broken = re.match(r"^it breaks (\w+\(.*?\))(?:, where|$)", problem)
    return tuple(dict.fromkeys(re.findall(r"\w+(?:\[\d+\])+", broken.group(1)))) if broken else ()


def hidden_wording(problem: str) -> str:
    """What a student is told of `problem` (the teacher's wording) on a hidden instance: the kind of rule, never
    the instance's cells, values or optimum."""
    broken = _BROKEN.match(problem)
    if broken:
        return f"wrong answer: it breaks one of the puzzle's rules (a constraint of the kind {broken.group(1)})"
    if problem.startswith("it breaks these together"):
        return "wrong answer: it breaks several of the puzzle's rules together"
    if problem.startswith("its objective is"):
        return "wrong answer: it keeps the rules but is not optimal"
    if problem.startswith("found ") and "solutions" in problem:
        return "wrong answer: not every solution, or some more than once"
    return "wrong answer: it breaks the puzzle's rules"


def _names(data, key: str, shape: tuple[int, ...]) -> list[str] | None:
    found = data.get(key) if isinstance(data, dict) else None
    if not shape or not isinstance(found, list) or len(found) != shape[0]:
        return None
    return [str(name) for name in found] if all(isinstance(name, (str, int)) for name in found) else None
