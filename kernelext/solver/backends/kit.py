"""The kit's own search, in pure Python."""

from __future__ import annotations

from typing import ClassVar

from kernelext.solver import ace_output
from kernelext.solver.backends.base import Backend, Stop
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.kit_backend import solve_kit
from kernelext.solver.result import SolveResult


class Kit(Backend):
    """The kit's own search, in pure Python: propagation at every node, branch and bound for an objective."""

    name: ClassVar[str] = "kit"
    summary: ClassVar[str] = "the kit's own search in pure Python (no Java; the same in the browser)"

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        return solve_kit(model, cells, sols=sols, timeout=timeout)
