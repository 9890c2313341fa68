"""A search tree drawn (see kernelext.insight.search_tree): an SVG for the live widget, and an indented outline
(text and static HTML) that a saved notebook shows in every front end. A node's kind is told by its shape and
mark as well as its colour: a failure is a square with `✗`, a solution a diamond with `✓`, a refutation's edge
is dashed, the path to the selected node thick."""

from __future__ import annotations

import html

from kernelext.insight.search_tree import SearchTree, TreeNode, children_of

COLOURS = {
    "root": "#555555",
    "decision": "#3b6ea5",
    "refutation": "#3b6ea5",
    "failure": "#b00020",
    "solution": "#1a7f37",
}
MARKS = {"failure": "✗", "solution": "✓"}
HIGHLIGHT = "#8a5a00"
EDGE, LABEL = "#767676", "#222"
OUTLINE_LINES = 120


def _layout(tree: SearchTree) -> dict[int, tuple[float, int]]:
    """(x, depth) of each node: leaves one column apart in search order, parents above their children."""
    children = children_of(tree.nodes)
    place: dict[int, tuple[float, int]] = {}
    leaves = 0
    stack = [(0, 0, False)]
    while stack:
        node_id, depth, done = stack.pop()
        kids = children.get(node_id, ())
        if not kids:
            place[node_id] = (float(leaves), depth)
            leaves += 1
        elif done:
            place[node_id] = ((place[kids[0]][0] + place[kids[-1]][0]) / 2, depth)
        else:
            stack.append((node_id, depth, True))
            stack.extend((kid, depth + 1, False) for kid in reversed(kids))
    return place


def tree_svg(tree: SearchTree, selected: int | None = None) -> str:
    """The tree as an SVG for the live widget: failures as squares, solutions as diamonds, refutations dashed, the
    path to `selected` highlighted. Nodes carry `data-node` (their id) for the widget to click on, and
    `data-parent` (their parent's id) for its keyboard to walk the tree."""
    place = _layout(tree)
    columns = max(x for x, _ in place.values()) + 1
    depth = max(d for _, d in place.values())
    labelled = len(tree.nodes) <= 80
    dx = 68 if labelled else max(6, min(24, 1600 / columns))
    dy = 48 if labelled else 28
    pad = 30 if labelled else 16
    width, height = columns * dx + 2 * pad, depth * dy + 2 * pad
    on_path = set(tree.path_ids(selected)) if selected is not None and 0 <= selected < len(tree.nodes) else set()

    def xy(node_id: int) -> tuple[float, float]:
        x, d = place[node_id]
        return pad + x * dx + dx / 2, pad + d * dy

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif" font-size="10">'
    ]
    for node in tree.nodes[1:]:
        (x1, y1), (x2, y2) = xy(node.parent), xy(node.id)
        colour, stroke = (HIGHLIGHT, 3) if node.id in on_path else (EDGE, 1)
        dash = "" if node.positive else ' stroke-dasharray="4 3"'
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
            f'stroke-width="{stroke}"{dash}/>'
        )
        if labelled:
            label = html.escape(node.text if node.positive else f"≠ {node.value}")
            anchor, shift = ("start", 4) if x2 >= x1 else ("end", -4)
            parts.append(
                f'<text x="{(x1 + x2) / 2 + shift:.1f}" y="{(y1 + y2) / 2:.1f}" text-anchor="{anchor}" '
                f'fill="{LABEL}">{label}</text>'
            )
    radius = 6 if labelled else max(2.5, min(5, dx / 3))
    for node in tree.nodes:
        x, y = xy(node.id)
        ring = (HIGHLIGHT, 3) if node.id == selected else ("#ffffff", 1)
        paint = f'fill="{COLOURS[node.kind]}" stroke="{ring[0]}" stroke-width="{ring[1]}" style="cursor:pointer"'
        title = f"<title>{html.escape(node.text)} ({node.kind})</title>"
        parent = f' data-parent="{node.parent}"' if node.id else ""
        parts.append(f'<g data-node="{node.id}"{parent}>{_node_shape(node.kind, x, y, radius, paint)}{title}</g>')
        if labelled and node.kind in MARKS:
            parts.append(
                f'<text x="{x + radius + 3:.1f}" y="{y + 4:.1f}" fill="{COLOURS[node.kind]}" '
                f'font-weight="bold">{MARKS[node.kind]}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


def _node_shape(kind: str, x: float, y: float, r: float, paint: str) -> str:
    """A failure as a square, a solution as a diamond, any other node as a circle."""
    if kind == "failure":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" {paint}/>'
    if kind == "solution":
        d = r * 1.35
        return f'<polygon points="{x:.1f},{y - d:.1f} {x + d:.1f},{y:.1f} {x:.1f},{y + d:.1f} {x - d:.1f},{y:.1f}" {paint}/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {paint}/>'


def tree_outline(tree: SearchTree, most: int = OUTLINE_LINES) -> list[tuple[str, TreeNode]]:
    """The first `most` nodes in search order, each with the branches drawn before it (`├─`, `└─`, `│`)."""
    children = children_of(tree.nodes)
    lines: list[tuple[str, TreeNode]] = []
    stack: list[tuple[int, str, str]] = [(0, "", "")]
    while stack and len(lines) < most:
        node_id, branch, indent = stack.pop()
        lines.append((branch, tree.nodes[node_id]))
        kids = children.get(node_id, ())
        for k, kid in reversed(list(enumerate(kids))):
            last = k == len(kids) - 1
            stack.append((kid, indent + ("└─ " if last else "├─ "), indent + ("   " if last else "│  ")))
    return lines


def _outline_label(node: TreeNode) -> str:
    return {"failure": "  ✗ failure", "solution": "  ✓ solution"}.get(node.kind, "")


def tree_html(tree: SearchTree) -> str:
    """The tree as an indented outline in a `pre` (failures red with ✗, solutions green with ✓): what a saved notebook shows
    in every front end, sanitized or not."""
    lines = tree_outline(tree)
    rows = []
    for branch, node in lines:
        label = html.escape(node.text) + html.escape(_outline_label(node))
        colour = COLOURS[node.kind] if node.kind in MARKS else LABEL
        weight = ";font-weight:bold" if node.kind in MARKS else ""
        rows.append(
            f'<span style="color:{EDGE}">{html.escape(branch)}</span>'
            f'<span style="color:{colour}{weight}">{label}</span>'
        )
    rest = len(tree.nodes) - len(lines)
    if rest:
        rows.append(f'<span style="color:{EDGE}">… {rest} more nodes (run the cell to browse the whole tree)</span>')
    summary = "<br>".join(html.escape(line) for line in tree.summary().splitlines())
    return (
        f'<div style="font-family:DejaVu Sans, Arial, sans-serif;font-size:13px"><div>{summary}</div>'
        f'<pre style="margin:2px 0;font-size:12px;line-height:1.25">{chr(10).join(rows)}</pre></div>'
    )
