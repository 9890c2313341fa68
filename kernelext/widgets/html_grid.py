"""A grid description (see kernelext.kinds) as an HTML table that every notebook front end shows.

Only markup that JupyterLab's and Notebook 7's sanitizer keep in an untrusted notebook is used:
`table`, `tr`, `td`, `div`, `span`, `b`, `br` and `title` attributes, styled only by inline `style`
with properties from the sanitizer's allow-list (`apputils/src/sanitizer.ts`: background-color,
border-*, width, height, min-width, padding, margin, color, font-*, text-align, vertical-align,
line-height, white-space, display, position, top, left, right, bottom, border-radius, box-shadow,
box-sizing). No SVG, `<style>`, script, class or id. The text of each cell carries its meaning on its
own (values, `*`, `■`, signs, clues, `✗` on a cell that breaks a rule), so a front end that drops styles still
shows a readable grid, and no state is told by colour alone (see kernelext.widgets.style).
The same bytes for the same description: no ids, timings or random parts.
"""

from __future__ import annotations

import html

from kernelext.widgets.style import (
    CAGE_LINE,
    CHANGED,
    CHANGED_LINE,
    CLUE_BG,
    CONFLICT,
    CONFLICT_BG,
    CONFLICT_MARK,
    FONT,
    FREE_TEXT,
    HOLE,
    LINE,
    SIGN_GLYPHS,
    SOLVED_TEXT,
    TEXT,
    THICK,
    WHITE,
    background,
    cell_size,
    text_colour,
)

SIDES = {"t": "top", "r": "right", "b": "bottom", "l": "left"}
CLEAR_ROW = "background-color:transparent"  # over JupyterLab's striped and hover rows
TABLE = f"border-collapse:collapse;border-spacing:0;margin:2px 0;font-family:{FONT};table-layout:auto;color:{TEXT}"
BARE = "padding:0;border:0;background-color:transparent"


def _cell_style(cell: dict, s: int, styles: dict) -> str:
    """The cell's inline style; `styles` keeps those worked out for one table (most cells share one)."""
    key = (
        tuple(cell.get("classes", ())),
        cell.get("fill"),
        cell.get("borders", ""),
        bool(cell.get("cage") or cell.get("corner")),
    )
    if key not in styles:
        styles[key] = _style_of(cell, s)
    return styles[key]


def _style_of(cell: dict, s: int) -> str:
    classes = set(cell.get("classes", ()))
    parts = [
        f"width:{s}px;height:{s}px;padding:0;text-align:center;line-height:1",
        f"border:1px solid {LINE if 'hole' not in classes else HOLE}",
    ]  # size, colours: from the table
    if classes & {"queen", "star"}:
        parts.append(f"font-size:{round(s * 0.75)}px")
    elif "clue" in classes:  # two sums, `16╲17`, in one cell
        parts.append(f"font-size:{max(8, round(s * 0.33))}px;white-space:nowrap")
    if background(cell) != WHITE:
        parts.append(f"background-color:{background(cell)}")
    if text_colour(classes) != TEXT:
        parts.append(f"color:{text_colour(classes)}")
    if classes & {"given", "endpoint"}:
        parts.append("font-weight:bold")
    parts += [f"border-{SIDES[side]}:3px solid {THICK}" for side in cell.get("borders", "")]
    if "conflict" in classes:
        parts.append(f"box-shadow:inset 0 0 0 2px {CONFLICT}")
    elif "changed" in classes:
        parts.append(f"box-shadow:inset 0 0 0 3px {CHANGED_LINE}")
    if cell.get("cage") or cell.get("corner") or "conflict" in classes:
        parts.append("position:relative")
    return ";".join(parts)


def _cell_content(cell: dict, s: int) -> str:
    classes = set(cell.get("classes", ()))
    text = html.escape(cell["text"])
    if "filled" in classes and not text:
        text = f'<span style="color:{cell.get("fill") or TEXT}">■</span>'  # ■ shows where styles are dropped
    if "endpoint" in classes:
        ring = round(s * 0.8)
        text = (
            f'<span style="display:inline-block;box-sizing:border-box;width:{ring}px;height:{ring}px;'
            f'line-height:{ring - 4}px;border:2px solid {THICK};border-radius:50%">{text}</span>'
        )
    parts = []
    if cell.get("cage"):
        edges = ";".join(f"border-{SIDES[side]}:1px dashed {CAGE_LINE}" for side in cell["cage"])
        parts.append(f'<div style="position:absolute;top:3px;left:3px;right:3px;bottom:3px;{edges}"></div>')
    if cell.get("corner"):
        parts.append(
            f'<span style="position:absolute;top:1px;left:2px;font-size:{max(8, s // 3)}px;'
            f'font-weight:normal;color:{TEXT};background-color:{background(cell)};line-height:1">'
            f"{html.escape(str(cell['corner']))}</span>"
        )
    if "conflict" in classes:
        parts.append(
            f'<span style="position:absolute;top:1px;right:2px;font-size:{max(8, s // 3)}px;'
            f'font-weight:bold;color:{CONFLICT};line-height:1">{CONFLICT_MARK}</span>'
        )
    return "".join(parts) + text


def _sign_cell(text: str, width: int, height: int, s: int) -> str:
    glyph = html.escape(SIGN_GLYPHS.get(text, text))
    return (
        f'<td style="{BARE};width:{width}px;min-width:{width}px;height:{height}px;text-align:center;'
        f'vertical-align:middle;line-height:1;font-weight:bold;font-size:{round(s * 0.5)}px;color:{TEXT}">'
        f"{glyph}</td>"
    )


def grid_html(description: dict) -> str:
    """The grid as a table: one `td` per cell (thick borders, fills, givens, endpoints, cages), signs in
    narrow cells between the cells they compare, row clues on the left and column clues on top."""
    cells = description["cells"]
    rows, cols = len(cells), len(cells[0]) if cells else 0
    s = cell_size(rows, cols)
    signs = {(tuple(a), tuple(b)): sign["text"] for sign in description.get("signs", ()) for a, b in [sign["cells"]]}
    gap = round(s * 0.5) if signs else 0
    row_clues, col_clues = description.get("row_clues") or [], description.get("col_clues") or []
    clue_font = f"font-size:{max(9, round(s * 0.45))}px;color:{TEXT};line-height:1.15"
    styles: dict = {}
    out = [
        f'<table style="{TABLE};font-size:{round(s * 0.55)}px;background-color:{WHITE}" title="{html.escape(description.get("name", ""))}: {rows} x {cols}">'
    ]
    if col_clues:
        out.append(f'<tr style="{CLEAR_ROW}">')
        if row_clues:
            out.append(f'<td style="{BARE}"></td>')
        for c, numbers in enumerate(col_clues):
            if c and gap:
                out.append(f'<td style="{BARE}"></td>')
            out.append(
                f'<td style="{BARE};{clue_font};text-align:center;vertical-align:bottom;padding-bottom:3px">'
                f"{'<br>'.join(html.escape(str(n)) for n in numbers)}</td>"
            )
        out.append("</tr>")
    for r, row in enumerate(cells):
        if r and gap:
            out.append(f'<tr style="{CLEAR_ROW}">' + (f'<td style="{BARE}"></td>' if row_clues else ""))
            for c in range(cols):
                if c:
                    out.append(f'<td style="{BARE}"></td>')
                out.append(_sign_cell(signs.get(((r - 1, c), (r, c)), ""), s, gap, s))
            out.append("</tr>")
        out.append(f'<tr style="{CLEAR_ROW}">')
        if row_clues:
            clue = " ".join(map(str, row_clues[r])) if r < len(row_clues) else ""
            out.append(
                f'<td style="{BARE};{clue_font};text-align:right;white-space:nowrap;padding-right:4px">'
                f"{html.escape(clue)}</td>"
            )
        for c, cell in enumerate(row):
            if c and gap:
                out.append(_sign_cell(signs.get(((r, c - 1), (r, c)), ""), gap, s, s))
            out.append(f'<td style="{_cell_style(cell, s, styles)}">{_cell_content(cell, s)}</td>')
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _swatch(fill: str, line: str = LINE, text: str = "", ring: int = 1) -> str:
    return (
        f'<span style="display:inline-block;box-sizing:border-box;width:16px;height:16px;line-height:{16 - 2 * ring}px;'
        f"text-align:center;vertical-align:middle;background-color:{fill};border:{ring}px solid {line};"
        f'font-size:10px;color:{TEXT}">{html.escape(text)}</span>'
    )


def legend_html(description: dict) -> str:
    """What the marks of this grid mean, for the marks it shows."""
    present = {name for row in description["cells"] for cell in row for name in cell.get("classes", ())}
    items = [
        (_swatch(CHANGED, CHANGED_LINE, ring=3), "changed by this step (thick ring)", "changed"),
        (_swatch(WHITE, text="*"), "no constraint on it yet", "free"),
        (_swatch(CONFLICT_BG, CONFLICT, CONFLICT_MARK, ring=2), "breaks a rule", "conflict"),
        (_swatch(WHITE, text="■"), "filled", "filled"),
        (_swatch(WHITE, THICK, "○"), "end of a path", "endpoint"),
        (_swatch(WHITE, text="♛"), "queen", "queen"),
        (_swatch(WHITE, text="★"), "star", "star"),
        (_swatch(CLUE_BG, THICK), "clue cell: 16╲7 = sum down 16, sum across 7", "clue"),
        ("<b>bold</b>", "numbers are givens", "given"),
    ]
    if any(cell.get("corner") for row in description["cells"] for cell in row):
        items.append((_swatch(WHITE, CAGE_LINE, "Σ"), "cage and its sum", "caged"))
        present.add("caged")
    shown = [
        f'<span style="white-space:nowrap;margin-right:10px">{mark} {html.escape(text)}</span>'
        for mark, text, name in items
        if name in present
    ]
    return f'<div style="font-size:11px;color:{FREE_TEXT};margin:2px 0">{"".join(shown)}</div>' if shown else ""


def bounds_html(bounds: list[int], most: int = 60) -> str:
    """The objective's bound solution after solution, as a row of bars (at most `most`, evenly picked)."""
    picked = list(enumerate(bounds, start=1))
    if len(picked) > most:
        picked = [picked[round(k * (len(picked) - 1) / (most - 1))] for k in range(most)]
    low, high = min(bounds), max(bounds)
    bars = []
    for number, bound in picked:
        height = 6 + round(44 * (bound - low) / (high - low)) if high > low else 30
        bars.append(
            f'<td style="{BARE};vertical-align:bottom;padding-right:2px" title="solution {number}: bound {bound}">'
            f'<div style="width:8px;height:{height}px;background-color:{SOLVED_TEXT}"></div></td>'
        )
    caption = f"bound per solution: {bounds[0]} → {bounds[-1]} over {len(bounds)} solutions" + (
        f" ({len(picked)} shown)" if len(picked) < len(bounds) else ""
    )
    return (
        f'<div style="margin:4px 0"><div style="font-size:11px;color:{TEXT}">{html.escape(caption)}</div>'
        f'<table style="{TABLE}"><tr style="{CLEAR_ROW}">{"".join(bars)}</tr></table></div>'
    )
