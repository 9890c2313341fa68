"""Every construct pycsp3 posts, solved for all its solutions by every backend, against brute force.

Run: python benchmarks/constructs.py [--draws N] [--timeout S] [CONSTRUCT ...]

For each construct of CONSTRUCTS (tests/solver/test_against_brute_force.py), on up to N parameter draws
(Hypothesis, derandomized: the same draws every run), the small model is solved with sols="all" by cp-sat, ace
(warm), ace-cold, choco, ortools and minizinc, first RAW (the backend's own answer, before the kit's check, and
with the kit's list of constraints a solver is known wrong on emptied, so that ace and ortools answer those too),
then THROUGH THE KIT (Solver.solve: the check included, the known-wrong refusal in force; auto as well). Each
answer's set of solutions is compared with the brute-force enumeration of every assignment. Prints the raw table
(construct x backend), a summary per backend (reads / right / wrong / no answer), and the kit's table of outcomes:
right, caught (the check refused the solver's answer and said so), refused (in words), no answer (UNKNOWN, nothing
shown), wrong (a wrong answer shown as right: should be 0 everywhere). No timings: the same output every run.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from kernelext.errors import KernelextError
from kernelext.pycsp3_glue import model_state
from kernelext.solver.compiled import compiled
from kernelext.solver.engine import Solver
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.result import Status
from kernelext.steps.session import PuzzleSession

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path[:0] = [str(TESTS / "solver"), str(TESTS)]  # the brute-force tests, and the conftest they import
from test_against_brute_force import CONSTRUCTS, _brute_force, _involved, _model, _solutions

RAW = ("cp-sat", "ace", "ace-cold", "choco", "ortools", "minizinc")
KIT = ("auto", *RAW)


def draws(construct, count: int) -> list[dict]:
    """The construct's first `count` distinct parameter draws, the same every run."""
    seen: list[dict] = []

    @settings(
        max_examples=4 * count, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(construct.parameters)
    def collect(parameters):
        if parameters not in seen:
            seen.append(parameters)

    collect()
    return seen[:count]


def verdict(result, construct, expected_all) -> tuple[str, str]:
    """(outcome, text): outcome is right, wrong, unknown (no answer, nothing claimed) or timeout."""
    if result.stopped:
        return "timeout", f"stopped ({result.stopped})"
    if result.status is Status.UNKNOWN and not result.solutions:
        return "unknown", "no answer (UNKNOWN)"
    found = _solutions(result, construct)
    expected = _involved(expected_all, found)
    extra, missing = len(set(found) - expected), len(expected - set(found))
    repeats = len(found) - len(set(found))
    if not (extra or missing or repeats):
        return "right", "right"
    parts = [f"{word} {n}" for word, n in (("extra", extra), ("missing", missing), ("repeats", repeats)) if n]
    return "wrong", f"wrong ({' / '.join(parts)})"


def raw_solve(solver, name, model, cells, construct, expected, timeout) -> tuple[str, str]:
    """The backend's own answer (no check, nothing refused for being known wrong); and whether the kit refuses it."""
    backend = solver.backend(name)
    saved, type(backend).known_wrong = backend.known_wrong, ()  # read at each solve: ace and ortools answer all
    try:
        result = backend.solve(model, cells, sols="all", timeout=timeout)
    except (BackendUnsupported, KernelextError) as refused:
        return "refused", f"refused ({short(refused)})"
    except Exception as error:
        return "error", f"error ({short(error)})"
    finally:
        type(backend).known_wrong = saved
    outcome, text = verdict(result, construct, expected)
    try:
        backend.refuse_known_wrong(model)
    except BackendUnsupported:
        text += ", kit refuses"
    return outcome, text


def kit_solve(session, name, construct, expected, timeout) -> str:
    """right, caught, refused, unknown, wrong, timeout or error: the answer as the kit gives it."""
    try:
        result = session.solve(backend=name, sols="all", timeout=timeout)
    except (BackendUnsupported, KernelextError):
        return "refused"
    except Exception:
        return "error"
    if result.invalid and "solved again" not in result.invalid:
        return "caught"
    return verdict(result, construct, expected)[0]


def short(error: Exception) -> str:
    """The gist of an error's message, in a few words."""
    text = " ".join(str(error.args[0] if error.args else error).split())
    tag = re.search(r"<(\w+)", text)
    return "model rejected" if "rejected" in text else f"<{tag.group(1)}>" if tag else text[:40].rstrip(": ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=2, help="parameter draws per construct (default 2)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per solve (default 20)")
    parser.add_argument("only", nargs="*", help="names of the constructs to run (default: all)")
    args = parser.parse_args()
    sys.argv[1:] = []  # pycsp3 reads the command line when it is imported
    solver = Solver()
    raw_rows, kit_bad, kit_counts = [], {}, {name: Counter() for name in KIT}
    raw_counts = {name: Counter() for name in RAW}
    for cname, construct in CONSTRUCTS.items():
        if args.only and cname not in args.only:
            continue
        for k, parameters in enumerate(draws(construct, args.draws), start=1):
            expected = _brute_force(construct, parameters)
            session = PuzzleSession("constructs", solver=solver)
            try:
                for source in _model(construct, parameters):
                    session.add_step(source, solve=False)
                model, cells = compiled(session.compile()), model_state.solution_cells()
                row = {name: raw_solve(solver, name, model, cells, construct, expected, args.timeout) for name in RAW}
                for name, (outcome, _) in row.items():
                    raw_counts[name][outcome] += 1
                raw_rows.append(
                    (f"{cname} #{k}", {name: text for name, (_, text) in row.items()}, f"{len(expected)} sols")
                )
                for name in KIT:
                    outcome = kit_solve(session, name, construct, expected, args.timeout)
                    kit_counts[name][outcome] += 1
                    if outcome in ("wrong", "error"):
                        kit_bad.setdefault(name, []).append(f"{cname} #{k} ({outcome})")
            finally:
                session.close()
    solver.close()
    width = {name: max(len(name), *(len(row[name]) for _, row, _ in raw_rows)) for name in RAW}
    label = max(len(r[0]) for r in raw_rows)
    print(f"RAW: each backend's own answer with sols=all (before the kit's check), {len(raw_rows)} models")
    print(f"{'construct':<{label}}  " + "  ".join(f"{n:<{width[n]}}" for n in RAW) + "  brute force")
    for rname, row, size in raw_rows:
        print(f"{rname:<{label}}  " + "  ".join(f"{row[n]:<{width[n]}}" for n in RAW) + f"  {size}")
    print("\nRAW summary (reads = models answered, a no answer included; refused = not read)")
    for name, counts in raw_counts.items():
        reads = sum(counts[k] for k in ("right", "wrong", "unknown", "timeout"))
        print(
            f"  {name:<9} reads {reads:>3}"
            + tally(counts, ("right", "wrong", "unknown", "timeout", "refused", "error"))
        )
    print(
        "\nTHROUGH THE KIT (Solver.solve, checked): caught = the check refused the answer and said so; no answer = "
        "UNKNOWN, nothing shown; error = an exception other than the kit's own"
    )
    for name, counts in kit_counts.items():
        print(f"  {name:<9}" + tally(counts, ("right", "caught", "refused", "unknown", "wrong", "timeout", "error")))
    for name, models in kit_bad.items():
        print(f"  {name}: wrong or error through the kit on {', '.join(models)}")


def tally(counts: Counter, keys: tuple[str, ...]) -> str:
    return "".join(f"  {'no answer' if k == 'unknown' else k} {counts[k]:>3}" for k in keys)


if __name__ == "__main__":
    main()
