"""Which operators Python code meets: pycsp3's (they build constraints) or Python's own (to read a model
with other tools, and faster); and pycsp3's objectives counted as a step sets them."""

import contextlib
import sys

from kernelext.pycsp3_glue import in_operator


@contextlib.contextmanager
def counting_objectives():
    """Count the objectives set meanwhile (pycsp3 silently keeps only the last of several); yields a list
    that gets one item per `minimize`/`maximize` call."""
    import pycsp3.functions

    calls: list[bool] = []
    optimize = pycsp3.functions._optimize

    def counted(term, minimization):
        calls.append(minimization)
        return optimize(term, minimization)

    pycsp3.functions._optimize = counted
    try:
        yield calls
    finally:
        pycsp3.functions._optimize = optimize


@contextlib.contextmanager
def plain_operators():
    """Python's own operators while the block runs, pycsp3's again after (if they were on).

    pycsp3 redefines comparisons, arithmetic and `in` on lists, tuples and sets to build constraints;
    code that reads a model with other tools needs them plain, and runs faster with them plain.
    """
    curser = sys.modules.get("pycsp3.tools.curser")  # nothing to switch off before pycsp3 is imported
    overloading = curser is not None and curser.OpOverrider.activated
    if overloading:
        curser.OpOverrider.disable()
    try:
        with in_operator.written(pycsp3s=False):
            yield
    finally:
        if overloading:
            curser.OpOverrider.enable()


@contextlib.contextmanager
def pycsp3_operators():
    """pycsp3's operators while the block runs (a step's own code builds constraints with them), then as
    they were before."""
    from pycsp3.tools.curser import OpOverrider

    overloading = OpOverrider.activated
    if not overloading:
        OpOverrider.enable()
    try:
        with in_operator.written(pycsp3s=True):
            yield
    finally:
        if not overloading:
            OpOverrider.disable()
