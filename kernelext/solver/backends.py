"""The solvers the kit can use: one protocol, one registry.

A backend is a subclass of Backend with a `name`, a one-line `summary`, the `capabilities` it offers beyond
solving, and `solve(model, cells, *, sols, timeout) -> SolveResult` on a compiled model (a CompiledModel of
kernelext.solver.compiled: an XCSP3 file, which CP-SAT may also take as a CP-SAT model). Capabilities, on files:
  - "domains": `domains(model, timeout)`, each variable's values after root propagation (pencil marks, hints);
  - "tree": `tree(model, *, nodes, sols, timeout)`, a solve that records its search tree;
  - "cores": fast repeated solves of sub-models (explanations look for conflicts that way).
Backends are built with the owner that keeps them (`Backend(owner)`, a Solver of kernelext.solver.engine),
which finds Java and the other backends for them. Add a backend by adding a class to BACKENDS: `--solver`, its help, the `solver` trait
and the agreement tests are built from it.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import ClassVar, Protocol

from kernelext.errors import ModelRejected
from kernelext.solver import ace_output
from kernelext.solver.cold import run_java
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.cpmpy_backend import solve_ortools
from kernelext.solver.cpsat_backend import solve_cpsat
from kernelext.solver.errors import BackendUnsupported, SolverError, WorkerCrashed
from kernelext.solver.jars import ace_jar, choco_jar
from kernelext.solver.minizinc_browser import in_browser, solve_in_browser
from kernelext.solver.minizinc_program import solve_minizinc
from kernelext.solver.result import SolveResult
from kernelext.solver.warm import WarmAce

ALL = "all"
MINIZINC_SOLVERS = ("gecode", "chuffed", "highs", "coin-bc")  # those of MiniZinc's WebAssembly
# ACE's nogood base holds 1,000,000 nogoods by default: an array of 4 MB made for every solve, which costs a
# garbage collection each time in a worker's small heap. Classroom searches record far fewer nogoods; past this
# limit ACE records no more, which can slow a search but never changes its answers.
NOGOOD_LIMIT = "-ngbl=10000"


class Owner(Protocol):
    """What backends ask of the one that keeps them: another backend, and the Java runtime."""

    minizinc_solver: str

    def backend(self, name: str) -> Backend: ...

    def java(self): ...


class Backend:
    """What every backend shares: its name, summary and capabilities, and the owner that built it."""

    name: ClassVar[str]
    summary: ClassVar[str]
    capabilities: ClassVar[frozenset[str]] = frozenset()
    desktop_only: ClassVar[str] = ""  # why it cannot run in a browser's kernel, if it cannot

    def __init__(self, solver: Owner):
        self.solver = solver

    def solve(self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float) -> SolveResult:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the backend keeps between solves (nothing, unless it says otherwise)."""


class AceWarm(Backend):
    """ACE in a worker JVM kept warm between solves."""

    name: ClassVar[str] = "ace"
    summary: ClassVar[str] = "ACE in a worker JVM kept warm between solves"
    desktop_only: ClassVar[str] = "it runs on Java, which a browser has not"
    capabilities: ClassVar[frozenset[str]] = frozenset({"domains", "tree", "cores"})

    def __init__(self, solver: Owner):
        super().__init__(solver)
        self._worker = None

    def solve(self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float) -> SolveResult:
        start = time.perf_counter()
        try:
            run = self.worker().run(ace_args(model.path(), sols, timeout), timeout=timeout)
        except WorkerCrashed:  # a cold run tells a model ACE rejects from a worker that died
            return self.solver.backend("ace-cold").solve(model, cells, sols=sols, timeout=timeout)
        stopped = "interrupted" if run.interrupted else "timeout" if run.out_of_time else _timed_out(run.output)
        return ace_output.parse(run.output, cells, backend="ace-warm", time=time.perf_counter() - start, stopped=stopped)

    def domains(self, model: Path, timeout: float) -> dict[str, tuple[int, ...]]:
        return self.worker().domains([str(model), NOGOOD_LIMIT], timeout)

    def tree(self, model: Path, *, nodes: int, sols: int | str, timeout: float):
        """The search runs without restarts (one run, no cutoff), so that it is one tree."""
        args = [*ace_args(model, sols, timeout), "-r_n=1", "-r_c=1000000000"]
        return self.worker().tree(args, nodes, timeout)

    def worker(self):
        """The warm worker, started on first use."""
        if self._worker is None:
            self._worker = WarmAce(self.solver.java())
        return self._worker

    @property
    def pid(self) -> int | None:
        return self._worker.pid if self._worker is not None else None

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


class AceCold(Backend):
    """ACE in a new JVM for each solve."""

    name: ClassVar[str] = "ace-cold"
    summary: ClassVar[str] = "ACE in a new JVM for each solve"
    desktop_only: ClassVar[str] = "it runs on Java, which a browser has not"

    def solve(self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float) -> SolveResult:
        start = time.perf_counter()
        run = run_java(str(self.solver.java().java_executable), ["-jar", str(ace_jar())],
                       ace_args(model.path(), sols, timeout), timeout=timeout + 5)
        _check_accepted(run.output, run.stopped)
        return ace_output.parse(run.output, cells, backend="ace-cold", time=time.perf_counter() - start,
                                stopped=run.stopped or _timed_out(run.output))


class Choco(Backend):
    """Choco in a new JVM for each solve."""

    name: ClassVar[str] = "choco"
    summary: ClassVar[str] = "Choco in a new JVM for each solve"
    desktop_only: ClassVar[str] = "it runs on Java, which a browser has not"

    def solve(self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float) -> SolveResult:
        args = [str(model.path()), f"-limit=[{max(1, int(timeout))}s]"]
        if sols == ALL or sols > 1:
            args.append("-a")
        start = time.perf_counter()
        run = run_java(str(self.solver.java().java_executable),
                       ["-cp", str(choco_jar()), "org.chocosolver.parser.xcsp.ChocoXCSP"], args, timeout=timeout + 5)
        result = ace_output.parse(run.output, cells, backend="choco", time=time.perf_counter() - start,
                                  stopped=run.stopped)
        if sols != ALL and len(result.solutions) > sols:
            result = replace(result, solutions=result.solutions[:sols])
        return result


class OrTools(Backend):
    """OR-Tools CP-SAT in the kernel's own process (through CPMpy's XCSP3 reader)."""

    name: ClassVar[str] = "ortools"
    summary: ClassVar[str] = "OR-Tools CP-SAT in this process (needs cpmpy and ortools)"
    desktop_only: ClassVar[str] = "OR-Tools is built for desktops, not for a browser"

    def solve(self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float) -> SolveResult:
        return solve_ortools(model.path(), cells, sols=sols, timeout=timeout)


class CpSat(Backend):
    """OR-Tools CP-SAT in the kernel's own process, reading the XCSP3 file directly."""

    name: ClassVar[str] = "cp-sat"
    summary: ClassVar[str] = "OR-Tools CP-SAT in this process, on the constraints it reads directly"
    desktop_only: ClassVar[str] = "OR-Tools is built for desktops, not for a browser"

    def solve(self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float) -> SolveResult:
        return solve_cpsat(model, cells, sols=sols, timeout=timeout)


class MiniZinc(Backend):
    """MiniZinc on the compiled model's translation: the system's `minizinc` program, or MiniZinc's WebAssembly
    in a browser; with the owner's `minizinc_solver` (Gecode by default)."""

    name: ClassVar[str] = "minizinc"
    summary: ClassVar[str] = ("MiniZinc with Gecode (or the minizinc_solver setting): the system's minizinc "
                              "program (apt-get install minizinc), or its WebAssembly in the browser")

    def solve(self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float) -> SolveResult:
        solve = solve_in_browser if in_browser() else solve_minizinc
        return solve(model, cells, sols=sols, timeout=timeout, solver=self.solver.minizinc_solver)


class Auto(Backend):
    """Chosen at each solve: CP-SAT for a satisfaction model it reads directly, warm ACE for the others;
    MiniZinc in a browser.

    Optimisation goes to ACE: CP-SAT with its one search worker (which keeps answers the same from run to
    run) is several times slower than ACE in reaching and proving an optimum (Numberlink 10x10).
    """

    name: ClassVar[str] = "auto"
    summary: ClassVar[str] = ("CP-SAT for a satisfaction step it reads directly, else warm ACE; MiniZinc in the "
                              "browser (the default)")

    def solve(self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float) -> SolveResult:
        if in_browser():
            return self.solver.backend("minizinc").solve(model, cells, sols=sols, timeout=timeout)
        started = time.monotonic()
        if not model.optimises():
            try:
                return self.solver.backend("cp-sat").solve(model, cells, sols=sols, timeout=timeout)
            except BackendUnsupported:
                pass
        left = max(0.01, timeout - (time.monotonic() - started))  # reading the model counts
        return self.solver.backend("ace").solve(model, cells, sols=sols, timeout=left)


BACKENDS = MappingProxyType({backend.name: backend
                             for backend in (AceWarm, AceCold, Choco, OrTools, CpSat, MiniZinc, Auto)})


def check_backend(name: str) -> str:
    """`name` if it names a backend, else SolverError listing them."""
    if name not in BACKENDS:
        raise SolverError(f"Unknown solver {name!r}: use one of {', '.join(BACKENDS)}.")
    return name


def check_minizinc_solver(name: str) -> str:
    """`name` if it names a solver MiniZinc's WebAssembly has, else SolverError listing them."""
    if name not in MINIZINC_SOLVERS:
        raise SolverError(f"Unknown MiniZinc solver {name!r}: use one of {', '.join(MINIZINC_SOLVERS)}.")
    return name


def backends_help() -> str:
    """The backends in one line, for `--solver` and the `solver` trait."""
    return "; ".join(f"{name}: {backend.summary}" for name, backend in BACKENDS.items())


def ace_args(model: Path, sols: int | str, timeout: float) -> list[str]:
    """ACE's arguments: the model, the time limit and how many solutions to look for."""
    args = [str(model), f"-t={max(1, int(timeout * 1000))}", NOGOOD_LIMIT]
    if sols == ALL:
        return [*args, "-s=all", "-xe", "-xc=false"]
    if sols > 1:
        return [*args, f"-s={sols}", "-xe", "-xc=false"]
    return args


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
