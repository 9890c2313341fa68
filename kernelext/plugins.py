"""One registry for the two families of views `--view` names: puzzle kinds (grids, `kernelext.kinds`) and
pictures (`kernelext.views`). Each family is the modules of one package, and the modules installed packages name in
the family's entry-point group, loaded safely."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from types import ModuleType


@dataclass(frozen=True)
class Plugins:
    """A family of view modules: the built-in ones (the modules of `package` not starting with "_") and those named
    in the entry-point group `group` (`NAME = package.module`) by installed packages. A module's optional
    `ALIASES` are other names of it.

    Arguments:
        what: what one module is, in messages ("puzzle kind", "picture").
        package: the package of the built-in modules.
        group: the entry-point group of the installed ones.
        required: the functions a module must define (an installed module without them is left out, warned).
        order: the built-in modules, in the order they are asked (the package's other modules are helpers); when
            empty, every module of `package` not starting with "_", by name.
    """

    what: str
    package: str
    group: str
    required: tuple[str, ...]
    order: tuple[str, ...] = ()

    def built_in(self) -> list[str]:
        """The names of the built-in modules, in order."""
        if self.order:
            return list(self.order)
        path = importlib.import_module(self.package).__path__
        return sorted(m.name for m in pkgutil.iter_modules(path) if not m.name.startswith("_"))

    def modules(self) -> dict[str, ModuleType]:
        """Every module by name: the built-in ones first, then the installed ones by name (a built-in module wins
        over an installed one of the same name; one that cannot be loaded is left out, with a warning)."""
        found = {name: importlib.import_module(f"{self.package}.{name}") for name in self.built_in()}
        for name, entry in sorted(self._installed().items()):
            if name not in found and (module := self._load(name, entry)) is not None:
                found[name] = module
        return found

    def names(self) -> list[str]:
        """The names of every module, built-in and installed, without loading the installed ones."""
        built_in = self.built_in()
        return built_in + sorted(set(self._installed()) - set(built_in))

    def find(self, name: str) -> ModuleType | None:
        """The module named `name`, or whose ALIASES hold it (any case); None when there is none."""
        lowered = name.lower()
        loaded = sys.modules.get(f"{self.package}.{lowered}")
        if loaded is not None and (lowered in self.order if self.order else not lowered.startswith("_")):
            return loaded  # a built-in module found before: no folder listed
        if lowered in self.built_in():  # without looking at installed packages
            return importlib.import_module(f"{self.package}.{lowered}")
        every = self.modules()
        return every.get(aliases(every).get(lowered, lowered))

    def _installed(self) -> dict:
        return {entry.name.lower(): entry for entry in entry_points(group=self.group)}

    def _load(self, name: str, entry) -> ModuleType | None:
        """The module `entry` names; None, with a warning, when it cannot be imported or lacks a required
        function."""
        try:
            module = entry.load()
        except Exception as error:
            warnings.warn(
                f"The {self.what} {name!r} of an installed package could not be loaded "
                f"({entry.value}: {type(error).__name__}: {error}); it is left out.",
                stacklevel=4,
            )
            return None
        if not isinstance(module, ModuleType) or not all(callable(getattr(module, f, None)) for f in self.required):
            functions = " and ".join(f"{f}()" for f in self.required)
            warnings.warn(
                f"The {self.what} {name!r} ({entry.value}) is not a {self.what} module with {functions}; "
                "it is left out.",
                stacklevel=4,
            )
            return None
        return module


def aliases(every: Mapping[str, ModuleType]) -> dict[str, str]:
    """{alias: name} over the ALIASES of the modules `every`."""
    return {alias: name for name, module in every.items() for alias in getattr(module, "ALIASES", ())}


def choices(every: Mapping[str, ModuleType]) -> str:
    """The names of the modules `every` in one line, each one's aliases in brackets: `nonogram (picross), ...`."""
    return ", ".join(
        f"{name} ({', '.join(module.ALIASES)})" if getattr(module, "ALIASES", ()) else name
        for name, module in every.items()
    )


def data_for(module: ModuleType, namespace: Mapping) -> dict:
    """The plain data a view module reads from the notebook's `namespace`: those of its DATA_NAMES there that hold
    plain data (lists, tuples, dicts, numbers, strings)."""
    found = {}
    for name in module.DATA_NAMES:
        try:
            found[name] = plain(namespace[name])
        except (KeyError, ValueError):
            continue
    return found


def plain(value, depth: int = 0):
    """`value` as JSON-able lists, dicts and scalars; ValueError for anything else (functions, variables)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "tolist") and hasattr(value, "dtype"):  # numpy arrays and numbers
        return plain(value.tolist(), depth)
    if depth < 6 and isinstance(value, (list, tuple)):
        return [plain(item, depth + 1) for item in value]
    if depth < 6 and isinstance(value, dict):
        return {str(key): plain(item, depth + 1) for key, item in value.items()}
    raise ValueError(f"not plain data: {type(value).__name__}")
