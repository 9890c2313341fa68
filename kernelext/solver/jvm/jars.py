"""The solvers' jars shipped inside pycsp3, found without importing pycsp3 (its import reads sys.argv)."""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

from kernelext.solver.errors import SolverError


def ace_jar() -> Path:
    """ACE's jar."""
    return _jar("ace", "ACE-*.jar", "ACE")


def choco_jar() -> Path:
    """Choco's jar."""
    return _jar("choco", "choco-*.jar", "Choco")


def _jar(folder: str, pattern: str, solver: str) -> Path:
    spec = find_spec("pycsp3")
    if spec is None or not spec.submodule_search_locations:
        raise SolverError(f"pycsp3 is not installed: `pip install pycsp3` (it ships the {solver} solver).")
    jars = sorted(Path(next(iter(spec.submodule_search_locations)), "solvers", folder).glob(pattern))
    if not jars:
        raise SolverError(
            f"{solver}'s jar is missing from pycsp3: reinstall it with `pip install --force-reinstall pycsp3`."
        )
    return jars[-1]
