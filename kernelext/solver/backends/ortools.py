"""OR-Tools CP-SAT through CPMpy's XCSP3 reader."""

from __future__ import annotations

from typing import ClassVar

from kernelext.solver import ace_output
from kernelext.solver.backends.base import Backend, Form, Stop
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.cpmpy_backend import solve_ortools
from kernelext.solver.result import SolveResult


class OrTools(Backend):
    """OR-Tools CP-SAT in the kernel's own process (through CPMpy's XCSP3 reader)."""

    name: ClassVar[str] = "ortools"
    summary: ClassVar[str] = "OR-Tools CP-SAT in this process (needs cpmpy and ortools)"
    desktop_only: ClassVar[str] = "OR-Tools is built for desktops, not for a browser"
    known_wrong: ClassVar[tuple[Form, ...]] = (Form("circuit"),)  # CPMpy's circuit misses those without node 0

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        self.refuse_known_wrong(model)
        return solve_ortools(model.path(), cells, sols=sols, timeout=timeout)
