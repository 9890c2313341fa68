"""The kit in the browser, beside a bare JupyterLite site and beside stock pycsp3 on the desktop, in one run.

Run: python benchmarks/browser_steps.py [--rounds N] [--site DIR] [--desktop-only]

Sites are built with `kernelext-lite build --offline` (nothing downloaded: the parts must already be in the cache,
$KERNELEXT_LITE_CACHE or ~/.cache/kernelext-lite), served by `python -m http.server` and opened in headless
Chromium, each round in a fresh browser context. Two parts:

1. The Amaze walkthrough (notebooks/amaze.ipynb; with --site, a copy of the built site DIR): seconds from
   `page.goto` to the first `%%puzzle amaze` step's grid (the notebook's cells run in order as soon as the kernel
   is ready), then each `%%puzzle+` step of the linear walkthrough (benchmarks/solve_steps.py's `linear_cells`):
   seconds from asking the cell to run to its status line shown; then the same steps with stock pycsp3's
   `solve()` on the desktop (a new JVM each time). Prints the medians, the ratio, each step's status line in the
   browser, the goal (median step at most 0.25 s) and the browser's console errors.
2. The start, beside a bare site: a copy of the kit's site whose kernel preloads only JupyterLite's own packages
   (no kit, pycsp3 or widgets), without the kit's front-end plugin and with JupyterLite's service worker cache off
   (as JupyterLite comes): the same JupyterLite, Pyodide and kernel, the floor any site of this version starts
   from (its wheels carry the same bytecode as the kit's, so the floor is at its fastest). Measured:
   - bare site: seconds from opening a notebook to its kernel ready, on the first visit and on a return visit (the
     same context opened again: the browser's cache is warm);
   - kit site (and the same without the service worker's cache, to show what keeping the site offline costs):
     seconds from opening a notebook to its first drawn step (`%load_ext kernelext` and `from pycsp3 import *`,
     then a `%%puzzle` cell's grid drawn), first visit and return visit;
   - the 9x9 Sudoku step: seconds from asking a `%%puzzle+` cell (every constraint and 30 clues) to run to its
     status line shown: compiled, solved, checked and drawn;
   - Stop: seconds from a click on the notebook's Stop button, 3 s into a search that would run for minutes, to
     the cell's end.
   Prints the medians and the goals (first visit <= 8 s, return visit <= 5 s, Sudoku <= 0.3 s, Stop <= 2 s; and
   the first drawn step at most 0.8x the bare site's time to a ready kernel, on each visit).
Every goal is printed with PASS or FAIL; the exit status is 0 even on FAIL. With --desktop-only, only the
desktop side of part 1 is measured (stock pycsp3's `solve()` on the walkthrough's steps): no site, no browser.
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import nbformat
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solve_steps import ROOT, is_step, linear_cells, time_stock

WALKTHROUGH = "amaze"
STEP_GOAL = 0.25  # seconds, the median `%%puzzle+` step in the browser
BUILD_TIMEOUT = 300
SERVER_TIMEOUT = 10
PAGE_TIMEOUT = 60
KERNEL_TIMEOUT = 180
CELL_TIMEOUT = 60
STOCK_TIMEOUT = 300  # one round of stock pycsp3 solve() calls
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]

KERNEL_IDLE = """() => window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel?.status === "idle" """
START_CELL = """(index) => {
    const notebook = window.jupyterapp.shell.currentWidget.content;
    notebook.activeCellIndex = index;
    window.cellStart = performance.now();
    window.cellDone = null;
    window.jupyterapp.commands.execute("notebook:run-cell").then((ok) => { window.cellDone = { ok }; });
}"""
# The milliseconds since the cell was asked to run, once its output area shows `selector` holding `text`.
SHOWN = """([index, selector, text]) => {
    const cell = window.jupyterapp.shell.currentWidget.content.widgets[index];
    const node = cell.node.querySelector(`.jp-OutputArea ${selector}`);
    return node !== null && node.textContent.includes(text) && performance.now() - window.cellStart;
}"""
FINISHED = "() => window.cellDone"  # {ok: false} when the cell raised
STOP_TIMEOUT = 60
KIT_EXTENSION = "@kernelext/site-extension"
KIT_ONLY = {"anywidget", "ipywidgets", "kernelext", "kernelext-browser-standins", "psygnal", "pycsp3"}
GOALS = {"first visit": 8.0, "return visit": 5.0, "sudoku": 0.3, "stop": 2.0}
BARE_RATIO = 0.8  # the kit's first drawn step, at most this times the bare site's time to a ready kernel
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
OUTPUT_TEXT = """([index, selector]) => Array.from(window.jupyterapp.shell.currentWidget.content.widgets[index].node
    .querySelectorAll(`.jp-OutputArea ${selector}`), (node) => node.textContent).join("\\n")"""


def build_site(out: Path) -> None:
    """Build the walkthrough's site into `out` from the cache alone; exit with the builder's message if it fails."""
    builder = Path(sys.executable).with_name("kernelext-lite")
    notebook = ROOT / "notebooks" / f"{WALKTHROUGH}.ipynb"
    result = subprocess.run(
        [str(builder), "build", "--offline", str(out), str(notebook)],
        check=False,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
    )
    if result.returncode != 0:
        message = (result.stderr.strip().splitlines() or [f"exit status {result.returncode}"])[-1]
        sys.exit(f"browser_steps: cannot build the site: {message}")


def prepared_site(folder: Path, site: Path | None) -> Path:
    """A site in `folder` (built, or copied from `site`) whose page exposes JupyterLab as `window.jupyterapp`."""
    out = folder / "site"
    if site is None:
        build_site(out)
    elif (site / "jupyter-lite.json").is_file():
        shutil.copytree(site, out)
    else:
        sys.exit(f"browser_steps: {site} is not a built site (no jupyter-lite.json)")
    config_path = out / "jupyter-lite.json"
    config = json.loads(config_path.read_text())
    config["jupyter-config-data"]["exposeAppInBrowser"] = True
    config_path.write_text(json.dumps(config))
    return out


def cell_indexes(site: Path) -> list[int]:
    """The site notebook's indexes of the walkthrough's linear cells."""
    path = site / "files" / f"{WALKTHROUGH}.ipynb"
    if not path.is_file():
        sys.exit(f"browser_steps: the site has no {WALKTHROUGH}.ipynb")
    sources = [cell.source for cell in nbformat.read(path, 4).cells]
    try:
        return [sources.index(cell) for cell in linear_cells(WALKTHROUGH)]
    except ValueError:
        sys.exit(f"browser_steps: the site's {WALKTHROUGH}.ipynb differs from notebooks/{WALKTHROUGH}.ipynb")


@contextmanager
def served(site: Path):
    """The site served by `python -m http.server` on a free local port; yields its base URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(site), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, server)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.kill()
        server.wait(timeout=SERVER_TIMEOUT)


def wait_for_port(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + SERVER_TIMEOUT
    while server.poll() is None and time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"browser_steps: the http.server on port {port} did not start")


def run_cell(page, index: int, selector: str = "", text: str = "") -> float:
    """Seconds from asking cell `index` to run until its output shows `selector` holding `text`; then waits for
    the cell to finish and raises if it wrote an error."""
    page.evaluate(START_CELL, index)
    try:
        shown = page.wait_for_function(SHOWN, arg=[index, selector, text], timeout=CELL_TIMEOUT * 1000).json_value()
    except PlaywrightTimeout as error:  # a failing cell shows no grid: say what it wrote instead
        output = page.evaluate(OUTPUT_TEXT, [index, ""])
        raise RuntimeError(f"cell {index} showed no {selector} in {CELL_TIMEOUT} s: {output[-800:]}") from error
    finished = page.wait_for_function(FINISHED, timeout=CELL_TIMEOUT * 1000).json_value()
    errors = page.evaluate(OUTPUT_TEXT, [index, "[data-mime-type*='stderr']"])
    if not finished["ok"] or "Error" in errors:
        raise RuntimeError(f"cell {index} failed: {page.evaluate(OUTPUT_TEXT, [index, ''])[-800:]}")
    return shown / 1000


def status_line(page, index: int) -> str:
    lines = page.evaluate(OUTPUT_TEXT, [index, ".kx-lines"]).splitlines()
    return next((line for line in lines if line.startswith("status:")), "no status line")


def watch_errors(page, console: Counter) -> None:
    """Count the page's console errors and uncaught exceptions in `console`."""

    def on_console(message) -> None:
        if message.type == "error":
            console[f"{message.text} ({message.location.get('url', '')})"] += 1

    page.on("console", on_console)
    page.on("pageerror", lambda error: console.update([f"uncaught: {error}"]))


def browser_round(
    browser, url: str, cells: list[str], indexes: list[int], console: Counter
) -> tuple[float, list[float], list[str]]:
    """Seconds to the first grid, and of each step with its status line, in a fresh browser context."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        watch_errors(page, console)
        grid_cell = next(k for k, cell in enumerate(cells) if cell.startswith("%%puzzle "))
        start = time.perf_counter()
        page.goto(url, timeout=PAGE_TIMEOUT * 1000)
        page.wait_for_function(KERNEL_IDLE, timeout=KERNEL_TIMEOUT * 1000)
        for index in indexes[:grid_cell]:
            run_cell(page, index)
        run_cell(page, indexes[grid_cell], ".kx-grid")
        to_first_grid = time.perf_counter() - start
        steps, statuses = [], []
        for cell, index in zip(cells[grid_cell + 1 :], indexes[grid_cell + 1 :]):
            if is_step(cell):
                steps.append(run_cell(page, index, ".kx-lines", "status:"))
                statuses.append(status_line(page, index))
            else:
                run_cell(page, index)
        return to_first_grid, steps, statuses
    finally:
        context.close()


@contextmanager
def time_limit(seconds: int):
    """Raise TimeoutError in the main thread if the block takes more than `seconds`."""

    def expire(signum, frame):
        raise TimeoutError(f"more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def report(
    first_grids: list[float],
    browser: list[list[float]],
    stock: list[list[float]],
    statuses: list[list[str]],
    console: Counter,
) -> None:
    rounds = len(first_grids)
    first_grid = statistics.median(first_grids)
    print(
        f"Amaze walkthrough, median of {rounds} rounds: the kit in headless Chromium (kernelext-lite site) "
        f"and stock pycsp3 solve() on the desktop"
    )
    print(f"page to first grid: {first_grid:.2f} s (rounds: {', '.join(f'{t:.2f}' for t in first_grids)})")
    print(f"{'step':<6}{'browser (s)':>12}{'pycsp3 solve() (s)':>20}{'ratio':>8}   status in the browser")
    step_browser, step_stock = [], []
    for k in range(len(browser[0])):
        seen = " | ".join(dict.fromkeys(statuses[r][k] for r in range(rounds)))
        step_browser.append(statistics.median(times[k] for times in browser))
        step_stock.append(statistics.median(times[k] for times in stock))
        ratio = step_stock[k] / step_browser[k]
        print(f"{k + 2:<6}{step_browser[k]:>12.3f}{step_stock[k]:>20.3f}{ratio:>7.1f}x   {seen}")
    browser_median, stock_median = statistics.median(step_browser), statistics.median(step_stock)
    print(f"{'median':<6}{browser_median:>12.3f}{stock_median:>20.3f}{stock_median / browser_median:>7.1f}x")
    print(
        f"goal: median %%puzzle+ step <= {STEP_GOAL:g} s: "
        f"{'PASS' if browser_median <= STEP_GOAL else 'FAIL'} ({browser_median:.3f} s)"
    )
    print(f"browser console errors: {sum(console.values()) or 'none'}")
    for text, count in console.items():
        print(f"  {count} x {text[:300]}")


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
        sys.exit(f"browser_steps: cannot build the site: {run.stderr.strip()[-400:]}")
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


def opened(page, url: str, cells: int = 0, selector: str = "") -> float:
    """Seconds from opening `url` to its kernel ready, or to cell `cells - 1`'s output showing `selector`, cells
    run in order."""
    start = time.perf_counter()
    page.goto(url, timeout=PAGE_TIMEOUT * 1000)
    page.wait_for_function(KERNEL_IDLE, timeout=KERNEL_TIMEOUT * 1000)
    for index in range(cells - 1):
        run_cell(page, index)
    if cells:
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
        return {visit: opened(page, url) for visit in ("first visit", "return visit")}
    finally:
        context.close()


def start_report(rounds: int) -> None:
    """The start, Sudoku and Stop measures, kit beside bare, printed as a table."""
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
                for _ in range(rounds):
                    bare_rounds.append(bare_round(chromium, bare_base))
                    kit_rounds.append(kit_round(chromium, kit_base))
                    uncached_rounds.append(kit_round(chromium, uncached_base))
            finally:
                chromium.close()
    print(f"Browser site, median of {rounds} rounds (headless Chromium, sites served on 127.0.0.1)")
    print("bare (s): to a ready kernel; kit (s): to the first drawn step (first and return visits)")
    print(f"{'measure':<14}{'bare (s)':>10}{'kit (s)':>10}{'kit / bare':>12}{'kit, no offline cache (s)':>27}   goal")
    for measure, goal in GOALS.items():
        kit_median = statistics.median(found[measure] for found in kit_rounds)
        uncached_median = statistics.median(found[measure] for found in uncached_rounds)
        verdict = f"<= {goal:g} s: {'PASS' if kit_median <= goal else 'FAIL'}"
        if measure in bare_rounds[0]:
            bare_median = statistics.median(found[measure] for found in bare_rounds)
            ratio = kit_median / bare_median
            floor, shown = f"{bare_median:>10.2f}", f"{ratio:>11.2f}x"
            verdict += f"; <= {BARE_RATIO:g}x bare: {'PASS' if ratio <= BARE_RATIO else 'FAIL'}"
        else:
            floor, shown = f"{'':>10}", f"{'':>12}"
        print(f"{measure:<14}{floor}{kit_median:>10.2f}{shown}{uncached_median:>27.2f}   {verdict}")


def desktop_report(stock: list[list[float]]) -> None:
    """Each step's median seconds with stock pycsp3 `solve()`."""
    print(f"Amaze walkthrough, median of {len(stock)} rounds: stock pycsp3 solve() on the desktop (no browser)")
    print(f"{'step':<6}{'pycsp3 solve() (s)':>20}")
    for k, times in enumerate(zip(*stock)):
        print(f"{k + 2:<6}{statistics.median(times):>20.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--site", type=Path, default=None, help="a site built by `kernelext-lite build`")
    parser.add_argument(
        "--desktop-only", action="store_true", help="only stock pycsp3 solve() on the desktop: no site, no browser"
    )
    args = parser.parse_args()
    del sys.argv[1:]  # pycsp3 would take them for its own options
    cells = linear_cells(WALKTHROUGH)
    if args.desktop_only:
        stock = []
        for _ in range(args.rounds):
            with time_limit(STOCK_TIMEOUT):
                stock.append(time_stock(cells))
        desktop_report(stock)
        return
    first_grids, browser, stock, statuses, console = [], [], [], [], Counter()
    with tempfile.TemporaryDirectory() as folder:
        site = prepared_site(Path(folder), args.site)
        url = f"/lab/index.html?path={WALKTHROUGH}.ipynb"
        indexes = cell_indexes(site)
        with sync_playwright() as playwright, served(site) as base:
            chromium = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS, timeout=PAGE_TIMEOUT * 1000
            )
            try:
                for _ in range(args.rounds):
                    to_first_grid, steps, seen = browser_round(chromium, base + url, cells, indexes, console)
                    first_grids.append(to_first_grid)
                    browser.append(steps)
                    statuses.append(seen)
                    with time_limit(STOCK_TIMEOUT):
                        stock.append(time_stock(cells))
            finally:
                chromium.close()
    report(first_grids, browser, stock, statuses, console)
    print()
    start_report(args.rounds)


if __name__ == "__main__":
    main()
