"""What the kit draws, in a real browser (Debian's chromium), against WCAG 2.1 AA:
- every state of a grid, of pencil marks and of a picture stays distinguishable in grayscale (a second cue besides
  colour), measured on screenshots of the cells; the screenshot goes to test-artifacts/grayscale-states.png;
- axe-core's A and AA rules find nothing on those forms, nor on the grader's HTML feedback.
The stored notebooks' outputs are checked by axe in test_stored_notebooks.py. Fails (never skips) when chromium,
Playwright or axe-core is missing.
"""

from __future__ import annotations

import io
import itertools

import pytest
from axe import described, violations
from lab_server import ARTIFACTS, require_browser
from local_web import launch

from kernelext.grading.reports.results import InstanceResult, Outcome, SubmissionResult
from kernelext.insight.pencil_marks import PencilGrid
from kernelext.views.shapes import box, picture
from kernelext.widgets.drawing_forms import drawing_html
from kernelext.widgets.html_grid import grid_html, legend_html
from kernelext.widgets.pencil_forms import pencil_html

pytestmark = pytest.mark.browser

# One row per state, the same digit in each (a free cell shows its own glyph, *): they differ only by their cues.
STATES = {"given": ["given"], "solved": ["solved"], "free": ["free"], "changed": ["solved", "changed"]}
STATES["conflict"] = ["conflict"]
GRID = {
    "name": "states",
    "cells": [[{"text": "*" if name == "free" else "4", "classes": classes} for name, classes in STATES.items()]],
}
TWIN = {"name": "twins", "cells": [[{"text": "4", "classes": ["solved"]}] * 2]}  # two cells in the same state
PENCIL = PencilGrid(
    "marks",
    values=(((1, 2), (1, 2), (1, 2), (3,), ()),),
    removed=(((), (3,), (), (4,), ()),),
    highlighted=frozenset({(0, 2)}),
)
PENCIL_STATES = ("kept", "struck out", "highlighted", "decided", "wiped out")
BOXES = {"plain": {}, "changed": {"changed": True}, "conflict": {"conflict": True}, "undecided": {"faint": True}}
PICTURE = picture(
    "gantt",
    "boxes",
    ["boxes: four tasks"],
    [box(10 + 70 * k, 10, 60, 24, "#77AADD", "t", **marks) for k, marks in enumerate(BOXES.values())],
    [],
)
FEEDBACK = SubmissionResult(
    "ada",
    (
        InstanceResult("small", False, "small", Outcome.PASSED, 2, 2),
        InstanceResult(
            "europe",
            False,
            "europe",
            Outcome.FAILED,
            0,
            3,
            "wrong answer: it breaks ne(c[2],c[5])",
            answer=[0, 1, 1, 2, 0, 1],
            marked=("c[2]", "c[5]"),
            labels=("France", "Spain", "Germany", "Italy", "Austria", "Switzerland"),
        ),
        InstanceResult("hidden", True, "hidden 1", Outcome.TIMEOUT, 0, 2, "timed out after 10 s"),
    ),
    notes=("graded notebook: colouring.ipynb",),
)
PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>states</title></head>
<body style="background-color:#fff;color:#222;font-family:sans-serif"><main>{}</main></body></html>"""
# Two drawings of a state count as different when at least this many pixels differ by more than LEVELS gray levels.
PIXELS, LEVELS = 12, 48


@pytest.fixture(scope="module")
def browser():
    sync_playwright = require_browser()
    with sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()


def _gray(png: bytes):
    from PIL import Image  # deferred: only the browser tests need Pillow (matplotlib brings it)

    return Image.open(io.BytesIO(png)).convert("L")


def _differing_pixels(a, b) -> int:
    width, height = min(a.width, b.width), min(a.height, b.height)
    pa, pb = a.crop((0, 0, width, height)).getdata(), b.crop((0, 0, width, height)).getdata()
    return sum(abs(x - y) > LEVELS for x, y in zip(pa, pb))


def _states_apart(page, selector: str, names) -> dict[tuple[str, str], int]:
    shots = [_gray(element.screenshot()) for element in page.locator(selector).all()]
    assert len(shots) == len(names), f"{selector}: {len(shots)} drawn, want {len(names)}"
    drawn = dict(zip(names, shots))
    return {(a, b): _differing_pixels(drawn[a], drawn[b]) for a, b in itertools.combinations(names, 2)}


def test_every_state_stays_distinguishable_in_grayscale(browser):
    page = browser.new_page(viewport={"width": 900, "height": 600}, device_scale_factor=2)
    body = (
        f"{grid_html(GRID)}{legend_html(GRID)}<div id='twins'>{grid_html(TWIN)}</div>"
        f"<div id='pencil'>{pencil_html(PENCIL)}</div><div id='picture'>{drawing_html(PICTURE)}</div>"
    )
    page.set_content(PAGE.format(body).replace('<body style="', '<body style="filter:grayscale(1);'))
    page.screenshot(path=str(ARTIFACTS / "grayscale-states.png"), full_page=True)
    alike = {
        "grid": _states_apart(page, f"table[title='states: 1 x {len(STATES)}'] td", list(STATES)),
        "pencil marks": _states_apart(page, "#pencil td", PENCIL_STATES),
        "picture": _states_apart(page, "#picture div[title='t'], #picture div[title='✗ t']", list(BOXES)),
    }
    too_close = {form: {pair: n for pair, n in pairs.items() if n < PIXELS} for form, pairs in alike.items()}
    assert not any(too_close.values()), f"states that look alike in grayscale: {too_close}"
    twins = _states_apart(page, "#twins td", ["one", "other"])
    assert twins[("one", "other")] == 0, "the same state drawn twice should look the same: the measure is off"
    page.close()


def test_axe_finds_nothing_on_the_drawn_forms_and_the_feedback_page(browser):
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    page.set_content(PAGE.format(f"{grid_html(GRID)}{legend_html(GRID)}{pencil_html(PENCIL)}{drawing_html(PICTURE)}"))
    drawn = violations(page, "main")
    page.set_content(FEEDBACK.feedback_html())
    feedback = violations(page)
    assert page.locator("caption", has_text="the answer").count() == 1, "the feedback draws the wrong answer"
    page.close()
    assert drawn == [], described(drawn)
    assert feedback == [], described(feedback)
