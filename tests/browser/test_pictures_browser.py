"""The pictures (Gantt chart, graph, route, packing) in a real browser, Debian's chromium:
- the four picture notebooks as stored, opened untrusted in Notebook 7 (JupyterLab's sanitizer at work) and
  exported by nbconvert and opened from disk with every other host unreachable: each picture keeps its shapes
  placed inside its box, and the last picture of each notebook shows what it should;
- the job shop run in a live kernel in JupyterLab: the widget draws the Gantt chart (every picture is drawn by the
  same widget from its static HTML).
Screenshots go to test-artifacts/. Fails (never skips) when chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lab_server import ARTIFACTS, jupyter_server, open_notebook, require_browser
from local_web import launch

pytestmark = pytest.mark.browser

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LIVE = ("job_shop",)  # run in a kernel: the step-by-step Gantt chart, the picture the others share their widget with
NO_WINDOWING = {"@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"}}  # every cell in the page
# What the last picture of each notebook holds: boxes with a title (bars, rectangles), round dots (nodes, stops).
LAST_PICTURE = {
    "job_shop": {"boxes": 9, "dots": 0},
    "packing": {"boxes": 5, "dots": 0},
    "map_colouring": {"boxes": 0, "dots": 7},
    "tour": {"boxes": 0, "dots": 8},
}
# Each picture: a relative box; its shapes: absolutely placed, with a size, inside it.
MEASURE = """() => [...document.querySelectorAll(".jp-OutputArea-output div")]
    .filter((d) => getComputedStyle(d).position === "relative"
    && [...d.children].some((c) => getComputedStyle(c).position === "absolute")).map((box) => {
    box.scrollIntoView({block: "center"});
    const outer = box.getBoundingClientRect();
    const shapes = [...box.children].map((c) => [c, c.getBoundingClientRect(), getComputedStyle(c)]);
    const placed = shapes.filter(([, r, s]) => s.position === "absolute" && r.width > 0 && r.height > 0
        && r.left >= outer.left - 1 && r.right <= outer.right + 1 && r.top >= outer.top - 1
        && r.bottom <= outer.bottom + 1);
    return {
        shapes: shapes.length,
        placed: placed.length,
        boxes: placed.filter(([c, , s]) => c.title && s.borderRadius !== "50%").length,
        dots: placed.filter(([, , s]) => s.borderRadius === "50%").length,
        width: outer.width,
    };
})"""


def pictures(page) -> list[dict]:
    page.wait_for_function("() => document.querySelectorAll('.jp-OutputArea-output div').length > 0", timeout=60_000)
    return page.evaluate(MEASURE)


def check(found: list[dict], name: str, surface: str) -> None:
    assert found, f"{name} ({surface}): no picture drawn"
    for picture in found:
        assert picture["placed"] == picture["shapes"] > 0 and picture["width"] > 100, (name, surface, picture)
    last = found[-1]
    assert {key: last[key] for key in ("boxes", "dots")} == LAST_PICTURE[name], (name, surface, last)


def test_stored_pictures_survive_the_sanitizer_and_an_offline_export(tmp_path):
    sync_playwright = require_browser()
    root = tmp_path / "root"
    root.mkdir()
    for name in LAST_PICTURE:
        shutil.copy(NOTEBOOKS / f"{name}.ipynb", root)
    exported = tmp_path / "html"
    subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--output-dir", str(exported)]
        + [str(root / f"{name}.ipynb") for name in LAST_PICTURE],
        check=True,
        capture_output=True,
        timeout=300,
    )
    with jupyter_server(tmp_path, root, NO_WINDOWING) as server, sync_playwright() as p:
        browser = launch(p, only_local=True)
        try:
            for name in LAST_PICTURE:
                page = browser.new_page(viewport={"width": 1300, "height": 900})
                page.goto(server.url(f"notebooks/{name}.ipynb"))  # never trusted: the sanitizer runs
                page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
                check(pictures(page), name, "notebook 7, untrusted")
                page.screenshot(path=str(ARTIFACTS / f"picture-{name}-untrusted.png"))
                page.close()
                page = browser.new_page(viewport={"width": 1300, "height": 900})
                page.goto((exported / f"{name}.html").as_uri())
                check(pictures(page), name, "nbconvert, offline")
                page.screenshot(path=str(ARTIFACTS / f"picture-{name}-exported.png"))
                page.close()
        finally:
            browser.close()


def test_the_live_widget_draws_the_gantt_chart(tmp_path):
    sync_playwright = require_browser()
    root = tmp_path / "root"
    root.mkdir()
    for name in LIVE:
        nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                cell["outputs"], cell["execution_count"] = [], None
        (root / f"{name}.ipynb").write_text(json.dumps(nb))
    with jupyter_server(tmp_path, root) as server, sync_playwright() as p:
        browser = launch(p)
        try:
            for name in LIVE:
                expected = LAST_PICTURE[name]
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                open_notebook(page, server.url(f"lab/tree/{name}.ipynb"))
                page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
                page.wait_for_function(
                    """() => window.jupyterapp.shell.currentWidget.content.widgets
                        .filter((c) => c.model.type === "code").every((c) => c.model.executionCount !== null)""",
                    timeout=300_000,
                )
                drawn = page.locator(".jp-Notebook .jp-CodeCell").last.locator(".kx-grid").first
                drawn.wait_for(timeout=120_000)  # the last cell's widget, drawn once its comm message arrives
                drawn.scroll_into_view_if_needed()
                count = """(grid) => ({
                    boxes: [...grid.querySelectorAll("div[title]")].filter((d) => d.title
                        && getComputedStyle(d).position === "absolute" && getComputedStyle(d).borderRadius !== "50%")
                        .length,
                    dots: [...grid.querySelectorAll("div")].filter((d) => getComputedStyle(d).borderRadius === "50%").length,
                })"""
                try:  # a busy machine may draw the widget's picture a moment after the widget itself
                    page.wait_for_function(
                        f"([grid, expected]) => JSON.stringify(({count})(grid)) === JSON.stringify(expected)",
                        arg=[drawn.element_handle(), expected],
                        timeout=30_000,
                    )
                except Exception:  # Playwright's TimeoutError: what was drawn is reported below
                    pass
                found = drawn.evaluate(count)
                assert found == expected, (name, found)
                drawn.screenshot(path=str(ARTIFACTS / f"picture-{name}-live.png"))
                page.close()
                server.stop_kernels()
        finally:
            browser.close()
