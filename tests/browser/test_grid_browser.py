"""The grid widget in a real browser: JupyterLab, a 30x30 nonogram built step by step, Debian's chromium.

Counts the kernel's comm messages per step and per click, checks that each grid is drawn after its output
message (and prints how soon, a figure this test does not judge) and saves screenshots to test-artifacts/.
A second notebook shows a 4x4 Sudoku's pencil marks and its search tree, clicks a node of the tree, toggles
the grid widget to its pencil marks and explains an UNSAT step. Fails (never skips) when chromium or
Playwright is missing.
"""

from __future__ import annotations

import json
import re

import pytest
from lab_server import ARTIFACTS, jupyter_server, open_notebook, require_browser
from local_web import launch

from kernelext.widgets.style import CONFLICT
from kernelext.widgets.tree_forms import HIGHLIGHT

pytestmark = pytest.mark.browser

MSG_TYPE = re.compile(rb'"msg_type":\s*"(\w+)"')

SETUP = """\
n = 30
picture = [[int((r - 14) ** 2 + (c - 15) ** 2 <= 100 or (7 * r + 3 * c) % 11 == 0) for c in range(n)] for r in range(n)]

def runs(line):
    found, length = [], 0
    for value in list(line) + [0]:
        if value:
            length += 1
        elif length:
            found, length = found + [length], 0
    return found

def automaton(clue):
    q = Automaton.q
    if not clue:
        return Automaton(start=q(0), final=q(0), transitions=[(q(0), 0, q(0))])
    transitions, state = [], 0
    for i, size in enumerate(clue):
        transitions.append((q(state), 0, q(state)))
        transitions += [(q(state + j), 1, q(state + j + 1)) for j in range(size)]
        transitions.append((q(state + size), 0, q(state + size + (i < len(clue) - 1))))
        state += size + 1
    return Automaton(start=q(0), final=q(state - 1), transitions=transitions)

rows = [runs(row) for row in picture]
cols = [runs(col) for col in zip(*picture)]
"""
CELLS = [
    "%load_ext kernelext\nfrom pycsp3 import *",
    SETUP,
    "%%puzzle nonogram\nx = VarArray(size=[n, n], dom={0, 1})",
    "%%puzzle+\nsatisfy(x[i] in automaton(rows[i]) for i in range(n))",
    "%puzzle solve --sols 3",
    "%%puzzle+\nsatisfy(x[:, j] in automaton(cols[j]) for j in range(n))",
]
GRID_CELLS = (2, 3, 4, 5)

# A 4x4 Sudoku with two clues: propagation leaves {3,4}, {1,3,4}, {2,3,4} in the cells; the tree has 12 solutions.
PENCIL_CELLS = [
    "%load_ext kernelext\nfrom pycsp3 import *",
    "%%puzzle sudoku --view sudoku\nx = VarArray(size=[4, 4], dom=range(1, 5))",
    """%%puzzle+ --domains
satisfy(
    x[0][0] == 1,
    x[1][2] == 2,
    [AllDifferent(x[i]) for i in range(4)],
    [AllDifferent(x[:, j]) for j in range(4)],
    [AllDifferent(x[i][j] for i in range(r, r + 2) for j in range(c, c + 2)) for r in (0, 2) for c in (0, 2)]
)""",
    "%puzzle tree --nodes 100",
    "%%puzzle+\nsatisfy(x[0][1] == 1)",  # x[0][0] == 1 too: no solution
]

# Timestamps (page clock) of widget outputs arriving and of grids appearing, taken inside the page.
PAGE_HOOK = """
window.__kx = { outputs: [], grids: [] };
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      const t = performance.now();
      const text = typeof event.data === "string" ? event.data
        : event.data instanceof ArrayBuffer ? new TextDecoder().decode(event.data) : "";
      if (/"msg_type":\\s*"display_data"/.test(text) && text.includes("widget-view+json")) window.__kx.outputs.push(t);
    });
  }
};
new MutationObserver((records) => {
  for (const record of records)
    for (const node of record.addedNodes)
      if (node.nodeType === 1 && (node.matches(".kx-grid") || node.querySelector(".kx-grid")))
        requestAnimationFrame(() => window.__kx.grids.push(performance.now()));
}).observe(document, { childList: true, subtree: true });
"""


def notebook(sources: list[str] = CELLS) -> dict:
    cells = [
        {
            "cell_type": "code",
            "id": f"cell-{i}",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": source,
        }
        for i, source in enumerate(sources)
    ]
    return {
        "nbformat": 4,
        "nbformat_minor": 5,
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    }


@pytest.fixture
def lab(tmp_path):
    """A JupyterLab server serving a temp folder with the notebooks; yields its base URL and token."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "grid.ipynb").write_text(json.dumps(notebook()))
    (root / "pencil-tree.ipynb").write_text(json.dumps(notebook(PENCIL_CELLS)))
    with jupyter_server(tmp_path, root) as server:
        yield server.base, server.token


class Frames:
    """The kernel websocket's messages, as (direction, msg_type), in order."""

    def __init__(self):
        self.seen: list[tuple[str, str]] = []

    def watch(self, ws) -> None:
        if "/channels" in ws.url:
            ws.on("framereceived", lambda payload: self._add("received", payload))
            ws.on("framesent", lambda payload: self._add("sent", payload))

    def _add(self, direction: str, payload) -> None:
        data = payload.encode() if isinstance(payload, str) else payload
        found = MSG_TYPE.search(data)  # the first msg_type is the message's own (its header comes first)
        if found:
            self.seen.append((direction, found.group(1).decode()))

    def count(self, start: int, direction: str, msg_type: str) -> int:
        return sum(1 for d, t in self.seen[start:] if (d, t) == (direction, msg_type))


def watched_page(browser, frames: Frames, console: list[str] | None = None):
    """A new page whose websocket frames go to `frames` and, given `console`, its uncaught errors there."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(30_000)
    page.on("websocket", frames.watch)
    if console is not None:
        page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    return page


def run_cell(page, index: int, timeout: float = 60) -> None:
    page.evaluate(
        """(index) => {
        const panel = window.jupyterapp.shell.currentWidget;
        panel.content.activeCellIndex = index;
        return window.jupyterapp.commands.execute("notebook:run-cell");
    }""",
        index,
    )
    page.wait_for_function(
        """(index) => {
        const cell = window.jupyterapp.shell.currentWidget.content.widgets[index];
        const prompt = cell.node.querySelector(".jp-InputPrompt").textContent;
        return cell.model.executionCount !== null && !prompt.includes("*");
    }""",
        arg=index,
        timeout=timeout * 1000,
    )
    stderr = page.locator(".jp-Cell").nth(index).locator(".jp-OutputArea-output[data-mime-type*='stderr']")
    text = " ".join(stderr.all_inner_texts())
    if "Error" in text:
        pytest.fail(f"cell {index} failed: {text[-1500:]}")


def test_grid_widgets_in_jupyterlab(lab):
    sync_playwright = require_browser()
    base, token = lab
    namespace: dict = {}
    exec(SETUP, namespace)
    filled = sum(map(sum, namespace["rows"]))
    frames, figures = Frames(), {}
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = watched_page(browser, frames)
            page.add_init_script(PAGE_HOOK)
            open_notebook(page, f"{base}/lab/tree/grid.ipynb?token={token}")
            cells = page.locator(".jp-Notebook .jp-Cell")
            for index in range(len(CELLS)):
                start = len(frames.seen)
                before = page.evaluate("window.__kx.outputs.length")
                run_cell(page, index)
                if index not in GRID_CELLS:
                    continue
                grid = cells.nth(index).locator(".kx-grid")
                grid.wait_for(state="visible")
                page.wait_for_timeout(300)  # let any straggling message arrive
                opens = frames.count(start, "received", "comm_open")
                assert opens == 1, f"cell {index}: {opens} comm_open messages, want one per grid"
                shown = page.evaluate(
                    "(k) => window.__kx.grids.filter((t) => t > window.__kx.outputs[k]).length"
                    " ? Math.min(...window.__kx.grids.filter((t) => t > window.__kx.outputs[k]))"
                    " - window.__kx.outputs[k] : null",
                    before,
                )
                figures[f"cell {index}"] = {
                    "comm_open": opens,
                    "comm_msg": frames.count(start, "received", "comm_msg"),
                    "visible_ms": round(shown, 1) if shown is not None else None,
                }
                cells.nth(index).screenshot(path=str(ARTIFACTS / f"grid-cell-{index}.png"))

            final = cells.nth(5).locator(".kx-grid")
            assert final.is_visible()
            assert final.locator("table td").count() == 30 * 30 + 30 + 31  # cells, row clues, column clues
            assert final.locator("td", has_text="■").count() == filled
            assert final.locator(f"td[style*='{CONFLICT}']").count() == 0  # no broken rule

            stepper = cells.nth(4)
            assert stepper.locator(".kx-count").inner_text() == "1 of 3"
            first = stepper.locator(".kx-grid").inner_html()
            start = len(frames.seen)
            stepper.locator(".kx-next").click()
            page.wait_for_function(
                "(node) => node.textContent === '2 of 3'", arg=stepper.locator(".kx-count").element_handle()
            )
            page.wait_for_timeout(500)
            sent, echoed = frames.count(start, "sent", "comm_msg"), frames.count(start, "received", "comm_msg")
            assert (sent, echoed) == (1, 0), f"a click sent {sent} and received {echoed} comm messages, want 1 and 0"
            assert stepper.locator(".kx-grid").inner_html() != first
            figures["click"] = {"comm_msg sent": sent, "comm_msg received": echoed}
            stepper.screenshot(path=str(ARTIFACTS / "grid-stepper.png"))
            page.screenshot(path=str(ARTIFACTS / "grid-notebook.png"), full_page=True)
        finally:
            browser.close()
    print("grid widget in JupyterLab:", json.dumps(figures))  # how soon each grid appeared: a figure, not a check
    (ARTIFACTS / "grid-browser-figures.json").write_text(json.dumps(figures, indent=1) + "\n")
    undrawn = [cell for cell, f in figures.items() if "visible_ms" in f and f["visible_ms"] is None]
    assert not undrawn, f"grids not drawn after their widget's output message: {figures}"


def test_pencil_marks_and_search_tree_in_jupyterlab(lab):
    sync_playwright = require_browser()
    base, token = lab
    frames, console = Frames(), []
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = watched_page(browser, frames, console)
            page.on(
                "console", lambda m: console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None
            )
            open_notebook(page, f"{base}/lab/tree/pencil-tree.ipynb?token={token}")
            for index in range(len(PENCIL_CELLS)):
                run_cell(page, index)
            cells = page.locator(".jp-Notebook .jp-Cell")

            # The pencil marks: pencil_html's static table, its caption counting the values left.
            pencil = cells.nth(2).locator(".jp-RenderedHTMLCommon table", has_text="values left after propagation")
            try:
                pencil.wait_for(state="visible", timeout=10_000)
            except Exception:
                pytest.fail(f"no pencil marks in cell 2; browser console: {console}")
            assert pencil.locator("caption").inner_text() == "x: 36 values left after propagation"
            assert pencil.locator("td").count() == 4 * 4
            marks = [" ".join(text.split()) for text in pencil.locator("td").all_inner_texts()]
            assert marks[:4] == ["1", "2", "3 4", "3 4"], marks
            assert sum(len(m.split()) > 1 for m in marks) == 12, f"want 12 cells with several values: {marks}"

            # The search tree: TreeWidget's SVG, one clickable shape per node, and no grid before a click.
            tree = cells.nth(3).locator(".jp-OutputArea-output")
            nodes = tree.locator("svg [data-node]")
            try:
                nodes.first.wait_for(state="visible", timeout=10_000)
            except Exception:
                pytest.fail(f"no search tree widget in cell 3; browser console: {console}")
            assert tree.locator("svg").count() == 1, "the tree alone before a click"
            caption = tree.locator("pre")
            assert caption.inner_text().startswith("search tree: ")
            size = int(re.search(r"(\d+) nodes", caption.inner_text()).group(1))
            assert nodes.count() == size + 1, "one shape per node below the root, and the root"

            solution = nodes.filter(has=page.locator("title", has_text="(solution)")).first
            node_id = solution.get_attribute("data-node")
            start = len(frames.seen)
            solution.click()
            page.wait_for_function("(node) => node.textContent.startsWith('node ')", arg=caption.element_handle())
            grid = tree.locator("table")
            grid.wait_for(state="visible")
            page.wait_for_timeout(500)  # let any straggling message arrive
            sent = frames.count(start, "sent", "comm_msg")
            assert sent == 1, f"a click sent {sent} comm messages, want 1"
            assert frames.count(start, "received", "comm_msg") >= 1, "no answer to the click"
            assert caption.inner_text().startswith(f"node {node_id}: ") and "(solution)" in caption.inner_text()
            assert grid.locator("td").count() == 4 * 4
            digits = [text.strip() for text in grid.locator("td").all_inner_texts()]
            assert len(digits) == 16 and all(sorted(digits[4 * r : 4 * r + 4]) == list("1234") for r in range(4)), (
                digits
            )
            assert tree.locator(f'[data-node="{node_id}"] > polygon').get_attribute("stroke") == HIGHLIGHT

            # The step's widget toggles to its pencil marks in the browser alone, and back.
            widget = cells.nth(2).locator(".kx-root")
            start = len(frames.seen)
            widget.locator(".kx-pencil-toggle input").check()
            assert widget.locator(".kx-pencil td").count() == 4 * 4 and widget.locator(".kx-grid").count() == 0
            widget.locator(".kx-pencil-toggle input").uncheck()
            assert widget.locator(".kx-grid td").count() == 4 * 4
            page.wait_for_timeout(300)
            assert frames.count(start, "sent", "comm_msg") == 0, "the pencil-marks toggle sent messages"

            # An UNSAT step's Explain button: one message, answered with the conflict and its grid.
            unsat = cells.nth(4).locator(".kx-root")
            start = len(frames.seen)
            unsat.locator(".kx-explain").click()
            explanation = unsat.locator(".kx-explanation")
            explanation.wait_for(state="visible")
            page.wait_for_timeout(300)
            assert frames.count(start, "sent", "comm_msg") == 1, "the Explain button sent more than one message"
            assert "no solution" in explanation.inner_text() and "eq(x[0][1],1)" in explanation.inner_text()
            assert explanation.locator("table td").count() >= 4 * 4
            unsat.screenshot(path=str(ARTIFACTS / "grid-explain.png"))
            assert not [line for line in console if "error" in line.lower()], f"browser console: {console}"

            pencil.evaluate("(table) => table.scrollIntoView({block: 'start'})")  # the marks above, the tree below
            page.screenshot(path=str(ARTIFACTS / "pencil-marks-and-tree.png"), full_page=True)
        finally:
            browser.close()
