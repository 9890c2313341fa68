"""The exceptions kernelext raises; each message says what to fix in one or two lines."""


class KernelextError(Exception):
    """Root of kernelext's errors."""


class StepError(KernelextError):
    """A step could not be added; the model is as it was before it."""


class PuzzleUsageError(KernelextError):
    """A command was used the wrong way (no puzzle started, unknown array, bad option)."""


class ModelRejected(KernelextError):
    """The solver refused the compiled model (its error, not a time-out)."""


class Untranslatable(KernelextError):
    """A compiled model holds something a reader does not take; the message names it."""


class ReadingStopped(Exception):
    """A reading of a compiled model was told to stop before its end (a race was decided, or its time is up):
    not an error, and never shown."""


class ViewNotApplicable(KernelextError):
    """A picture (Gantt chart, graph, route, packing) finds nothing of its kind in the model; the message says
    what it looks for."""
