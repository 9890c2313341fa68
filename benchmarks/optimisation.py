"""Optimisation steps: the default solver (auto, CP-SAT in the kernel) against warm ACE, side by side.

Run: python benchmarks/optimisation.py [--rounds N] [--timeout S] [--only NAME ...]

The models: the Amaze notebook's optimum step (notebooks/amaze.ipynb, 5x5); the amaze exercise's instructor model
(exercises/amaze/instructor.ipynb) on each of its public and hidden instances; the magic square notebook's last
step when it optimises (it is skipped, saying so, when it does not); Numberlink 10x10 (benchmarks/
large_instances.py); golomb(5) and the knapsack instances of tests/instances.py. Each model is built once, solved
once by each backend to warm up, then solved (compile + solve, as `PuzzleSession.solve` does) N times by each
backend in turn. Prints the status and bound each gave (and the expected optimum where one is known), the median
seconds of auto and of warm ACE, and the ratio ACE / auto. `--only` times the models named (as the table names
them).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path

from IPython.core.magic_arguments import parse_argstring

from kernelext.magic.magics import PuzzleMagics
from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.solver.engine import Solver
from kernelext.steps.session import PuzzleSession, _pycsp3_namespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))
from checker_cost import notebook_cells
from instances import INSTANCES
from large_instances import numberlink

BACKENDS = ("auto", "ace")
OPTIMISES = ("minimize(", "maximize(")


def notebook_steps(path: Path) -> tuple[list[str], dict]:
    """The step sources of the notebook's last puzzle (a step edited by --step KEY in place of its earlier version),
    and the namespace its plain cells built."""
    namespace, steps = _pycsp3_namespace(), {}
    for kind, line, body in notebook_cells(path):
        if kind == "code":
            with contextlib.suppress(Exception):
                exec(compile(body, str(path), "exec"), namespace)
            continue
        if kind == "start":
            steps = {}
        key = parse_argstring(PuzzleMagics.puzzle if kind == "start" else PuzzleMagics.puzzle_step, line).step
        steps[key or len(steps)] = body
    return list(steps.values()), namespace


def exercise_models() -> list[tuple[str, list[str], dict, int | None]]:
    """The amaze exercise's instructor model on each public and hidden instance, with its expected optimum."""
    folder = ROOT / "exercises" / "amaze"
    steps = [body for kind, _, body in notebook_cells(folder / "instructor.ipynb") if kind != "code"]
    models = []
    for path in sorted(folder.glob("public/*.json")) + sorted(folder.glob("hidden/*.json")):
        instance = json.loads(path.read_text())
        namespace = _pycsp3_namespace() | {"data": instance["data"]}
        models.append(
            (
                f"amaze exercise {path.parent.name}/{path.stem}",
                steps,
                namespace,
                instance.get("expected", {}).get("optimum"),
            )
        )
    return models


def models() -> tuple[list[tuple[str, list[str], dict | None, int | None]], list[str]]:
    """(name, steps, namespace, expected optimum) of each model to time, and the notes on models left out."""
    found, notes = [], []
    amaze, namespace = notebook_steps(ROOT / "notebooks" / "amaze.ipynb")
    found.append(("amaze notebook 5x5 (optimum step)", amaze, namespace, None))
    found += exercise_models()
    square, namespace = notebook_steps(ROOT / "notebooks" / "magic_square.ipynb")
    if any(word in step for step in square for word in OPTIMISES):
        found.append(("magic square notebook, last step", square, namespace, None))
    else:
        notes.append("magic square notebook: skipped, its last step (n = 5) does not optimise")
    found.append(("numberlink 10x10", numberlink(), None, None))
    found += [
        (i.name, list(i.steps), None, i.bound)
        for i in INSTANCES
        if i.name in ("golomb-5",) or i.name.startswith("knapsack")
    ]
    return found, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per solve (default 60)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="the models to time, named as in the table")
    args = parser.parse_args()
    sys.argv[1:] = []  # pycsp3 reads the command line when it is imported
    os.chdir(ROOT / "notebooks")
    found, notes = models()
    if args.only:
        unknown = sorted(set(args.only) - {name for name, *_ in found})
        if unknown:
            parser.error(f"no model named {', '.join(unknown)}; the models: {', '.join(name for name, *_ in found)}")
        found = [model for model in found if model[0] in args.only]
    solver = Solver()
    print(
        f"Seconds to compile and solve to optimum, median of {args.rounds} after one warm-up (warm ACE's JVM "
        f"started); timeout {args.timeout:g} s"
    )
    print(
        f"{'model':<36}{'status (bound) auto':>26}{'warm ACE':>22}{'expected':>9}{'auto s':>9}{'ACE s':>9}"
        f"{'ACE/auto':>10}"
    )
    for name, steps, namespace, expected in found:
        session = PuzzleSession("optimisation", namespace, solver=solver)
        with contextlib.redirect_stdout(io.StringIO()), plain_operators():
            for source in steps:
                session.add_step(source, solve=False)
        times, answers = {b: [] for b in BACKENDS}, {b: set() for b in BACKENDS}
        for round_ in range(args.rounds + 1):
            for backend in BACKENDS:
                start = time.perf_counter()
                result = session.solve(backend=backend, timeout=args.timeout)
                spent = time.perf_counter() - start
                by = f" by {result.backend}" if backend == "auto" and result.backend != "cp-sat" else ""
                answers[backend].add(
                    f"{result.status.value} ({result.bound}){by}" + (" timeout" if result.stopped else "")
                )
                if round_:
                    times[backend].append(spent)
        session.close()
        auto, ace = (statistics.median(times[b]) for b in BACKENDS)
        print(
            f"{name:<36}{', '.join(sorted(answers['auto'])):>26}{', '.join(sorted(answers['ace'])):>22}"
            f"{'' if expected is None else expected:>9}{auto:>9.3f}{ace:>9.3f}{ace / auto:>9.1f}x"
        )
    solver.close()
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
