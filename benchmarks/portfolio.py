"""`auto` as a portfolio against each single solver, on the PyCSP3-models collection, in one run.

Run: python benchmarks/portfolio.py PATH [--only NAME ...] [--limit N] [--seconds S] [--cache DIR]

PATH is a checkout of github.com/xcsp3team/pycsp3-models (nothing is downloaded). Each model is compiled by stock
pycsp3 with its example data, as benchmarks/compat.py does; the XCSP3 files (and stock pycsp3's failures) are kept
in DIR (the temporary folder's portfolio-stock by default), so a second run does not compile again. `--limit N`
takes N models spread over the collection. Each XCSP3 file is solved by each single solver that runs here within
S seconds (9 by default): CP-SAT, warm ACE (where Java runs), MiniZinc with Gecode (where its program is); then
by `auto`, the portfolio, within S + 1 seconds. One Solver per backend serves every model, each warmed up first on
a tiny model (warm ACE stays warm). A run finishes when it returns SAT on a satisfaction model, UNSAT, or OPTIMUM
within its time (wall seconds around the call); a refusal or an error does not, and its reason is kept. auto
races its solvers on the cores this process may use: other work on the machine slows it more than a single solver.

Prints each model's runs, then: the models each solver finished; the models a single solver finished that auto
did not (the target: none); auto's time over the best single solver's, and its worst cases (the target: never
more than 1 s later); the models only auto finished; and any answers that disagree (every run that gives a
status, late or not, must give the same status and optimum).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from kernelext.errors import Untranslatable
from kernelext.solver.ace_output import Cells
from kernelext.solver.compiled import ModelFile
from kernelext.solver.engine import Solver
from kernelext.solver.errors import BackendUnsupported
from kernelext.xcsp.declarations import Declarations

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from compat import Model, compile_stock, models_in

SINGLES = ("cp-sat", "ace", "minizinc")
AUTO_EXTRA = 1.0  # seconds auto gets past the single solvers' limit
WORST = 5  # worst cases shown
# A model each solver solves once before the sweep: Java's start and the first imports are no model's time.
WARM_UP = """<instance format="XCSP3" type="CSP"><variables><array id="x" size="[3]"> 0..2 </array></variables>
<constraints><allDifferent> x[] </allDifferent></constraints></instance>"""


@dataclass(frozen=True)
class Run:
    """One solve: a status (SAT, UNSAT, OPTIMUM, UNKNOWN; "refused" or "error" with a reason), its wall seconds."""

    status: str
    seconds: float
    bound: int | None = None
    reason: str = ""

    def answer(self, optimising: bool) -> tuple[str, int | None] | None:
        """(status, optimum) when the run gave a final answer, however late; else None."""
        if self.status in ("UNSAT", "OPTIMUM") or (self.status == "SAT" and not optimising):
            return self.status, self.bound if self.status == "OPTIMUM" else None
        return None

    def __str__(self) -> str:
        if self.status in ("refused", "error"):
            return self.status
        shown = {"OPTIMUM": f"OPT {self.bound}", "UNKNOWN": "-"}.get(self.status, self.status)
        return f"{shown} {self.seconds:.1f}s"


@dataclass
class Case:
    """A model's stock XCSP3 file and its runs, by solver."""

    model: Model
    optimising: bool
    runs: dict[str, Run]

    @property
    def name(self) -> str:
        return f"{self.model.path.parent.parent.name}/{self.model.name}"

    def finished(self, solver: str, seconds: float) -> bool:
        """Whether `solver` gave a final answer within `seconds`."""
        run = self.runs[solver]
        return run.answer(self.optimising) is not None and run.seconds <= seconds


def sample(models: list[Model], limit: int | None) -> list[Model]:
    """`limit` models spread evenly over the list (which goes category by category), or all of them."""
    if not limit or limit >= len(models):
        return models
    return [models[i * len(models) // limit] for i in range(limit)]


def stock_file(model: Model, cache: Path) -> None:
    """Set the model's stock XCSP3 file (or why stock pycsp3 fails), compiled once into `cache`."""
    target = cache / f"{model.path.parent.parent.name}-{model.name}.stock.xml"
    failed = target.with_suffix(".failed")
    if target.exists():
        model.stock = target
    elif failed.exists():
        model.stock_error = failed.read_text()
    else:
        compile_stock(model, cache)
        if model.stock is None:
            target.unlink(missing_ok=True)  # what stock pycsp3 wrote before its error
            failed.write_text(model.stock_error)


def cells_of(path: Path) -> Cells:
    """Each array's cells (None at a hole: a cell the file gives no domain) and each single variable, read from
    the file's `<variables>`; Untranslatable for variables that are not integers."""
    variables = next(element for _, element in ET.iterparse(path) if element.tag == "variables")
    declared = Declarations()
    declared.declare(variables)
    cells = {}
    for element in variables:
        name = element.get("id")
        if element.tag == "var":
            cells[name] = (((), name),)
            continue
        ids = (
            (index, name + "".join(f"[{i}]" for i in index))
            for index in itertools.product(*map(range, declared.shapes[name]))
        )
        cells[name] = tuple((index, vid if vid in declared.domains else None) for index, vid in ids)
    return cells


def timed(solver: Solver, name: str, path: Path, cells: Cells, seconds: float) -> Run:
    """`path` solved by the backend `name` of `solver` within `seconds`, timed."""
    start = time.perf_counter()
    try:
        result = solver.solve(path, cells, timeout=seconds, backend=name)
    except BackendUnsupported as refused:
        return Run("refused", time.perf_counter() - start, reason=_short(str(refused)))
    except Exception as error:  # a solver's error counts as not finished; the sweep goes on
        return Run("error", time.perf_counter() - start, reason=_short(f"{type(error).__name__}: {error}"))
    return Run(result.status.value, time.perf_counter() - start, result.bound)


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 100 else text[:100] + "..."


def warm_up(solvers: dict[str, Solver], folder: Path) -> None:
    """Each solver's first solves, untimed: auto's own with each solver it races."""
    path = folder / "warm-up.xml"
    path.write_text(WARM_UP)
    for name, solver in solvers.items():
        for backend in solvers if name == "auto" else (name,):
            solver.solve(path, cells_of(path), timeout=10, backend=backend)


def limit(solver: str, seconds: float) -> float:
    """The seconds `solver` gets: auto, AUTO_EXTRA more than the single solvers."""
    return seconds + AUTO_EXTRA if solver == "auto" else seconds


def solve_all(models: list[Model], solvers: dict[str, Solver], seconds: float) -> list[Case]:
    """Each model solved by each solver in turn, a line printed per model."""
    cases = []
    print(f"{'model':<36}" + "".join(f"{name:>16}" for name in solvers))
    for model in models:
        try:
            cells = cells_of(model.stock)
        except Untranslatable as error:
            model.kit_error = f"its variables: {error}"
            continue
        runs = {name: timed(solver, name, model.stock, cells, limit(name, seconds)) for name, solver in solvers.items()}
        case = Case(model, ModelFile(model.stock).optimises(), runs)
        cases.append(case)
        print(f"{case.name:<36}" + "".join(f"{str(run):>16}" for run in runs.values()), flush=True)
        if len(_answers(case)) > 1:
            print(f"!!! DISAGREEMENT on {case.name}: {_answers(case)}")
    return cases


def report(cases: list[Case], solvers: tuple[str, ...], seconds: float) -> None:
    """What each solver finished, what auto missed, how much later it was, and what only auto finished."""
    singles = tuple(name for name in solvers if name != "auto")
    print(f"\n{len(cases)} models solved; finished within the limit (and late, unfinished, refused, errors):")
    for name in solvers:
        runs = [case.runs[name] for case in cases]
        done = sum(case.finished(name, limit(name, seconds)) for case in cases)
        late = sum(run.answer(case.optimising) is not None for case, run in zip(cases, runs)) - done
        refused, errors = (sum(run.status == status for run in runs) for status in ("refused", "error"))
        unfinished = len(cases) - done - late - refused - errors
        print(
            f"  {name:<9}{limit(name, seconds):>4g} s {done:>4} finished  {late:>3} late  {unfinished:>3} unfinished  "
            f"{refused:>3} refused  {errors:>3} errors"
        )
    report_reasons(cases, solvers)
    best = {case.name: _best_single(case, singles, seconds) for case in cases}
    auto = {case.name: case.finished("auto", limit("auto", seconds)) for case in cases}

    missed = [case for case in cases if best[case.name] and not auto[case.name]]
    print(
        f"\nfinished by a single solver within {seconds:g} s, not by auto within {limit('auto', seconds):g} s: "
        f"{len(missed)} (target 0)"
    )
    for case in missed:
        print(f"  {case.name}: {best[case.name]} {case.runs[best[case.name]]}; auto {case.runs['auto']}")

    both = [case for case in cases if best[case.name] and auto[case.name]]
    later = sorted(
        ((case.runs["auto"].seconds - case.runs[best[case.name]].seconds, case) for case in both),
        key=lambda item: -item[0],
    )
    if later:
        print(
            f"\nauto's time over the best single solver's, on the {len(later)} models both finished: median "
            f"{statistics.median(d for d, _ in later):+.2f} s, worst {later[0][0]:+.2f} s; more than 1 s later: "
            f"{sum(d > 1 for d, _ in later)} (target 0)"
        )
        for delay, case in later[:WORST]:
            best_run = case.runs[best[case.name]]
            print(f"  {delay:+6.2f} s  {case.name}: auto {case.runs['auto']}, best {best[case.name]} {best_run}")

    only = [case.name for case in cases if not best[case.name] and auto[case.name]]
    print(f"\nfinished by auto and by no single solver: {len(only)}" + (f" ({', '.join(only)})" if only else ""))
    differ = [case for case in cases if len(_answers(case)) > 1]
    print(f"disagreements: {len(differ)}" + "".join(f"\n  !!! {c.name}: {_answers(c)}" for c in differ))


def report_reasons(cases: list[Case], solvers: tuple[str, ...]) -> None:
    """The refusals and errors, by solver and reason, with the models."""
    for name in solvers:
        reasons: dict[tuple[str, str], list[str]] = {}
        for case in cases:
            run = case.runs[name]
            if run.reason:
                reasons.setdefault((run.status, run.reason), []).append(case.model.name)
        for (status, reason), names in sorted(reasons.items(), key=lambda item: -len(item[1])):
            print(f"    {name} {status} {len(names)}: {reason} ({', '.join(names)})")


def _best_single(case: Case, singles: tuple[str, ...], seconds: float) -> str:
    """The fastest single solver that finished within `seconds`, or ""."""
    finished = [name for name in singles if case.finished(name, seconds)]
    return min(finished, key=lambda name: case.runs[name].seconds, default="")


def _answers(case: Case) -> dict[tuple[str, int | None], list[str]]:
    """The solvers that gave each final answer (late ones too)."""
    answers: dict[tuple[str, int | None], list[str]] = {}
    for name, run in case.runs.items():
        if answer := run.answer(case.optimising):
            answers.setdefault(answer, []).append(name)
    return answers


def collection_arguments(description: str, seconds: float, seconds_help: str) -> argparse.ArgumentParser:
    """The options of a sweep over the collection: its path, --only, --limit, --seconds and --cache."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("path", type=Path, help="a checkout of the PyCSP3-models collection")
    parser.add_argument("--only", nargs="*", default=[], help="model names to take (default: all)")
    parser.add_argument("--limit", type=int, help="at most N models, spread over the collection")
    parser.add_argument("--seconds", type=float, default=seconds, help=seconds_help)
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "portfolio-stock",
        help="where the stock XCSP3 files are kept between runs",
    )
    return parser


def stock_models(args: argparse.Namespace) -> tuple[list[Model], list[Model]]:
    """The models the options pick, and those of them stock pycsp3 compiles (said in one line)."""
    args.cache.mkdir(parents=True, exist_ok=True)
    models = sample(models_in(args.path.resolve(), set(args.only)), args.limit)
    start = time.monotonic()
    for model in models:
        stock_file(model, args.cache)
    built = [model for model in models if model.stock]
    print(f"{len(models)} models; stock pycsp3 compiles {len(built)} ({time.monotonic() - start:.0f} s)")
    return models, built


def main(argv: list[str] | None = None) -> int:
    parser = collection_arguments(__doc__.splitlines()[0], 9.0, "each single solver's limit (auto: S + 1)")
    args = parser.parse_args(argv)
    models, built = stock_models(args)

    solvers = {name: Solver(name) for name in (*SINGLES, "auto")}
    solvers = {name: solver for name, solver in solvers.items() if solver.available(name)}
    try:
        warm_up(solvers, args.cache)
        cases = solve_all(built, solvers, args.seconds)
    finally:
        for solver in solvers.values():
            solver.close()
    report(cases, tuple(solvers), args.seconds)
    left_out = [model for model in models if model.stock_error or model.kit_error]
    print(f"left out (stock pycsp3 fails, or the kit does not read the variables): {len(left_out)}")
    for model in left_out:
        print(f"  {model.path.parent.parent.name}/{model.name}: {model.stock_error or model.kit_error}")
    return 1 if any(len(_answers(case)) > 1 for case in cases) else 0


if __name__ == "__main__":
    sys.exit(main())
