"""Widget update cost: describe a 30x30 nonogram grid, set it on a GridWidget and serialise the update.

Run: python benchmarks/widget_update.py [RUNS]
Prints one line: the median milliseconds of RUNS updates and the size of one update message.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from kernelext.grid import Grid
from kernelext.kinds import kind_for
from kernelext.widgets.grid_widget import GridWidget

N = 30
CLUES = {"rows": [[N // 2]] * N, "cols": [[N]] * (N // 2) + [[]] * (N - N // 2)}


def widget_update_cost(runs: int = 50) -> tuple[float, int]:
    """Median seconds of one update (describe + set the trait + JSON of the message) and the message's bytes."""
    view = kind_for("nonogram")
    widget = GridWidget(description={"title": "nonogram", "lines": [], "grids": []})
    times, size = [], 0
    for run in range(runs):
        grid = Grid(
            "x",
            tuple(tuple(int((r + c + run) % 2) for c in range(N)) for r in range(N)),
            changed=frozenset((r, run % N) for r in range(N)),
        )
        start = time.perf_counter()
        widget.description = {"title": f"nonogram · step {run}", "lines": [], "grids": [view.describe(grid, CLUES)]}
        message = json.dumps({"method": "update", "state": widget.get_state("description"), "buffer_paths": []})
        times.append(time.perf_counter() - start)
        size = len(message.encode())
    return statistics.median(times), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=int, nargs="?", default=50, help="updates timed (default 50)")
    runs = parser.parse_args().runs
    seconds, size = widget_update_cost(runs)
    print(f"widget update cost (30x30 nonogram, median of {runs}): {seconds * 1000:.2f} ms, {size / 1000:.1f} kB")


if __name__ == "__main__":
    main()
