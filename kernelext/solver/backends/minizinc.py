"""MiniZinc: the system's `minizinc` program, or its WebAssembly in a browser."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import ClassVar

from kernelext.solver.backends.base import Backend, Stop
from kernelext.solver.choice import in_browser
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.errors import SolverError
from kernelext.solver.minizinc.browser import solve_in_browser
from kernelext.solver.minizinc.program import solve_minizinc
from kernelext.solver.result import Cells, SolveResult

MINIZINC_SOLVERS = ("gecode", "chuffed", "highs", "coin-bc")  # those of MiniZinc's WebAssembly


class MiniZinc(Backend):
    """MiniZinc on the compiled model's translation: the system's `minizinc` program, or MiniZinc's WebAssembly
    in a browser; with the owner's `minizinc_solver` (Gecode by default)."""

    name: ClassVar[str] = "minizinc"
    summary: ClassVar[str] = (
        "MiniZinc with Gecode (or the minizinc_solver setting): the system's minizinc "
        "program (apt-get install minizinc), or its WebAssembly in the browser"
    )
    stoppable: ClassVar[bool] = not in_browser()

    @classmethod
    def runs_here(cls, java_found: Callable[[], bool]) -> bool:
        """In a browser (its WebAssembly), or where the `minizinc` program is installed."""
        return in_browser() or shutil.which("minizinc") is not None

    def solve(
        self, model: CompiledModel, cells: Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        if in_browser():
            return solve_in_browser(model, cells, sols=sols, timeout=timeout, solver=self.solver.minizinc_solver)
        return solve_minizinc(model, cells, sols=sols, timeout=timeout, solver=self.solver.minizinc_solver, stop=stop)


def check_minizinc_solver(name: str) -> str:
    """`name` if it names a solver MiniZinc's WebAssembly has, else SolverError listing them."""
    if name not in MINIZINC_SOLVERS:
        raise SolverError(f"Unknown MiniZinc solver {name!r}: use one of {', '.join(MINIZINC_SOLVERS)}.")
    return name
