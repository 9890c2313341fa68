"""From a ready kernel to the first drawn step: the Amaze walkthrough's first cells (`%load_ext kernelext`,
`from pycsp3 import *`, the `%%puzzle amaze` cell, its first `%%puzzle+` step) in a fresh Jupyter kernel,
against a fresh kernel that imports CPMpy and solves the same step model with CP-SAT, rounds in turn.

Run: python benchmarks/first_cell.py [--rounds N] [--base REV]
With --base, the kit as it was at the git revision REV (a worktree, imported first through PYTHONPATH) is
timed too, in the same rounds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernels import ROOT, ready_kernel, timed_cell, worktree

NOTEBOOK = ROOT / "notebooks" / "amaze.ipynb"


def kit_cells() -> list[str]:
    """The walkthrough's code cells up to its first step."""
    cells = [c.source for c in nbformat.read(NOTEBOOK, 4).cells if c.cell_type == "code"]
    first_step = next(k for k, cell in enumerate(cells) if cell.startswith("%%puzzle+"))
    return cells[: first_step + 1]


def peer_cells(model: Path) -> list[str]:
    """The same step, as a CPMpy user would run it: import CPMpy, read the step's model, solve it."""
    return [
        "import cpmpy\nfrom cpmpy.tools.xcsp3 import read_xcsp3",
        f"model = read_xcsp3({str(model)!r})\nmodel.solve(solver='ortools', num_workers=1)",
    ]


def step_model(folder: Path) -> Path:
    """The XCSP3 file of the walkthrough's first step, written by the kit."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    ip = InteractiveShell.instance()
    path = folder / "amaze-step.xml"
    with capture_output():
        for cell in kit_cells():
            ip.run_cell(cell)
        ip.run_cell(f"%puzzle export {path}")
    return path


def time_cells(cells: list[str], pythonpath: str | None = None) -> float:
    """Seconds from sending the first cell to the last one's reply, in a ready kernel."""
    with ready_kernel(pythonpath) as client:
        return sum(timed_cell(client, cell) for cell in cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--base", metavar="REV", help="also time the kit as it was at this git revision")
    options = parser.parse_args()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        runs = {"kit": (kit_cells(), None), "cpmpy + cp-sat": (peer_cells(step_model(folder)), None)}
        if options.base:
            runs[f"kit at {options.base}"] = (kit_cells(), str(stack.enter_context(worktree(options.base))))
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(options.rounds):
            for name, (cells, pythonpath) in runs.items():
                times[name].append(time_cells(cells, pythonpath))
    print(f"From a ready kernel to the first solved step (Amaze), seconds over {options.rounds} rounds in turn:")
    peer = statistics.median(times["cpmpy + cp-sat"])
    for name, found in times.items():
        median = statistics.median(found)
        print(
            f"  {name:<22} median {median:.2f}  (min {min(found):.2f}, max {max(found):.2f})  "
            f"{median / peer:.2f}x the CPMpy kernel"
        )


if __name__ == "__main__":
    sys.exit(main())
