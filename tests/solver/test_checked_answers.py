"""Every answer is checked before it is shown: a backend made to lie (a wrong value, a repeated solution, a
false optimum) is caught, its answer is never shown as a solution, and `auto` solves again with another."""

from __future__ import annotations

import shutil
from dataclasses import replace
from types import MappingProxyType

import pytest

from kernelext.solver.backends import CpSat
from kernelext.solver.engine import Solver
from kernelext.solver.result import Status
from kernelext.steps.session import PuzzleSession

pytestmark = pytest.mark.timeout(300)

DECLARE = "x = VarArray(size=3, dom=range(3))\n"
DIFFERENT = "satisfy(AllDifferent(x))\n"


class Liar(CpSat):
    """CP-SAT whose answers are altered by `lie` before the kit sees them."""

    lie = staticmethod(lambda result: result)

    def solve(self, model, cells, *, sols, timeout, stop=None):
        return self.lie(super().solve(model, cells, sols=sols, timeout=timeout, stop=stop))


def first_cell_set_to(value: int):
    def lie(result):
        wrong = MappingProxyType({**result.solutions[0], "x[0]": value})
        return replace(result, solutions=(wrong, *result.solutions[1:]))

    return lie


@pytest.fixture
def lying():
    solver = Solver()
    liar = Liar(solver)
    solver._backends["cp-sat"] = liar
    yield solver, liar
    solver.close()


def session_of(solver: Solver, *steps: str) -> PuzzleSession:
    session = PuzzleSession("liar", solver=solver)
    for step in (DECLARE, *steps):
        session.add_step(step, solve=False)
    return session


def test_a_solution_that_breaks_a_constraint_is_never_shown(lying):
    solver, liar = lying
    liar.lie = first_cell_set_to(7)  # outside the domain, and x[0] then equals nothing: a domain check
    session = session_of(solver, DIFFERENT)
    result = session.solve(backend="cp-sat")
    assert result.solutions == () and result.status is Status.UNKNOWN
    assert result.invalid.startswith("CP-SAT returned a solution that breaks")


def test_the_broken_constraint_is_named(lying):
    solver, liar = lying
    truth = session_of(solver, DIFFERENT).solve(backend="cp-sat").solution
    liar.lie = first_cell_set_to(truth["x[1]"])  # x[0] == x[1]: allDifferent broken
    result = session_of(solver, DIFFERENT).solve(backend="cp-sat")
    assert result.solutions == ()
    assert "allDifferent(x[0] x[1] x[2])" in result.invalid or "allDifferent(x[]" in result.invalid, result.invalid


def test_among_all_solutions_only_the_wrong_one_is_dropped(lying):
    solver, liar = lying
    liar.lie = first_cell_set_to(2)
    session = session_of(solver, "satisfy(x[0] < 2, x[1] != x[2])\n")
    result = session.solve(backend="cp-sat", sols="all")
    assert len(result.solutions) == 2 * 6 - 1 and result.invalid
    assert all(solution["x[0]"] < 2 for solution in result.solutions)


def test_repeated_solutions_are_dropped_and_counted(lying):
    solver, liar = lying
    liar.lie = lambda result: replace(result, solutions=result.solutions + result.solutions[:2])
    session = session_of(solver, DIFFERENT)
    result = session.solve(backend="cp-sat", sols="all")
    assert len(result.solutions) == 6 and result.repeats == 2 and not result.invalid


def test_a_false_optimum_is_caught(lying):
    solver, liar = lying
    liar.lie = lambda result: replace(result, bound=result.bound - 1)
    session = session_of(solver, DIFFERENT, "minimize(x[0] + 2 * x[1])\n")
    result = session.solve(backend="cp-sat")
    assert result.status is Status.UNKNOWN and "objective" in result.invalid


def test_auto_solves_again_with_another_backend(lying):
    if shutil.which("minizinc") is None:
        pytest.fail("minizinc is not installed (apt-get install minizinc)")
    solver, liar = lying
    liar.lie = first_cell_set_to(7)
    session = session_of(solver, DIFFERENT)
    result = session.solve(backend="auto")
    assert result.status is Status.SAT and result.backend in ("minizinc", "ace-warm")  # the race's winner
    assert sorted(result.solution.values()) == [0, 1, 2]
    assert (
        result.invalid.startswith("CP-SAT returned a solution that breaks")
        and f"solved again with {result.backend}" in result.invalid
    )


def test_the_notebook_says_which_solver_was_wrong(shell, monkeypatch):
    shell.ok("%%puzzle liar --solver cp-sat\nx = VarArray(size=3, dom=range(3))\n")
    original = CpSat.solve
    monkeypatch.setattr(CpSat, "solve", lambda self, *a, **k: first_cell_set_to(7)(original(self, *a, **k)))
    text = shell.ok("%%puzzle+ --solver cp-sat\nsatisfy(AllDifferent(x))\n")
    assert "status: UNKNOWN [answer refused by the kit's check: CP-SAT returned a solution that breaks" in text


def test_a_verdict_without_its_solution_is_not_shown(lying):
    solver, liar = lying
    liar.lie = lambda result: replace(result, solutions=())
    result = session_of(solver, DIFFERENT).solve(backend="cp-sat")
    assert result.status is Status.UNKNOWN and result.invalid == "CP-SAT said SAT but gave no solution"
