"""The browser site's start, a Sudoku solve and Stop, beside a bare JupyterLite site, in one run.

Run: python benchmarks/browser_start.py [--rounds N]

One `kernelext-lite build --offline` (nothing downloaded) makes the kit's site; a copy of it whose kernel
preloads only JupyterLite's own packages (no kit, pycsp3 or widgets), without the kit's front-end plugin and
with JupyterLite's service worker cache off (as JupyterLite comes) is the bare site: the same JupyterLite,
Pyodide and kernel, the floor any site of this version starts from. Both are served by `python -m http.server`
and opened in headless Chromium; each round uses a fresh browser context and measures:
- bare site: seconds from opening a notebook to the output of its first cell (`1 + 1`), on the first visit
  and on a return visit (the same context opened again: the browser's cache is warm);
- kit site (and the same without the service worker's cache, to show what keeping the site offline costs):
  seconds from opening a notebook to its first drawn step (`%load_ext kernelext` and
  `from pycsp3 import *`, then a `%%puzzle` cell's grid drawn), first visit and return visit;
- the 9x9 Sudoku step: seconds from asking a `%%puzzle+` cell (every constraint and 30 clues) to run to its
  status line shown: compiled, translated, solved by MiniZinc's WebAssembly, checked and drawn;
- Stop: seconds from a click on the notebook's Stop button, 3 s into a search that would run for minutes, to
  the cell's end.
Prints the medians and the issue's goals (first visit <= 8 s, return visit <= 5 s, Sudoku <= 0.3 s, Stop <=
2 s) with PASS or FAIL; the exit status is 0 even on FAIL. The median `%%puzzle+` step is browser_steps.py's.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_steps import CHROMIUM_ARGS, KERNEL_IDLE, PAGE_TIMEOUT, START_CELL, run_cell, served

BUILD_TIMEOUT = 300
KERNEL_TIMEOUT = 180
STOP_TIMEOUT = 60
KIT_EXTENSION = "@kernelext/site-extension"
KIT_ONLY = {"anywidget", "ipywidgets", "kernelext", "kernelext-browser-standins", "psygnal", "pycsp3"}
GOALS = {"first visit": 8.0, "return visit": 5.0, "sudoku": 0.3, "stop": 2.0}
CLUES = [
    "53..7....", "6..195...", ".98....6.", "8...6...3", "4..8.3..1", "7...2...6", ".6....28.", "...419..5",
    "....8..79",
]  # fmt: skip
SUDOKU = (
    "%%puzzle+\n"
    f"clues = {CLUES!r}\n"
    "satisfy(\n"
    "    [AllDifferent(x[i]) for i in range(9)],\n"
    "    [AllDifferent(x[:, j]) for j in range(9)],\n"
    "    [AllDifferent(x[i:i + 3, j:j + 3]) for i in (0, 3, 6) for j in (0, 3, 6)],\n"
    "    [x[i][j] == int(clues[i][j]) for i in range(9) for j in range(9) if clues[i][j] != '.'],\n"
    ")"
)
KIT_CELLS = [
    "%load_ext kernelext\nfrom pycsp3 import *\n%config PuzzleMagics.timeout = 300",
    "%%puzzle sudoku\nx = VarArray(size=[9, 9], dom=range(1, 10))",
    SUDOKU,
    "%%puzzle pigeons\ny = VarArray(size=15, dom=range(14))",
    "%%puzzle+\nsatisfy(y[i] != y[j] for i in range(15) for j in range(i + 1, 15))",
]
STOP_BUTTON = ".jp-NotebookPanel-toolbar jp-button[title='Interrupt the kernel']"
CLICKED = "() => { window.stopClicked = performance.now(); }"
STOPPED = "() => window.cellDone && performance.now() - window.stopClicked"


def build(folder: Path) -> tuple[Path, Path, Path]:
    """The kit's site, the bare site, and the kit's site without the service worker's cache, in `folder`."""
    for name, cells in (("start", KIT_CELLS), ("bare", ["1 + 1"])):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
        nbformat.write(nb, folder / f"{name}.ipynb")
    kit = folder / "kit"
    builder = Path(sys.executable).with_name("kernelext-lite")
    run = subprocess.run(
        [str(builder), "build", "--offline", str(kit), str(folder / "start.ipynb"), str(folder / "bare.ipynb")],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
    )
    if run.returncode != 0:
        sys.exit(f"browser_start: cannot build the site: {run.stderr.strip()[-400:]}")
    bare, uncached = folder / "bare", folder / "uncached"
    shutil.copytree(kit, bare)
    shutil.copytree(kit, uncached)
    for site in (kit, bare, uncached):
        path = site / "jupyter-lite.json"
        config = json.loads(path.read_text())
        data = config["jupyter-config-data"]
        data["exposeAppInBrowser"] = True
        if site is bare:  # JupyterLite as it comes: no kit packages or plugin (and, below, no service worker cache)
            options = data["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]["loadPyodideOptions"]
            options["packages"] = [name for name in options["packages"] if name not in KIT_ONLY]
            data["federated_extensions"] = [e for e in data["federated_extensions"] if e["name"] != KIT_EXTENSION]
        if site is not kit:
            data["enableServiceWorkerCache"] = False
        path.write_text(json.dumps(config))
    return kit, bare, uncached


def opened(page, url: str, cells: int, selector: str) -> float:
    """Seconds from opening `url` to cell `cells - 1`'s output showing `selector`, cells run in order."""
    start = time.perf_counter()
    page.goto(url, timeout=PAGE_TIMEOUT * 1000)
    page.wait_for_function(KERNEL_IDLE, timeout=KERNEL_TIMEOUT * 1000)
    for index in range(cells - 1):
        run_cell(page, index)
    run_cell(page, cells - 1, selector)
    return time.perf_counter() - start


def stop_seconds(page) -> float:
    """Seconds from a click on Stop, 3 s into the pigeons' search, to the cell's end."""
    run_cell(page, 3)
    page.evaluate(START_CELL, 4)
    time.sleep(3)
    page.evaluate(CLICKED)
    page.click(STOP_BUTTON)
    return page.wait_for_function(STOPPED, timeout=STOP_TIMEOUT * 1000).json_value() / 1000


def kit_round(browser, base: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        url = f"{base}/lab/index.html?path=start.ipynb"
        found = {"first visit": opened(page, url, 2, ".kx-grid")}
        found["return visit"] = opened(page, url, 2, ".kx-grid")
        found["sudoku"] = run_cell(page, 2, ".kx-lines", "status:")
        found["stop"] = stop_seconds(page)
        return found
    finally:
        context.close()


def bare_round(browser, base: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        url = f"{base}/lab/index.html?path=bare.ipynb"
        return {visit: opened(page, url, 1, "") for visit in ("first visit", "return visit")}
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    kit_rounds, bare_rounds, uncached_rounds = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        kit, bare, uncached = build(Path(folder))
        with (
            sync_playwright() as playwright,
            served(kit) as kit_base,
            served(bare) as bare_base,
            served(uncached) as uncached_base,
        ):
            chromium = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS, timeout=PAGE_TIMEOUT * 1000
            )
            try:
                for _ in range(args.rounds):
                    bare_rounds.append(bare_round(chromium, bare_base))
                    kit_rounds.append(kit_round(chromium, kit_base))
                    uncached_rounds.append(kit_round(chromium, uncached_base))
            finally:
                chromium.close()
    print(f"Browser site, median of {args.rounds} rounds (headless Chromium, sites served on 127.0.0.1)")
    print(f"{'measure':<14}{'bare (s)':>10}{'kit (s)':>10}{'kit / bare':>12}{'kit, no offline cache (s)':>27}   goal")
    for measure, goal in GOALS.items():
        kit_median = statistics.median(found[measure] for found in kit_rounds)
        uncached_median = statistics.median(found[measure] for found in uncached_rounds)
        verdict = f"<= {goal:g} s: {'PASS' if kit_median <= goal else 'FAIL'}"
        if measure in bare_rounds[0]:
            bare_median = statistics.median(found[measure] for found in bare_rounds)
            floor, ratio = f"{bare_median:>10.2f}", f"{kit_median / bare_median:>11.1f}x"
        else:
            floor, ratio = f"{'':>10}", f"{'':>12}"
        print(f"{measure:<14}{floor}{kit_median:>10.2f}{ratio}{uncached_median:>27.2f}   {verdict}")


if __name__ == "__main__":
    main()
