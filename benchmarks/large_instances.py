"""Large instances solved warm, and memory over many steps.

Run: python benchmarks/large_instances.py [--rounds N] [--steps N] [--only NAME ...]

Prints the median seconds to solve (compile + solve) Sudoku 25x25, Nonogram 30x30, Futoshiki 9x9 and
Numberlink 10x10 (to optimum) with the default solver (auto), warm ACE, cold ACE and OR-Tools through CPMpy;
then the resident memory of the kernel process and of the solver worker after 10 and after N re-runs of a
step, solved in turn by the default solver and by warm ACE. `--only` solves the instances named.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from kernelext.solver.engine import Solver
from kernelext.steps.session import PuzzleSession

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from instances import amaze

BACKENDS = ("auto", "ace", "ace-cold", "ortools")


def sudoku(b: int = 5) -> list[str]:
    n = b * b
    solution = [[(b * (r % b) + r // b + c) % n + 1 for c in range(n)] for r in range(n)]
    clues = [[solution[r][c] if (r * 7 + c * 3) % 5 < 2 else 0 for c in range(n)] for r in range(n)]
    return [
        f"n, b = {n}, {b}\nclues = {clues!r}\nS = VarArray(size=[n, n], dom=range(1, n + 1))\n",
        "satisfy(S[i][j] == clues[i][j] for i in range(n) for j in range(n) if clues[i][j])\n",
        "satisfy([AllDifferent(r) for r in S], [AllDifferent(c) for c in columns(S)],\n"
        "        [AllDifferent(S[i][j] for i in range(r, r + b) for j in range(c, c + b))\n"
        "         for r in range(0, n, b) for c in range(0, n, b)])\n",
    ]


def runs(line: list[int]) -> list[int]:
    out, count = [], 0
    for cell in line + [0]:
        if cell:
            count += 1
        elif count:
            out.append(count)
            count = 0
    return out


def nonogram(n: int = 30) -> list[str]:
    picture = [
        [int((r - 15) ** 2 + (c - 15) ** 2 < 150 and (r + c) % 7 != 0 or r in (3, 26)) for c in range(n)]
        for r in range(n)
    ]
    rows = [runs(line) for line in picture]
    cols = [runs([picture[r][c] for r in range(n)]) for c in range(n)]
    return [
        f"n = {n}\nrows, cols = {rows!r}, {cols!r}\nG = VarArray(size=[n, n], dom={{0, 1}})\n",
        "def automaton(clue):\n"
        "    q, t = 0, [('q0', 0, 'q0')]\n"
        "    for k, length in enumerate(clue):\n"
        "        for _ in range(length):\n"
        "            t.append((f'q{q}', 1, f'q{q + 1}')); q += 1\n"
        "        if k < len(clue) - 1:\n"
        "            t.append((f'q{q}', 0, f'q{q + 1}')); q += 1; t.append((f'q{q}', 0, f'q{q}'))\n"
        "    t.append((f'q{q}', 0, f'q{q}'))\n"
        "    return Automaton(start='q0', final=f'q{q}', transitions=list(dict.fromkeys(t)))\n"
        "satisfy([G[i] in automaton(rows[i]) for i in range(n)],\n"
        "        [G[:, j] in automaton(cols[j]) for j in range(n)])\n",
    ]


def futoshiki(n: int = 9) -> list[str]:
    rng = random.Random(9)
    symbols = rng.sample(range(1, n + 1), n)
    solution = [[symbols[(r * 2 + c) % n] for c in range(n)] for r in range(n)]
    assert all(len(set(row)) == n for row in solution) and all(
        len({solution[r][c] for r in range(n)}) == n for c in range(n)
    )
    hints = [((r, c), solution[r][c]) for r in range(n) for c in range(n) if rng.random() < 0.12]
    pairs = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < n and c + dc < n and rng.random() < 0.3:
                    a, b = (r, c), (r + dr, c + dc)
                    pairs.append((a, b) if solution[r][c] < solution[r + dr][c + dc] else (b, a))
    return [
        f"n = {n}\nhints, less_than = {hints!r}, {pairs!r}\nF = VarArray(size=[n, n], dom=range(1, n + 1))\n",
        "satisfy(F[i][j] == v for (i, j), v in hints)\n",
        "satisfy([AllDifferent(r) for r in F], [AllDifferent(c) for c in columns(F)],\n"
        "        [F[a][b] < F[c][d] for (a, b), (c, d) in less_than])\n",
    ]


def numberlink(n: int = 10) -> list[str]:
    """Four pairs on a 10 x 10 board, to the fewest cells."""
    return list(amaze(n, n, [[(1, 1), (1, 4)], [(3, 3), (6, 3)], [(8, 8), (8, 5)], [(5, 9), (9, 9)]]))


def instances() -> dict[str, list[str]]:
    """Each large instance's step sources, by name."""
    return {
        "sudoku 25x25": sudoku(),
        "nonogram 30x30": nonogram(),
        "futoshiki 9x9": futoshiki(),
        "numberlink 10x10 (optimum)": numberlink(),
    }


def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def memory_over_steps(solver: Solver, steps: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """(kernel MB, worker MB) after 10 and after `steps` re-runs of a solving step."""
    session = PuzzleSession("memory", solver=solver)
    session.add_step("q = VarArray(size=8, dom=range(8))\n")
    marks = {}
    for k in range(1, steps + 1):
        session.add_step(f"satisfy(AllDifferent(q), q[0] == {k % 8})\n", key="rerun", backend="ace" if k % 2 else None)
        if k in (10, steps):
            marks[k] = (rss_mb(), rss_mb(solver.worker_pid))
    session.close()
    return marks[10], marks[steps]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=200, help="re-runs of a step before memory is read (at least 10)")
    every = instances()
    parser.add_argument(
        "--only", nargs="+", choices=every, default=list(every), metavar="NAME", help="instances (default: %(choices)s)"
    )
    args = parser.parse_args()
    solver = Solver()
    print(f"Seconds to compile and solve, median of {args.rounds} (warm ACE's JVM already started)")
    print(f"{'instance':<28}" + "".join(f"{b:>12}" for b in BACKENDS) + "   status")
    for name in args.only:
        steps = every[name]
        session = PuzzleSession(name, solver=solver)
        for source in steps:
            session.add_step(source, solve=False)
        for backend in ("auto", "ace"):  # warm-up: each warm solver has seen the model once
            session.solve(backend=backend)
        times, statuses = {}, set()
        for backend in BACKENDS:
            samples = []
            for _ in range(args.rounds):
                start = time.perf_counter()
                result = session.solve(backend=backend, timeout=60)
                samples.append(time.perf_counter() - start)
                statuses.add((result.status.value, result.bound))
            times[backend] = statistics.median(samples)
        print(f"{name:<28}" + "".join(f"{times[b]:>12.3f}" for b in BACKENDS) + f"   {sorted(statuses)}")
        session.close()
    before, after = memory_over_steps(solver, args.steps)
    print(
        f"memory after 10 steps: kernel {before[0]:.0f} MB, worker {before[1]:.0f} MB; "
        f"after {args.steps}: kernel {after[0]:.0f} MB, worker {after[1]:.0f} MB "
        f"(growth {after[0] - before[0]:+.0f} MB and {after[1] - before[1]:+.0f} MB)"
    )
    solver.close()


if __name__ == "__main__":
    main()
