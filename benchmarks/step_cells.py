"""A step as a notebook user waits for it: each `%%puzzle+` cell of the seed walkthroughs (Amaze, Futoshiki,
Layout, Picross) sent to a real Jupyter kernel, against the same step model read and solved with CPMpy and
CP-SAT in a kernel cell (the peer) and against stock pycsp3 (the step's code, then `solve()`), rounds in turn.

Run: python benchmarks/step_cells.py [--rounds N] [--only NAME ...] [--base REV]
With --base, the kit as it was at the git revision REV is timed too, in the same rounds. Every kernel first
runs the walkthroughs once (imports and JVMs started), then once more timed; medians are over every step.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from contextlib import ExitStack
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernels import ROOT, ready_kernel, timed_cell, worktree
from solve_steps import add_only, is_step, linear_cells


def kit_steps(client, names: list[str]) -> list[float]:
    """Seconds of each step cell of the walkthroughs `names`, run as they are."""
    times = []
    for name in names:
        for cell in linear_cells(name):
            spent = timed_cell(client, cell)
            if is_step(cell):
                times.append(spent)
    return times


def stock_steps(client, names: list[str]) -> list[float]:
    """Seconds of each step as plain pycsp3: the cell's code (a new puzzle clears the model), then `solve()`."""
    times = []
    for name in names:
        for cell in linear_cells(name):
            first, _, body = cell.partition("\n")
            if first.startswith("%%puzzle "):
                timed_cell(client, "clear()\n" + body)
            elif is_step(cell):
                times.append(timed_cell(client, body + "\nsolve()"))
            else:
                timed_cell(client, cell)
    return times


def step_models(folder: Path, names: list[str]) -> list[Path]:
    """The XCSP3 file of each step model of the walkthroughs `names`, as the kit compiles it."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    ip = InteractiveShell.instance()
    files = []
    with capture_output():
        ip.run_cell("%load_ext kernelext")
        for name in names:
            for cell in linear_cells(name):
                ip.run_cell(cell)
                if is_step(cell):
                    files.append(
                        ip.magics_manager.registry["PuzzleMagics"].session.compile(folder / f"{len(files)}.xml")
                    )
    return files


def peer_steps(client, models: list[Path]) -> list[float]:
    """Seconds of a CPMpy cell reading each step model and solving it with CP-SAT."""
    timed_cell(client, "from cpmpy.tools.xcsp3 import read_xcsp3")
    return [timed_cell(client, f"read_xcsp3({str(path)!r}).solve(solver='ortools', num_workers=1)") for path in models]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    add_only(parser)
    parser.add_argument("--base", metavar="REV", help="also time the kit as it was at this git revision")
    options = parser.parse_args()
    os.chdir(ROOT / "notebooks")  # where the walkthroughs find their data
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        scratch = folder / "notebooks"  # stock pycsp3 writes its files where it runs
        shutil.copytree(ROOT / "notebooks", scratch)
        names = options.only
        models = step_models(folder, names)
        columns = {"kit": (partial(kit_steps, names=names), None, ROOT / "notebooks")}
        if options.base:
            tree = stack.enter_context(worktree(options.base))
            columns[f"kit at {options.base}"] = (partial(kit_steps, names=names), str(tree), ROOT / "notebooks")
        columns["cpmpy + cp-sat cell"] = (partial(peer_steps, models=models), None, ROOT / "notebooks")
        columns["stock pycsp3 solve()"] = (partial(stock_steps, names=names), None, scratch)
        times: dict[str, list[float]] = {name: [] for name in columns}
        for _ in range(options.rounds):
            for name, (steps, pythonpath, cwd) in columns.items():
                with ready_kernel(pythonpath, cwd) as client:
                    if name == "stock pycsp3 solve()":
                        timed_cell(client, "from pycsp3 import *")
                    elif name.startswith("kit"):
                        timed_cell(client, "%load_ext kernelext\nfrom pycsp3 import *")
                    steps(client)  # warm-up
                    times[name] += steps(client)
    peer = statistics.median(times["cpmpy + cp-sat cell"])
    print(
        f"Median seconds per step in a Jupyter kernel, {len(times['kit']) // options.rounds} steps of "
        f"{', '.join(options.only)}, {options.rounds} rounds in turn:"
    )
    for name, found in times.items():
        median = statistics.median(found)
        print(f"  {name:<24} {median:.4f}  ({median / peer:.2f}x the peer's cell)")


if __name__ == "__main__":
    sys.exit(main())
