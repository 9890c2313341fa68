"""A picture description (see kernelext.views: a Gantt chart, a graph, a route, a packing) as text and as
static HTML.

The HTML is a relative box holding absolutely placed `div`s and `span`s with inline styles only, so that it
survives the sanitizer of an untrusted notebook (see kernelext.widgets.html_grid), nbconvert offline, GitHub,
VS Code and Colab: boxes are `div`s, dots round `div`s, labels `span`s, and a line is a row of small squares
along it. A box too narrow for its text shows it when pointed at (its `title`); the text form lists everything
drawn. The same bytes for the same description.
"""

from __future__ import annotations

import html
import math

from kernelext.widgets.style import FONT, FREE_TEXT, TEXT, marked_text, outline

LINE_STEP = 7  # pixels between the squares of a drawn line, at least
MOST_SQUARES = 24  # per line


def drawing_text(description: dict) -> str:
    """The picture as text: what it draws, one line per row, node, stop or rectangle."""
    return "\n".join(description["lines"])


def drawing_html(description: dict) -> str:
    """The picture as a relative `div` holding its shapes, absolutely placed; then its legend, its note, and its
    text form folded in a `details` (what a screen reader reads)."""
    out = [
        f'<div title="{html.escape(description["name"])}" style="position:relative;width:{description["width"]}px;'
        f"height:{description['height']}px;"
        f'background-color:#ffffff;font-family:{FONT};color:{TEXT};margin:2px 0">'
    ]
    for shape in description["shapes"]:
        out.append(_SHAPES[shape["shape"]](shape))
    out.append("</div>")
    legend = " · ".join(f"{mark}: {meaning}" for mark, meaning in description.get("legend", ()))
    if legend:
        out.append(f'<div style="font-size:11px;color:{FREE_TEXT};margin:2px 0">{html.escape(legend)}</div>')
    if description.get("note"):
        out.append(f'<div style="font-size:11px;color:{TEXT}">{html.escape(description["note"])}</div>')
    out.append(  # what a screen reader reads: shapes placed on a page say nothing in reading order
        f'<details style="font-size:12px;margin:2px 0"><summary>{html.escape(description["name"])}: as text</summary>'
        f'<pre style="margin:2px 0;white-space:pre-wrap">{html.escape(drawing_text(description))}</pre></details>'
    )
    return "".join(out)


def _outline(marks: list) -> str:
    colour, thick, style = outline(marks)
    return f"border:{thick}px {style} {colour}"


def text_size(text: str, height: int, width: int) -> int:
    """The font size (pixels) of a box's text: the largest from 12 down to 8 at which it fits the box, 0 when
    none does (the text then shows only when the box is pointed at)."""
    return next((s for s in range(min(12, height - 4), 7, -1) if len(text) * s * 0.6 <= width - 2), 0)


def _box(shape: dict) -> str:
    marks = shape["marks"]
    colour = FREE_TEXT if "faint" in marks else TEXT
    size = text_size(marked_text(shape["text"], marks), shape["h"], shape["w"])
    text = html.escape(marked_text(shape["text"], marks))
    return (
        f'<div title="{text}" style="position:absolute;left:{shape["x"]}px;top:{shape["y"]}px;'
        f"width:{shape['w']}px;height:{shape['h']}px;box-sizing:border-box;background-color:{shape['fill']};"
        f"{_outline(marks)};font-size:{size or 8}px;line-height:{max(shape['h'] - 4, 1)}px;text-align:center;"
        f'white-space:nowrap;color:{colour}">{text if size else ""}</div>'
    )


def _dot(shape: dict) -> str:
    r, marks = shape["r"], shape["marks"]
    colour = FREE_TEXT if "faint" in marks else TEXT
    return (
        f'<div style="position:absolute;left:{max(shape["x"] - r, 0)}px;top:{max(shape["y"] - r, 0)}px;'
        f"width:{2 * r}px;height:{2 * r}px;box-sizing:border-box;border-radius:50%;"
        f"background-color:{shape['fill']};{_outline(marks)};font-size:{max(8, min(12, r))}px;"
        f'line-height:{max(2 * r - 4, 1)}px;text-align:center;white-space:nowrap;color:{colour}">'
        f"{html.escape(marked_text(shape['text'], marks))}</div>"
    )


def _label(shape: dict) -> str:
    size, text = shape["size"], shape["text"]
    width = round(len(text) * size * 0.62)
    left = shape["x"] - {"start": 0, "middle": width // 2, "end": width}[shape["anchor"]]
    align = {"start": "left", "middle": "center", "end": "right"}[shape["anchor"]]
    return (
        f'<span style="position:absolute;left:{max(left, 0)}px;top:{max(shape["y"] - size // 2 - 1, 0)}px;'
        f'width:{width}px;font-size:{size}px;line-height:{size + 2}px;text-align:{align};white-space:nowrap">'
        f"{html.escape(text)}</span>"
    )


def _line(shape: dict) -> str:
    """A line as small squares along it: a horizontal or vertical line is one thin `div`."""
    x1, y1, x2, y2, marks = shape["x1"], shape["y1"], shape["x2"], shape["y2"], shape["marks"]
    colour, thick, style = outline(marks)
    colour = shape["colour"] if thick == 1 else colour
    thick = thick if thick > 1 else 1 if x1 == x2 or y1 == y2 else 2
    if (x1 == x2 or y1 == y2) and style == "solid":
        left, top = min(x1, x2), min(y1, y2)
        width, height = max(abs(x2 - x1), thick), max(abs(y2 - y1), thick)
        return (
            f'<div style="position:absolute;left:{left}px;top:{top}px;width:{width}px;height:{height}px;'
            f'background-color:{colour}"></div>'
        )
    length = math.hypot(x2 - x1, y2 - y1)
    step = max(LINE_STEP * {"solid": 1, "dashed": 2, "dotted": 3}[style], length / MOST_SQUARES)
    count = max(1, int(length / step))
    size = f'px;width:{thick}px;height:{thick}px;background-color:{colour}"></div>'
    half = thick / 2
    return "".join(
        f'<div style="position:absolute;left:{max(round(x1 + (x2 - x1) * k / count - half), 0)}px;'
        f"top:{max(round(y1 + (y2 - y1) * k / count - half), 0)}{size}"
        for k in range(count + 1)
    )


_SHAPES = {"box": _box, "dot": _dot, "label": _label, "line": _line}
