"""One entry point for solving a compiled model with the backend asked for (see kernelext.solver.backends)."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from pathlib import Path

from kernelext.errors import Untranslatable
from kernelext.solver.backends import BACKENDS, check_backend
from kernelext.solver.backends.base import Backend
from kernelext.solver.backends.minizinc import check_minizinc_solver
from kernelext.solver.checking import checked, kept
from kernelext.solver.choice import in_browser
from kernelext.solver.compiled import CompiledModel, compiled, holes_of
from kernelext.solver.errors import BackendUnsupported, JavaNotFound, SolverError
from kernelext.solver.jvm.java import find_java
from kernelext.solver.portfolio import POLL
from kernelext.solver.result import Cells, SolveResult, Status

KEEP = 10_000  # solutions a solve keeps at most: a stepper's worth, within a few MB (the rest are counted)


class Solver:
    """Solves XCSP3 files with the backends of the registry, each built on first use and kept (so that
    warm ACE stays warm between solves).

    Arguments:
        backend: the default backend, a name of BACKENDS.
        minizinc_solver: the solver MiniZinc runs (one of MINIZINC_SOLVERS).
        keep: the most solutions a solve keeps (for `sols="all"`): the others are counted (`more`).
    """

    def __init__(self, backend: str = "auto", minizinc_solver: str = "gecode", keep: int = KEEP):
        self.default = check_backend(backend)
        self.minizinc_solver = check_minizinc_solver(minizinc_solver)
        self.keep = keep
        self._backends: dict[str, Backend] = {}
        self._locks: dict[str, threading.Lock] = {}  # one per backend: see `exclusive`
        self._java = None

    def solve(
        self,
        model: Path | CompiledModel,
        cells: Cells,
        *,
        sols: int | str = 1,
        timeout: float = 10.0,
        backend: str | None = None,
        stop: threading.Event | None = None,
    ) -> SolveResult:
        """Solve `model` (an XCSP3 file, or a CompiledModel); `cells` names each array's variables (to read
        solutions).

        Arguments:
            sols: how many solutions to look for (an int, or "all").
            timeout: seconds before the search stops (the best solution so far is kept).
            backend: overrides the default backend for this solve.
            stop: ends the search when set (a race of `auto` was decided; see Backend.stoppable).
        Returns:
            a SolveResult.
        """
        name, model = backend or self.default, compiled(model)
        if name == "auto":
            return self.backend(name).solve(model, cells, sols=sols, timeout=timeout, stop=stop)  # checks each
        with self.exclusive(name, timeout, stop) as left:
            if left is None:
                return SolveResult(Status.UNKNOWN, time=timeout, backend=name, stopped="timeout")
            result = self.backend(name).solve(model, cells, sols=sols, timeout=left, stop=stop)
        return self.check(model, cells, kept(result, self.keep))

    @contextmanager
    def exclusive(self, name: str, timeout: float, stop: threading.Event | None = None):
        """The backend `name` for this thread alone while the block runs (a race's racer told to stop may
        still be reading a model, into the same worker or the same CP-SAT reading): the seconds left of
        `timeout` once it is free, or None when it was not free in time (or `stop` was set first)."""
        lock = self._locks.setdefault(name, threading.Lock())
        started = time.monotonic()
        while not lock.acquire(timeout=min(POLL, max(0.0, timeout - (time.monotonic() - started)))):
            if time.monotonic() - started >= timeout or (stop is not None and stop.is_set()):
                yield None
                return
        try:
            yield max(0.01, timeout - (time.monotonic() - started))
        finally:
            lock.release()

    def check(self, model: CompiledModel, cells: Cells, result: SolveResult) -> SolveResult:
        """`result` with its answers checked on `model`'s constraints (see kernelext.solver.checking)."""
        if not result.solutions and result.status not in (Status.SAT, Status.OPTIMUM):
            return result
        try:
            checker = model.checker(holes_of(cells))
        except Untranslatable as error:
            raise SolverError(f"The kit cannot check answers to this model ({error}).") from None
        return checked(result, checker)

    def available(self, name: str) -> bool:
        """Whether the backend `name` can run here: MiniZinc needs its program, the JVM backends Java."""
        return BACKENDS[name].runs_here(self._java_found)

    def _java_found(self) -> bool:
        try:
            self.java()
        except JavaNotFound:
            return False
        return True

    def backend(self, name: str) -> Backend:
        """The backend `name`, built on first use (BackendUnsupported, saying why, for one a browser cannot run)."""
        if in_browser() and BACKENDS[check_backend(name)].desktop_only:
            raise BackendUnsupported(
                f"The {name} solver needs the desktop kit: {BACKENDS[name].desktop_only}. "
                "In the browser, the kit solves with its own search and MiniZinc (--solver kit or minizinc)."
            )
        if name not in self._backends:
            self._backends[name] = BACKENDS[name](self)
        return self._backends[name]

    @property
    def worker_pid(self) -> int | None:
        """The process id of the warm ACE worker, if one runs."""
        warm = self._backends.get("ace")
        return warm.pid if warm is not None else None

    def java(self):
        """The Java runtime the JVM backends use, found on first use."""
        if self._java is None:
            self._java = find_java()
        return self._java

    def close(self) -> None:
        """Stop the backends' workers, if any runs."""
        for backend in self._backends.values():
            backend.close()
        self._backends.clear()
