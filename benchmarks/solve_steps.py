"""Time each step of the Amaze walkthrough: stock pycsp3 `solve()` versus kernelext's backends.

Run: python benchmarks/solve_steps.py [--rounds N]
Prints, per step, the median seconds of each way of solving and the ratio to stock pycsp3.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import tempfile
import time

from kernelext.session import PuzzleSession
from kernelext.solver.engine import Solver

STEPS = [
    "n, m = 5, 5\npoints = [[(3, 4), (5, 1)], [(2, 2), (5, 5)]]\n"
    "x = VarArray(size=[n + 2, m + 2], dom=lambda i, j: {0} if i in {0, n + 1} or j in {0, m + 1} else range(len(points) + 1))\n",
    "satisfy(x[i][j] == v + 1 for v in range(len(points)) for i, j in points[v])\n",
    "satisfy(Count(x[i - 1][j], x[i + 1][j], x[i][j - 1], x[i][j + 1], value=v + 1) == 1\n"
    "        for v in range(len(points)) for i, j in points[v])\n",
    "ends = {p for pair in points for p in pair}\n"
    "T = {(0, ANY, ANY, ANY, ANY)} | {tuple([v] + [v if d in (a, b) else ne(v) for d in range(4)])\n"
    "     for v in range(1, len(points) + 1) for a, b in combinations(range(4), 2)}\n"
    "satisfy((x[i][j], x[i - 1][j], x[i + 1][j], x[i][j - 1], x[i][j + 1]) in T\n"
    "        for i in range(1, n + 1) for j in range(1, m + 1) if (i, j) not in ends)\n",
    "minimize(Sum(x))\n",
]


def time_kernelext(backend: str, solver: Solver) -> list[float]:
    """Seconds of each solving step (add + compile + solve) through a PuzzleSession."""
    session = PuzzleSession("amaze", solver=solver, backend=backend)
    session.add_step(STEPS[0])
    times = []
    for source in STEPS[1:]:
        start = time.perf_counter()
        session.add_step(source)
        times.append(time.perf_counter() - start)
    session.close()
    return times


def time_stock_pycsp3() -> list[float]:
    """Seconds of each step with pycsp3's own `solve()` (a new JVM each time), in a scratch folder."""
    from kernelext import model_state
    from kernelext.cell_code import run_source

    namespace: dict = {}
    exec("from pycsp3 import *", namespace)
    model_state.reset()
    times = []
    with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stdout(io.StringIO()):
        here = os.getcwd()
        os.chdir(folder)
        try:
            run_source(STEPS[0], namespace, echo=False)
            for source in STEPS[1:]:
                start = time.perf_counter()
                run_source(source, namespace, echo=False)
                namespace["solve"]()
                times.append(time.perf_counter() - start)
        finally:
            os.chdir(here)
            model_state.reset()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    solver = Solver()
    time_kernelext("ace", solver)  # start and warm the JVM once, as a kernel does on its first step
    columns = {"pycsp3 solve()": [], "kernelext ace-warm": [], "kernelext ace-cold": []}
    for _ in range(rounds):
        columns["pycsp3 solve()"].append(time_stock_pycsp3())
        columns["kernelext ace-warm"].append(time_kernelext("ace", solver))
        columns["kernelext ace-cold"].append(time_kernelext("ace-cold", solver))
    solver.close()
    medians = {name: [statistics.median(r[k] for r in runs) for k in range(len(STEPS) - 1)] for name, runs in columns.items()}
    stock = medians["pycsp3 solve()"]
    print(f"Amaze walkthrough, median of {rounds} rounds, seconds per step (ratio = stock / this)")
    print("step  " + "".join(f"{name:>22}" for name in medians))
    for k in range(len(STEPS) - 1):
        cells = "".join(f"{m[k]:>14.3f} ({stock[k] / m[k]:4.1f}x)" for m in medians.values())
        print(f"{k + 2:>4}  {cells}")
    overall = {name: statistics.median(m) for name, m in medians.items()}
    print("median" + "".join(f"{v:>14.3f} ({overall['pycsp3 solve()'] / v:4.1f}x)" for v in overall.values()))


if __name__ == "__main__":
    main()
