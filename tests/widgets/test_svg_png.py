"""The kit's SVG pictures read into canvas calls (kernelext.widgets.svg_png), as the browser replays them into a
PNG. The PNG itself is drawn in a real browser: tests/browser/test_lite_site.py."""

from __future__ import annotations

import math
from xml.etree import ElementTree

import pytest

from kernelext.errors import PuzzleUsageError
from kernelext.widgets.drawing_svg import drawing_svg
from kernelext.widgets.grid_svg import grid_svg
from kernelext.widgets.style import CONFLICT
from kernelext.widgets.svg_png import SCALE, can_draw_png, canvas_calls

GRID = {
    "name": "x",
    "cells": [
        [
            {"text": "1", "classes": ["given"], "borders": "tl", "cage": "b", "corner": 3},
            {"text": "", "classes": ["endpoint", "changed"], "fill": 1},
        ],
        [{"text": "2", "classes": ["conflict"]}, {"text": "", "classes": ["hole"]}],
    ],
    "signs": [{"cells": [(0, 0), (0, 1)], "text": "<"}],
}
PICTURE = {
    "name": "schedule",
    "lines": ["schedule: job 0 from 0 to 6", "an unnamed task overlaps"],
    "width": 200,
    "height": 80,
    "shapes": [
        {"shape": "box", "x": 10, "y": 10, "w": 60, "h": 20, "fill": "#8dd3c7", "text": "job 0", "marks": []},
        {"shape": "box", "x": 70, "y": 40, "w": 30, "h": 20, "fill": "#fb8072", "text": "", "marks": ["conflict"]},
        {"shape": "dot", "x": 150, "y": 40, "r": 9, "fill": "#ffffb3", "text": "3", "marks": ["faint"]},
        {"shape": "line", "x1": 0, "y1": 70, "x2": 200, "y2": 70, "colour": "#666", "marks": ["dashed"]},
        {"shape": "label", "x": 100, "y": 78, "text": "makespan 10", "size": 10, "anchor": "middle"},
    ],
}


def shapes(svg: str) -> dict[str, int]:
    root = ElementTree.fromstring(svg)
    tags = [element.tag.split("}")[1] for element in root.iter()]
    return {tag: tags.count(tag) for tag in ("rect", "circle", "line", "text")}


@pytest.mark.parametrize("svg", [grid_svg(GRID), drawing_svg(PICTURE)], ids=["grid", "picture"])
def test_every_shape_and_text_is_drawn_once_at_twice_the_size(svg):
    (width, height), calls = canvas_calls(svg)
    root = ElementTree.fromstring(svg)
    assert (width, height) == (
        math.ceil(SCALE * float(root.get("width"))),
        math.ceil(SCALE * float(root.get("height"))),
    )
    names = [call[0] for call in calls]
    counted = shapes(svg)
    assert names.count("rect") + names.count("roundRect") == counted["rect"]
    assert names.count("arc") == counted["circle"]
    assert names.count("lineTo") == counted["line"]
    texts = [call[1] for call in calls if call[0] == "fillText"]
    assert texts == [element.text for element in root.iter() if element.tag.endswith("}text")]
    for call in calls:  # every point lands on the PNG
        if call[0] in ("rect", "roundRect", "moveTo", "lineTo", "arc", "fillText"):
            x, y = call[1:3] if call[0] != "fillText" else call[2:4]
            assert -1 <= x <= width + 1 and -1 <= y <= height + 1, call


def test_the_grid_s_view_box_is_mapped_onto_the_pixels():
    _, calls = canvas_calls(grid_svg(GRID))
    root = ElementTree.fromstring(grid_svg(GRID))
    x0, y0, view_width, _ = map(float, root.get("viewBox").split())
    scale = SCALE * float(root.get("width")) / view_width
    cell = next(call for call in calls if call[0] == "rect" and call[3] == pytest.approx(scale))  # the first cell
    assert cell[1:3] == (pytest.approx(-x0 * scale), pytest.approx(-y0 * scale))
    given = calls[[call[:2] for call in calls].index(("fillText", "1")) - 4]  # its font, set just before
    assert given == ("set font", f"bold {0.45 * scale:.2f}px {root.get('font-family')}")


def test_fills_strokes_and_dashes_follow_the_svg():
    _, calls = canvas_calls(drawing_svg(PICTURE))
    assert ("set fillStyle", "#8dd3c7") in calls and ("set strokeStyle", CONFLICT) in calls
    dashes = [call[1] for call in calls if call[0] == "setLineDash" and call[1]]
    assert [2 * SCALE, 3 * SCALE] in dashes, "a broken rule's outline is dotted"
    assert all(dash in ([4 * SCALE, 3 * SCALE], [2 * SCALE, 3 * SCALE]) for dash in dashes)
    assert calls.count(("fill",)) == 4  # the background, two boxes, the dot: never the line


def test_an_element_none_of_the_kit_s_writers_emits_is_refused_by_name():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><path d="M0 0L5 5"/></svg>'
    with pytest.raises(PuzzleUsageError, match="Cannot draw an SVG <path> into a PNG here: save the .svg instead"):
        canvas_calls(svg)


def test_the_desktop_draws_its_png_with_matplotlib_not_a_canvas():
    assert not can_draw_png()
