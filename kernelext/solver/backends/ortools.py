"""OR-Tools CP-SAT, in the kernel's own process, on the compiled XCSP3 file (read through CPMpy)."""

from __future__ import annotations

import signal
import threading
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType
from typing import ClassVar

from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.solver.backends.base import Backend, Form, Stop
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.result import Cells, SolveResult, Status


def solve_ortools(model: Path, cells: Cells, *, sols: int | str, timeout: float) -> SolveResult:
    """Solve `model` with CP-SAT (one worker, so that answers are the same from run to run), within `timeout`
    seconds of wall time from the call (reading the model counts)."""
    called = time.perf_counter()
    cp_model = _read(model)
    start = time.perf_counter()
    timeout = max(0.01, timeout - (start - called))
    variables = _variables(cp_model)
    found = []

    def keep():
        found.append(_solution(variables, cells))

    try:
        with _python_keeps_sigint():
            _search(cp_model, sols, timeout, keep)
    except KeyboardInterrupt:
        return SolveResult(
            Status.UNKNOWN, tuple(found), time=time.perf_counter() - start, backend="ortools", stopped="interrupted"
        )
    except Exception as error:  # CPMpy raises plain exceptions for models OR-Tools finds invalid
        raise BackendUnsupported(
            f"OR-Tools through CPMpy refused the model ({' '.join(str(error).split())})"[:160]
        ) from None
    elapsed = time.perf_counter() - start
    status, stopped = _status(cp_model, bool(found))
    bound = int(cp_model.objective_value()) if cp_model.has_objective() and found else None
    progress = ((elapsed, bound),) if bound is not None else ()
    stats = MappingProxyType({"solutions": str(len(found))})
    return SolveResult(status, tuple(found), bound, progress, elapsed, "ortools", stats, stopped)


def _search(cp_model, sols: int | str, timeout: float, keep) -> None:
    """Search for one solution (or the optimum), else for `sols` solutions, calling `keep` on each."""
    if sols == 1 or cp_model.has_objective():
        if cp_model.solve(solver="ortools", time_limit=timeout, num_workers=1):
            keep()
    else:
        limit = None if sols == "all" else int(sols)
        cp_model.solveAll(solver="ortools", time_limit=timeout, solution_limit=limit, display=keep, num_workers=1)


@contextmanager
def _python_keeps_sigint():
    """CP-SAT takes SIGINT while it searches (the kernel's Stop ends its search) and leaves its own handler
    behind, after which a Stop would end the kernel: Python's handler is set again afterwards."""
    handler = signal.getsignal(signal.SIGINT)
    try:
        yield
    finally:
        if handler is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, handler)


def _read(model: Path):
    """The model as CPMpy objects (pycsp3's XCSP3 parser, which CPMpy uses, needs plain operators)."""
    with plain_operators():
        try:
            from cpmpy.tools.xcsp3 import read_xcsp3

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return read_xcsp3(str(model))
        except ImportError:
            raise BackendUnsupported(
                "OR-Tools is not installed: pip install cpmpy ortools (or use --solver ace)."
            ) from None
        except SystemExit:  # pycsp3's parser, which CPMpy uses, exits on a constraint CPMpy does not take
            raise BackendUnsupported(
                "OR-Tools cannot read this model (CPMpy does not take one of its constraints)"
            ) from None
        except Exception as error:
            raise BackendUnsupported(
                f"OR-Tools cannot read this model ({type(error).__name__}: {error})"[:200]
            ) from None


def _variables(cp_model) -> dict:
    from cpmpy.transformations.get_variables import get_variables_model

    return {v.name: v for v in get_variables_model(cp_model)}


def _solution(variables: dict, cells: Cells):
    values = {}
    for array in cells.values():
        for _, vid in array:
            if vid is None:
                continue
            variable = variables.get(vid)
            value = variable.value() if variable is not None else None
            values[vid] = None if value is None else int(value)
    return MappingProxyType(values)


def _status(cp_model, found: bool) -> tuple[Status, str]:
    from cpmpy.solvers.solver_interface import ExitStatus

    exit_status = cp_model.status().exitstatus
    if exit_status == ExitStatus.UNSATISFIABLE:
        return Status.UNSAT, ""
    if exit_status == ExitStatus.OPTIMAL:
        return (Status.OPTIMUM if cp_model.has_objective() else Status.SAT), ""
    if found:
        return Status.SAT, ("timeout" if cp_model.has_objective() else "")
    return Status.UNKNOWN, "timeout"


class OrTools(Backend):
    """OR-Tools CP-SAT in the kernel's own process (through CPMpy's XCSP3 reader)."""

    name: ClassVar[str] = "ortools"
    summary: ClassVar[str] = "OR-Tools CP-SAT in this process (needs cpmpy and ortools)"
    desktop_only: ClassVar[str] = "OR-Tools is built for desktops, not for a browser"
    known_wrong: ClassVar[tuple[Form, ...]] = (Form("circuit"),)  # CPMpy's circuit misses those without node 0

    def solve(
        self, model: CompiledModel, cells: Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        self.refuse_known_wrong(model)
        return solve_ortools(model.path(), cells, sols=sols, timeout=timeout)
