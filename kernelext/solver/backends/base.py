"""What every backend is: a `name`, a one-line `summary`, and `solve(model, cells, *, sols, timeout, stop) ->
SolveResult` on a compiled model (a CompiledModel of kernelext.solver.compiled: an XCSP3 file, which CP-SAT may
also take as a CP-SAT model). Backends are built with the owner that keeps them (`Backend(owner)`, a Solver of
kernelext.solver.engine), which finds Java and the other backends for them."""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager
from typing import ClassVar, Protocol

from kernelext.solver import ace_output
from kernelext.solver.choice import known_wrong
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.result import SolveResult

Stop = threading.Event | None  # a race's stop signal, honoured by the `stoppable` backends
ALL = "all"


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
        cells: ace_output.Cells,
        *,
        sols: int | str,
        timeout: float,
        backend: str,
        stop: Stop,
    ) -> SolveResult: ...

    def check(self, model: CompiledModel, cells: ace_output.Cells, result: SolveResult) -> SolveResult: ...


class Backend:
    """What every backend shares: its name and summary, and the owner that built it."""

    name: ClassVar[str]
    summary: ClassVar[str]
    desktop_only: ClassVar[str] = ""  # why it cannot run in a browser's kernel, if it cannot
    needs_java: ClassVar[bool] = False
    stoppable: ClassVar[bool] = False  # whether it ends its search when a race's `stop` is set (auto races it)

    def __init__(self, solver: Owner):
        self.solver = solver

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the backend keeps between solves (nothing, unless it says otherwise)."""


def refuse_known_wrong(model: CompiledModel, solver: str) -> None:
    """BackendUnsupported naming the constraint when `solver` is known to give wrong answers on one the model
    holds (docs/reference/solvers.md: "Solver bugs the third solver showed")."""
    form = known_wrong(model.path(), solver)
    if form is not None:
        raise BackendUnsupported(f"{solver} is known to answer wrong on {form}: use --solver cp-sat or minizinc")
