"""Pictures other than grids: one module per picture, each a pure function from the compiled model, a solution and
the notebook's data to a JSON-able picture description (drawn by `kernelext.widgets.drawing_forms`).

A picture module `kernelext/views/NAME.py` defines:
  - `SUMMARY`: what it draws, in a few words (the `--view` help);
  - `DATA_NAMES`: the names of the notebook data it reads;
  - `recognise(model, data) -> bool`: the posted constraints (an `XcspModel`) and the data are this picture's;
  - `describe(model, data, solution, previous) -> dict`: the picture of `solution` (variable id -> value, None
    where undecided; None before any solve), what differs from `previous` marked; ViewNotApplicable, with a
    one-line reason, when the model holds nothing it draws;
  optionally:
  - `might_draw(features) -> bool`: whether a model with these features could be this picture's, asked before
    the model is read (features: the XCSP3 names of the posted constraints, `objective`, `1-D`, `2-D`... for
    the arrays declared); a picture without it is always asked.
Installed packages add pictures through the `kernelext.views` entry-point group (in their pyproject.toml:
`[project.entry-points."kernelext.views"] flow = "mycourse.flow"`), modules defining the same names; `PICTURES`
(a `kernelext.plugins.Plugins`, as the kinds' registry is) finds them.

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

from collections.abc import Mapping
from types import ModuleType

from kernelext.plugins import Plugins, data_for
from kernelext.xcsp.subsets import XcspModel

# The built-in pictures, asked in this order (the package's other modules are their helpers); installed packages add
# pictures through the entry-point group: `NAME = package.module`.
PICTURES = Plugins(
    "picture", __name__, "kernelext.views", ("recognise", "describe"), order=("gantt", "packing", "route", "graph")
)


def picture_for(name: str) -> ModuleType | None:
    """The module of the picture `name`, None when no picture has that name (it may be a grid kind)."""
    return PICTURES.find(name)


def picture_names() -> list[str]:
    return PICTURES.names()


def detect_picture(
    model: XcspModel | None, namespace: Mapping, every: Mapping[str, ModuleType] | None = None
) -> str | None:
    """The first picture that recognises `model` with the data it reads from `namespace`; None when none does."""
    if model is None:
        return None
    for name, module in (PICTURES.modules() if every is None else every).items():
        if module.recognise(model, data_for(module, namespace)):
            return name
    return None


def might_draw(features: frozenset[str], every: Mapping[str, ModuleType] | None = None) -> dict[str, ModuleType]:
    """The pictures that could draw a model with `features` (see above), in order."""
    every = PICTURES.modules() if every is None else every
    return {name: m for name, m in every.items() if getattr(m, "might_draw", lambda _: True)(features)}
