"""The solvers the kit can use: one protocol, one registry (which of them answers: kernelext.solver.choice).

A backend is a subclass of Backend with a `name`, a one-line `summary`, and `solve(model, cells, *, sols,
timeout, stop) -> SolveResult` on a compiled model (a CompiledModel of kernelext.solver.compiled: an XCSP3 file,
which CP-SAT may also take as a CP-SAT model). The kit checks every answer a backend gives (Solver.solve).
Backends are built with the owner that keeps them (`Backend(owner)`, a Solver of kernelext.solver.engine),
which finds Java and the other backends for them. Add a backend by adding a class to BACKENDS: `--solver`, its help, the `solver` trait
and the agreement tests are built from it.
"""

from __future__ import annotations

import re
import threading
import time
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import ClassVar, Protocol

from kernelext.errors import ModelRejected, Untranslatable
from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.solver import ace_output
from kernelext.solver.choice import auto_order, budget, in_browser, known_wrong, race_order
from kernelext.solver.compiled import CompiledModel, holes_of
from kernelext.solver.cpmpy_backend import solve_ortools
from kernelext.solver.cpsat_backend import solve_cpsat
from kernelext.solver.errors import BackendUnsupported, SolverError, WorkerCrashed
from kernelext.solver.jvm.cold import run_java
from kernelext.solver.jvm.jars import ace_jar, choco_jar
from kernelext.solver.jvm.warm import WarmAce
from kernelext.solver.kit_backend import solve_kit
from kernelext.solver.minizinc.browser import solve_in_browser
from kernelext.solver.minizinc.program import solve_minizinc
from kernelext.solver.portfolio import FIRST_SLICE, SLICE_WALL, Race, usable_cores
from kernelext.solver.result import SolveResult, Status

Stop = threading.Event | None  # a race's stop signal, honoured by the `stoppable` backends
ALL = "all"
MINIZINC_SOLVERS = ("gecode", "chuffed", "highs", "coin-bc")  # those of MiniZinc's WebAssembly
# ACE's nogood base holds 1,000,000 nogoods by default: an array of 4 MB made for every solve, which costs a
# garbage collection each time in a worker's small heap. Classroom searches record far fewer nogoods; past this
# limit ACE records no more, which can slow a search but never changes its answers.
NOGOOD_LIMIT = "-ngbl=10000"
CANONICAL = 0.5  # CP-SAT's deterministic seconds (work, not wall time) to find its solution at an optimum another
# solver proved: the same outcome on a busy machine


class Owner(Protocol):
    """What backends ask of the one that keeps them: another backend, and the Java runtime."""

    minizinc_solver: str
    keep: int

    def backend(self, name: str) -> Backend: ...

    def java(self): ...

    def available(self, name: str) -> bool: ...

    def exclusive(self, name: str, timeout: float, stop: Stop = None) -> AbstractContextManager[float | None]: ...

    def solve(
        self,
        model: CompiledModel,
        cells: ace_output.Cells,
        *,
        sols: int | str,
        timeout: float,
        backend: str,
        stop: Stop,
    ) -> SolveResult: ...

    def check(self, model: CompiledModel, cells: ace_output.Cells, result: SolveResult) -> SolveResult: ...


class Backend:
    """What every backend shares: its name and summary, and the owner that built it."""

    name: ClassVar[str]
    summary: ClassVar[str]
    desktop_only: ClassVar[str] = ""  # why it cannot run in a browser's kernel, if it cannot
    needs_java: ClassVar[bool] = False
    stoppable: ClassVar[bool] = False  # whether it ends its search when a race's `stop` is set (auto races it)

    def __init__(self, solver: Owner):
        self.solver = solver

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the backend keeps between solves (nothing, unless it says otherwise)."""


class AceWarm(Backend):
    """ACE in a worker JVM kept warm between solves."""

    name: ClassVar[str] = "ace"
    summary: ClassVar[str] = "ACE in a worker JVM kept warm between solves"
    desktop_only: ClassVar[str] = "it runs on Java, which a browser has not"
    needs_java: ClassVar[bool] = True
    stoppable: ClassVar[bool] = True

    def __init__(self, solver: Owner):
        super().__init__(solver)
        self._worker = None

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        refuse_known_wrong(model, "ace")
        start = time.perf_counter()
        try:
            run = self.worker().run(ace_args(model.path(), sols, timeout), timeout=timeout, stop=stop)
        except WorkerCrashed:  # a cold run tells a model ACE rejects from a worker that died
            left = max(0.01, timeout - (time.perf_counter() - start))
            return self.solver.backend("ace-cold").solve(model, cells, sols=sols, timeout=left)
        stopped = "interrupted" if run.interrupted else "timeout" if run.out_of_time else _timed_out(run.output)
        return ace_output.parse(
            run.output, cells, backend="ace-warm", time=time.perf_counter() - start, stopped=stopped
        )

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
    needs_java: ClassVar[bool] = True

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        refuse_known_wrong(model, "ace")
        start = time.perf_counter()
        run = run_java(
            str(self.solver.java().java_executable),
            ["-jar", str(ace_jar())],
            ace_args(model.path(), sols, timeout),
            timeout=timeout + 5,
        )
        _check_accepted(run.output, run.stopped)
        return ace_output.parse(
            run.output,
            cells,
            backend="ace-cold",
            time=time.perf_counter() - start,
            stopped=run.stopped or _timed_out(run.output),
        )


class Choco(Backend):
    """Choco in a new JVM for each solve."""

    name: ClassVar[str] = "choco"
    summary: ClassVar[str] = "Choco in a new JVM for each solve"
    desktop_only: ClassVar[str] = "it runs on Java, which a browser has not"
    needs_java: ClassVar[bool] = True

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        refuse_known_wrong(model, "choco")
        args = [str(model.path()), f"-limit=[{max(1, int(timeout))}s]"]
        if sols == ALL or sols > 1:
            args.append("-a")
        start = time.perf_counter()
        run = run_java(
            str(self.solver.java().java_executable),
            ["-cp", str(choco_jar()), "org.chocosolver.parser.xcsp.ChocoXCSP"],
            args,
            timeout=timeout + 5,
        )
        _check_accepted(run.output, run.stopped)
        result = ace_output.parse(
            run.output, cells, backend="choco", time=time.perf_counter() - start, stopped=run.stopped
        )
        found = result.solutions
        if len(found) > 1 and found[-1] == found[-2]:  # Choco prints its last solution again after its verdict
            found = found[:-1]
        return replace(result, solutions=found if sols == ALL else found[:sols])


class OrTools(Backend):
    """OR-Tools CP-SAT in the kernel's own process (through CPMpy's XCSP3 reader)."""

    name: ClassVar[str] = "ortools"
    summary: ClassVar[str] = "OR-Tools CP-SAT in this process (needs cpmpy and ortools)"
    desktop_only: ClassVar[str] = "OR-Tools is built for desktops, not for a browser"

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        refuse_known_wrong(model, "ortools")
        return solve_ortools(model.path(), cells, sols=sols, timeout=timeout)


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


class Kit(Backend):
    """The kit's own search, in pure Python: propagation at every node, branch and bound for an objective."""

    name: ClassVar[str] = "kit"
    summary: ClassVar[str] = "the kit's own search in pure Python (no Java; the same in the browser)"

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        return solve_kit(model, cells, sols=sols, timeout=timeout)


class MiniZinc(Backend):
    """MiniZinc on the compiled model's translation: the system's `minizinc` program, or MiniZinc's WebAssembly
    in a browser; with the owner's `minizinc_solver` (Gecode by default)."""

    name: ClassVar[str] = "minizinc"
    summary: ClassVar[str] = (
        "MiniZinc with Gecode (or the minizinc_solver setting): the system's minizinc "
        "program (apt-get install minizinc), or its WebAssembly in the browser"
    )
    stoppable: ClassVar[bool] = not in_browser()

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        if in_browser():
            return solve_in_browser(model, cells, sols=sols, timeout=timeout, solver=self.solver.minizinc_solver)
        return solve_minizinc(model, cells, sols=sols, timeout=timeout, solver=self.solver.minizinc_solver, stop=stop)


class Auto(Backend):
    """On the desktop, CP-SAT alone for a first slice, then a race of CP-SAT, warm ACE and MiniZinc on the
    kernel's cores (kernelext.solver.portfolio): the first checked, complete answer wins. An optimum another
    solver proved is shown as CP-SAT's solution for that value, the same in every run. Several solutions, or a
    model none of the racers takes, go to the solvers in turn: CP-SAT, MiniZinc, warm ACE, the kit's own search,
    never to a solver known to be wrong on it. A large model (large tables: ACE reads them far faster than
    Python) goes to warm ACE first where Java runs. In a browser, the kit's own search for a short while, then
    MiniZinc (and the kit's search again, for the time left, when MiniZinc does not take the model)."""

    name: ClassVar[str] = "auto"
    first_slice: ClassVar[float] = FIRST_SLICE  # seconds CP-SAT has alone
    summary: ClassVar[str] = (
        "CP-SAT in this process, raced by warm ACE and MiniZinc when it does not answer at once; in the browser, "
        "the kit's own search then MiniZinc (the default)"
    )

    def solve(
        self, model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        racers = self._racers(model, sols)
        if len(racers) < 2:
            large = not in_browser() and model.large()
            return self._in_turn(model, cells, sols, timeout, auto_order(large, self.solver.available))
        started = time.monotonic()
        with plain_operators():  # once for all the racers' threads: pycsp3's operators are one global state
            race = Race(
                lambda name, seconds, stop: self.solver.solve(
                    model, cells, sols=sols, timeout=seconds, backend=name, stop=stop
                ),
                racers,
                timeout,
                usable_cores(),
                lambda: _sense(model, cells),
                self.first_slice,
                clock=time.process_time if racers[0] == "cp-sat" else time.monotonic,  # CP-SAT runs in this process
            )
            result = race.run()
        left = timeout - (time.monotonic() - started)
        if result is None and race.failure() is not None:
            raise race.failure()
        if result is None:  # every racer refused the model: the others, in turn
            rest = tuple(name for name in auto_order(False, self.solver.available) if name not in racers)
            return self._in_turn(model, cells, sols, max(0.01, left), rest, race.refusals(), race.notes())
        result = self._canonical(model, cells, result, left)
        notes = race.notes()
        return replace(result, invalid=f"{'; '.join(notes)}; solved again with {result.backend}") if notes else result

    def _racers(self, model: CompiledModel, sols: int | str) -> tuple[str, ...]:
        """The solvers raced for one solution (or the optimum) on the desktop; none in a browser."""
        if in_browser() or sols != 1:
            return ()
        order = race_order(model.large(), self.solver.available)
        return tuple(name for name in order if self.solver.backend(name).stoppable)

    def _canonical(self, model: CompiledModel, cells: ace_output.Cells, result: SolveResult, seconds: float):
        """`result`, an optimum another solver proved shown as CP-SAT's solution with the objective held at its
        value (the same solution in every run, whichever solver won), when CP-SAT finds it within `seconds` and
        CANONICAL (else the winner's own solution, the same in every run that solver wins)."""
        if result.status is not Status.OPTIMUM or result.backend == "cp-sat" or seconds <= 0:
            return result
        try:
            with self.solver.exclusive("cp-sat", min(seconds, CANONICAL * SLICE_WALL)) as left:
                if left is None:
                    return result
                again = solve_cpsat(model, cells, sols=1, timeout=left, objective_at=result.bound, work=CANONICAL)
        except BackendUnsupported:
            return result
        again = self.solver.check(model, cells, again)
        if again.status is not Status.SAT or again.invalid:
            return result
        if model.checker(holes_of(cells)).objective_value(again.solution) != result.bound:
            return result
        return replace(result, solutions=again.solutions)

    def _in_turn(
        self,
        model: CompiledModel,
        cells: ace_output.Cells,
        sols: int | str,
        timeout: float,
        order: tuple[str, ...],
        refusals: list[str] | None = None,
        notes: list[str] | None = None,
    ) -> SolveResult:
        """Ask the solvers of `order` one after the other, each for the time left."""
        started, refusals, notes, cut = time.monotonic(), list(refusals or ()), list(notes or ()), None
        for name in order:
            left = max(0.01, timeout - (time.monotonic() - started))  # reading the model counts
            allowed = min(left, budget(name)) if name != order[-1] else left
            try:
                result = self.solver.solve(model, cells, sols=sols, timeout=allowed, backend=name)
            except BackendUnsupported as refused:
                refusals.append(str(refused))
                continue
            if result.invalid:
                notes.append(result.invalid)
                continue
            if result.stopped == "timeout" and allowed < left:  # its short while is up: the next solver's turn
                cut = cut or name
                continue
            return replace(result, invalid=f"{'; '.join(notes)}; solved again with {name}") if notes else result
        if cut is not None:  # every solver after it refused the model: the one cut short gets the time left
            left = max(0.01, timeout - (time.monotonic() - started))
            result = self.solver.solve(model, cells, sols=sols, timeout=left, backend=cut)
            return replace(result, invalid=f"{'; '.join(notes)}; solved again with {cut}") if notes else result
        if notes:
            raise SolverError(f"No solver gave an answer the kit could check: {notes[0]}.")
        raise BackendUnsupported(f"no solver of the kit takes this model ({refusals[0]})")


def _sense(model: CompiledModel, cells: ace_output.Cells) -> str:
    """ "minimize", "maximize" or "" (a satisfaction model, or one the kit's checker does not read)."""
    try:
        return model.checker(holes_of(cells)).optimises
    except Untranslatable:
        return ""


def refuse_known_wrong(model: CompiledModel, solver: str) -> None:
    """BackendUnsupported naming the constraint when `solver` is known to give wrong answers on one the model
    holds (docs/reference/solvers.md: "Solver bugs the third solver showed")."""
    form = known_wrong(model.path(), solver)
    if form is not None:
        raise BackendUnsupported(f"{solver} is known to answer wrong on {form}: use --solver cp-sat or minizinc")


BACKENDS = MappingProxyType(
    {backend.name: backend for backend in (AceWarm, AceCold, Choco, OrTools, CpSat, Kit, MiniZinc, Auto)}
)


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
        detail = (
            " ".join(lines[k : k + 2]) if lines[k].endswith("ERROR:") else lines[k]
        )  # ACE: "! ERROR:", then the text
    raise ModelRejected(
        f"The solver rejected the model ({detail[:150]}).\n"
        "Check the types and values in this step's constraints, then run it again."
    )


def _timed_out(output: str) -> str:
    """ "timeout" when ACE says it stopped on its time limit."""
    stop = re.search(r"stop:(\w+)", output)
    return "timeout" if stop and "TIME" in stop.group(1) else ""
