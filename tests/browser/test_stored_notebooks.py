"""Stored notebooks without a kernel, in a real browser: every grid is drawn as rows and columns of cells.

Surfaces: JupyterLab (every notebook) and Notebook 7 (one of each kind of output), each with the notebooks untrusted (as a student receives them: the
HTML sanitizer runs) and trusted (signed with `jupyter trust`), and `jupyter nbconvert --to html` opened
from disk with every network request refused. A grid counts as visible when its table's bordered cells
(the sanitizer keeps their inline styles, or they have no border) lie in as many rows and columns as the
grid has, aligned, each at least 10 px wide and high. axe-core's WCAG 2.1 A/AA rules check every output as a
student sees it: opened untrusted in JupyterLab and Notebook 7, and exported by nbconvert. Also a notebook a
teacher runs and saves in JupyterLab, with and without widget state, reopens with its grids. Screenshots go to
test-artifacts/.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from axe import count, described, notebook_violations, violations
from lab_server import ARTIFACTS, jupyter_server, open_notebook, require_browser
from local_web import launch

pytestmark = pytest.mark.browser

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
GRID_TITLE = re.compile(r'title="[^"]*: (\d+) x (\d+)"')
# Notebook 7 draws outputs with JupyterLab's own renderers and sanitizer, in another page: these notebooks hold
# every kind of output the kit stores (grids and pencil marks, a walkthrough's cards, an explanation, a Gantt chart,
# a packing); JupyterLab opens every notebook.
NOTEBOOK_7 = ("sudoku", "walkthrough", "explain", "job_shop", "packing")
NO_WINDOWING = {"@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"}}

# Each table whose title ends in "R x C": are its bordered cells an R x C grid on screen?
MEASURE = """() => {
  const found = [];
  for (const table of document.querySelectorAll("table[title]")) {
    const shape = / (\\d+) x (\\d+)$/.exec(table.title);
    if (!shape) continue;
    const [rows, cols] = [Number(shape[1]), Number(shape[2])];
    table.scrollIntoView({ block: "center" });
    const cells = [...table.rows].flatMap((row) => [...row.cells]).filter((td) => {
      const style = getComputedStyle(td);
      return style.borderTopStyle === "solid" && parseFloat(style.borderTopWidth) >= 1;
    });
    const boxes = cells.map((td) => td.getBoundingClientRect());
    const tops = [...new Set(boxes.map((b) => Math.round(b.top)))];
    const lefts = [...new Set(boxes.map((b) => Math.round(b.left)))];
    const sized = boxes.every((b) => b.width >= 10 && b.height >= 10);
    const visible = cells.length > 0 && cells.every((td) => td.checkVisibility());
    const ok = cells.length === rows * cols && tops.length === rows && lefts.length === cols && sized && visible;
    found.push({ title: table.title, ok, cells: cells.length, rows: tops.length, cols: lefts.length });
  }
  return found;
}"""


def expected_grids(path: Path) -> int:
    """How many grid tables the notebook's saved outputs hold."""
    nb = json.loads(path.read_text())
    return sum(
        len(GRID_TITLE.findall("".join(output.get("data", {}).get("text/html", ""))))
        for cell in nb["cells"]
        for output in cell.get("outputs", ())
    )


def stored(names: tuple[str, ...] = ()) -> list[Path]:
    """The stored notebooks (those named, when `names` are given)."""
    found = sorted(path for path in NOTEBOOKS.glob("*.ipynb") if not names or path.stem in names)
    assert found and len(found) >= len(names), "no stored notebooks, or one named is missing"
    return found


def measure(page, name: str, surface: str, expected: int) -> dict:
    page.wait_for_function(f"() => document.querySelectorAll('table[title]').length >= {expected}", timeout=30_000)
    grids = page.evaluate(MEASURE)
    page.screenshot(path=str(ARTIFACTS / f"stored-{surface}-{name}.png"), full_page=True)
    text = page.evaluate("() => document.body.innerText")
    return {
        "expected": expected,
        "visible": sum(g["ok"] for g in grids),
        "broken": [g for g in grids if not g["ok"]][:3],
        "widget_error": "Error displaying widget" in text,
    }


READ_TRUST = """(path) => {
    const app = window.jupyterapp;
    if (!app) return "window.jupyterapp is not set";
    const panels = [app.shell.currentWidget];
    try { panels.push(...app.shell.widgets("main")); } catch (error) { /* a shell without a main area list */ }
    const panel = panels.find((w) => w && w.context && w.context.path === path && w.content && w.content.model);
    if (!panel || !panel.context.isReady) return `no notebook ${path} open and ready in the app`;
    const cells = panel.content.model.cells;
    const out = [];
    for (let i = 0; i < cells.length; i++) if (cells.get(i).type === "code") out.push(cells.get(i).trusted);
    return out;
}"""


def trusted_cells(page, path: str) -> list[bool]:
    """Whether each code cell of the notebook `path` (relative to the server's root) open on `page` is trusted,
    from the front end's model: JupyterLab and Notebook 7 each expose their app as window.jupyterapp (lab_server
    turns that on for both). Waits up to a minute for the notebook to be open and ready (a busy machine is slow),
    then fails if unreadable."""
    try:
        page.wait_for_function(f"(path) => Array.isArray(({READ_TRUST})(path))", arg=path, timeout=60_000)
    except Exception:  # Playwright's TimeoutError: the reason is read and reported below
        pass
    states = page.evaluate(READ_TRUST, path)
    assert isinstance(states, list), f"cannot read which cells are trusted on {page.url.split('?')[0]}: {states}"
    return states


def copy_notebooks(folder: Path, mark: str = "") -> None:
    """Copy the stored notebooks into `folder`; `mark` goes into each one's metadata, so that copies that
    must stay untrusted differ from those the test trusts (trust follows a notebook's content, not its path)."""
    shutil.copytree(NOTEBOOKS, folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    if mark:
        for path in folder.glob("*.ipynb"):
            nb = json.loads(path.read_text())
            nb["metadata"]["copy"] = mark
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def test_stored_notebooks_show_every_grid_in_jupyterlab_and_notebook_7(tmp_path):
    sync_playwright = require_browser()
    root = tmp_path / "root"
    copy_notebooks(root / "untrusted", mark="untrusted")
    copy_notebooks(root / "trusted")
    figures: dict[str, dict] = {}
    with jupyter_server(tmp_path, root, NO_WINDOWING) as server:
        trusted = [str(path) for path in sorted((root / "trusted").glob("*.ipynb"))]
        subprocess.run(
            [sys.executable, "-m", "jupyter", "trust", *trusted],
            env=server.env,
            check=True,
            capture_output=True,
            timeout=300,
        )
        with sync_playwright() as p:
            browser = launch(p)
            try:
                for trust in ("untrusted", "trusted"):
                    lab = browser.new_page(
                        viewport={"width": 1300, "height": 900}
                    )  # one JupyterLab, each notebook in turn
                    lab.goto(server.url("lab") + "&reset")
                    lab.wait_for_function(
                        "() => window.jupyterapp && window.jupyterapp.commands.hasCommand('docmanager:open')",
                        timeout=60_000,
                    )
                    for path in stored():
                        lab.evaluate(
                            """async (path) => {
                            await window.jupyterapp.commands.execute("application:close-all");
                            await window.jupyterapp.commands.execute("docmanager:open", { path });
                        }""",
                            f"{trust}/{path.name}",
                        )
                        figures.setdefault(f"lab-{trust}", {})[path.stem] = measure_open(
                            lab, path, f"lab-{trust}", trust
                        )
                        server.stop_kernels()
                    lab.close()
                    for path in stored(NOTEBOOK_7):
                        page = browser.new_page(viewport={"width": 1300, "height": 900})
                        page.goto(server.url(f"notebooks/{trust}/{path.name}"))
                        surface = f"notebook7-{trust}"
                        figures.setdefault(surface, {})[path.stem] = measure_open(page, path, surface, trust)
                        page.close()
                        server.stop_kernels()
            finally:
                browser.close()
    report(figures, "stored-notebooks")


def measure_open(page, path: Path, surface: str, trust: str) -> dict:
    """Measure the notebook `path` just opened on `page`, and whether its cells are trusted as they should be."""
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    found = measure(page, path.stem, surface, expected_grids(path))
    # cells without outputs are trusted anyway: untrusted means some are not
    found["trust_as_expected"] = all(trusted_cells(page, f"{trust}/{path.name}")) == (trust == "trusted")
    if trust == "untrusted":  # what a student sees; trusted, the same HTML is drawn without the sanitizer
        found["axe"] = described(notebook_violations(page))
    return found


def test_exported_notebooks_show_every_grid_offline(tmp_path):
    sync_playwright = require_browser()
    out = tmp_path / "html"
    subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--output-dir", str(out), *map(str, stored())],
        check=True,
        capture_output=True,
        timeout=600,
    )
    figures: dict[str, dict] = {"nbconvert-offline": {}}
    refused: list[str] = []
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 900})

            def only_files(route):
                if route.request.url.startswith("file:"):
                    route.continue_()
                else:
                    refused.append(route.request.url)
                    route.abort()

            page.route("**/*", only_files)
            for path in stored():
                page.goto((out / f"{path.stem}.html").as_uri())
                found = measure(page, path.stem, "nbconvert", expected_grids(path))
                axe = violations(page, ".jp-OutputArea-output")
                figures["nbconvert-offline"][path.stem] = {**found, "axe": described(axe), "axe_count": count(axe)}
        finally:
            browser.close()
    report(figures, "exported-notebooks")


def report(figures: dict, name: str) -> None:
    """Print and save the count of visible grids per surface; fail on any grid not drawn, widget error, wrong trust
    state or axe violation."""
    summary = {
        surface: f"{sum(f['visible'] for f in found.values())}/{sum(f['expected'] for f in found.values())}"
        for surface, found in figures.items()
    }
    print(f"{name}: grids visible per surface: {json.dumps(summary)}")
    (ARTIFACTS / f"{name}.json").write_text(json.dumps({"summary": summary, "notebooks": figures}, indent=1) + "\n")
    bad = {
        f"{surface}/{nb}": found
        for surface, notebooks in figures.items()
        for nb, found in notebooks.items()
        if found["visible"] != found["expected"]
        or found["widget_error"]
        or found.get("trust_as_expected") is False
        or found.get("axe")
    }
    assert not bad, f"grids not drawn, widget errors, wrong trust state or axe violations: {json.dumps(bad)[:3000]}"


TEACHER_NOTEBOOK = "amaze.ipynb"


@pytest.mark.parametrize("save_state", [False, True], ids=["without-widget-state", "with-widget-state"])
def test_notebook_run_and_saved_by_a_teacher_reopens_with_its_grids(tmp_path, save_state):
    sync_playwright = require_browser()
    root = tmp_path / "root"
    copy_notebooks(root)
    path = root / TEACHER_NOTEBOOK
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    path.write_text(json.dumps(nb))
    settings = {**NO_WINDOWING, "@jupyter-widgets/jupyterlab-manager/plugin": {"saveState": save_state}}
    with jupyter_server(tmp_path, root, settings) as server:
        with sync_playwright() as p:
            browser = launch(p)
            try:
                page = browser.new_page(viewport={"width": 1300, "height": 900})
                open_notebook(page, server.url(f"lab/tree/{TEACHER_NOTEBOOK}") + "&reset")
                page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
                page.wait_for_function(
                    """() => {
                    const panel = window.jupyterapp.shell.currentWidget;
                    const kernel = panel.sessionContext.session.kernel;
                    const cells = [...panel.content.widgets].filter((c) => c.model.type === "code");
                    return kernel.status === "idle" && cells.every((c) => c.model.executionCount !== null);
                }""",
                    timeout=120_000,
                )
                live = page.locator(".kx-grid table[title]").count()
                assert live > 0, "no live grid widget after running the notebook"
                page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
                page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty")
                saved = json.loads(path.read_text())
                views = [
                    o
                    for c in saved["cells"]
                    for o in c.get("outputs", ())
                    if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
                ]
                has_state = "widgets" in saved["metadata"]
                assert has_state == save_state
                assert (len(views) > 0) == save_state, "widget views kept exactly when their state is saved"
                page.close()
                server.stop_kernels()

                reopened = browser.new_page(viewport={"width": 1300, "height": 900})
                reopened.goto(server.url(f"lab/tree/{TEACHER_NOTEBOOK}") + "&reset")
                reopened.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
                found = measure(
                    reopened, f"teacher-{'state' if save_state else 'nostate'}", "lab-reopened", expected_grids(path)
                )
            finally:
                browser.close()
    assert found["expected"] >= live > 0
    assert found["visible"] == found["expected"] and not found["widget_error"], found
