"""One entry point for solving a compiled model with the backend asked for."""

from __future__ import annotations

import re
import time
from pathlib import Path

from kernelext.errors import ModelRejected
from kernelext.solver import ace_output
from kernelext.solver.cold import run_java
from kernelext.solver.errors import SolverError, WorkerCrashed
from kernelext.solver.result import SolveResult

BACKENDS = ("ace", "ace-cold", "choco", "ortools", "auto")
ALL = "all"


def ace_jar() -> str:
    from pycsp3.solvers.ace import ACE_CP

    return ACE_CP


def choco_jar() -> str:
    from pycsp3.solvers.choco import CHOCO_CP

    return CHOCO_CP


class Solver:
    """Solves XCSP3 files; keeps ACE warm in a worker JVM between solves.

    Backends: "ace" (warm worker JVM), "ace-cold" (a new JVM per solve), "choco" (cold), "ortools"
    (CP-SAT in this process), "auto" (OR-Tools when it can read the model, else warm ACE).

    Arguments:
        backend: the default backend, one of BACKENDS.
    """

    def __init__(self, backend: str = "ace"):
        self.backend = check_backend(backend)
        self._warm = None
        self._java = None

    def solve(self, model: Path, cells: ace_output.Cells, *, sols: int | str = 1, timeout: float = 10.0,
              backend: str | None = None) -> SolveResult:
        """Solve the XCSP3 file `model`; `cells` names each array's variables (to read solutions).

        Arguments:
            sols: how many solutions to look for (an int, or "all").
            timeout: seconds before the search stops (the best solution so far is kept).
            backend: overrides the default backend for this solve.
        Returns:
            a SolveResult.
        """
        backend = check_backend(backend or self.backend)
        if backend in ("ortools", "auto"):
            from kernelext.solver.ortools_backend import BackendUnsupported, solve_ortools

            try:
                return solve_ortools(model, cells, sols=sols, timeout=timeout)
            except BackendUnsupported:
                if backend == "ortools":
                    raise
            backend = "ace"  # auto: ACE takes what OR-Tools cannot
        if backend == "choco":
            return self._solve_choco(model, cells, sols, timeout)
        args = [str(model), f"-t={max(1, int(timeout * 1000))}", *_ace_solution_args(sols)]
        if backend == "ace":
            try:
                return self._solve_warm(args, cells, timeout)
            except WorkerCrashed:
                pass  # the cold run below tells a rejected model from a worker that died
        start = time.perf_counter()
        run = run_java(str(self._java_runtime().java_executable), ["-jar", ace_jar()], args, timeout=timeout + 5)
        _check_accepted(run.output, run.stopped)
        return ace_output.parse(run.output, cells, backend="ace-cold", time=time.perf_counter() - start,
                                stopped=run.stopped or _timed_out(run.output))

    def domains(self, model: Path, timeout: float = 10.0) -> dict[str, tuple[int, ...]]:
        """Each variable's values after ACE's propagation at the root of `model` (no search), by variable id.

        An empty tuple is a wiped-out domain; variables in no constraint may be missing. Always warm ACE.
        """
        return self._warm_ace().domains([str(model)], timeout)

    def search_tree(self, model: Path, *, nodes: int, sols: int | str = ALL, timeout: float = 10.0):
        """Solve `model` with warm ACE recording its first `nodes` decisions: an AceTree.

        The search runs without restarts (one run, no cutoff), so that it is one tree.
        """
        args = [str(model), f"-t={max(1, int(timeout * 1000))}", "-r_n=1", "-r_c=1000000000", *_ace_solution_args(sols)]
        return self._warm_ace().tree(args, nodes, timeout)

    def _warm_ace(self):
        from kernelext.solver.warm import WarmAce

        if self._warm is None:
            self._warm = WarmAce(self._java_runtime())
        return self._warm

    def _solve_warm(self, args: list[str], cells: ace_output.Cells, timeout: float) -> SolveResult:
        from kernelext.solver.warm import WarmAce

        if self._warm is None:
            self._warm = WarmAce(self._java_runtime())
        start = time.perf_counter()
        run = self._warm.run(args, timeout=timeout)
        stopped = "interrupted" if run.interrupted else _timed_out(run.output)
        return ace_output.parse(run.output, cells, backend="ace-warm", time=time.perf_counter() - start, stopped=stopped)

    def _solve_choco(self, model: Path, cells: ace_output.Cells, sols: int | str, timeout: float) -> SolveResult:
        args = [str(model), f"-limit=[{max(1, int(timeout))}s]"]
        if sols == ALL or (isinstance(sols, int) and sols > 1):
            args.append("-a")
        start = time.perf_counter()
        run = run_java(str(self._java_runtime().java_executable),
                       ["-cp", choco_jar(), "org.chocosolver.parser.xcsp.ChocoXCSP"], args, timeout=timeout + 5)
        result = ace_output.parse(run.output, cells, backend="choco", time=time.perf_counter() - start,
                                  stopped=run.stopped)
        if isinstance(sols, int) and len(result.solutions) > sols:
            from dataclasses import replace

            result = replace(result, solutions=result.solutions[:sols])
        return result

    def _java_runtime(self):
        from kernelext.solver.java import find_java

        if self._java is None:
            self._java = find_java()
        return self._java

    def close(self) -> None:
        """Stop the warm worker, if one runs."""
        if self._warm is not None:
            self._warm.close()
            self._warm = None


def check_backend(name: str) -> str:
    if name not in BACKENDS:
        raise SolverError(f"Unknown solver {name!r}: use one of {', '.join(BACKENDS)}.")
    return name


def _ace_solution_args(sols: int | str) -> list[str]:
    if sols == ALL:
        return ["-s=all", "-xe", "-xc=false"]
    if sols > 1:
        return [f"-s={sols}", "-xe", "-xc=false"]
    return []


def _check_accepted(output: str, stopped: str) -> None:
    """Raise ModelRejected when the solver stopped on an error of its own, with no verdict."""
    if stopped or re.search(r"^\s*s [A-Z]", ace_output.strip_colours(output), re.M):
        return
    lines = [line.strip() for line in ace_output.strip_colours(output).splitlines() if line.strip()]
    found = [k for k, line in enumerate(lines) if "Exception" in line or "ERROR" in line.upper()]
    detail = "no answer"
    if found:
        k = found[0]
        detail = " ".join(lines[k:k + 2]) if lines[k].endswith("ERROR:") else lines[k]  # ACE: "! ERROR:", then the text
    raise ModelRejected(f"The solver rejected the model ({detail[:150]}).\n"
                        "Check the types and values in this step's constraints, then run it again.")


def _timed_out(output: str) -> str:
    """"timeout" when ACE says it stopped on its time limit."""
    stop = re.search(r"stop:(\w+)", output)
    return "timeout" if stop and "TIME" in stop.group(1) else ""
