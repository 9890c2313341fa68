"""Pictures other than grids: one module per view, each a pure function from the compiled model, a solution and
the notebook's data to a JSON-able picture description (drawn by `kernelext.widgets.drawing_forms`).

A view module `kernelext/views/NAME.py` defines:
  - `SUMMARY`: what it draws, in a few words (the `--view` help);
  - `DATA_NAMES`: the names of the notebook data it reads;
  - `recognise(model, data) -> bool`: the posted constraints (an `XcspModel`) and the data are this picture's;
  - `describe(model, data, solution, previous) -> dict`: the picture of `solution` (variable id -> value, None
    where undecided; None before any solve), what differs from `previous` marked; ViewNotApplicable, with a
    one-line reason, when the model holds nothing it draws;
  optionally:
  - `might_draw(features) -> bool`: whether a model with these features could be this picture's, asked before
    the model is read (features: the XCSP3 names of the posted constraints, `objective`, `1-D`, `2-D`... for
    the arrays declared); a view without it is always asked.
Installed packages add views through the `kernelext.views` entry-point group (in their pyproject.toml:
`[project.entry-points."kernelext.views"] flow = "mycourse.flow"`), modules defining the same names.

A picture description: {"view", "name", "lines" (the text form: what is drawn, one line per row, node, stop or
rectangle), "width", "height" (pixels), "shapes", "legend" ([[mark, meaning]]), "note"?}. Shapes, in pixels:
  {"shape": "box", "x", "y", "w", "h", "fill", "text", "marks"}   a bar or a rectangle
  {"shape": "line", "x1", "y1", "x2", "y2", "colour", "marks"}   an edge, a leg of a route, an axis
  {"shape": "dot", "x", "y", "r", "fill", "text", "marks"}   a node or a stop
  {"shape": "label", "x", "y", "text", "anchor" (start, middle, end), "size"}
Marks: "faint" (undecided), "changed" (since the previous step), "conflict" (breaks a constraint, certain from
the values), "dashed".
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from importlib.metadata import entry_points
from types import ModuleType

from kernelext.kinds import plain
from kernelext.plugins import load_plugin
from kernelext.xcsp.subsets import XcspModel

ENTRY_POINTS = "kernelext.views"  # the group through which an installed package adds views: `NAME = package.module`
ORDER = ("gantt", "packing", "route", "graph")  # the built-in views, asked in this order


def modules() -> dict[str, ModuleType]:
    """Every view's module by name, the built-in ones first (in ORDER), then the installed ones."""
    found = {name: importlib.import_module(f"{__name__}.{name}") for name in _built_in()}
    for entry in entry_points(group=ENTRY_POINTS):
        name = entry.name.lower()
        if name not in found and (module := _load(name, entry)) is not None:
            found[name] = module
    return found


def view_for(name: str, every: Mapping[str, ModuleType] | None = None) -> ModuleType | None:
    """The module of the view `name`, None when no view has that name (it may be a grid kind)."""
    lowered = name.lower()
    if lowered in _built_in():
        return importlib.import_module(f"{__name__}.{lowered}")
    return (modules() if every is None else every).get(lowered)


def view_names() -> list[str]:
    return list(modules())


def detect_view(
    model: XcspModel | None, namespace: Mapping, every: Mapping[str, ModuleType] | None = None
) -> str | None:
    """The first view that recognises `model` with the data it reads from `namespace`; None when none does."""
    if model is None:
        return None
    for name, module in (modules() if every is None else every).items():
        if module.recognise(model, picture_data(module, namespace)):
            return name
    return None


def might_draw(features: frozenset[str], every: Mapping[str, ModuleType] | None = None) -> dict[str, ModuleType]:
    """The views that could draw a model with `features` (see above), in order."""
    every = modules() if every is None else every
    return {name: m for name, m in every.items() if getattr(m, "might_draw", lambda _: True)(features)}


def picture_data(module: ModuleType, namespace: Mapping) -> dict:
    """The plain data (lists, dicts, numbers, strings) the view `module` reads from `namespace`."""
    found = {}
    for name in module.DATA_NAMES:
        try:
            found[name] = plain(namespace[name])
        except (KeyError, ValueError):
            continue
    return found


def _built_in() -> list[str]:
    present = {m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")}
    return [name for name in ORDER if name in present]


def _load(name: str, entry) -> ModuleType | None:
    return load_plugin("view", name, entry, ("recognise", "describe"))
