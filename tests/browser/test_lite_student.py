"""A student's session in the browser site, served on 127.0.0.1 to a chromium that reaches no other host:
- Stop: the notebook's Stop button and Kernel > Interrupt Kernel end a running solve in JupyterLite's Pyodide
  kernel (which has no interrupt of its own) through the site's plugin, keeping the best solution found, and
  end the kit's own searches; the kernel lives on with the puzzle as it was;
- work survives: edits and outputs are there after a reload and after the browser is restarted;
- offline: after a first visit, the site opens and solves with its server gone;
- handing in: File > Download gives the notebook `kernelext-grade grade` grades.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import time
from collections import Counter

import pytest
from lab_server import ARTIFACTS, require_browser
from lite_site import ROOT, LiteNotebook, build_site, errors, local_page, released_and_solved, text
from local_web import launch, launch_profile, served

pytestmark = pytest.mark.browser

LONG = 300  # seconds a stopped search would run for: any wait far shorter than this shows Stop worked
STOPPED_WITHIN = 30  # seconds a stopped cell is waited for (the goal, 2 s, is measured in benchmarks/)
SETUP = (
    f"%load_ext kernelext\nfrom pycsp3 import *\n%config PuzzleMagics.timeout = {LONG}",
    # 15 pigeons, 14 holes, pairwise: a search MiniZinc's Gecode does not end in minutes
    "%%puzzle pigeons\nx = VarArray(size=15, dom=range(14))",
)
MINIZINC_STEP = "%%puzzle+ --solver minizinc\nsatisfy(w[0] != w[1])"
# An optimisation whose better solutions keep coming: the best found so far is what a stop keeps.
SPREAD = (
    "%%puzzle spread\ny = VarArray(size=[6, 6], dom=range(36))",
    "%%puzzle+\nsatisfy(AllDifferent(y))\n"
    "maximize(Sum(abs(y[i][j] - y[i][j + 1]) for i in range(6) for j in range(5))"
    " + Sum(abs(y[i][j] - y[i + 1][j]) for i in range(5) for j in range(6)))",
)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lite-student")
    blank = {
        "cells": [],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp / "stop.ipynb").write_text(json.dumps(blank))
    return build_site(tmp / "site", [tmp / "stop.ipynb", released_and_solved(tmp)])


@pytest.fixture(scope="module")
def site(built):
    with served(built, ready="jupyter-lite.json") as base:
        yield base


@pytest.fixture(scope="module")
def playwright():
    sync_playwright = require_browser()
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright):
    chromium = launch(playwright, only_local=True)
    yield chromium
    chromium.close()


@pytest.fixture
def page(browser):
    with local_page(browser) as page:
        yield page


@pytest.fixture(scope="module")
def stop_nb(browser, site):
    """One notebook, one kernel, for every Stop: each stop must leave the kernel alive for the next. MiniZinc's
    WebAssembly is loaded first (a solve loads it when first needed), so that each stop lands in a search."""
    with local_page(browser) as page:
        nb = LiteNotebook(page, site, "stop.ipynb")
        for source in (SETUP[0], "%%puzzle warm\nw = VarArray(size=2, dom=range(2))", MINIZINC_STEP):
            assert not errors(nb.run_new(source, timeout=180)), source
        yield nb


def start(nb: LiteNotebook, source: str) -> int:
    """Add a cell holding `source` and start it without waiting; its index."""
    index = nb.page.evaluate(
        """(source) => {
        const notebook = window.jupyterapp.shell.currentWidget.content;
        notebook.model.sharedModel.insertCell(notebook.widgets.length, {cell_type: "code", source});
        notebook.activeCellIndex = notebook.widgets.length - 1;
        window.jupyterapp.commands.execute("notebook:run-cell");
        return notebook.widgets.length - 1;
    }""",
        source,
    )
    nb.page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.kernelDisplayStatus === 'busy'"
    )
    return index


def stopped(nb: LiteNotebook, index: int, stop) -> list[dict]:
    """Let cell `index` run a while, `stop()` it; its outputs once it ended."""
    time.sleep(4)  # into the search
    stop()
    nb.page.wait_for_function(
        """(index) => {
        const cell = window.jupyterapp.shell.currentWidget.content.widgets[index];
        return cell.model.executionCount !== null && !cell.node.querySelector(".jp-InputPrompt").textContent.includes("*");
    }""",
        arg=index,
        timeout=STOPPED_WITHIN * 1000,
    )
    return nb.outputs(index)


def stop_button(page) -> None:
    page.click(
        ".jp-NotebookPanel-toolbar [data-command='notebook:interrupt-kernel'], "
        ".jp-NotebookPanel-toolbar jp-button[title='Interrupt the kernel']"
    )


def kernel_menu_interrupt(page) -> None:
    page.click("li.lm-MenuBar-item:has-text('Kernel')")
    page.click(".lm-Menu-itemLabel:text-is('Interrupt Kernel')")


def test_stop_ends_a_solve_and_the_kernel_keeps_the_puzzle(stop_nb):
    nb, page = stop_nb, stop_nb.page
    for source in SETUP:
        assert not errors(nb.run_new(source)), source
    index = start(nb, "%%puzzle+\nsatisfy(x[i] != x[j] for i in range(15) for j in range(i + 1, 15))")
    outputs = stopped(nb, index, lambda: stop_button(page))
    assert "status: UNKNOWN [search stopped: interrupted]" in text(outputs), text(outputs)
    page.screenshot(path=ARTIFACTS / "lite-stopped.png")
    steps = nb.run_new("%puzzle steps")  # the stopped step is kept, as on the desktop
    assert "x[i] != x[j]" in text(steps), text(steps)
    assert not errors(nb.run_new("%puzzle undo"))
    after = nb.run_new("%%puzzle+\nsatisfy(x[0] == 3, AllDifferent(x[1:]))")
    assert "status: SAT" in text(after), text(after)


def test_stop_keeps_the_best_solution_found(stop_nb):
    nb, page = stop_nb, stop_nb.page
    assert not errors(nb.run_new(SETUP[0]))
    assert not errors(nb.run_new(SPREAD[0]))
    index = start(nb, SPREAD[1])
    outputs = stopped(nb, index, lambda: kernel_menu_interrupt(page))
    said = text(outputs)
    assert "status: SAT (bound " in said and "[search stopped: interrupted]" in said, said


@pytest.mark.parametrize(
    "command, said",
    [
        ("%puzzle tree --nodes 100000000", "by an interrupt"),
        ("%puzzle walkthrough", "Stop was pressed"),
    ],
)
def test_stop_ends_the_kit_s_own_searches(stop_nb, command, said):
    nb, page = stop_nb, stop_nb.page
    for source in SETUP:
        assert not errors(nb.run_new(source)), source
    pigeons = "%%puzzle+ --no-solve\nsatisfy(x[i] != x[j] for i in range(15) for j in range(i + 1, 15))"
    assert not errors(nb.run_new(pigeons))
    outputs = stopped(nb, start(nb, command), lambda: stop_button(page))
    assert said in text(outputs), text(outputs)
    steps = nb.run_new("%puzzle steps")
    assert "x[i] != x[j]" in text(steps), text(steps)


PUZZLE = (
    "%load_ext kernelext\nfrom pycsp3 import *",
    "%%puzzle q\nq = VarArray(size=4, dom=range(4))",
    "%%puzzle+\nsatisfy(AllDifferent(q), q[0] == 2)",
)


def saved(nb: LiteNotebook) -> None:
    """Wait until the notebook's changes are saved into the browser's storage (autosaved)."""
    nb.page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=60_000)


def stored_cells(nb: LiteNotebook) -> list[tuple[str, str]]:
    """Each code cell's source and what its outputs say, as the open notebook holds them."""
    return [(nb.source(index), text(nb.outputs(index))) for index in nb.code_cells()]


def test_work_survives_a_reload_and_a_browser_restart(playwright, site, tmp_path):
    context = launch_profile(playwright, tmp_path / "profile", only_local=True)
    nb = LiteNotebook(context.new_page(), site, "stop.ipynb")
    for source in PUZZLE:
        assert not errors(nb.run_new(source)), source
    saved(nb)
    before = stored_cells(nb)
    assert before[-1][0] == PUZZLE[-1] and "status: SAT" in before[-1][1], before
    nb = LiteNotebook(nb.page, site, "stop.ipynb", kernel=False)  # the page opened again: a reload
    assert stored_cells(nb) == before
    context.close()
    context = launch_profile(playwright, tmp_path / "profile", only_local=True)  # the browser restarted
    nb = LiteNotebook(context.new_page(), site, "stop.ipynb", kernel=False)
    assert stored_cells(nb) == before
    context.close()


def test_the_site_works_offline_and_asks_the_network_only_for_what_changed(browser, built, tmp_path):
    site, log = tmp_path / "site", tmp_path / "server.log"
    shutil.copytree(built, site)  # changed below, as a teacher's new build would change it
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    with served(site, ready="jupyter-lite.json", log=log) as base:
        probed = len(log.read_text().splitlines())  # `served` asked for jupyter-lite.json
        nb = LiteNotebook(page, base, "stop.ipynb")
        kept_whole(page)
        visit = "\n".join(log.read_text().splitlines()[probed:])
        sent = Counter(re.findall(r'"GET (\S+) HTTP/[\d.]+" 200', visit))
        twice = sorted(path for path, times in sent.items() if times > 1)
        assert twice == [], twice  # no address downloaded twice by the first visit (`x.js?v=1` and `x.js` are two)
        before = len(log.read_text().splitlines())
        page.goto(base + "tree/index.html")  # a return visit: answered from the cache, nothing downloaded again
        assert kept_whole(page) == 0
        asked = re.findall(r'"GET (\S+)', "\n".join(log.read_text().splitlines()[before:]))
        assert set(asked) <= {"/kernelext-offline.json", "/service-worker.js?enableCache=true"}, asked
        changed = site / "favicon.ico"
        changed.write_bytes(changed.read_bytes() + b"changed")
        listed = json.loads((site / "kernelext-offline.json").read_text())
        listed["favicon.ico"] = hashlib.sha256(changed.read_bytes()).hexdigest()
        (site / "kernelext-offline.json").write_text(json.dumps(listed))
        page.goto(base + "tree/index.html")  # the site updated: the next visit fetches the one changed file
        assert kept_whole(page) == 1
        assert page.evaluate(CACHED_SIZE, base + "favicon.ico") == changed.stat().st_size
    with pytest.raises(Exception, match="ECONNREFUSED"):  # the server is gone
        page.request.get(base + "jupyter-lite.json")
    nb = LiteNotebook(page, base, "stop.ipynb")
    for source in (*PUZZLE, "%%puzzle+ --solver minizinc\nsatisfy(q[1] == 0)"):  # the kit's search, then MiniZinc
        outputs = nb.run_new(source)
        assert not errors(outputs) and ("status: SAT" in text(outputs) or not source.startswith("%%puzzle+")), source
    page.screenshot(path=ARTIFACTS / "lite-offline.png")
    context.close()


CACHED_SIZE = (
    """async (url) => (await (await caches.open("precache")).match(url)).arrayBuffer().then((b) => b.byteLength)"""
)


def kept_whole(page) -> int:
    """How many files the site's plugin fetched to make the cache whole, once it has."""
    page.wait_for_function("() => document.body.dataset.kernelextOffline === 'ready'", timeout=180_000)
    return int(page.evaluate("() => document.body.dataset.kernelextFetched"))


def test_handing_in_is_one_download_the_grader_grades(page, site, tmp_path):
    nb = LiteNotebook(page, site, "futoshiki_exercise/solved.ipynb")
    for index in nb.code_cells()[:-1]:
        assert not errors(nb.run(index, timeout=180)), nb.source(index)
    page.click("li.lm-MenuBar-item:has-text('File')")
    with page.expect_download() as download:
        page.click(".lm-Menu-itemLabel:text-is('Download')")
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    download.value.save_as(submissions / "zoe.ipynb")
    graded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from kernelext.grading.cli import main; sys.exit(main())",
            "grade",
            str(ROOT / "exercises" / "futoshiki"),
            str(submissions),
            str(tmp_path / "out"),
            "--workers",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert graded.returncode == 0, graded.stderr[-800:]
    # every instance passed; the 2 points left are a written question, marked by hand
    assert "zoe: 5/7 points" in graded.stdout and graded.stdout.count(" passed ") == 5, graded.stdout
