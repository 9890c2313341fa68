"""How long a whole walkthrough takes and what it looks like: two Sudokus (an easy one, Inkala's "hardest"),
a 9x9 Star Battle (2 stars), and the 9x9 Killer Sudoku and the 10x10 Takuzu of the classroom notebooks.

Run: python benchmarks/walkthrough.py [--base REV] [--only NAME ...] [--timeout S]

Each puzzle is built as a session's steps and explained by `%puzzle walkthrough`'s function, each in a
process of its own. Printed per puzzle: solved or not, deductions, the largest and the median number of
constraints per deduction, the techniques named, the rating and the time. With --base, the kit as it was
at the git revision REV (a worktree, first on PYTHONPATH; one with the kit's folders, insight/ among them)
explains the same puzzles in turn, and the ratio of the two times is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernels import worktree

from kernelext.solver.portfolio import usable_cores

ROOT = Path(__file__).resolve().parents[1]
SUDOKU_RULES = (
    "satisfy(x[i][j] == clues[i][j] for i in range(9) for j in range(9) if clues[i][j] > 0)",
    "satisfy(AllDifferent(x[i]) for i in range(9))",
    "satisfy(AllDifferent(x[:, j]) for j in range(9))",
    "satisfy(AllDifferent(x[3 * p:3 * p + 3, 3 * q:3 * q + 3]) for p in range(3) for q in range(3))",
)
STAR_REGIONS = [
    "000554222",
    "000544222",
    "000544422",
    "330444446",
    "333444446",
    "338884466",
    "338887777",
    "118877777",
    "111111777",
]


def sudoku(rows: list[str]) -> tuple[str, ...]:
    board = f"clues = [[int(d) for d in row] for row in {rows!r}]\nx = VarArray(size=[9, 9], dom=range(1, 10))\n"
    return (board, *SUDOKU_RULES)


def killer_sudoku() -> tuple[str, ...]:
    cages = json.loads((ROOT / "notebooks" / "data" / "killer_sudoku.json").read_text())["large"]["cages"]
    return (
        f"cages = {cages!r}\nx = VarArray(size=[9, 9], dom=range(1, 10))",
        "satisfy(Sum(x[i][j] for i, j in cells) == total for total, cells in cages)",
        "satisfy(AllDifferent(x[i][j] for i, j in cells) for total, cells in cages)",
        *SUDOKU_RULES[1:],
    )


def takuzu() -> tuple[str, ...]:
    givens = json.loads((ROOT / "notebooks" / "data" / "takuzu.json").read_text())["10x10"]
    return (
        f"givens = {givens!r}\nn = len(givens)\nx = VarArray(size=[n, n], dom={{0, 1}})",
        "satisfy(x[i][j] == int(givens[i][j]) for i in range(n) for j in range(n) if givens[i][j] != '.')",
        "satisfy([Sum(x[i]) == n // 2 for i in range(n)], [Sum(x[:, j]) == n // 2 for j in range(n)])",
        "forbidden = {(0, 0, 0), (1, 1, 1)}\n"
        "satisfy([(x[i][j], x[i][j + 1], x[i][j + 2]) not in forbidden for i in range(n) for j in range(n - 2)],\n"
        "        [(x[i][j], x[i + 1][j], x[i + 2][j]) not in forbidden for i in range(n - 2) for j in range(n)])",
        "satisfy(AllDifferentList(x), AllDifferentList(columns(x)))",
    )


PUZZLES = {
    "easy sudoku": sudoku(
        [
            "530070000",
            "600195000",
            "098000060",
            "800060003",
            "400803001",
            "700020006",
            "060000280",
            "000419005",
            "000080079",
        ]
    ),
    "inkala sudoku": sudoku(
        [
            "800000000",
            "003600000",
            "070090200",
            "050007000",
            "000045700",
            "000100030",
            "001000068",
            "008500010",
            "090000400",
        ]
    ),
    "star battle 9x9": (
        f"regions = [[int(d) for d in row] for row in {STAR_REGIONS!r}]\nx = VarArray(size=[9, 9], dom={{0, 1}})",
        "satisfy(Sum(x[i]) == 2 for i in range(9))",
        "satisfy(Sum(x[:, j]) == 2 for j in range(9))",
        "satisfy(Sum(x[i:i + 2, j:j + 2]) <= 1 for i in range(8) for j in range(8))",
        "satisfy(Sum(x[i][j] for i in range(9) for j in range(9) if regions[i][j] == r) == 2 for r in range(9))",
    ),
    "killer sudoku 9x9": killer_sudoku(),
    "takuzu 10x10": takuzu(),
}

MEASURE = """
import json, sys, time
from kernelext.steps.session import PuzzleSession
from kernelext.solver.engine import Solver
try:
    from kernelext.insight.walkthrough.driver import walkthrough
except ImportError:  # a revision from before the driver moved out of explain.py
    from kernelext.insight.explain import walkthrough
steps, timeout = json.loads(sys.argv[1]), float(sys.argv[2])
solver = Solver()
session = PuzzleSession("puzzle", solver=solver)
for step in steps:
    session.add_step(step, solve=False)
start = time.perf_counter()
found = walkthrough(session, timeout=timeout)
report = {"solved": found.solved, "sizes": [d.size for d in found.deductions],
          "techniques": [d.technique for d in found.deductions], "rating": found.rating, "stopped": found.stopped,
          "seconds": time.perf_counter() - start}
solver.close()
print(json.dumps(report))
"""


def measure(steps: tuple[str, ...], path: Path, timeout: float) -> dict:
    """The puzzle's walkthrough in a fresh process, with the kit found first at `path`."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, json.dumps(steps), str(timeout)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=path,
        timeout=timeout + 300,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def describe(report: dict) -> str:
    sizes = report["sizes"]
    named = Counter(t for t in report["techniques"] if t)
    ending = "solved" if report["solved"] else f"not solved ({report['stopped']})"
    return (
        f"{ending}; {len(sizes)} deductions; constraints per deduction: largest {max(sizes, default=0)}, "
        f"median {statistics.median(sizes) if sizes else 0:g}; {report['seconds']:.1f} s"
        + (f"\n    techniques: {', '.join(f'{t} x{n}' for t, n in sorted(named.items()))}" if named else "")
        + (f"\n    rating: {report['rating']}" if report["rating"] else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="a git revision timed on the same puzzles")
    parser.add_argument("--only", nargs="*", default=(), help="puzzle names (default: all)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per walkthrough (default: 300)")
    args = parser.parse_args()
    chosen = {name: steps for name, steps in PUZZLES.items() if not args.only or name in args.only}
    print(f"{usable_cores()} usable cores; each walkthrough in a fresh process, time limit {args.timeout:g} s")
    with ExitStack() as stack:
        tree = stack.enter_context(worktree(args.base)) if args.base else None
        for name, steps in chosen.items():
            new = measure(steps, ROOT, args.timeout)
            print(f"{name}: walkthrough {describe(new)}")
            if tree is not None:
                old = measure(steps, tree, args.timeout)
                print(
                    f"    at {args.base}: {describe(old)}\n"
                    f"    time / time at {args.base}: {new['seconds'] / old['seconds']:.2f}"
                )


if __name__ == "__main__":
    main()
