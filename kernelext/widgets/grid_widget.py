"""GridWidget: a step's report and grid(s) in one anywidget, with a stepper over the solutions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anywidget
import traitlets
from ipywidgets import Layout, widget_serialization

from kernelext.widgets.html_grid import bounds_html
from kernelext.widgets.static_forms import picture_html, picture_text, state_html, state_text

STATIC = Path(__file__).parent / "static"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


class GridWidget(anywidget.AnyWidget):
    """One widget (one comm) per report.

    Traits:
        description: the state, {"title", "lines", "grids" (grid descriptions, see kernelext.kinds),
            "total" (solutions found), "bounds" (the objective's bound per solution), "timing" (shown only
            live)}; validation adds "pictures" (each grid's table and legend, which the static form reuses) and
            "chart" (the bounds' HTML), which are all the front end draws.
        index: the solution shown; the front end sets it, one message per change.
        explainable: show an "Explain" button (set when `on_explain` is given); a click sends one custom
            message, {"event": "explain"}, answered by one update of `explanation`.
        explanation: {} until explained, then `on_explain()`: {"lines" (text), "html" (grid with culprits)}.
        pencil: the pencil marks as static HTML, or "" (no toggle); the toggle is purely client-side.
        label: the widget's accessible name: the title and the status, from `description`.
        texts: each picture's text form (as in the text/plain output), shown folded under the picture.
    """

    _esm = STATIC / "grid.js"
    _css = STATIC / "grid.css"
    description = traitlets.Dict().tag(sync=True)
    index = traitlets.Int(0).tag(sync=True, echo_update=False)  # no echo: one message per change
    layout = traitlets.Instance(Layout, allow_none=True).tag(sync=True, **widget_serialization)  # no layout comm
    explainable = traitlets.Bool(False).tag(sync=True)
    explanation = traitlets.Dict().tag(sync=True)
    pencil = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)
    texts = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, on_explain: Callable[[], dict] | None = None, **kwargs):
        super().__init__(explainable=on_explain is not None, **kwargs)
        self._on_explain = on_explain
        self.on_msg(self._on_custom)

    def _on_custom(self, _widget, content, _buffers) -> None:
        if content.get("event") == "explain" and self._on_explain is not None:
            self.explanation = self._on_explain()

    @traitlets.validate("description")
    def _check_description(self, proposal):
        state = dict(proposal["value"])
        missing = {"title", "lines", "grids"} - state.keys()
        if missing:
            raise traitlets.TraitError(f"a grid widget's description needs {', '.join(sorted(missing))}")
        state = {"total": len(state["grids"]), "bounds": [], "timing": "", **state}
        state["pictures"] = [picture_html(grid) for grid in state["grids"]]
        state["chart"] = bounds_html(state["bounds"]) if len(state["bounds"]) > 1 else ""
        return state

    @traitlets.observe("description")
    def _describe(self, change) -> None:
        state = change["new"]
        status = [line.removeprefix("status: ") for line in state["lines"] if line.startswith("status: ")]
        self.label = ", ".join([state["title"], *status[-1:]])
        self.texts = [picture_text(grid) for grid in state["grids"]]

    @traitlets.validate("index")
    def _check_index(self, proposal):
        return min(max(proposal["value"], 0), max(len(self.description.get("grids", ())) - 1, 0))

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        return {
            WIDGET_MIME: data[WIDGET_MIME],
            "text/html": state_html(self.description),
            "text/plain": state_text(self.description),
        }, metadata
