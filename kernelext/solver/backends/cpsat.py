"""OR-Tools CP-SAT in the kernel's own process, on the kit's own reading of the model."""

from __future__ import annotations

from typing import ClassVar

from kernelext.solver import ace_output
from kernelext.solver.backends.base import Backend, Stop
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.cpsat_backend import solve_cpsat
from kernelext.solver.result import SolveResult


class CpSat(Backend):
    """OR-Tools CP-SAT in the kernel's own process, reading the XCSP3 file directly."""

    name: ClassVar[str] = "cp-sat"
    summary: ClassVar[str] = "OR-Tools CP-SAT in this process, on the constraints it reads directly"
    desktop_only: ClassVar[str] = "OR-Tools is built for desktops, not for a browser"
    stoppable: ClassVar[bool] = True

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        return solve_cpsat(model, cells, sols=sols, timeout=timeout, stop=stop, keep=self.solver.keep)
