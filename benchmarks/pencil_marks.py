"""Time the pencil marks of a 9x9 Sudoku step: the kit's own propagation, in the kernel.

Run: python benchmarks/pencil_marks.py [--rounds N]
Prints the median seconds of `pencil_report` (compile + propagation + layout) and of `pencil_report` given the
compiled model, after two warm-up rounds, against the 0.05 s target.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from kernelext.insight.pencil_marks import pencil_report
from kernelext.pycsp3_glue import model_state
from kernelext.solver.engine import Solver
from kernelext.steps.session import PuzzleSession

BUDGET = 0.05  # seconds
CLUES = [  # "AI Escargot": propagation at the root leaves most cells open
    "1....7.9.",
    ".3..2...8",
    "..96..5..",
    "..53..9..",
    ".1..8...2",
    "6....4...",
    "3......1.",
    ".4......7",
    "..7...3..",
]
STEPS = [
    f"clues = {[[int(c) if c != '.' else 0 for c in row] for row in CLUES]}\n"
    "x = VarArray(size=[9, 9], dom=range(1, 10))\n",
    "satisfy(x[i][j] == clues[i][j] for i in range(9) for j in range(9) if clues[i][j])\n"
    "satisfy(AllDifferent(x[i]) for i in range(9))\n"
    "satisfy(AllDifferent(x[:, j]) for j in range(9))\n"
    "satisfy(AllDifferent(x[i][j] for i in range(a, a + 3) for j in range(b, b + 3))"
    " for a in (0, 3, 6) for b in (0, 3, 6))\n",
]


def timed(action, rounds: int) -> float:
    for _ in range(2):
        action()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    rounds = parser.parse_args().rounds
    solver = Solver()
    session = PuzzleSession("sudoku", solver=solver)
    try:
        for step in STEPS:
            session.add_step(step, solve=False)
        report = timed(lambda: pencil_report(session), rounds)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "model.xml"
            model_state.compile_to(path)
            precompiled = timed(lambda: pencil_report(session, model=path), rounds)
        grid, kit = pencil_report(session)
        verdict = "within" if report <= BUDGET else "OVER"
        print(f"9x9 Sudoku, {grid.remaining} values left after propagation; median of {rounds}:")
        print(f"  pencil_report    {report:.3f} s  ({verdict} the {BUDGET} s target)")
        print(f"  pencil_report    {precompiled:.3f} s  (with the model already compiled)")
    finally:
        session.close()
        solver.close()


if __name__ == "__main__":
    main()
