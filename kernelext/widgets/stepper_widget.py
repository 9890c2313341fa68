"""StepperWidget: a walkthrough step by step, browsed in the front end alone."""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets
from ipywidgets import Layout, widget_serialization

from kernelext.widgets.pencil_forms import pencil_text
from kernelext.widgets.static_forms import (
    walkthrough_captions,
    walkthrough_html,
    walkthrough_pages,
    walkthrough_text,
)

STATIC = Path(__file__).parent / "static"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


class StepperWidget(anywidget.AnyWidget):
    """One widget (one comm) per walkthrough. Every page is sent once, when the widget is created; the
    previous / next buttons, the slider and the arrow keys then change the shown page in the browser, with no
    message.

    Arguments:
        walkthrough: the Walkthrough (kernelext.insight.findings).
        block: draw thicker lines every `block` cells (3 for a 9x9 Sudoku), or None.

    Traits:
        title: the walkthrough's header.
        label: the widget's accessible name: the puzzle and the header.
        pages: the pencil marks as static HTML, one per page: the start, then each deduction.
        texts: the same pencil marks as text, one per page ("" where a page has no grid).
        captions: one line per page, saying what it shows.
    """

    _esm = STATIC / "stepper.js"
    _css = STATIC / "grid.css"
    title = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)
    pages = traitlets.List(traitlets.Unicode()).tag(sync=True)
    texts = traitlets.List(traitlets.Unicode()).tag(sync=True)
    captions = traitlets.List(traitlets.Unicode()).tag(sync=True)
    layout = traitlets.Instance(Layout, allow_none=True).tag(sync=True, **widget_serialization)  # no layout comm

    def __init__(self, walkthrough, block: int | None = None, **kwargs):
        self.walkthrough, self.block = walkthrough, block
        marks = [walkthrough.start, *(d.marks for d in walkthrough.deductions)]
        super().__init__(
            title=walkthrough.header(),
            label=f"{walkthrough.puzzle} walkthrough: {walkthrough.header()}",
            pages=walkthrough_pages(walkthrough, block),
            texts=[pencil_text(grid) if grid is not None else "" for grid in marks],
            captions=walkthrough_captions(walkthrough),
            **kwargs,
        )

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        return {
            WIDGET_MIME: data[WIDGET_MIME],
            "text/html": walkthrough_html(self.walkthrough, self.block),
            "text/plain": walkthrough_text(self.walkthrough),
        }, metadata
