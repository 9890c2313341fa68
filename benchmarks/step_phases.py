"""Where a `%%puzzle+` step's time goes, phase by phase, on the seed walkthroughs (Amaze, Futoshiki, Layout,
Picross), against a CPMpy + CP-SAT cell that reads and solves the same step model, in an IPython shell.

Run: python benchmarks/step_phases.py [--rounds N] [--only NAME ...] [--solver NAME] [--base REV]
With --base, the kit as it was at the git revision REV (a worktree, imported first through PYTHONPATH) is
measured too: each round runs both, in turn, each in a process of its own.

Phases (medians over every step of every walkthrough):
- cell: the whole `%%puzzle+` cell, as a notebook runs it;
- code: the beginner-mistake check and running the cell's own code (pycsp3 posting the constraints);
- compile: pycsp3 compiling the model (the whole model, or the items a step posted);
- solver: the call to the solver (reading the model, the search, reading the answer);
- search: the solver's own search, as it reports it (ACE's `global ... wck`, CP-SAT's wall time);
- render: drawing the report (widget state, HTML and text);
- kit: what the kit adds around the search: cell - search.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from contextlib import ExitStack, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernels import worktree
from solve_steps import ROOT, add_only, is_step, linear_cells, time_cpmpy

PHASES = ("cell", "code", "compile", "solver", "search", "render", "kit", "cpmpy+cp-sat cell")
_GLOBAL_WCK = re.compile(r"^\s*global\b.*?^\s*wck:([\d.]+)", re.M | re.S)


@contextmanager
def timed(spent: dict[str, float]):
    """Wrap the functions of each phase so that their time adds up in `spent` (this process only)."""
    import kernelext.magic.puzzle
    import kernelext.steps.session
    from kernelext.pycsp3_glue import model_state
    from kernelext.solver import ace_output
    from kernelext.solver.engine import Solver

    def wrap(owner, name: str, phase: str, after=None):
        original = getattr(owner, name)

        def timing(*args, **kwargs):
            start = time.perf_counter()
            try:
                result = original(*args, **kwargs)
            finally:
                spent[phase] += time.perf_counter() - start
            if after is not None:
                after(args, kwargs, result)
            return result

        setattr(owner, name, timing)
        return owner, name, original

    def search_time(args, kwargs, result):
        found = _GLOBAL_WCK.search(args[0])
        spent["search"] += float(found.group(1)) if found else result.time

    def cp_sat_time(args, kwargs, result):
        if result.backend == "ortools":
            spent["search"] += result.time
        elif result.backend == "cp-sat":
            spent["search"] += float(result.stats["search seconds"])

    compiles = [name for name in ("compile_to", "compile_items") if hasattr(model_state, name)]
    wrapped = [
        wrap(kernelext.steps.session, "check_source", "code"),
        wrap(kernelext.steps.session, "run_source", "code"),
        *(wrap(model_state, name, "compile") for name in compiles),
        wrap(Solver, "solve", "solver", cp_sat_time),
        wrap(ace_output, "parse", "parse", search_time),
        wrap(kernelext.magic.puzzle.NotebookPuzzle, "show", "render"),
    ]
    try:
        yield
    finally:
        for owner, name, original in wrapped:
            setattr(owner, name, original)


def one_round(name: str, solver, backend: str) -> list[dict[str, float]]:
    """Each step's phases, in a fresh IPython shell sharing `solver` (one warm worker, as in a kernel)."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    ip = InteractiveShell.instance()
    ip.run_cell("%load_ext kernelext")
    magics = ip.magics_manager.registry["PuzzleMagics"]
    magics._solver = solver
    ip.run_cell(f"%config PuzzleMagics.solver = '{backend}'")
    steps = []
    for cell in linear_cells(name):
        spent: dict[str, float] = defaultdict(float)
        with timed(spent), capture_output():
            start = time.perf_counter()
            result = ip.run_cell(cell)
            spent["cell"] = time.perf_counter() - start
        if result.error_in_exec or result.error_before_exec:
            raise RuntimeError(f"cell failed: {cell[:60]}")
        if is_step(cell):
            spent["kit"] = spent["cell"] - spent["search"]
            spent["cpmpy+cp-sat cell"] = time_cpmpy(magics.session)
            steps.append(dict(spent))
    magics._solver = None  # the shared worker outlives this shell
    ip.run_cell("%unload_ext kernelext")
    ip.reset(new_session=True)
    return steps


def measure(backend: str, names: list[str]) -> list[dict[str, float]]:
    """Every step's phases of the walkthroughs `names`, in this process, after one round to warm up."""
    from kernelext.solver.engine import Solver

    os.chdir(ROOT / "notebooks")
    solver = Solver(backend)
    steps = []
    for name in names:
        one_round(name, solver, backend)  # warm-up: the worker starts once, as in a kernel
        steps += one_round(name, solver, backend)
    solver.close()
    return steps


def in_process(backend: str, names: list[str], pythonpath: str | None) -> list[dict[str, float]]:
    """`measure` in a process of its own, the kit imported from `pythonpath` first when given."""
    env = {**os.environ, "PYTHONPATH": pythonpath} if pythonpath else dict(os.environ)
    done = subprocess.run(
        [sys.executable, __file__, "--solver", backend, "--only", *names, "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    add_only(parser)
    parser.add_argument("--solver", default="auto")
    parser.add_argument("--base", metavar="REV", help="also measure the kit as it was at this git revision")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one measuring process
    options = parser.parse_args()
    if options.json:
        print(json.dumps(measure(options.solver, options.only)))
        return
    with ExitStack() as stack:
        trees = {"kit": None}
        if options.base:
            trees[f"at {options.base}"] = str(stack.enter_context(worktree(options.base)))
        steps: dict[str, list[dict[str, float]]] = {column: [] for column in trees}
        for _ in range(options.rounds):
            for column, tree in trees.items():
                steps[column] += in_process(options.solver, options.only, tree)
    medians = {
        column: {phase: statistics.median(step.get(phase, 0.0) for step in found) for phase in PHASES}
        for column, found in steps.items()
    }
    print(
        f"{len(steps['kit'])} steps ({options.rounds} rounds of {', '.join(options.only)}), solver "
        f"{options.solver}; median milliseconds per step:"
    )
    print(f"  {'':<20}" + "".join(f"{column:>16}" for column in steps))
    for phase in PHASES:
        print(f"  {phase:<20}" + "".join(f"{medians[column][phase] * 1000:16.1f}" for column in steps))
    for column, found in medians.items():
        print(
            f"{column}: whole step / CPMpy + CP-SAT cell {found['cell'] / found['cpmpy+cp-sat cell']:.2f}x; "
            f"kit part {found['kit'] * 1000:.1f} ms ({found['kit'] / found['cell']:.0%} of the step)"
        )
    if options.base:
        base = medians[f"at {options.base}"]
        print(f"whole step, {options.base} / now: {base['cell'] / medians['kit']['cell']:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
