"""Which solver answers: whether the kit runs in a browser, and the order in which `auto` asks or races the
backends (each backend says itself whether it runs here, and what it is known to answer wrongly on)."""

from __future__ import annotations

import sys
from collections.abc import Callable

AUTO_ORDER = ("cp-sat", "minizinc", "ace", "kit")  # CP-SAT in this process first, then MiniZinc, warm ACE, the kit
# The solvers `auto` races (kernelext.solver.portfolio), strongest first: on the PyCSP3-models collection within
# 3 s, CP-SAT finished 153 models, ACE 124 and MiniZinc 116, each some that the others did not.
RACE_ORDER = ("cp-sat", "ace", "minizinc")
BROWSER_ORDER = ("kit", "minizinc")  # the kit's own search answers small puzzles before MiniZinc has started


def in_browser() -> bool:
    """Whether the kit runs in a browser's Python (Pyodide): MiniZinc's WebAssembly is then the one solver."""
    return sys.platform == "emscripten"


def auto_order(large: bool, runs: Callable[[str], bool]) -> tuple[str, ...]:
    """The backends `auto` asks, in turn, of those that run here: in a browser, the kit's own search then
    MiniZinc; a large model (large tables, which ACE reads far faster than Python) to warm ACE first where Java
    runs."""
    if in_browser():
        return BROWSER_ORDER
    order = AUTO_ORDER
    if large and runs("ace"):
        order = ("ace", *(name for name in order if name != "ace"))
    return tuple(name for name in order if name in ("cp-sat", "kit") or runs(name))


def race_order(large: bool, runs: Callable[[str], bool]) -> tuple[str, ...]:
    """The solvers `auto` races on the desktop, of those that run here, in the order they start: CP-SAT first
    (warm ACE first for a large model, where Java runs)."""
    order = tuple(name for name in RACE_ORDER if name == "cp-sat" or runs(name))
    return ("ace", *(name for name in order if name != "ace")) if large and "ace" in order else order
