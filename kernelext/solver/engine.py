"""One entry point for solving a compiled model with the backend asked for (see kernelext.solver.backends)."""

from __future__ import annotations

from pathlib import Path

from kernelext.solver import ace_output
from kernelext.solver.backends import (
    ALL,
    BACKENDS,
    Backend,
    check_backend,
    check_minizinc_solver,
)
from kernelext.solver.compiled import CompiledModel, compiled
from kernelext.solver.errors import BackendUnsupported, SolverError
from kernelext.solver.java import find_java
from kernelext.solver.minizinc_browser import in_browser
from kernelext.solver.result import SolveResult

USES = {"domains": "Pencil marks (`%puzzle domains`, `--domains`)",
        "tree": "Search trees (`%puzzle tree`)",
        "cores": "Fast repeated solves of sub-models"}


class Solver:
    """Solves XCSP3 files with the backends of the registry, each built on first use and kept (so that
    warm ACE stays warm between solves).

    Arguments:
        backend: the default backend, a name of BACKENDS.
        minizinc_solver: the solver MiniZinc runs (one of MINIZINC_SOLVERS).
    """

    def __init__(self, backend: str = "auto", minizinc_solver: str = "gecode"):
        self.default = check_backend(backend)
        self.minizinc_solver = check_minizinc_solver(minizinc_solver)
        self._backends: dict[str, Backend] = {}
        self._java = None

    def solve(self, model: Path | CompiledModel, cells: ace_output.Cells, *, sols: int | str = 1,
              timeout: float = 10.0, backend: str | None = None) -> SolveResult:
        """Solve `model` (an XCSP3 file, or a CompiledModel); `cells` names each array's variables (to read
        solutions).

        Arguments:
            sols: how many solutions to look for (an int, or "all").
            timeout: seconds before the search stops (the best solution so far is kept).
            backend: overrides the default backend for this solve.
        Returns:
            a SolveResult.
        """
        return self.backend(backend or self.default).solve(compiled(model), cells, sols=sols, timeout=timeout)

    def domains(self, model: Path, timeout: float = 10.0) -> dict[str, tuple[int, ...]]:
        """Each variable's values after propagation at the root of `model` (no search), by variable id.

        An empty tuple is a wiped-out domain; variables in no constraint may be missing.
        """
        return self.capable("domains").domains(model, timeout)

    def search_tree(self, model: Path, *, nodes: int, sols: int | str = ALL, timeout: float = 10.0):
        """Solve `model` recording its first `nodes` decisions (an AceTree)."""
        return self.capable("tree").tree(model, nodes=nodes, sols=sols, timeout=timeout)

    def backend(self, name: str) -> Backend:
        """The backend `name`, built on first use (BackendUnsupported, saying why, for one a browser cannot run)."""
        if in_browser() and BACKENDS[check_backend(name)].desktop_only:
            raise BackendUnsupported(f"The {name} solver needs the desktop kit: {BACKENDS[name].desktop_only}. "
                                     "In the browser, the kit solves with MiniZinc (--solver minizinc).")
        if name not in self._backends:
            self._backends[name] = BACKENDS[name](self)
        return self._backends[name]

    def capable(self, capability: str) -> Backend:
        """The default backend if it offers `capability`, else the first backend of the registry that does (in a
        browser, the first that runs there, else BackendUnsupported saying what needs the desktop kit)."""
        names = [self.default, *BACKENDS]
        found = [n for n in names if capability in BACKENDS[n].capabilities]
        if not found:
            raise SolverError(f"No solver offers {capability}.")
        if in_browser() and all(BACKENDS[n].desktop_only for n in found):
            raise BackendUnsupported(f"{USES[capability]} need the desktop kit: they come from ACE, which runs on "
                                     "Java, and a browser has none.")
        return self.backend(found[0])

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
