"""Static forms of a grid description and of a grid widget's state: plain text and inline SVG/HTML.

They carry no scripts, ids or timings, so the same input always gives the same bytes.
"""

from __future__ import annotations

import html
import math

MAX_STATIC_GRIDS = 6
FONT = "DejaVu Sans, Arial, sans-serif"
WHITE, LINE, THICK, TEXT = "#ffffff", "#999999", "#333333", "#222222"
HOLE, FREE_TEXT, SOLVED_TEXT = "#f2f2f2", "#aaaaaa", "#1f5fbf"
CHANGED, CHANGED_LINE = "#fff3b0", "#f0a000"
CONFLICT, CONFLICT_BG = "#d62728", "#ffd6d6"
SIGN_GLYPHS = {"^": "∧", "v": "∨"}  # how the column signs `^` and `v` are drawn


def cell_size(rows: int, cols: int) -> int:
    """The side of a cell in pixels: smaller cells for bigger grids."""
    side = max(rows, cols)
    return 28 if side <= 12 else 22 if side <= 20 else 16


def cell_char(cell: dict) -> str:
    """What a cell shows in text: its text, else `■` (filled) or `·` (empty); a space for a hole."""
    classes = cell.get("classes", ())
    if "hole" in classes:
        return " "
    return cell["text"] or ("■" if "filled" in classes else "·")


def grid_text(description: dict) -> str:
    """The grid as aligned text; `[v]` marks the cells changed by the step."""
    rows = [[cell_char(cell) for cell in row] for row in description["cells"]]
    width = max((len(text) for row in rows for text in row), default=1)
    lines = []
    for texts, cells in zip(rows, description["cells"]):
        parts = [f"[{t.rjust(width)}]" if "changed" in cell.get("classes", ()) else f" {t.rjust(width)} "
                 for t, cell in zip(texts, cells)]
        lines.append("".join(parts).rstrip())
    return "\n".join(lines)


def state_text(state: dict) -> str:
    """A widget state as text: title, report lines, then the grid (or the first solutions)."""
    lines = [state["title"], *state["lines"]]
    grids, total = state["grids"], state["total"]
    if total > 1:
        for k, grid in enumerate(grids[:MAX_STATIC_GRIDS], start=1):
            lines += [f"{grid['name']}, solution {k} of {total}:", grid_text(grid)]
        if total > MAX_STATIC_GRIDS:
            lines.append(f"... {total - MAX_STATIC_GRIDS} more solutions")
    elif grids:
        lines += [f"{grids[0]['name']} ({grids[0]['legend']}):", grid_text(grids[0])]
    return "\n".join(lines)


def state_html(state: dict) -> str:
    """A widget state as static HTML: title, report lines, SVG grids and the bound plot."""
    esc = html.escape
    parts = [f'<div style="font-family:{FONT};font-size:13px">', f"<div><b>{esc(state['title'])}</b></div>"]
    if state["lines"]:
        parts.append(f'<pre style="margin:2px 0;white-space:pre-wrap">{esc(chr(10).join(state["lines"]))}</pre>')
    grids, total = state["grids"], state["total"]
    for k, grid in enumerate(grids[:MAX_STATIC_GRIDS], start=1):
        caption = f"solution {k} of {total}" if total > 1 else grid["name"]
        parts.append('<div style="display:inline-block;vertical-align:top;margin:4px 12px 4px 0">'
                     f"<div>{esc(caption)}</div>{grid_svg(grid)}</div>")
    if total > MAX_STATIC_GRIDS:
        parts.append(f"<div>... {total - MAX_STATIC_GRIDS} more solutions</div>")
    if state.get("plot"):
        parts.append(f'<div><img alt="bound per solution" src="{state["plot"]}"></div>')
    parts.append("</div>")
    return "".join(parts)


def _n(value: float) -> str:
    return f"{round(value, 1):g}"


def _text(x: float, y: float, text: str, size: float, colour: str = TEXT, extra: str = "") -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" dy=".35em" font-size="{_n(size)}" fill="{colour}"{extra}>'
            f"{html.escape(text)}</text>")


def _cell(cell: dict, x: float, y: float, s: int) -> list[str]:
    classes = set(cell.get("classes", ()))
    if "hole" in classes:
        return [f'<rect x="{_n(x)}" y="{_n(y)}" width="{s}" height="{s}" fill="{HOLE}"/>']
    fill = cell.get("fill") or (CONFLICT_BG if "conflict" in classes else CHANGED if "changed" in classes else WHITE)
    out = [f'<rect x="{_n(x)}" y="{_n(y)}" width="{s}" height="{s}" fill="{fill}" stroke="{LINE}"/>']
    for name, colour in (("changed", CHANGED_LINE), ("conflict", CONFLICT)):
        if name in classes and (cell.get("fill") or name == "conflict"):
            out.append(f'<rect x="{_n(x + 2)}" y="{_n(y + 2)}" width="{s - 4}" height="{s - 4}" fill="none" '
                       f'stroke="{colour}" stroke-width="2"/>')
    if "endpoint" in classes:
        out.append(f'<circle cx="{_n(x + s / 2)}" cy="{_n(y + s / 2)}" r="{_n(s * 0.4)}" fill="none" '
                   f'stroke="{THICK}" stroke-width="2"/>')
    if cell["text"]:
        colour = (CONFLICT if "conflict" in classes else FREE_TEXT if "free" in classes
                  else SOLVED_TEXT if "solved" in classes else TEXT)
        bold = ' font-weight="bold"' if classes & {"given", "endpoint"} else ""
        size = s * (0.75 if "queen" in classes else 0.55)
        out.append(_text(x + s / 2, y + s / 2, cell["text"], size, colour, bold))
    return out


def _borders(cell: dict, x: float, y: float, s: int) -> list[str]:
    ends = {"t": (x, y, x + s, y), "r": (x + s, y, x + s, y + s), "b": (x, y + s, x + s, y + s),
            "l": (x, y, x, y + s)}
    return [f'<line x1="{_n(a)}" y1="{_n(b)}" x2="{_n(c)}" y2="{_n(d)}" stroke="{THICK}" stroke-width="2.5"/>'
            for a, b, c, d in (ends[side] for side in cell.get("borders", ""))]


def grid_svg(description: dict) -> str:
    """The grid as an inline SVG picture: cells, thick borders, signs between cells, row and column clues."""
    cells = description["cells"]
    rows, cols = len(cells), len(cells[0]) if cells else 0
    s = cell_size(rows, cols)
    clue = s * 0.5
    row_clues, col_clues = description.get("row_clues") or [], description.get("col_clues") or []
    widest = max((len(" ".join(map(str, c))) for c in row_clues), default=0)
    left = math.ceil(widest * clue * 0.62) + (6 if row_clues else 0)
    top = math.ceil(max((len(c) for c in col_clues), default=0) * (clue + 2)) + (6 if col_clues else 0)
    width, height = left + cols * s + 2, top + rows * s + 2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="{FONT}" text-anchor="middle">']
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            out += _cell(cell, left + c * s + 1, top + r * s + 1, s)
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            out += _borders(cell, left + c * s + 1, top + r * s + 1, s)
    halo = ' font-weight="bold" stroke="#fff" stroke-width="3" paint-order="stroke"'
    for sign in description.get("signs", ()):
        (r1, c1), (r2, c2) = sign["cells"]
        glyph = SIGN_GLYPHS.get(sign["text"], sign["text"])
        out.append(_text(left + (c1 + c2 + 1) * s / 2 + 1, top + (r1 + r2 + 1) * s / 2 + 1, glyph, s * 0.6, TEXT, halo))
    for r, numbers in enumerate(row_clues):
        out.append(_text(left - 4, top + (r + 0.5) * s + 1, " ".join(map(str, numbers)), clue, TEXT,
                         ' text-anchor="end"'))
    for c, numbers in enumerate(col_clues):
        for k, number in enumerate(reversed(numbers)):
            out.append(_text(left + (c + 0.5) * s + 1, top - 4 - (k + 0.5) * (clue + 2), str(number), clue))
    out.append("</svg>")
    return "".join(out)
