"""A picture description (see kernelext.views) drawn as a standalone SVG document, in plain Python: what
`%puzzle save FILE.svg` writes for a Gantt chart, a graph, a route or a packing."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from kernelext.widgets.drawing_forms import drawing_text, text_size
from kernelext.widgets.style import FONT, FREE_TEXT, TEXT, marked_text, outline

DASHES = {"solid": "", "dashed": ' stroke-dasharray="4 3"', "dotted": ' stroke-dasharray="2 3"'}


def drawing_svg(description: dict) -> str:
    """The picture as SVG text (deterministic: the same description, the same text)."""
    width, height = description["width"], description["height"]
    parts = [
        '<?xml version="1.0" encoding="utf-8" standalone="no"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family={quoteattr(FONT)}>',
        f"<title>{escape(description['name'])}</title>",
        f"<desc>{escape(drawing_text(description))}</desc>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>',
    ]
    parts += [_SHAPES[shape["shape"]](shape) for shape in description["shapes"]]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _stroke(marks: list) -> str:
    colour, width, style = outline(marks)
    return f'stroke="{colour}" stroke-width="{width}"{DASHES[style]}'


def _text(x: float, y: float, text: str, size: int, colour: str = TEXT, anchor: str = "middle") -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" fill="{colour}" text-anchor="{anchor}" '
        f'dominant-baseline="central">{escape(text)}</text>'
    )


def _box(shape: dict) -> str:
    x, y, w, h, marks = shape["x"], shape["y"], shape["w"], shape["h"], shape["marks"]
    drawn = (
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{shape["fill"]}" {_stroke(marks)}>'
        f"<title>{escape(shape['text'])}</title></rect>"
    )
    text = marked_text(shape["text"], marks)
    size = text_size(text, h, w)
    if text and size:
        colour = FREE_TEXT if "faint" in marks else TEXT
        drawn += _text(x + w / 2, y + h / 2, text, size, colour)
    return drawn


def _dot(shape: dict) -> str:
    marks = shape["marks"]
    drawn = f'<circle cx="{shape["x"]}" cy="{shape["y"]}" r="{shape["r"]}" fill="{shape["fill"]}" {_stroke(marks)}/>'
    if shape["text"]:
        colour = FREE_TEXT if "faint" in marks else TEXT
        drawn += _text(shape["x"], shape["y"], marked_text(shape["text"], marks), max(8, min(12, shape["r"])), colour)
    return drawn


def _line(shape: dict) -> str:
    marks = shape["marks"]
    colour, width, style = outline(marks)
    colour, width = (shape["colour"], 1.5) if width == 1 else (colour, width)
    return (
        f'<line x1="{shape["x1"]}" y1="{shape["y1"]}" x2="{shape["x2"]}" y2="{shape["y2"]}" stroke="{colour}" '
        f'stroke-width="{width}"{DASHES[style]}/>'
    )


def _label(shape: dict) -> str:
    return _text(shape["x"], shape["y"], shape["text"], shape["size"], TEXT, shape["anchor"])


_SHAPES = {"box": _box, "dot": _dot, "label": _label, "line": _line}
