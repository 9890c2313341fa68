"""A grid description (see kernelext.kinds) drawn as SVG text, in plain Python: what `%puzzle save FILE.svg`
writes, on the desktop and in the browser (which has no matplotlib). The same picture as the PNG and PDF
that matplotlib draws: cells, holes, thick borders, cages, signs, clues, changes and conflicts marked."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from kernelext.widgets.static_forms import grid_text
from kernelext.widgets.style import (
    CAGE_LINE,
    CHANGED_LINE,
    CONFLICT,
    CONFLICT_MARK,
    FONT,
    HOLE,
    LINE,
    SIGN_GLYPHS,
    TEXT,
    THICK,
    background,
    text_colour,
)

UNIT = 32  # pixels per cell


def grid_svg(description: dict) -> str:
    """The grid `description` as a standalone SVG document (deterministic: the same grid, the same text)."""
    cells = description["cells"]
    rows, cols = len(cells), len(cells[0]) if cells else 0
    row_clues, col_clues = description.get("row_clues") or [], description.get("col_clues") or []
    left = max((len(" ".join(map(str, c))) for c in row_clues), default=0) * 0.35
    top = max((len(c) for c in col_clues), default=0) * 0.6
    x0, y0 = -left - 0.1, -top - 0.1
    width, height = cols + left + 0.2, rows + top + 0.2
    parts = [
        '<?xml version="1.0" encoding="utf-8" standalone="no"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width * UNIT)}" height="{_n(height * UNIT)}" '
        f'viewBox="{_n(x0)} {_n(y0)} {_n(width)} {_n(height)}" font-family={quoteattr(FONT)}>',
        f"<title>{escape(description.get('name') or description.get('kind') or 'grid')}: {rows} x {cols}</title>",
        f"<desc>{escape(grid_text(description))}</desc>",
        f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(width)}" height="{_n(height)}" fill="#fff"/>',
    ]
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            parts += _cell(cell, r, c)
    for sign in description.get("signs", ()):
        (r1, c1), (r2, c2) = sign["cells"]
        x, y = (c1 + c2 + 1) / 2, (r1 + r2 + 1) / 2
        parts.append(f'<rect x="{_n(x - 0.2)}" y="{_n(y - 0.2)}" width="0.4" height="0.4" rx="0.08" fill="#fff"/>')
        parts.append(_text(x, y, SIGN_GLYPHS.get(sign["text"], sign["text"]), 0.5, TEXT, bold=True))
    for r, numbers in enumerate(row_clues):
        if numbers:
            parts.append(_text(-0.15, r + 0.5, " ".join(map(str, numbers)), 0.45, TEXT, anchor="end"))
    for c, numbers in enumerate(col_clues):
        for k, number in enumerate(reversed(numbers)):
            parts.append(_text(c + 0.5, -0.4 - 0.5 * k, str(number), 0.45, TEXT))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _cell(cell: dict, r: int, c: int) -> list[str]:
    classes = set(cell.get("classes", ()))
    if "hole" in classes:
        return [f'<rect x="{c}" y="{r}" width="1" height="1" fill="{HOLE}"/>']
    drawn = [
        f'<rect x="{c}" y="{r}" width="1" height="1" fill="{background(cell)}" stroke="{LINE}" stroke-width="0.02"/>'
    ]
    for name, colour, width in (("changed", CHANGED_LINE, 0.1), ("conflict", CONFLICT, 0.06)):
        if name in classes and (name == "conflict" or "conflict" not in classes):
            drawn.append(
                f'<rect x="{_n(c + 0.08)}" y="{_n(r + 0.08)}" width="0.84" height="0.84" fill="none" '
                f'stroke="{colour}" stroke-width="{width}"/>'
            )
    if "conflict" in classes:
        drawn.append(_text(c + 0.84, r + 0.2, CONFLICT_MARK, 0.25, CONFLICT, bold=True))
    if "endpoint" in classes:
        drawn.append(
            f'<circle cx="{_n(c + 0.5)}" cy="{_n(r + 0.5)}" r="0.4" fill="none" stroke="{THICK}" stroke-width="0.05"/>'
        )
    sides = {"t": (c, r, c + 1, r), "r": (c + 1, r, c + 1, r + 1), "b": (c, r + 1, c + 1, r + 1), "l": (c, r, c, r + 1)}
    for side in cell.get("borders", ""):
        drawn.append(_line(*sides[side], THICK, 0.07, 'stroke-linecap="square"'))
    inset = {
        "t": (c + 0.1, r + 0.1, c + 0.9, r + 0.1),
        "r": (c + 0.9, r + 0.1, c + 0.9, r + 0.9),
        "b": (c + 0.1, r + 0.9, c + 0.9, r + 0.9),
        "l": (c + 0.1, r + 0.1, c + 0.1, r + 0.9),
    }
    for side in cell.get("cage", ""):
        drawn.append(_line(*inset[side], CAGE_LINE, 0.03, 'stroke-dasharray="0.08 0.08"'))
    if cell.get("corner"):
        drawn.append(_text(c + 0.06, r + 0.3, str(cell["corner"]), 0.25, TEXT, anchor="start"))
    if cell["text"]:
        size = 0.6 if classes & {"queen", "star"} else 0.27 if "clue" in classes else 0.45
        bold = bool(classes & {"given", "endpoint"})
        drawn.append(_text(c + 0.5, r + 0.5, cell["text"], size, text_colour(classes), bold=bold))
    return drawn


def _line(x1: float, y1: float, x2: float, y2: float, colour: str, width: float, extra: str = "") -> str:
    return (
        f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{colour}" stroke-width="{width}" '
        f"{extra}/>"
    )


def _text(
    x: float, y: float, text: str, size: float, colour: str, *, bold: bool = False, anchor: str = "middle"
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" fill="{colour}" text-anchor="{anchor}" '
        f'dominant-baseline="central"{weight}>{escape(str(text))}</text>'
    )


def _n(number: float) -> str:
    """A coordinate, short and the same on every machine."""
    return f"{number:.3f}".rstrip("0").rstrip(".")
