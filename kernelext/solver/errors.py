"""The solver's exceptions; each message says what to do in one or two lines."""

from kernelext.errors import KernelextError


class SolverError(KernelextError):
    """Root of the solver's errors."""


class JavaNotFound(SolverError):
    """No Java runtime could be found to run ACE."""


class WorkerCrashed(SolverError):
    """The worker process running ACE stopped in the middle of a solve.

    Attributes:
        run: what was captured of the solve before the process stopped (an AceRun), or None.
    """

    def __init__(self, message: str, run=None):
        super().__init__(message)
        self.run = run


class BackendUnsupported(SolverError):
    """A solver cannot take this model (a constraint it does not read, or a missing package)."""
