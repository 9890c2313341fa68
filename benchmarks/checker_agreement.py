"""Do the kit's checker and XCSP3's SolutionChecker judge answers alike? A sweep over the PyCSP3-models collection.

Run: python benchmarks/checker_agreement.py PATH [--only NAME ...] [--limit N] [--seconds S] [--cache DIR]

PATH is a checkout of github.com/xcsp3team/pycsp3-models (nothing is downloaded). Each model is compiled by stock
pycsp3 with its example data, as benchmarks/compat.py does, and kept in DIR as benchmarks/portfolio.py keeps it
(`--limit N`: N models spread over the collection). CP-SAT (warm ACE where CP-SAT does not read the model) looks
for 3 solutions within S seconds (5 by default), with no check of the kit on them; each solution and its mutants
(one variable set to another value of its domain, 12 a model, the same every run) are judged by the kit's
checker (kernelext.xcsp.check) and by XCSP3-Java-Tools' SolutionChecker in ACE's jar, one JVM a model (the
comparison of tests/xcsp/test_checker_agreement.py). They must agree on valid or invalid, and on the objective's
value of a valid assignment when both compute one; an assignment one of them does not judge is counted apart.

Prints a line per model, then: the models, the assignments checked (solutions, mutants), those each checker did
not judge (with the reasons), and the disagreements, each with its model, its assignment and both verdicts.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

from kernelext.errors import Untranslatable
from kernelext.solver.compiled import compiled, holes_of
from kernelext.solver.engine import Solver
from kernelext.solver.errors import BackendUnsupported

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "tests" / "xcsp"), str(ROOT / "tests")]
from portfolio import cells_of, collection_arguments, stock_models
from test_checker_agreement import SOLUTIONS, case_of, disagreements, kit_verdicts, xcsp3_verdicts

CHECK_SECONDS = 300  # SolutionChecker's time on one model's assignments


def solutions_of(solver: Solver, path: Path, cells, seconds: float) -> tuple[tuple, str]:
    """Up to SOLUTIONS solutions of the model at `path` within `seconds` (CP-SAT, else warm ACE), unchecked;
    and the solver that gave them, or why none did."""
    refusals = []
    for name in ("cp-sat", "ace"):
        try:
            result = solver.backend(name).solve(compiled(path), cells, sols=SOLUTIONS, timeout=seconds)
        except BackendUnsupported as refused:
            refusals.append(f"{name}: {_short(refused)}")
            continue
        except Exception as error:  # a solver's error: the model is left out, the sweep goes on
            return (), f"{name}: {_short(f'{type(error).__name__}: {error}')}"
        return result.solutions, name if result.solutions else f"{name}: {result.status.value}, no solution"
    return (), "; ".join(refusals)


def _short(text) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= 100 else text[:100] + "..."


def main(argv: list[str] | None = None) -> int:
    parser = collection_arguments(__doc__.splitlines()[0], 5.0, "the solver's time per model (default 5)")
    args = parser.parse_args(argv)
    models, built = stock_models(args)

    solver, work = Solver(), tempfile.TemporaryDirectory(prefix="checker-agreement-")
    left_out = {f"{m.path.parent.parent.name}/{m.name}": m.stock_error for m in models if not m.stock}
    unjudged, differ = {"kit": Counter(), "SolutionChecker": Counter()}, []
    counts = Counter()
    try:
        print(f"{'model':<40}{'solver':>8}{'sols':>6}{'mutants':>9}{'invalid (kit / XCSP3)':>24}{'unjudged':>10}")
        for model in built:
            name = f"{model.path.parent.parent.name}/{model.name}"
            try:
                cells = cells_of(model.stock)
                solutions, by = solutions_of(solver, model.stock, cells, args.seconds)
            except Untranslatable as error:
                solutions, by = (), f"its variables: {error}"
            if not solutions:
                left_out[name] = by
                continue
            case = case_of(name, model.stock, holes_of(cells), solutions)
            kit, (xcsp3,) = kit_verdicts(case), xcsp3_verdicts([case], Path(work.name), CHECK_SECONDS)
            for checker, verdicts in (("kit", kit), ("SolutionChecker", xcsp3)):
                unjudged[checker].update(v.text for v in verdicts if v.valid is None)
            found = disagreements(case, kit, xcsp3)
            differ += found
            counts.update(models=1, solutions=case.solutions, mutants=len(case.assignments) - case.solutions)
            invalid = [sum(v.valid is False for v in verdicts) for verdicts in (kit, xcsp3)]
            none = sum(a.valid is None or b.valid is None for a, b in zip(kit, xcsp3))
            print(
                f"{name:<40}{by:>8}{case.solutions:>6}{len(case.assignments) - case.solutions:>9}"
                f"{invalid[0]:>14} / {invalid[1]:<7}{none:>10}"
                + (f"  !!! {len(found)} disagreements" if found else ""),
                flush=True,
            )
    finally:
        solver.close()
        work.cleanup()

    print(f"\nmodels: {len(models)}; compiled {len(built)}; checked {counts['models']}")
    print(f"left out (stock pycsp3 fails, no solution within {args.seconds:g} s, or not read): {len(left_out)}")
    for name, reason in left_out.items():
        print(f"  {name}: {reason}")
    print(
        f"assignments checked: {counts['solutions'] + counts['mutants']} "
        f"(solutions {counts['solutions']}, mutants {counts['mutants']})"
    )
    for checker, reasons in unjudged.items():
        print(f"not judged by {checker}: {sum(reasons.values())}")
        for reason, n in reasons.most_common():
            print(f"  {n}: {_short(reason)}")
    print(f"disagreements: {len(differ)}")
    for line in differ:
        print(f"  !!! {line}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
