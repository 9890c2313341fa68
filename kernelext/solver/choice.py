"""Which solver answers: the backends that can run here (Java, the `minizinc` program, a browser), the order in
which `auto` asks or races them, and the solvers never given a model they are known to answer wrongly on."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kernelext.xcsp.document import parse_file


@dataclass(frozen=True)
class Form:
    """A constraint tag, or only those of its elements that hold every one of `children` (its form)."""

    tag: str
    children: tuple[str, ...] = ()

    def __str__(self) -> str:
        children = " and ".join(f"<{child}>" for child in self.children)
        return f"<{self.tag}> with {children}" if children else f"<{self.tag}>"

    def matches(self, element) -> bool:
        """Whether the constraint `element` is of this form."""
        return element.tag == self.tag and all(element.find(child) is not None for child in self.children)

    def found_in(self, model_file: Path, text: str) -> bool:
        """Whether the XCSP3 file (its `text`) holds a constraint of this form, in a group or not."""
        if f"<{self.tag}" not in text:
            return False
        return not self.children or any(self.matches(element) for element in parse_file(model_file).iter(self.tag))


# The forms of constraint a solver was found to answer wrongly on (extra, repeated or missing solutions, circuits
# missed): it is never given a model that holds one.
KNOWN_WRONG = {
    "ace": (Form("nValues"), Form("noOverlap")),
    "ortools": (Form("circuit"),),
    "choco": (Form("binPacking"), Form("maximumArg"), Form("allDifferent", ("matrix", "except"))),
}
AUTO_ORDER = ("cp-sat", "minizinc", "ace", "kit")  # CP-SAT in this process first, then MiniZinc, warm ACE, the kit
# The solvers `auto` races (kernelext.solver.portfolio), strongest first: on the PyCSP3-models collection within
# 3 s, CP-SAT finished 153 models, ACE 124 and MiniZinc 116, each some that the others did not.
RACE_ORDER = ("cp-sat", "ace", "minizinc")
BROWSER_ORDER = ("kit", "minizinc")  # the kit's own search answers small puzzles before MiniZinc has started
# Seconds the kit's own search gets in a browser before MiniZinc is asked: a 9x9 Sudoku takes a few hundredths.
KIT_FIRST = 0.5


def in_browser() -> bool:
    """Whether the kit runs in a browser's Python (Pyodide): MiniZinc's WebAssembly is then the one solver."""
    return sys.platform == "emscripten"


def runs_here(name: str, needs_java: bool, java_found: Callable[[], bool]) -> bool:
    """Whether the backend `name` can run here: MiniZinc needs its program (or a browser), the JVM backends Java."""
    if name == "minizinc":
        return in_browser() or shutil.which("minizinc") is not None
    return not needs_java or java_found()


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


def budget(name: str) -> float:
    """The most seconds `auto` gives the backend `name` before asking the next one (the kit's own search is
    asked first only in a browser, for a short while; every other backend may use the whole time left)."""
    return KIT_FIRST if name == "kit" and in_browser() else float("inf")


def known_wrong(model_file: Path, solver: str) -> Form | None:
    """The first form of constraint in the XCSP3 file that `solver` is known to answer wrongly on (None if none)."""
    wrong = KNOWN_WRONG.get(solver, ())
    text = model_file.read_text() if wrong else ""
    return next((form for form in wrong if form.found_in(model_file, text)), None)
