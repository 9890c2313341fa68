"""What every backend is: a `name`, a one-line `summary`, and `solve(model, cells, *, sols, timeout, stop) ->
SolveResult` on a compiled model (a CompiledModel of kernelext.solver.compiled: an XCSP3 file, which CP-SAT may
also take as a CP-SAT model). Backends are built with the owner that keeps them (`Backend(owner)`, a Solver of
kernelext.solver.engine), which finds Java and the other backends for them. A backend owns its facts: whether it
runs here, the forms of constraint it is known to answer wrongly on (it is never given them), and how long `auto`
lets it try before asking the next solver."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Protocol

from kernelext.solver.compiled import CompiledModel
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.result import Cells, SolveResult
from kernelext.xcsp.document import parse_file

Stop = threading.Event | None  # a race's stop signal, honoured by the `stoppable` backends
ALL = "all"


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


def known_wrong(model_file: Path, forms: tuple[Form, ...]) -> Form | None:
    """The first of `forms` that the XCSP3 file holds (None if none)."""
    text = model_file.read_text() if forms else ""
    return next((form for form in forms if form.found_in(model_file, text)), None)


class Owner(Protocol):
    """What backends ask of the one that keeps them: another backend, and the Java runtime."""

    minizinc_solver: str
    keep: int

    def backend(self, name: str) -> Backend: ...

    def java(self): ...

    def available(self, name: str) -> bool: ...

    def exclusive(self, name: str, timeout: float, stop: Stop = None) -> AbstractContextManager[float | None]: ...

    def solve(
        self,
        model: CompiledModel,
        cells: Cells,
        *,
        sols: int | str,
        timeout: float,
        backend: str,
        stop: Stop,
    ) -> SolveResult: ...

    def check(self, model: CompiledModel, cells: Cells, result: SolveResult) -> SolveResult: ...


class Backend:
    """What every backend shares: its name and summary, and the owner that built it."""

    name: ClassVar[str]
    summary: ClassVar[str]
    desktop_only: ClassVar[str] = ""  # why it cannot run in a browser's kernel, if it cannot
    needs_java: ClassVar[bool] = False
    stoppable: ClassVar[bool] = False  # whether it ends its search when a race's `stop` is set (auto races it)
    # the forms of constraint it was found to answer wrongly on (extra, repeated or missing solutions): it is
    # never given a model that holds one (docs/reference/solvers.md: "Solver bugs the third solver showed")
    known_wrong: ClassVar[tuple[Form, ...]] = ()

    def __init__(self, solver: Owner):
        self.solver = solver

    @classmethod
    def runs_here(cls, java_found: Callable[[], bool]) -> bool:
        """Whether it can run here (a backend that needs Java, where `java_found()`)."""
        return not cls.needs_java or java_found()

    @classmethod
    def budget(cls) -> float:
        """The most seconds `auto` gives it before asking the next solver (all the time left, unless it says)."""
        return float("inf")

    @classmethod
    def refuse_known_wrong(cls, model: CompiledModel) -> None:
        """BackendUnsupported naming the form when the model holds one it is known to answer wrongly on."""
        form = known_wrong(model.path(), cls.known_wrong)
        if form is not None:
            raise BackendUnsupported(f"{cls.name} is known to answer wrong on {form}: use --solver cp-sat or minizinc")

    def solve(
        self, model: CompiledModel, cells: Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the backend keeps between solves (nothing, unless it says otherwise)."""
