"""Modules that installed packages add through an entry-point group (puzzle kinds, pictures), loaded safely."""

from __future__ import annotations

import warnings
from types import ModuleType


def load_plugin(what: str, name: str, entry, required: tuple[str, ...]) -> ModuleType | None:
    """The module the entry point `entry` names; None, with a warning, when it cannot be imported or lacks one
    of the `required` functions. `what` says what it should be ("puzzle kind", "view")."""
    try:
        module = entry.load()
    except Exception as error:
        warnings.warn(
            f"The {what} {name!r} of an installed package could not be loaded "
            f"({entry.value}: {type(error).__name__}: {error}); it is left out.",
            stacklevel=4,
        )
        return None
    if not isinstance(module, ModuleType) or not all(callable(getattr(module, f, None)) for f in required):
        functions = " and ".join(f"{f}()" for f in required)
        warnings.warn(
            f"The {what} {name!r} ({entry.value}) is not a {what} module with {functions}; it is left out.",
            stacklevel=4,
        )
        return None
    return module
