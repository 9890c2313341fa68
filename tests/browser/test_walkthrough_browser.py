"""A walkthrough in a real browser: JupyterLab and Debian's chromium.

The stepper widget browses its pages with the buttons and the slider and sends no kernel message for it;
the static form, stored in a notebook opened untrusted (the HTML sanitizer runs), shows every step as
a card as wide as its grid, the cards side by side. Fails (never skips) when chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import pickle
from contextlib import contextmanager

import pytest
from lab_server import ARTIFACTS, jupyter_server, open_notebook, require_browser
from local_web import launch
from sample_walkthrough import walkthrough
from test_grid_browser import Frames, notebook, run_cell, watched_page

from kernelext.insight.pencil_marks import PencilGrid
from kernelext.widgets.pencil_forms import pencil_html
from kernelext.widgets.static_forms import (
    walkthrough_captions,
    walkthrough_html,
    walkthrough_text,
)

pytestmark = pytest.mark.browser

SHOW = """\
import pickle
from kernelext.widgets.stepper_widget import StepperWidget

with open("walkthrough.pickle", "rb") as file:
    walkthrough = pickle.load(file)
StepperWidget(walkthrough, block=2)"""

# A Sudoku's pencil marks with a chain on 9: row 2 to row 4 in column 7 (weak), then to column 6 (strong).
CHAIN = PencilGrid(
    "x",
    tuple(tuple((1, 2, 5, 8, 9) for _ in range(9)) for _ in range(9)),
    tuple(tuple(() for _ in range(9)) for _ in range(9)),
    links=(((2, 7), (4, 7), 9, False), ((4, 7), (4, 6), 9, True)),
)
# Each dot of a chain: its computed position and colour, and its centre in cells of its table.
DOTS = """(output) => {
  const table = output.querySelector("table[title]").getBoundingClientRect();
  return [...output.querySelectorAll("td span[style*='absolute']")].map((dot) => {
    const box = dot.getBoundingClientRect(), style = getComputedStyle(dot);
    return { position: style.position, colour: style.backgroundColor, width: box.width,
             row: (box.top + box.height / 2 - table.top) / (table.height / 9),
             col: (box.left + box.width / 2 - table.left) / (table.width / 9) };
  });
}"""

# Each card of the static form: its box, its caption's and its pencil grid's widths.
CARDS = """(output) => [...output.querySelectorAll("div[style*='inline-block']")].map((card) => {
  const box = card.getBoundingClientRect();
  return { top: box.top, left: box.left, width: box.width,
           caption: card.querySelector("caption").getBoundingClientRect().width,
           grid: card.querySelector("td table").getBoundingClientRect().width,
           cells: card.querySelectorAll("td table td").length };
})"""


@pytest.fixture
def lab(tmp_path):
    """A JupyterLab server serving the walkthrough (pickled), a notebook showing its widget and a notebook
    with its static form stored (never signed, so untrusted); yields its base URL and token."""
    root = tmp_path / "root"
    root.mkdir()
    w = walkthrough()
    (root / "walkthrough.pickle").write_bytes(pickle.dumps(w))
    (root / "stepper.ipynb").write_text(json.dumps(notebook([SHOW])))
    stored = notebook(["# the walkthrough as a kernel showed it"])
    stored["cells"][0]["outputs"] = [
        {
            "output_type": "display_data",
            "metadata": {},
            "data": {"text/html": walkthrough_html(w, 2), "text/plain": walkthrough_text(w)},
        }
    ]
    (root / "static.ipynb").write_text(json.dumps(stored))
    chain = notebook(["# a chain drawn on a pencil grid"])
    chain["cells"][0]["outputs"] = [
        {
            "output_type": "display_data",
            "metadata": {},
            "data": {"text/html": pencil_html(CHAIN, 3), "text/plain": "a chain"},
        }
    ]
    (root / "chain.ipynb").write_text(json.dumps(chain))
    with jupyter_server(tmp_path, root) as server:
        yield server.base, server.token


def test_walkthrough_stepper_browses_in_the_browser_alone(lab):
    sync_playwright = require_browser()
    base, token = lab
    captions = walkthrough_captions(walkthrough())
    frames, console = Frames(), []
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = watched_page(browser, frames, console)
            open_notebook(page, f"{base}/lab/tree/stepper.ipynb?token={token}")
            run_cell(page, 0)
            widget = page.locator(".jp-Notebook .jp-Cell").nth(0).locator(".kx-walkthrough")
            try:
                widget.wait_for(state="visible", timeout=10_000)
            except Exception:
                pytest.fail(f"no walkthrough widget; browser console: {console}")
            count, caption = widget.locator(".kx-step-count"), widget.locator(".kx-step-caption")
            grid = widget.locator(".kx-step-page table")

            def shows(k: int) -> None:
                assert count.inner_text() == f"step {k} of 2" and caption.inner_text() == captions[k]
                assert grid.locator("td").count() == 16

            page.wait_for_timeout(500)  # let any straggling message arrive
            start = len(frames.seen)
            shows(0)
            assert widget.locator(".kx-step-previous").is_disabled()
            first = grid.inner_html()
            widget.locator(".kx-step-next").click()
            shows(1)
            assert grid.inner_html() != first
            assert grid.locator("td[style*='#dbeafe']").count() == 4  # the rest of row 0 and x[1][1]
            widget.locator(".kx-step-next").click()
            shows(2)
            assert widget.locator(".kx-step-next").is_disabled()
            widget.screenshot(path=str(ARTIFACTS / "walkthrough-stepper.png"))
            widget.locator(".kx-step-previous").click()
            shows(1)
            slider = widget.locator(".kx-step-slider")
            slider.focus()
            page.keyboard.press("Home")
            shows(0)
            assert grid.inner_html() == first
            page.keyboard.press("End")
            shows(2)
            page.wait_for_timeout(500)
            sent, received = frames.count(start, "sent", "comm_msg"), frames.count(start, "received", "comm_msg")
            assert (sent, received) == (0, 0), f"browsing sent {sent} and received {received} comm messages"
            assert not console, f"browser console: {console}"
        finally:
            browser.close()


@contextmanager
def stored_output(lab, name: str):
    """The first HTML output of the stored notebook `name`, opened untrusted in JupyterLab, once it shows."""
    sync_playwright = require_browser()
    base, token = lab
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(30_000)
            open_notebook(page, f"{base}/lab/tree/{name}?token={token}")
            output = page.locator(".jp-OutputArea-output.jp-RenderedHTMLCommon").first
            output.locator("caption").first.wait_for(state="visible")
            yield output
        finally:
            browser.close()


def test_walkthrough_static_form_untrusted_shows_every_step_as_cards_side_by_side(lab):
    with stored_output(lab, "static.ipynb") as output:
        cards = output.evaluate(CARDS)
        assert [card["cells"] for card in cards] == [16] * 3, cards
        assert len({card["top"] for card in cards}) == 1, f"the cards are not side by side: {cards}"
        for card in cards:  # each caption wraps to its grid's width
            assert card["caption"] <= card["grid"] + 1 and card["width"] <= card["grid"] + 1, cards
        assert output.locator("td[style*='#dbeafe']").count() == 7, "the highlights did not survive"
        output.screenshot(path=str(ARTIFACTS / "walkthrough-static.png"))


def test_a_chain_drawn_untrusted_keeps_its_dots_on_the_line_between_its_cells(lab):
    """The sanitizer keeps the dots' positions and colours: the weak link runs down column 7 from row 2 to
    row 4 in dark orange, the strong link along row 4 from column 7 to column 6 in blue."""
    expected = pencil_html(CHAIN, 3).count("position:absolute")
    with stored_output(lab, "chain.ipynb") as output:
        dots = output.evaluate(DOTS)
        assert len(dots) == expected and all(d["position"] == "absolute" and d["width"] >= 2 for d in dots)
        weak = [d for d in dots if d["colour"] == "rgb(180, 83, 9)"]
        strong = [d for d in dots if d["colour"] == "rgb(29, 78, 216)"]
        assert len(weak) + len(strong) == len(dots) and weak and strong, dots
        assert all(7 < d["col"] < 8 and 2 < d["row"] < 5 for d in weak), weak
        assert all(6 < d["col"] < 8 and 4 < d["row"] < 5 for d in strong), strong
        output.screenshot(path=str(ARTIFACTS / "walkthrough-chain.png"))
