"""What checking every answer costs: the checker's share of a step's time, on the walkthrough and notebook steps.

Run: python benchmarks/checker_cost.py [--rounds N] [--only NAME ...]

Replays, through PuzzleSession with the default solver (auto), the steps of the AMAZE and FUTOSHIKI walkthroughs
(tests/instances.py) and every `%%puzzle` / `%%puzzle+` cell of notebooks/*.ipynb in order (their options
--step, --sols, --show, --solver, --timeout honoured; their plain Python cells run in the puzzle's namespace, line
magics skipped). For each step that solves, it times `add_step` (the step as a user pays for it: run, compile,
solve, check) and, inside it, the checking: building or extending the Checker (`StepModel.checker`,
`ModelFile.checker`) and `checked(...)`, timed by wrapping them. One warm-up round, then the median of N rounds
per step. Prints per walkthrough/notebook the median step time, median checking time and their ratio, and over
every step the median and the largest share. The target: checking is at most 10% of a step's time. `--only`
replays the sources named (as the table names them: `walkthrough AMAZE`, a notebook's name).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
import time
from pathlib import Path

import nbformat
from IPython.core.magic_arguments import parse_argstring

from kernelext.errors import KernelextError
from kernelext.magic.commands import sols
from kernelext.magic.magics import PuzzleMagics
from kernelext.pycsp3_glue import model_state
from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.solver import compiled, engine
from kernelext.solver.engine import Solver
from kernelext.steps import step_model
from kernelext.steps.session import PuzzleSession, _pycsp3_namespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from instances import AMAZE, FUTOSHIKI

SPENT = [0.0]  # seconds spent checking since the last reset


def timed(function):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            SPENT[0] += time.perf_counter() - start

    return wrapper


def wrap_checking() -> None:
    """Time everything the kit does to check an answer (the three are never nested in one another)."""
    engine.checked = timed(engine.checked)
    step_model.StepModel.checker = timed(step_model.StepModel.checker)
    compiled.ModelFile.checker = timed(compiled.ModelFile.checker)


def notebook_cells(path: Path) -> list[tuple[str, str, str]]:
    """(kind, magic line, body) of each code cell: kind is start, step or code (line magics left out)."""
    out = []
    for cell in nbformat.read(path, 4).cells:
        first, _, body = cell.source.partition("\n")
        if cell.cell_type != "code":
            continue
        if first.startswith("%%puzzle+"):
            out.append(("step", first.removeprefix("%%puzzle+"), body))
        elif first.startswith("%%puzzle"):
            out.append(("start", first.removeprefix("%%puzzle"), body))
        else:
            code = "\n".join(line for line in cell.source.splitlines() if not line.startswith("%"))
            out.append(("code", "", code))
    return out


def walkthrough_cells(steps: tuple[str, ...]) -> list[tuple[str, str, str]]:
    return [("start", " walkthrough", steps[0])] + [("step", "", source) for source in steps[1:]]


def replay(cells, solver: Solver, on_step) -> None:
    """Run the cells as the magics would; call on_step(label, seconds, checking seconds) after each solved step."""
    namespace, session, index = _pycsp3_namespace(), None, 0
    for kind, line, body in cells:
        if kind == "code":
            # a cell that fails needs the notebook's kernel (current_session(), display): skipped
            with contextlib.suppress(Exception):
                exec(compile(body, f"<cell {index}>", "exec"), namespace)
            continue
        args = parse_argstring(PuzzleMagics.puzzle if kind == "start" else PuzzleMagics.puzzle_step, line)
        if kind == "start":
            if session is not None:
                session.close()
            model_state.reset()
            session = PuzzleSession(args.words[0], namespace, solver=solver)
        SPENT[0] = 0.0
        start = time.perf_counter()
        try:
            with plain_operators():
                report = session.add_step(
                    body,
                    "step:" + args.step if args.step else None,
                    sols=sols(args.sols),
                    timeout=args.timeout,
                    show=args.show,
                    backend=args.solver,
                )
        except KernelextError:
            report = None  # a step the notebook shows failing
        spent = time.perf_counter() - start
        if report is not None and report.result is not None:
            on_step(f"cell {index}{' --step ' + args.step if args.step else ''}", spent, SPENT[0])
        index += 1
    if session is not None:
        session.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="+", metavar="NAME", help="the sources to replay, named as in the table")
    args = parser.parse_args()
    rounds = args.rounds
    sys.argv[1:] = []  # pycsp3 reads the command line when it is imported
    sources = {"walkthrough AMAZE": walkthrough_cells(AMAZE), "walkthrough FUTOSHIKI": walkthrough_cells(FUTOSHIKI)}
    sources |= {path.stem: notebook_cells(path) for path in sorted((ROOT / "notebooks").glob("*.ipynb"))}
    if args.only:
        unknown = sorted(set(args.only) - set(sources))
        if unknown:
            parser.error(f"no source named {', '.join(unknown)}; the sources: {', '.join(sources)}")
        sources = {name: cells for name, cells in sources.items() if name in args.only}
    wrap_checking()
    os.chdir(ROOT / "notebooks")  # where the notebooks find their data
    solver = Solver()
    samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for round_ in range(rounds + 1):  # round 0 warms up: imports, the JVM if a step asks for ACE
        for name, cells in sources.items():

            def keep(label, step, check, name=name, warm_up=round_ == 0):
                if not warm_up:
                    samples.setdefault((name, label), []).append((step, check))

            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                replay(cells, solver, keep)
    solver.close()
    print(f"Seconds per solved step (median of {rounds} rounds) and the checking inside it; share = checking / step")
    print(f"{'source':<22}{'steps':>6}{'median step':>13}{'median check':>14}{'ratio':>8}{'max share':>11}")
    medians = {
        key: (statistics.median(s for s, _ in v), statistics.median(c for _, c in v))
        for key, v in samples.items()
        if len(v) == rounds
    }
    shares = []
    for name in sources:
        rows = [m for (n, _), m in medians.items() if n == name]
        if not rows:
            print(f"{name:<22}{0:>6}   (no step solved)")
            continue
        step, check = statistics.median(s for s, _ in rows), statistics.median(c for _, c in rows)
        share = [c / s for s, c in rows]
        shares += share
        print(f"{name:<22}{len(rows):>6}{step:>13.4f}{check:>14.4f}{check / step:>8.1%}{max(share):>11.1%}")
    worst = sorted(((c / s, f"{n} {label}", s, c) for (n, label), (s, c) in medians.items()), reverse=True)
    for share, label, step, check in worst[:5]:
        print(f"  largest shares: {label:<36} step {step:.4f} s, checking {check:.4f} s ({share:.1%})")
    print(
        f"over {len(shares)} steps: median share {statistics.median(shares):.1%}, max share {max(shares):.1%} "
        f"(target: at most 10%)"
    )


if __name__ == "__main__":
    main()
