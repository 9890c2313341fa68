"""Explanations with real ACE: conflicting constraints, forced cells, step-by-step hints."""

from __future__ import annotations

import pytest
from sanitized_html import sanitizer_problems
from sessions import (
    LATIN,
    SUDOKU_BOARD,
    SUDOKU_STEPS,
    session_with,
)

from kernelext.errors import PuzzleUsageError
from kernelext.insight.explain import explain, why
from kernelext.pycsp3_glue.model_state import solution_cells
from kernelext.solver.cpsat.subsets import ConstraintSubsets
from kernelext.solver.engine import Solver
from kernelext.solver.result import Status
from kernelext.steps.session import PuzzleSession
from kernelext.widgets.static_forms import explanation_html, explanation_text
from kernelext.xcsp.subsets import read_model

FUTOSHIKI_BOARD = "n = 4\nx = VarArray(size=[n, n], dom=range(1, n + 1))\n"

# x[0][0] < x[0][1] < x[1][1] < x[1][0]: around the top-left square, x[1][0] must be 4
SIGNS = "satisfy(x[0][0] < x[0][1], x[0][1] < x[1][1], x[1][1] < x[1][0], x[2][2] < x[2][3], x[3][1] < x[2][1])\n"
WRONG_HINTS = "satisfy(x[1][0] == 3, x[3][3] == 1)\n"


PICROSS_BOARD = """from itertools import product
rows = [[2], [2], [1, 2], [5], [3]]
cols = [[], [2], [1, 2], [5], [3]]  # the first column should be [2]
n, m = len(rows), len(cols)
x = VarArray(size=[n, m], dom={0, 1})
"""
PICROSS_LINES = """def blocks(line):
    return [len(run) for run in "".join(map(str, line)).split("0") if run]
def patterns(clue, length):
    return [t for t in product((0, 1), repeat=length) if blocks(t) == list(clue)]
satisfy(x[i] in patterns(rows[i], m) for i in range(n))
satisfy(x[:, j] in patterns(cols[j], n) for j in range(m))
"""


@pytest.fixture(scope="module")
def solver():
    shared = Solver()
    yield shared
    shared.close()


def assert_minimal_conflict(session: PuzzleSession, culprits, tmp_path, extra: tuple[str, ...] = ()) -> None:
    """The culprits (found in the compiled model by their text) and `extra` have no solution together,
    and removing any one culprit leaves a set with solutions."""
    model = read_model(session.export(tmp_path / "model.xml"))
    unused = list(model.constraints)
    chosen = []
    for culprit in culprits:
        match = next(c for c in unused if c.text == culprit.text and c.scope == culprit.scope)
        unused.remove(match)
        chosen.append(match.xml)

    def status(constraints: list[str]) -> Status:
        path = model.write(tmp_path / "subset.xml", constraints + list(extra))
        return session.solver.solve(path, solution_cells(), timeout=20, backend="ace").status

    assert status(chosen) is Status.UNSAT
    for k in range(len(chosen)):
        assert status(chosen[:k] + chosen[k + 1 :]) is Status.SAT, f"{culprits[k].text} is not needed"


def test_futoshiki_conflict_is_the_square_of_signs_and_the_wrong_hint(solver, tmp_path):
    session = session_with(solver, "futoshiki", FUTOSHIKI_BOARD, LATIN, SIGNS, WRONG_HINTS)
    assert session.solve().status is Status.UNSAT
    explanation = explain(session)
    assert explanation.minimal
    assert [(c.step, c.text) for c in explanation.constraints] == [
        (3, "lt(x[0][0],x[0][1])"),
        (3, "lt(x[0][1],x[1][1])"),
        (3, "lt(x[1][1],x[1][0])"),
        (4, "eq(x[1][0],3)"),
    ]
    assert explanation.steps == (3, 4)
    assert explanation.constraints[0].scope == ("x[0][0]", "x[0][1]")
    assert explanation.grid.changed == {(0, 0), (0, 1), (1, 1), (1, 0)}
    assert_minimal_conflict(session, explanation.constraints, tmp_path)
    assert explanation_text(explanation) == explanation_text(explain(session))  # deterministic
    assert "step 4: eq(x[1][0],3)" in explanation_text(explanation)
    assert "<table" in explanation_html(explanation, "futoshiki") and "eq(x[1][0],3)" in explanation_html(explanation)
    assert sanitizer_problems(explanation_html(explanation, "futoshiki")) == []


def test_explaining_leaves_the_session_usable(solver):
    session = session_with(solver, "futoshiki", FUTOSHIKI_BOARD, LATIN, SIGNS, WRONG_HINTS)
    explain(session)
    assert session.solve().status is Status.UNSAT
    session.undo()
    report = session.add_step("satisfy(x[1][0] == 4)")
    assert report.result.status is Status.SAT
    assert session.last_grid.values[1][0] == 4


def test_sudoku_with_two_equal_clues_in_a_row(solver, tmp_path):
    session = session_with(solver, "sudoku", SUDOKU_BOARD, *SUDOKU_STEPS, "satisfy(x[0][8] == 5)")
    explanation = explain(session)
    assert explanation.minimal
    assert {c.text for c in explanation.constraints} == {"eq(x[0][0],5)", "allDifferent(x[0][0..8])", "eq(x[0][8],5)"}
    assert explanation.steps == (2, 3, 6)
    assert_minimal_conflict(session, explanation.constraints, tmp_path)


def test_picross_with_a_wrong_column_clue(solver, tmp_path):
    session = session_with(solver, "picross", PICROSS_BOARD, PICROSS_LINES)
    explanation = explain(session)
    assert explanation.minimal
    assert any((0, 0) in c.cells and c.scope[1] == "x[1][0]" for c in explanation.constraints)  # column 0
    assert_minimal_conflict(session, explanation.constraints, tmp_path)


def test_why_a_solved_sudoku_cell_is_forced(solver, tmp_path):
    session = session_with(solver, "sudoku", SUDOKU_BOARD, *SUDOKU_STEPS)
    answer = why(session, "x[4][4]")
    assert answer.forced and answer.minimal and answer.value == 5
    assert answer.constraints and all(c.step in (2, 3, 4, 5) for c in answer.constraints)
    assert answer.grid.values[4][4] == 5
    assert_minimal_conflict(session, answer.constraints, tmp_path, ("<intension> ne(x[4][4],5) </intension>",))
    assert explanation_text(answer).startswith("x[4][4] = 5 in every solution")


def test_why_an_open_cell_shows_another_solution(solver):
    session = session_with(solver, "latin", FUTOSHIKI_BOARD, LATIN)
    answer = why(session, "x[2][1]")
    assert not answer.forced
    assert answer.alternative.values[2][1] != answer.value
    assert (2, 1) in answer.alternative.changed
    assert "is not forced" in explanation_text(answer)


def test_why_names_a_missing_cell(solver):
    session = session_with(solver, "latin", FUTOSHIKI_BOARD, LATIN)
    with pytest.raises(PuzzleUsageError, match="no variable"):
        why(session, "y[0]")
    with pytest.raises(PuzzleUsageError, match="has solutions"):
        explain(session)


def test_constraints_are_shown_with_every_index(solver):
    session = PuzzleSession("rows", solver=solver)
    session.add_step("x = VarArray(size=[6, 6], dom=range(1, 7))", solve=False)
    session.add_step(
        "satisfy([AllDifferent(x[i]) for i in range(6)], [AllDifferent(x[:, j]) for j in range(6)])", solve=False
    )
    session.add_step("satisfy(x[0][0] == 1, x[0][1] == 2, x[1][0] == 3, x[0][2] == 3, x[0][3] == 4, x[0][4] == 5)")
    text = explanation_text(why(session, "x[0][5]"))
    assert "step 2: allDifferent(x[0][0..5])" in text and "[]" not in text
    session.close()


def test_a_matrix_all_different_and_compact_clues_are_explained(solver, tmp_path):
    session = session_with(
        solver,
        "latin",
        FUTOSHIKI_BOARD,
        "satisfy(AllDifferent(x, matrix=True))",
        "satisfy(x[0][j] == 1 for j in range(3))",
    )  # pycsp3 writes `1x3`
    explanation = explain(session)
    assert explanation.minimal
    texts = sorted(c.text for c in explanation.constraints)
    assert (
        len(texts) == 3
        and texts[0] == "allDifferent(matrix: x[0..3][0..3])"
        and texts[1:]
        in (["eq(x[0][0],1)", "eq(x[0][1],1)"], ["eq(x[0][0],1)", "eq(x[0][2],1)"], ["eq(x[0][1],1)", "eq(x[0][2],1)"])
    )
    assert_minimal_conflict(session, explanation.constraints, tmp_path)
    session.close()


def test_a_solution_from_memory_is_shown_only_once_checked(solver, monkeypatch):
    """`why` asks its first solves of CP-SAT in memory; a solution from there that breaks a constraint is never
    shown: the session's solver (which checks its own) answers instead."""
    session = session_with(solver, "sudoku", SUDOKU_BOARD, *SUDOKU_STEPS)
    asked = []
    real = ConstraintSubsets.solution

    def wrong(self, ids, seconds):
        found = real(self, ids, seconds)
        asked.append(found)
        return {vid: 1 for vid in found} if found else found  # every cell 1: breaks each allDifferent

    monkeypatch.setattr(ConstraintSubsets, "solution", wrong)
    answer = why(session, "x[4][4]")
    assert asked and asked[0]  # the first solve was asked in memory, and found a solution there
    assert answer.forced and answer.value == 5 and answer.grid.values[4][4] == 5
    assert all(len(set(row)) == 9 for row in answer.grid.values)
    monkeypatch.setattr(ConstraintSubsets, "solution", real)
    assert why(session, "x[4][4]") == answer


def test_a_constraint_posted_outside_the_steps_is_not_explained(solver):
    """pycsp3 used outside the steps (a plain cell's `satisfy`): the session's steps are run again, so an
    explanation names only constraints of the steps, each with its step."""
    session = session_with(solver, "sudoku", SUDOKU_BOARD, *SUDOKU_STEPS)
    answer = why(session, "x[4][4]")
    session.namespace["satisfy"](session.namespace["x"][4][4] == 4)  # would make the model have no solution
    assert session.posted_by() is None
    again = why(session, "x[4][4]")
    assert again.forced and again.value == 5 and again.constraints == answer.constraints
