"""The solvers the kit can use: one protocol (`base.Backend`), one module per backend, one registry (which of them
answers: kernelext.solver.choice). The kit checks every answer a backend gives (Solver.solve). Add a backend by
adding a module with its class and the class to BACKENDS: `--solver`, its help, the `solver` trait and the
agreement tests are built from it."""

from __future__ import annotations

from types import MappingProxyType

from kernelext.solver.backends.ace import AceCold, AceWarm
from kernelext.solver.backends.auto import Auto
from kernelext.solver.backends.choco import Choco
from kernelext.solver.backends.cpsat import CpSat
from kernelext.solver.backends.kit import Kit
from kernelext.solver.backends.minizinc import MiniZinc
from kernelext.solver.backends.ortools import OrTools
from kernelext.solver.errors import SolverError

BACKENDS = MappingProxyType(
    {backend.name: backend for backend in (AceWarm, AceCold, Choco, OrTools, CpSat, Kit, MiniZinc, Auto)}
)


def check_backend(name: str) -> str:
    """`name` if it names a backend, else SolverError listing them."""
    if name not in BACKENDS:
        raise SolverError(f"Unknown solver {name!r}: use one of {', '.join(BACKENDS)}.")
    return name


def backends_help() -> str:
    """The backends in one line, for `--solver` and the `solver` trait."""
    return "; ".join(f"{name}: {backend.summary}" for name, backend in BACKENDS.items())
