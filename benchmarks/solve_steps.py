"""Step times of the seed walkthroughs: stock pycsp3 `solve()`, kernelext's backends, CPMpy + OR-Tools.

Run: python benchmarks/solve_steps.py [--rounds N] [--only NAME ...]

For each walkthrough notebook (Amaze, Futoshiki, Layout, Picross) the linear sequence of `%%puzzle` /
`%%puzzle+` cells is run (up to the first step that replaces another) and each step cell is timed:
- "pycsp3 solve()": the cell's code, then pycsp3's own `solve()` (a new JVM each time);
- "auto" (the default), "ace-warm", "ace-cold", "cp-sat", "minizinc" (Gecode, the system's program), "ortools":
  the whole `%%puzzle+` cell in an IPython shell (build, compile, solve, render), with that backend;
- "cpmpy+ortools": the same model read into CPMpy (from its XCSP3 file) and solved with OR-Tools.
All columns are measured side by side in one run; ratios are "pycsp3 solve() / column". `--only` times the
walkthroughs named.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
WALKTHROUGHS = ("amaze", "futoshiki", "layout", "picross")
COLUMNS = ("pycsp3 solve()", "auto", "ace-warm", "ace-cold", "cp-sat", "minizinc", "ortools", "cpmpy+ortools")


def add_only(parser: argparse.ArgumentParser) -> None:
    """The option `--only NAME ...`: the walkthroughs to run."""
    parser.add_argument(
        "--only",
        nargs="+",
        choices=WALKTHROUGHS,
        default=list(WALKTHROUGHS),
        metavar="NAME",
        help="the walkthroughs to run (default: all: %(choices)s)",
    )


def linear_cells(name: str) -> list[str]:
    """The notebook's code cells up to the first step that replaces an earlier one or re-solves."""
    cells, keys = [], set()
    for cell in nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", 4).cells:
        if cell.cell_type != "code":
            continue
        first = cell.source.split("\n", 1)[0]
        if first.startswith("%puzzle") or (first.startswith("%%puzzle") and "--sols" in first):
            break
        key = first.split("--step", 1)[1].split()[0] if "--step" in first else None
        if key is not None and key in keys:
            break
        keys.add(key)
        cells.append(cell.source)
    return cells


def is_step(cell: str) -> bool:
    return cell.startswith("%%puzzle+")


def time_shell(cells: list[str], backend: str, solver) -> tuple[list[float], list[float]]:
    """Seconds of each step cell in an IPython shell; and of CPMpy + OR-Tools on each step's model.

    `solver` is shared between shells, as one kernel keeps one warm JVM for all its puzzles."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    ip = InteractiveShell.instance()
    ip.run_cell("%load_ext kernelext")
    ip.magics_manager.registry["PuzzleMagics"]._solver = solver
    ip.run_cell(f"%config PuzzleMagics.solver = '{backend}'")
    steps, direct = [], []
    for cell in cells:
        start = time.perf_counter()
        with capture_output():
            result = ip.run_cell(cell)
        if result.error_in_exec or result.error_before_exec:
            raise RuntimeError(f"cell failed: {cell[:60]}")
        if is_step(cell):
            steps.append(time.perf_counter() - start)
            direct.append(time_cpmpy(ip.magics_manager.registry["PuzzleMagics"].session))
    ip.magics_manager.registry["PuzzleMagics"]._solver = None  # the shared worker outlives this shell
    ip.run_cell("%unload_ext kernelext")
    ip.reset(new_session=True)
    return steps, direct


def time_cpmpy(session) -> float:
    """Seconds to read the session's compiled model into CPMpy and solve it with OR-Tools."""
    from cpmpy.tools.xcsp3 import read_xcsp3
    from pycsp3.tools.curser import OpOverrider

    path = session.compile()
    OpOverrider.disable()
    try:
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            read_xcsp3(str(path)).solve(solver="ortools", num_workers=1)
        return time.perf_counter() - start
    finally:
        OpOverrider.enable()


def time_stock(cells: list[str]) -> list[float]:
    """Seconds of each step with the cell's code then pycsp3's `solve()`, in a scratch copy of notebooks/."""
    from kernelext.pycsp3_glue import model_state
    from kernelext.steps.cell_code import run_source

    namespace: dict = {}
    exec("from pycsp3 import *", namespace)
    times = []
    with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stdout(io.StringIO()):
        shutil.copytree(ROOT / "notebooks" / "data", Path(folder) / "data", dirs_exist_ok=True)
        here = os.getcwd()
        os.chdir(folder)
        try:
            for cell in cells:
                body = "\n".join(line for line in cell.splitlines() if not line.lstrip().startswith("%"))
                if cell.startswith("%%puzzle "):
                    model_state.reset()
                start = time.perf_counter()
                run_source(body, namespace, echo=False)
                if is_step(cell):
                    namespace["solve"]()
                    times.append(time.perf_counter() - start)
        finally:
            os.chdir(here)
            model_state.reset()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    add_only(parser)
    options = parser.parse_args()
    rounds = options.rounds
    from kernelext.solver.engine import Solver

    os.chdir(ROOT / "notebooks")
    solver = Solver()
    rows = []  # (walkthrough, step, {column: median})
    for name in options.only:
        cells = linear_cells(name)
        time_shell(cells, "ace", solver)  # warm-up: the worker JVM starts once, as in a kernel
        time_shell(cells, "auto", solver)  # and OR-Tools is imported once
        runs = {column: [] for column in COLUMNS}
        for _ in range(rounds):
            runs["pycsp3 solve()"].append(time_stock(cells))
            for backend in ("auto", "ace-warm", "ace-cold", "cp-sat", "minizinc", "ortools"):
                steps, direct = time_shell(cells, "ace" if backend == "ace-warm" else backend, solver)
                runs[backend].append(steps)
                if backend == "ortools":
                    runs["cpmpy+ortools"].append(direct)
        for k in range(len(runs["ace-warm"][0])):
            rows.append((name, k + 2, {c: statistics.median(r[k] for r in runs[c]) for c in COLUMNS}))
    print(f"Seconds per step, median of {rounds} rounds (ratio: pycsp3 solve() / column)")
    print(f"{'walkthrough':<12}{'step':>5}" + "".join(f"{c:>24}" for c in COLUMNS))
    for name, step, medians in rows:
        stock = medians["pycsp3 solve()"]
        print(f"{name:<12}{step:>5}" + "".join(f"{medians[c]:>15.3f} ({stock / medians[c]:5.1f}x)" for c in COLUMNS))
    solver.close()
    overall = {c: statistics.median(m[c] for _, _, m in rows) for c in COLUMNS}
    stock = overall["pycsp3 solve()"]
    print(f"{'median':<17}" + "".join(f"{overall[c]:>15.3f} ({stock / overall[c]:5.1f}x)" for c in COLUMNS))


if __name__ == "__main__":
    sys.exit(main())
