"""The kit in the browser on the Amaze walkthrough: a `kernelext-lite` site (Pyodide kernel, MiniZinc's
WebAssembly) in headless Chromium, beside stock pycsp3's `solve()` on the desktop, in the same run.

Run: python benchmarks/browser_steps.py [--rounds N] [--site DIR]

Without --site, a site is built into a temporary folder with `kernelext-lite build --offline` (the parts must
already be in the cache: $KERNELEXT_LITE_CACHE or ~/.cache/kernelext-lite); with --site, a copy of the built
site DIR is used. Nothing is downloaded. Each round opens notebooks/amaze.ipynb in a fresh browser context and
measures:
- "page to first grid": seconds from `page.goto` to the grid of the first `%%puzzle amaze` step drawn, the
  notebook's cells being run in order from the first as soon as the kernel is ready (so the kernel's start and
  the `%load_ext kernelext` cell count);
- each `%%puzzle+` step of the linear walkthrough (benchmarks/solve_steps.py's `linear_cells`): seconds from
  asking the cell to run to its status line shown;
then times the same steps with the cell's code then stock pycsp3's `solve()` (a new JVM each time), as the
"pycsp3 solve()" column of benchmarks/solve_steps.py. Prints the medians, the ratio pycsp3 solve() / browser,
the status line of each step seen in the browser, the goals (page to first grid at most 20 s, median step at
most 1 s) with PASS or FAIL, and the browser's console errors. The exit status is 0 even on FAIL.
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
FIRST_GRID_GOAL = 20.0  # seconds from opening the page to the first step's grid
STEP_GOAL = 1.0  # seconds, the median `%%puzzle+` step in the browser
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
        f"goal: page to first grid <= {FIRST_GRID_GOAL:g} s: "
        f"{'PASS' if first_grid <= FIRST_GRID_GOAL else 'FAIL'} ({first_grid:.2f} s)"
    )
    print(
        f"goal: median %%puzzle+ step <= {STEP_GOAL:g} s: "
        f"{'PASS' if browser_median <= STEP_GOAL else 'FAIL'} ({browser_median:.3f} s)"
    )
    print(f"browser console errors: {sum(console.values()) or 'none'}")
    for text, count in console.items():
        print(f"  {count} x {text[:300]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--site", type=Path, default=None, help="a site built by `kernelext-lite build`")
    args = parser.parse_args()
    del sys.argv[1:]  # pycsp3 would take them for its own options
    cells = linear_cells(WALKTHROUGH)
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


if __name__ == "__main__":
    main()
