"""Time of `explain` on a 9x9 Sudoku with two equal clues in a row, with warm ACE, and of a `hint` (the
walkthrough's first deduction, in the kernel) on the same Sudoku without them (targets: explain <= 0.5 s,
hint <= 0.2 s).

Run: python benchmarks/explain.py [--rounds N]

One explanation first warms the worker JVM; then each round explains again and counts the solver calls,
and asks for a hint once the clashing clue is undone.
Also times one warm solve of the whole model, to show what a solve costs on this machine right now.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from kernelext.insight.explain import explain
from kernelext.insight.walkthrough.driver import walkthrough
from kernelext.solver.engine import Solver
from kernelext.solver.portfolio import usable_cores
from kernelext.steps.session import PuzzleSession

BOARD = """clues = [[int(d) for d in row] for row in [
    "530070000", "600195000", "098000060", "800060003", "400803001",
    "700020006", "060000280", "000419005", "000080079"]]
x = VarArray(size=[9, 9], dom=range(1, 10))
"""
STEPS = (
    BOARD,
    "satisfy(x[i][j] == clues[i][j] for i in range(9) for j in range(9) if clues[i][j] > 0)",
    "satisfy(AllDifferent(x[i]) for i in range(9))",
    "satisfy(AllDifferent(x[:, j]) for j in range(9))",
    "satisfy(AllDifferent(x[3 * p:3 * p + 3, 3 * q:3 * q + 3]) for p in range(3) for q in range(3))",
    "satisfy(x[0][8] == 5)",  # row 0 already has a 5
)


class CountingSolver(Solver):
    """A Solver that counts its calls."""

    calls = 0

    def solve(self, *args, **kwargs):
        self.calls += 1
        return super().solve(*args, **kwargs)


def main(rounds: int) -> None:
    solver = CountingSolver()
    session = PuzzleSession("sudoku", solver=solver)
    for step in STEPS:
        session.add_step(step, solve=False)
    explain(session)  # warm-up
    times, calls, solves = [], [], []
    for _ in range(rounds):
        solver.calls = 0
        start = time.perf_counter()
        explanation = explain(session)
        times.append(time.perf_counter() - start)
        calls.append(solver.calls)
        start = time.perf_counter()
        session.solve()
        solves.append(time.perf_counter() - start)
    print("\n".join(explanation.words()))
    print(f"load average: {os.getloadavg()[0]:.1f} on {usable_cores()} usable cores")
    print(
        f"explain, median of {rounds}: {statistics.median(times):.2f} s "
        f"({statistics.median(calls):.0f} solver calls; target <= 0.5 s)"
    )
    print(f"one warm solve of the whole model, median: {statistics.median(solves):.3f} s")
    session.undo()  # the clashing clue
    hints = []
    for _ in range(rounds):
        start = time.perf_counter()
        found = walkthrough(session, limit=1).deductions[0]
        hints.append(time.perf_counter() - start)
    print(
        f"hint ({found.size} constraint(s) per fact, {len(found.removed)} cell(s) changed), median of {rounds}: "
        f"{statistics.median(hints):.2f} s (target <= 0.2 s)"
    )
    solver.close()
    session.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    main(parser.parse_args().rounds)
