"""The kit's own SVG pictures (kernelext.widgets.grid_svg and drawing_svg) drawn into a PNG on the browser's
canvas: what `%puzzle save FILE.png` writes in the browser, which has no matplotlib. The kernel runs in a Web
Worker, where a browser cannot draw an SVG image, so the drawing is read here into canvas calls (`canvas_calls`,
plain Python) and replayed on an `OffscreenCanvas` (`svg_png`). Only what those two writers emit is read:
`rect`, `circle`, `line` and `text` with their fill, stroke, dashes and font, inside a `viewBox`.
"""

from __future__ import annotations

import math
import sys
from xml.etree import ElementTree

from kernelext.errors import PuzzleUsageError

SCALE = 2  # PNG pixels per SVG pixel: sharp on a high-density screen or a slide
SVG = "{http://www.w3.org/2000/svg}"
ALIGN = {"start": "left", "middle": "center", "end": "right"}
SKIPPED = {"svg", "title", "desc"}


def can_draw_png() -> bool:
    """True in a browser's kernel that can wait for its canvas (JupyterLite's Pyodide)."""
    if sys.platform != "emscripten":
        return False
    import js
    from pyodide.ffi import can_run_sync

    return hasattr(js, "OffscreenCanvas") and can_run_sync()


def svg_png(svg: str) -> bytes:
    """The PNG of `svg`, drawn on the browser's canvas."""
    import js
    from pyodide.ffi import run_sync, to_js

    (width, height), calls = canvas_calls(svg)
    canvas = js.OffscreenCanvas.new(width, height)
    context = canvas.getContext("2d")
    for name, *arguments in calls:
        if name.startswith("set "):
            setattr(context, name[4:], arguments[0])
        else:
            getattr(context, name)(*(to_js(argument) for argument in arguments))
    blob = run_sync(canvas.convertToBlob(to_js({"type": "image/png"}, dict_converter=js.Object.fromEntries)))
    return run_sync(blob.arrayBuffer()).to_bytes()


def canvas_calls(svg: str) -> tuple[tuple[int, int], list[tuple]]:
    """The PNG's size in pixels and the 2-D canvas calls that draw `svg`: ("set NAME", value) sets a property,
    (NAME, *arguments) calls a method.

    Raises:
        PuzzleUsageError: the SVG holds an element none of the kit's writers emits.
    """
    root = ElementTree.fromstring(svg)
    width, height = float(root.get("width")), float(root.get("height"))
    x0, y0, view_width, view_height = map(float, root.get("viewBox", f"0 0 {width} {height}").split())
    scale = SCALE * width / view_width
    font = root.get("font-family", "sans-serif")

    def x(value: str) -> float:
        return (float(value) - x0) * scale

    def y(value: str) -> float:
        return (float(value) - y0) * scale

    calls: list[tuple] = []
    for element in root.iter():
        tag = element.tag.removeprefix(SVG)
        get = element.get
        if tag in SKIPPED:
            continue
        if tag == "rect":
            calls.append(("beginPath",))
            box = (x(get("x", "0")), y(get("y", "0")), float(get("width")) * scale, float(get("height")) * scale)
            calls.append(("roundRect", *box, float(get("rx")) * scale) if get("rx") else ("rect", *box))
        elif tag == "circle":
            calls += [("beginPath",), ("arc", x(get("cx")), y(get("cy")), float(get("r")) * scale, 0, 2 * math.pi)]
        elif tag == "line":
            calls += [
                ("beginPath",),
                ("moveTo", x(get("x1")), y(get("y1"))),
                ("lineTo", x(get("x2")), y(get("y2"))),
                ("set lineCap", get("stroke-linecap", "butt")),
            ]
        elif tag == "text":
            weight = "bold " if get("font-weight") == "bold" else ""
            calls += [
                ("set font", f"{weight}{float(get('font-size')) * scale:.2f}px {font}"),
                ("set textAlign", ALIGN[get("text-anchor", "start")]),
                ("set textBaseline", "middle" if get("dominant-baseline") == "central" else "alphabetic"),
                ("set fillStyle", get("fill", "#000")),
                ("fillText", element.text or "", x(get("x")), y(get("y"))),
            ]
            continue
        else:
            raise PuzzleUsageError(f"Cannot draw an SVG <{tag}> into a PNG here: save the .svg instead.")
        calls += _paint(get, scale, tag != "line")
    return (math.ceil(width * SCALE), math.ceil(height * SCALE)), calls


def _paint(get, scale: float, filled: bool) -> list[tuple]:
    """The fill and the stroke of the shape just traced, as SVG paints them (fill black unless told)."""
    calls = []
    fill = get("fill", "#000" if filled else "none")
    if fill != "none":
        calls += [("set fillStyle", fill), ("fill",)]
    stroke = get("stroke", "none")
    if stroke != "none":
        dashes = [float(dash) * scale for dash in get("stroke-dasharray", "").replace(",", " ").split()]
        calls += [
            ("set strokeStyle", stroke),
            ("set lineWidth", float(get("stroke-width", "1")) * scale),
            ("setLineDash", dashes),
            ("stroke",),
        ]
    return calls
