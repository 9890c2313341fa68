"""The kit's own search as a backend (--solver kit): its time limit, its optimisation, and what it refuses in words.
Its answers against brute force are in test_against_brute_force.py, against the other backends in
test_backends_agree.py."""

from __future__ import annotations

import pytest

from kernelext.solver.errors import BackendUnsupported
from kernelext.steps.session import PuzzleSession

PIGEONS = (
    "x = VarArray(size=12, dom=range(11))\n",
    "satisfy(x[i] != x[j] for i in range(12) for j in range(i + 1, 12))\n",
)


def session_of(solver, *steps: str) -> PuzzleSession:
    session = PuzzleSession("kit", solver=solver)
    for source in steps:
        session.add_step(source, solve=False)
    return session


def test_a_search_past_its_time_limit_says_so_and_claims_nothing(solver):
    session = session_of(solver, *PIGEONS)
    result = session.solve(backend="kit", timeout=0.5)
    session.close()
    assert (result.status.value, result.stopped, result.solutions) == ("UNKNOWN", "timeout", ())


def test_an_optimisation_cut_short_keeps_its_best_solution_and_bound(solver):
    session = session_of(solver, *PIGEONS[:1], "satisfy(x[i] != x[j] for i in range(11) for j in range(i + 1, 11))\n",
                         "maximize(Sum((i + 1) * x[i] for i in range(12)))\n")  # fmt: skip
    result = session.solve(backend="kit", timeout=1.0)
    session.close()
    assert result.status.value == "SAT" and result.stopped == "timeout"
    [best] = result.solutions
    assert result.bound == sum((i + 1) * best[f"x[{i}]"] for i in range(12))
    assert [bound for _, bound in result.progress] == sorted(bound for _, bound in result.progress)


def test_an_optimum_is_proved_and_its_progress_improves_to_it(solver):
    session = session_of(solver, "m = 4\nmark = VarArray(size=m, dom=range(m * m))\n",
                         "satisfy(mark[0] == 0, Increasing(mark, strict=True),\n"
                         "        AllDifferent(mark[j] - mark[i] for i in range(m) for j in range(i + 1, m)))\n",
                         "minimize(mark[-1])\n")  # fmt: skip
    result = session.solve(backend="kit", timeout=30)
    session.close()
    assert (result.status.value, result.bound, result.stopped) == ("OPTIMUM", 6, "")
    assert result.progress[-1][1] == 6 and [b for _, b in result.progress] == sorted(
        (b for _, b in result.progress), reverse=True
    )


def test_an_objective_it_does_not_read_is_refused_in_one_line_naming_it(solver):
    session = session_of(solver, "x = VarArray(size=3, dom=range(3))\n", "satisfy(AllDifferent(x))\n",
                         "minimize(Maximum(x))\n")  # fmt: skip
    with pytest.raises(BackendUnsupported, match="does not read this objective") as refused:
        session.solve(backend="kit", timeout=10)
    assert "\n" not in str(refused.value)
    assert session.solve(backend="auto").bound == 2  # the default takes it
    session.close()
