"""Read what ACE (and Choco, which prints the same XCSP3 competition lines) writes on stdout."""

from __future__ import annotations

import re
from collections.abc import Iterable
from types import MappingProxyType

from kernelext.solver.result import Cells, Solution, SolveResult, Status

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_STATUS = {
    "SATISFIABLE": Status.SAT,
    "UNSATISFIABLE": Status.UNSAT,
    "OPTIMUM FOUND": Status.OPTIMUM,
    "OPTIMUM": Status.OPTIMUM,
    "UNKNOWN": Status.UNKNOWN,
}
_INSTANTIATION = re.compile(r"<instantiation[^>]*>\s*<list>(.*?)</list>\s*<values>(.*?)</values>", re.S)
_STAT_KEYS = {"WRONG DECISIONS": "wrong decisions", "FOUND SOLUTIONS": "solutions", "BOUND": "bound"}


def parse(output: str, cells: Cells, *, backend: str, time: float, stopped: str = "") -> SolveResult:
    """Turn ACE's text into a SolveResult; `cells` maps each array name to its variables."""
    lines = [line.strip() for line in _ANSI.sub("", output).splitlines()]
    text = "\n".join(line[2:] if line.startswith("v ") else line for line in lines)
    status = Status.UNKNOWN
    solutions, bounds, stats = [], [], {}
    for line in lines:
        if line.startswith("s "):
            status = _STATUS.get(line[2:].strip(), Status.UNKNOWN)
        elif line.startswith("o "):
            bounds.append(_bound_and_time(line[2:].split()))
        elif line.startswith("d "):
            key, _, value = line[2:].strip().partition("  ")
            if key.strip() in _STAT_KEYS:
                stats[_STAT_KEYS[key.strip()]] = value.strip().split()[0] if value.strip() else ""
    for match in _INSTANTIATION.finditer(text):
        solutions.append(_solution(match.group(1).split(), match.group(2).split(), cells))
    if status is Status.UNKNOWN and solutions:
        status = Status.SAT
    bound = bounds[-1][0] if bounds else None
    progress = tuple((seconds, b) for b, seconds in bounds)
    return SolveResult(status, tuple(solutions), bound, progress, time, backend, MappingProxyType(stats), stopped)


def strip_colours(output: str) -> str:
    return _ANSI.sub("", output)


def _bound_and_time(tokens: list[str]) -> tuple[int, float]:
    """`o 11718   0.37 ...` -> (11718, 0.37): an improving bound and when it was found."""
    seconds = float(tokens[1]) if len(tokens) > 1 and re.fullmatch(r"[\d.]+", tokens[1]) else 0.0
    return _int(tokens[0]), seconds


def _int(text: str) -> int:
    return int(text.strip().replace(",", ""))


def _solution(names: list[str], values: list[str], cells: Cells) -> Solution:
    ids = [variable for name in names for variable in _expand(name, cells)]
    flat = list(_uncompress(values))
    return MappingProxyType({vid: (None if v == "*" else int(v)) for vid, v in zip(ids, flat) if vid is not None})


def _uncompress(values: Iterable[str]):
    for token in values:
        value, times, count = token.partition("x")
        if times and count.isdigit():
            yield from [value] * int(count)
        else:
            yield token


def _expand(name: str, cells: Cells) -> list[str | None]:
    """`x[][2..3]` -> the ids of x's variables whose indexes match, in row-major order (None at holes)."""
    base, _, rest = name.partition("[")
    if base not in cells:
        return [name]
    specs = re.findall(r"\[([^\]]*)\]", "[" + rest) if rest else []
    return [vid for index, vid in cells[base] if _matches(index, specs)]


def _matches(index: tuple[int, ...], specs: list[str]) -> bool:
    for i, spec in zip(index, specs):
        if spec == "":
            continue
        low, _, high = spec.partition("..")
        if not int(low) <= i <= int(high or low):
            return False
    return True
