"""How soon a time limit or Stop (Ctrl-C) gives control back: the seconds past the limit, or after the interrupt.
Run: python benchmarks/time_limits.py [--rounds N] [--busy]
With --busy, every core this process may use is kept busy by a spinning process meanwhile, as on a shared
JupyterHub node. Medians of N rounds of:
- warm ACE while it reads a table of 800,000 tuples (it reads for seconds before any search): past limits of
  1 s and 2 s, and after Stop 1 s in (docs/reference/solvers.md's promise: a limit S returns within S + 0.5 s, Stop within 1 s);
- CP-SAT and MiniZinc, which read that table in Python: past limits of 1 s and 2 s;
- warm ACE with a limit shorter than its JVM's start (0.05 s), a fresh worker each round;
- warm ACE (`WarmAce`) on a pigeonhole search of more than 20 s: past a 1 s limit, past a 0.5 s wall-clock
  deadline while ACE's own `-t` says 60 s, and after Stop 1 s in;
- CP-SAT on a 12-mark Golomb ruler: past a 1 s limit, and after Stop 1 s in;
- a graded run that loops, with a 0.5 s limit (in the sandbox `auto` picks): past the limit and the runner's
  grace, until it is killed.
The tests check the same behaviour with bounds that a busy machine cannot miss; the speed is measured here.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

from kernelext.grading.format.exercise import Instance
from kernelext.grading.runs.jobs import GRACE, Job
from kernelext.grading.runs.sandbox import resolve_mode
from kernelext.grading.runs.warm_pool import WarmPool
from kernelext.solver.backends.cpsat import solve_cpsat
from kernelext.solver.engine import Solver
from kernelext.solver.jvm.warm import WarmAce
from kernelext.solver.portfolio import usable_cores

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path[:0] = [str(TESTS / "solver"), str(TESTS)]  # the solver tests' instances, and the conftest they import
from test_cpsat_reading import HARD_CELLS, hard_instance
from test_time_and_memory import large_table
from test_warm_solver import ALL_DIFFERENT, pigeonhole

SEVEN = {"x": tuple(((i,), f"x[{i}]") for i in range(7))}
THREE = {"x": tuple(((i,), f"x[{i}]") for i in range(3))}


def large_tables() -> str:
    tuples = large_table()
    return (
        f'<instance format="XCSP3" type="CSP"><variables><array id="x" size="[7]"> 0..9 </array></variables>'
        f"<constraints><extension><list> x[] </list><supports> {tuples} </supports></extension></constraints>"
        "</instance>\n"
    )


def spin() -> None:
    while True:
        pass


def after_stop(action, at: float = 1.0) -> float:
    """Seconds from a SIGINT sent `at` seconds into `action()` (which must catch it) until it returns."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(at, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        action()
    finally:
        timer.cancel()  # should `action` have ended before the interrupt
        timer.join()
        signal.signal(signal.SIGINT, previous)
    return time.monotonic() - start - at


def past(action, limit: float) -> float:
    start = time.monotonic()
    action()
    return time.monotonic() - start - limit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--busy", action="store_true", help="keep every core this process may use busy")
    args = parser.parse_args()
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(usable_cores() * args.busy)]
    for spinner in spinners:
        spinner.start()
    figures: dict[str, list[float]] = {}

    def measure(name: str, seconds: float) -> None:
        figures.setdefault(name, []).append(seconds)

    with tempfile.TemporaryDirectory() as folder:
        paths = {name: Path(folder, f"{name}.xml") for name in ("tables", "tiny", "hard", "golomb")}
        for name, text in zip(paths, (large_tables(), ALL_DIFFERENT, pigeonhole(), hard_instance())):
            paths[name].write_text(text)
        solver = Solver("ace")
        try:
            for _ in range(args.rounds):
                for limit in (1.0, 2.0):
                    solver.solve(paths["tiny"], THREE, timeout=60)  # the worker ready before the clock
                    measure(
                        f"warm ACE reading tables: past a {limit:g} s limit",
                        past(lambda limit=limit: solver.solve(paths["tables"], SEVEN, timeout=limit), limit),
                    )
                solver.solve(paths["tiny"], THREE, timeout=60)
                measure(
                    "warm ACE reading tables: after Stop",
                    after_stop(lambda: solver.solve(paths["tables"], SEVEN, timeout=60)),
                )
                solver.close()
                measure(
                    "warm ACE starting its JVM: past a 0.05 s limit",
                    past(lambda: solver.solve(paths["tiny"], THREE, timeout=0.05), 0.05),
                )
        finally:
            solver.close()
        with WarmAce() as ace:
            for _ in range(args.rounds):
                ace.run([str(paths["tiny"])], timeout=60)
                measure("warm ACE searching: past a 1 s limit", past(lambda: ace.run([str(paths["hard"])], 1), 1))
                measure(
                    "warm ACE searching, its own -t=60s: past a 0.5 s deadline",
                    past(lambda: ace.run([str(paths["hard"]), "-t=60s"], 0.5), 0.5),
                )
                measure("warm ACE searching: after Stop", after_stop(lambda: ace.run([str(paths["hard"])], 60)))
        for name in ("cp-sat", "minizinc"):  # they read the tables in Python, looking at the clock as they go
            reader = Solver(name)
            for _ in range(args.rounds):
                for limit in (1.0, 2.0):
                    measure(
                        f"{name} reading tables: past a {limit:g} s limit",
                        past(lambda r=reader, s=limit: r.solve(paths["tables"], SEVEN, timeout=s), limit),
                    )
            reader.close()
        for _ in range(args.rounds):
            measure(
                "CP-SAT searching: past a 1 s limit",
                past(lambda: solve_cpsat(paths["golomb"], HARD_CELLS, sols=1, timeout=1.0), 1.0),
            )
            measure(
                "CP-SAT searching: after Stop",
                after_stop(lambda: solve_cpsat(paths["golomb"], HARD_CELLS, sols=1, timeout=60)),
            )
    loop = Job(
        "student",
        "loop",
        Instance("loop", False, {"n": 3}, {}, 1),
        ("while True:\n    pass",),
        ("from pycsp3 import *",),
        "x",
        1,
        0.5,
        1024,
        sandbox=resolve_mode(),
    )
    with WarmPool() as pool:
        pool.run(replace(loop, steps=("pass",)))  # the warm process started before the clock
        for _ in range(args.rounds):
            measure(
                f"a graded run that loops: past its 0.5 s limit and the {GRACE:g} s grace",
                past(lambda: pool.run(loop), 0.5 + GRACE),
            )
    for spinner in spinners:
        spinner.kill()
    print(f"{usable_cores()} cores{', every one kept busy' if args.busy else ''}; median of {args.rounds} rounds:")
    for name, values in figures.items():
        print(f"  {statistics.median(values):6.2f} s  {name}")


if __name__ == "__main__":
    main()
