"""The kit's own search, in pure Python."""

from __future__ import annotations

from typing import ClassVar

from kernelext.solver import ace_output
from kernelext.solver.backends.base import Backend, Stop
from kernelext.solver.choice import in_browser
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.kit_backend import solve_kit
from kernelext.solver.result import SolveResult

# Seconds the kit's own search gets in a browser before MiniZinc is asked: a 9x9 Sudoku takes a few hundredths.
FIRST_IN_BROWSER = 0.5


class Kit(Backend):
    """The kit's own search, in pure Python: propagation at every node, branch and bound for an objective."""

    name: ClassVar[str] = "kit"
    summary: ClassVar[str] = "the kit's own search in pure Python (no Java; the same in the browser)"

    @classmethod
    def budget(cls) -> float:
        """In a browser, where it is asked first, a short while before MiniZinc is asked."""
        return FIRST_IN_BROWSER if in_browser() else float("inf")

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        return solve_kit(model, cells, sols=sols, timeout=timeout)
