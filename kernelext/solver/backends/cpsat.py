"""OR-Tools CP-SAT in the kernel's own process, on the compiled model read directly (see kernelext.solver.cpsat.reader).

One search worker and CP-SAT's fixed seed, so that the same model gives the same solutions in every run.
The search runs on a thread of its own: the kernel's Stop (KeyboardInterrupt), the wall-clock limit and a
race's stop signal (kernelext.solver.portfolio) all stop it at once.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from types import MappingProxyType
from typing import ClassVar

from kernelext.errors import ReadingStopped
from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.solver.backends.base import Backend, Stop
from kernelext.solver.compiled import CompiledModel, compiled, holes_of
from kernelext.solver.cpsat.module import cp_model, required_cp_model
from kernelext.solver.cpsat.reader import Translated
from kernelext.solver.cpsat.search import run_search
from kernelext.solver.portfolio import StopAt
from kernelext.solver.result import Cells, SolveResult, Status


def solve_cpsat(
    model: Path | CompiledModel,
    cells: Cells,
    *,
    sols: int | str,
    timeout: float,
    stop: threading.Event | None = None,
    objective_at: int | None = None,
    keep: int | None = None,
    work: float | None = None,
) -> SolveResult:
    """Solve `model` within `timeout` seconds of wall time from the call (reading the model counts).

    Arguments:
        stop: ends the search when set (a race was decided).
        objective_at: a value the objective is held at, the objective dropped: the first solution found is
            then the one optimal solution CP-SAT shows for that value, whichever solver proved it optimal.
        keep: the most solutions kept (None: all); the others are only counted (`more`).
        work: a limit in CP-SAT's deterministic time, which counts work, the same on a busy machine as on a
            quiet one (the wall-clock `timeout` still holds).
    Raises:
        BackendUnsupported: the model uses something the direct reading does not translate.
    """
    called = time.perf_counter()
    holes = holes_of(cells)
    try:
        with plain_operators():  # pycsp3's `in` on tuples and sets is slow, and the reading uses it
            translated = compiled(model).cp_sat(holes, StopAt(called + timeout, stop))
    except KeyboardInterrupt:
        return SolveResult(Status.UNKNOWN, time=time.perf_counter() - called, backend="cp-sat", stopped="interrupted")
    except ReadingStopped:
        return SolveResult(Status.UNKNOWN, time=time.perf_counter() - called, backend="cp-sat", stopped="timeout")
    if objective_at is not None and translated.objective:
        translated = _held_at(translated, objective_at)
    solver = required_cp_model().CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False  # Stop is a KeyboardInterrupt here, which stops the thread
    solver.parameters.max_time_in_seconds = max(0.001, timeout - (time.perf_counter() - called))
    if work is not None:
        solver.parameters.max_deterministic_time = work
    limit = None if translated.objective or sols == "all" else int(sols)
    solver.parameters.enumerate_all_solutions = limit != 1 and not translated.objective
    recorder = _Recorder(translated.variables, cells, limit, called, None if translated.objective else keep)
    callback = recorder.callback(cp_model())
    recorder.status, stopped = run_search(solver, translated.model, callback, deadline=called + timeout, stop=stop)
    elapsed = time.perf_counter() - called
    name = solver.StatusName(recorder.status) if recorder.status is not None else None
    status, reason = _status(
        name,
        bool(recorder.found),
        complete=limit is not None and len(recorder.found) + recorder.more >= limit,
        objective=translated.objective,
    )
    bound = recorder.bounds[-1][1] if translated.objective and recorder.found else None
    ended = recorder.status is not None  # else the search has not yet answered the stop request
    stats = MappingProxyType(
        {
            "solutions": str(len(recorder.found) + recorder.more),
            "search seconds": f"{solver.WallTime() if ended else elapsed:.4f}",
        }
    )
    solutions = tuple(recorder.found[-1:] if translated.objective else recorder.found)  # optimising: the best
    return SolveResult(
        status,
        solutions,
        bound,
        tuple(recorder.bounds) if translated.objective else (),
        elapsed,
        "cp-sat",
        stats,
        stopped or reason,
        more=recorder.more,
    )


class _Recorder:
    """Keeps each solution CP-SAT reports (for an objective, each improving one) as {variable id: value}."""

    def __init__(self, variables: dict, cells: Cells, limit: int | None, start: float, keep: int | None):
        self.variables, self.cells, self.limit, self.start, self.keep = variables, cells, limit, start, keep
        self.found: list = []
        self.more = 0  # solutions found past `keep`: counted only
        self.bounds: list[tuple[float, int]] = []
        self.status = None

    def callback(self, cp_model):
        recorder = self

        class Callback(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                if recorder.keep is not None and len(recorder.found) >= recorder.keep:
                    recorder.more += 1
                    if recorder.limit is not None and len(recorder.found) + recorder.more >= recorder.limit:
                        self.StopSearch()
                    return
                values = {}
                for array in recorder.cells.values():
                    for _, vid in array:
                        if vid is not None:
                            variable = recorder.variables.get(vid)
                            values[vid] = None if variable is None else int(self.Value(variable))
                recorder.found.append(MappingProxyType(values))
                recorder.bounds.append((time.perf_counter() - recorder.start, int(self.ObjectiveValue())))
                if recorder.limit is not None and len(recorder.found) >= recorder.limit:
                    self.StopSearch()

        return Callback()


def _held_at(translated: Translated, value: int) -> Translated:
    """A copy of `translated` without its objective, which is held at `value` instead."""
    model = translated.model.clone()
    objective = model.Proto().objective
    scale = objective.scaling_factor or 1  # the objective's value is scale * (sum of coeffs * vars + offset)
    terms = sum(coeff * model.GetIntVarFromProtoIndex(var) for var, coeff in zip(objective.vars, objective.coeffs))
    model.clear_objective()
    model.Add(terms == round(value / scale - objective.offset))
    return Translated(model, translated.variables, objective=False)  # the same variables, by index


def _status(name: str | None, found: bool, complete: bool, objective: bool) -> tuple[Status, str]:
    """The result's status and, when the search ended before it had finished, "timeout".

    `complete`: the solutions asked for were all found (the search was stopped on purpose).
    """
    if name == "INFEASIBLE":
        return Status.UNSAT, ""
    if name == "OPTIMAL":
        return (Status.OPTIMUM if objective else Status.SAT), ""
    if found:
        return Status.SAT, ("" if complete else "timeout")
    return Status.UNKNOWN, "timeout"


class CpSat(Backend):
    """OR-Tools CP-SAT in the kernel's own process, reading the XCSP3 file directly."""

    name: ClassVar[str] = "cp-sat"
    summary: ClassVar[str] = "OR-Tools CP-SAT in this process, on the constraints it reads directly"
    desktop_only: ClassVar[str] = "OR-Tools is built for desktops, not for a browser"
    stoppable: ClassVar[bool] = True

    def solve(
        self, model: CompiledModel, cells: Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        return solve_cpsat(model, cells, sols=sols, timeout=timeout, stop=stop, keep=self.solver.keep)
