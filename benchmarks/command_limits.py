"""Whether `--timeout T` bounds each whole command (solving, checking and drawing): seconds from the call to the
end, against T + 1 s, and the kernel's memory after `--sols all`.

Run: python benchmarks/command_limits.py [--timeout T] [--rounds N]

In one IPython shell with the kit loaded (as a notebook runs them, without a front end):
- `%%puzzle+ --sols all` on 16 cells of 0..9 (10^16 solutions), with the process's resident memory before and
  after (the kit keeps `max_solutions`, 10,000 by default, and counts the rest), after a first solve of `--sols 2`
  (whose growth is printed apart: importing CP-SAT and the widgets, once per kernel);
- `%puzzle tree --nodes 1000000` on 12 pigeons in 11 holes;
- `%puzzle walkthrough` and `%puzzle why x[0][1]` on Inkala's "hardest" Sudoku;
- `%puzzle explain` on the pigeons (UNSAT).
Prints the median seconds of N rounds, the seconds past T, and PASS when within T + 1 s (memory: within 50 MB).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

sys.path.insert(0, str(Path(__file__).resolve().parent))
from walkthrough import PUZZLES

MANY = ("x = VarArray(size=16, dom=range(10))\n", "satisfy(Sum(x) >= 0)\n")
PIGEONS = (
    "x = VarArray(size=12, dom=range(11))\n",
    "satisfy(x[i] != x[j] for i in range(12) for j in range(i + 1, 12))\n",
)


def resident_mb() -> float:
    """This process's resident memory, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start(ip: InteractiveShell, name: str, steps: tuple[str, ...], last_magic: str = "%%puzzle+") -> None:
    """Start puzzle `name` with `steps`, the last one run by `last_magic` (not timed)."""
    with capture_output():
        ip.run_cell(f"%%puzzle {name}\n{steps[0]}")
        for step in steps[1:-1]:
            ip.run_cell(f"%%puzzle+\n{step}")
        if last_magic:
            ip.run_cell(f"{last_magic}\n{steps[-1]}")


def timed(ip: InteractiveShell, source: str) -> float:
    started = time.perf_counter()
    with capture_output():
        result = ip.run_cell(source)
    if not result.success:
        raise SystemExit(f"{source.splitlines()[0]} failed: {result.error_in_exec or result.error_before_exec}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    limit = args.timeout
    ip = InteractiveShell.instance()
    with capture_output():
        ip.run_cell("%load_ext kernelext")
        ip.run_cell("from pycsp3 import *")
    rows, memory = [], []
    seconds = []
    start(ip, "many", MANY, last_magic="")
    gc.collect()
    before = resident_mb()
    timed(ip, f"%%puzzle+ --sols 2\n{MANY[-1]}")  # a first solve imports CP-SAT and the widgets, once per kernel
    imported = resident_mb() - before
    for _ in range(args.rounds):
        start(ip, "many", MANY, last_magic="")
        gc.collect()
        before = resident_mb()
        seconds.append(timed(ip, f"%%puzzle+ --sols all --timeout {limit:g}\n{MANY[-1]}"))
        memory.append(resident_mb() - before)
    rows.append(("%%puzzle+ --sols all", seconds))
    start(ip, "pigeons", PIGEONS)
    rows.append(
        (
            "tree --nodes 1000000",
            [timed(ip, f"%puzzle tree --nodes 1000000 --timeout {limit:g}") for _ in range(args.rounds)],
        )
    )
    rows.append(("explain", [timed(ip, f"%puzzle explain --timeout {limit:g}") for _ in range(args.rounds)]))
    start(ip, "sudoku", PUZZLES["inkala sudoku"])
    for command in ("walkthrough", "why x[0][1]"):
        rows.append((command, [timed(ip, f"%puzzle {command} --timeout {limit:g}") for _ in range(args.rounds)]))
    print(f"--timeout {limit:g}, median of {args.rounds} rounds:")
    for name, times in rows:
        median = statistics.median(times)
        verdict = "PASS" if median <= limit + 1 else "FAIL"
        print(f"  {name:<24} {median:6.2f} s  ({median - limit:+.2f} s past the limit)  {verdict}")
    grown = statistics.median(memory)
    print(f"  memory after --sols all: {grown:+.0f} MB  {'PASS' if grown <= 50 else 'FAIL'} (goal: within 50 MB)")
    print(f"  (the kernel's first solve, before them: {imported:+.0f} MB, importing CP-SAT and the widgets)")


if __name__ == "__main__":
    main()
