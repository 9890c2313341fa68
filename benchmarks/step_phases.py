"""Where a `%%puzzle+` step's time goes, phase by phase, on the seed walkthroughs (Amaze, Futoshiki, Layout,
Picross), against a CPMpy + CP-SAT cell that reads and solves the same step model, side by side in one run.

Run: python benchmarks/step_phases.py [--rounds N] [--solver auto|ace|cp-sat|...] (auto, the default solver)

Phases (medians over every step of every walkthrough, each round):
- cell: the whole `%%puzzle+` cell in an IPython shell, as a notebook runs it;
- code: the beginner-mistake check and running the cell's own code (pycsp3 posting the constraints);
- compile: pycsp3 writing the model as XCSP3;
- solver: the call to the solver (handing the file over, ACE reading it, the search, reading the answer);
- search: the solver's own search, as it reports it (ACE's `global ... wck`, CP-SAT's wall time);
- render: drawing the report (widget state, HTML and text);
- kit: what the kit adds around the search: cell - search.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solve_steps import ROOT, WALKTHROUGHS, is_step, linear_cells, time_cpmpy  # noqa: E402

PHASES = ("cell", "code", "compile", "solver", "search", "render", "kit", "cpmpy+cp-sat cell")
_GLOBAL_WCK = re.compile(r"^\s*global\b.*?^\s*wck:([\d.]+)", re.M | re.S)


@contextmanager
def timed(spent: dict[str, float]):
    """Wrap the functions of each phase so that their time adds up in `spent` (this process only)."""
    import kernelext.puzzle
    import kernelext.session
    from kernelext import model_state
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

    def ortools_time(args, kwargs, result):
        if result.backend == "ortools":
            spent["search"] += result.time
        elif result.backend == "cp-sat":
            spent["search"] += float(result.stats["search seconds"])

    wrapped = [wrap(kernelext.session, "check_source", "code"), wrap(kernelext.session, "run_source", "code"),
               wrap(model_state, "compile_to", "compile"), wrap(Solver, "solve", "solver", ortools_time),
               wrap(ace_output, "parse", "parse", search_time),
               wrap(kernelext.puzzle.NotebookPuzzle, "show", "render")]
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


@contextmanager
def stock_stack():
    """pycsp3's inspector with `inspect.stack` itself, as without kernelext.frame_reading."""
    import inspect

    from pycsp3.tools import inspector

    from kernelext import frame_reading

    install, lazy = frame_reading.install, inspector.inspect
    frame_reading.install, inspector.inspect = (lambda: None), inspect
    try:
        yield
    finally:
        frame_reading.install, inspector.inspect = install, lazy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--solver", default="auto")
    options = parser.parse_args()
    import os

    from kernelext.solver.engine import Solver

    os.chdir(ROOT / "notebooks")
    solver = Solver(options.solver)
    steps: dict[str, list[dict[str, float]]] = {"lazy stack": [], "inspect.stack": []}
    for name in WALKTHROUGHS:
        one_round(name, solver, options.solver)  # warm-up: the worker starts once, as in a kernel
        for _ in range(options.rounds):  # the two stacks in turn, side by side
            steps["lazy stack"] += one_round(name, solver, options.solver)
            with stock_stack():
                steps["inspect.stack"] += one_round(name, solver, options.solver)
    solver.close()
    medians = {column: {phase: statistics.median(step.get(phase, 0.0) for step in found) for phase in PHASES}
               for column, found in steps.items()}
    print(f"{len(steps['lazy stack'])} steps ({options.rounds} rounds of {', '.join(WALKTHROUGHS)}), solver "
          f"{options.solver}; median milliseconds per step, pycsp3's source inspection with each stack:")
    print(f"  {'':<20}" + "".join(f"{column:>16}" for column in steps))
    for phase in PHASES:
        print(f"  {phase:<20}" + "".join(f"{medians[column][phase] * 1000:16.1f}" for column in steps))
    for column, found in medians.items():
        print(f"{column}: whole step / CPMpy + CP-SAT cell {found['cell'] / found['cpmpy+cp-sat cell']:.1f}x; "
              f"kit part of a step {found['kit'] / found['cell']:.0%}")
    print(f"whole step, inspect.stack / lazy stack: {medians['inspect.stack']['cell'] / medians['lazy stack']['cell']:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
