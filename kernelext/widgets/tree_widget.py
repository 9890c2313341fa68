"""TreeWidget: a recorded search tree; clicking a node shows the grid at that node."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import anywidget
import traitlets
from ipywidgets import Layout, widget_serialization

from kernelext.grid import ArrayInfo
from kernelext.insight.search_tree import SearchTree, grid_at
from kernelext.kinds import kind_for
from kernelext.widgets.html_grid import grid_html
from kernelext.widgets.tree_forms import tree_html, tree_outline, tree_svg

STATIC = Path(__file__).parent / "static"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


class TreeWidget(anywidget.AnyWidget):
    """One widget (one comm) per tree. The front end sets `selected` (one message per click); this side
    then draws the tree with the path to that node and the grid of `info`'s array at it. The nodes are
    reached with the keyboard too (Tab, the arrow keys, Enter).

    Arguments:
        tree: the SearchTree.
        info: the array to draw at the selected node (no grid when None).
        kind: the grid's view (see kernelext.kinds); data: that view's data.

    Traits:
        label: the widget's accessible name: the tree's summary line.
        text: the tree as an indented outline, its text form (shown folded under the tree).
    """

    _esm = STATIC / "tree.js"
    _css = STATIC / "grid.css"
    label = traitlets.Unicode("").tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)
    grid_html = traitlets.Unicode("").tag(sync=True)
    caption = traitlets.Unicode("").tag(sync=True)
    selected = traitlets.Int(-1).tag(sync=True, echo_update=False)  # no echo: one message per click
    layout = traitlets.Instance(Layout, allow_none=True).tag(sync=True, **widget_serialization)  # no layout comm

    def __init__(
        self,
        tree: SearchTree,
        info: ArrayInfo | None = None,
        kind: str = "generic",
        data: Mapping | None = None,
        **kwargs,
    ):
        self.tree, self.info, self.kind, self.data = tree, info, kind, dict(data or {})
        super().__init__(label=tree.summary().splitlines()[0], text=tree_text(tree), **kwargs)
        self._draw()

    @traitlets.validate("selected")
    def _check_selected(self, proposal):
        value = proposal["value"]
        return value if 0 <= value < len(self.tree.nodes) else -1

    @traitlets.observe("selected")
    def _on_selected(self, change) -> None:
        self._draw()

    def _draw(self) -> None:
        node_id = self.selected if self.selected >= 0 else None
        self.svg = tree_svg(self.tree, node_id)
        if node_id is None:
            self.caption = self.tree.summary() + "\nClick a node (or press Enter on it) to see the grid there."
            self.grid_html = ""
            return
        node = self.tree.nodes[node_id]
        path = ", ".join(f"{variable}={value}" for variable, value in node.path) or "nothing assigned"
        self.caption = f"node {node_id}: {node.text} ({node.kind})\npath: {path}"
        self.grid_html = self._grid_picture(node_id)

    def _grid_picture(self, node_id: int) -> str:
        if self.info is None:
            return ""

        return grid_html(kind_for(self.kind).describe(grid_at(self.tree, node_id, self.info), self.data))

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        return {
            WIDGET_MIME: data[WIDGET_MIME],
            "text/html": tree_html(self.tree),
            "text/plain": self.tree.summary(),
        }, metadata


def tree_text(tree: SearchTree) -> str:
    """The tree as an indented outline in text: the first nodes in search order, failures and solutions marked."""
    marks = {"failure": "  ✗ failure", "solution": "  ✓ solution"}
    lines = [f"{branch}{node.text}{marks.get(node.kind, '')}" for branch, node in tree_outline(tree)]
    rest = len(tree.nodes) - len(lines)
    return "\n".join(lines + ([f"… {rest} more nodes"] if rest else []))
