"""OR-Tools' CP-SAT module, imported without pandas until something asks for pandas.

`ortools.sat.python.cp_model` imports pandas at its top for its pandas API (`new_int_var_series` and
the like), which the kit never calls: pandas is two thirds of the import, about 0.4 s of a notebook's
first solve. While cp_model is imported, `pandas` is a stand-in with the two classes its type hints
name; cp_model then keeps a module that imports the real pandas on first use, so its pandas API still
works. A notebook that imported pandas already gets the usual import.
"""

from __future__ import annotations

import importlib
import sys
import threading
from types import ModuleType

from kernelext.solver.errors import BackendUnsupported


class _PandasOnFirstUse(ModuleType):
    """Stands for pandas in cp_model's globals: any attribute imports the real pandas, then reads it."""

    def __getattr__(self, name: str):
        return getattr(importlib.import_module("pandas"), name)


def cp_model() -> ModuleType:
    """`ortools.sat.python.cp_model` (ImportError when OR-Tools is not installed)."""
    loaded = sys.modules.get("ortools.sat.python.cp_model")
    if loaded is not None:
        return loaded
    if "pandas" in sys.modules:
        return importlib.import_module("ortools.sat.python.cp_model")
    stand_in = ModuleType("pandas")
    stand_in.Index = type("Index", (), {})
    stand_in.Series = type("Series", (), {})
    sys.modules["pandas"] = stand_in
    try:
        module = importlib.import_module("ortools.sat.python.cp_model")
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
    if getattr(module, "pd", None) is stand_in:
        module.pd = _PandasOnFirstUse("pandas")
    return module


def load_library_soon(delay: float = 0.25) -> None:
    """Load OR-Tools' CP-SAT library and numpy, which cp_model imports, on a thread, `delay` seconds from now:
    about 0.2 s that a kernel's first solve would otherwise wait for, taken while the notebook is idle (loading
    them holds the interpreter, so it starts once the cell that asked has been answered). Only those two, which
    have no pandas to stand in for: `cp_model()` then takes a few milliseconds. Without OR-Tools, nothing
    happens."""

    def load() -> None:
        try:
            importlib.import_module("ortools.sat.python.cp_model_helper")
            importlib.import_module("numpy")
        except ImportError:  # the first solve says how to get OR-Tools
            pass

    timer = threading.Timer(delay, load)
    timer.daemon = True
    timer.start()


def required_cp_model() -> ModuleType:
    """`cp_model()`, or BackendUnsupported saying how to get OR-Tools."""
    try:
        return cp_model()
    except ImportError:
        raise BackendUnsupported("OR-Tools is not installed: pip install ortools (or use --solver minizinc).") from None


def flat_expression(expression):
    """A CP-SAT linear expression as its variables, coefficients and offset (`.vars`, `.coeffs`, `.offset`)."""
    from ortools.sat.python import cp_model_helper  # imported once cp_model() has loaded OR-Tools

    return cp_model_helper.FlatIntExpr(expression)
