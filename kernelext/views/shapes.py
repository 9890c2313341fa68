"""The vocabulary of a picture description (see kernelext.views): its shapes, their marks, and the colours
views fill them with. Coordinates are whole pixels, so that every drawing of a picture is the same."""

from __future__ import annotations

# Values drawn as colours (at most this many): Paul Tol's "light" scheme, made for fills that carry a label. Each
# keeps dark text at 6:1 or more, and any two stay apart for colour-blind viewers (tests/widgets/test_contrast.py).
# A value is never told by its colour alone: each box and node also shows its value or its name.
PALETTE = ("#77AADD", "#EE8866", "#EEDD88", "#FFAABB", "#99DDFF", "#44BB99", "#BBCC33", "#AAAA00", "#DDDDDD")
FAINT_FILL, BAR_FILL, NODE_FILL = "#f4f4f4", "#9ecae1", "#ffffff"
INK, GREY = "#222", "#767676"


def colour(index: int) -> str:
    """The fill of the `index`-th value of a palette (repeats past its end)."""
    return PALETTE[index % len(PALETTE)]


def _marks(*, faint: bool = False, changed: bool = False, conflict: bool = False, dashed: bool = False) -> list:
    flags = (("faint", faint), ("changed", changed), ("conflict", conflict), ("dashed", dashed))
    return [name for name, on in flags if on]


def box(x: float, y: float, w: float, h: float, fill: str, text: str = "", **marks: bool) -> dict:
    """A bar or rectangle, its top-left corner at (x, y)."""
    return {
        "shape": "box",
        "x": round(x),
        "y": round(y),
        "w": max(1, round(w)),
        "h": max(1, round(h)),
        "fill": fill,
        "text": text,
        "marks": _marks(**marks),
    }


def line(x1: float, y1: float, x2: float, y2: float, colour: str = GREY, **marks: bool) -> dict:
    """A straight line: an edge, a leg of a route, an axis."""
    return {
        "shape": "line",
        "x1": round(x1),
        "y1": round(y1),
        "x2": round(x2),
        "y2": round(y2),
        "colour": colour,
        "marks": _marks(**marks),
    }


def dot(x: float, y: float, r: float, fill: str, text: str = "", **marks: bool) -> dict:
    """A node or a stop, centred on (x, y)."""
    return {
        "shape": "dot",
        "x": round(x),
        "y": round(y),
        "r": round(r),
        "fill": fill,
        "text": text,
        "marks": _marks(**marks),
    }


def label(x: float, y: float, text: str, anchor: str = "start", size: int = 11) -> dict:
    """A text whose `anchor` (start, middle or end) sits at (x, y), centred on y."""
    return {"shape": "label", "x": round(x), "y": round(y), "text": text, "anchor": anchor, "size": size, "marks": []}


def picture(view: str, name: str, lines: list[str], shapes: list[dict], legend: list, note: str = "") -> dict:
    """A picture description: its size is that of its shapes, with a margin."""
    right = max((_right(s) for s in shapes), default=0)
    bottom = max((_bottom(s) for s in shapes), default=0)
    found = {
        "view": view,
        "name": name,
        "lines": lines,
        "width": right + 8,
        "height": bottom + 8,
        "shapes": shapes,
        "legend": legend,
    }
    return {**found, "note": note} if note else found


def _right(shape: dict) -> int:
    kind = shape["shape"]
    if kind == "box":
        return shape["x"] + shape["w"]
    if kind == "line":
        return max(shape["x1"], shape["x2"])
    if kind == "dot":
        return shape["x"] + shape["r"]
    width = round(len(shape["text"]) * shape["size"] * 0.62)
    return shape["x"] + {"start": width, "middle": width // 2, "end": 0}[shape["anchor"]]


def _bottom(shape: dict) -> int:
    kind = shape["shape"]
    if kind == "box":
        return shape["y"] + shape["h"]
    if kind == "line":
        return max(shape["y1"], shape["y2"])
    if kind == "dot":
        return shape["y"] + shape["r"]
    return shape["y"] + shape["size"]
