"""Partial credit that follows the exercise: graded parts, written questions, notebook shape, early stopping."""

from __future__ import annotations

import os

import pytest
from test_grading import PICROSS, SETUP, picross_cells, read_csv, write_notebook

from kernelext.grading import Outcome, grade
from kernelext.grading.format.exercise import Question
from kernelext.grading.format.notebook import extract_model, read_submission
from kernelext.grading.reports.scores import read_scores
from kernelext.solver.portfolio import usable_cores

STEPS = read_submission(PICROSS / "instructor.ipynb").steps
ONE_VIEWPOINT = dict(
    step1=STEPS[0].replace("y = VarArray(size=[m, n], dom={0, 1})", ""),
    step3="satisfy([x[i][j] for i in range(n)] in automaton(columns[j]) for j in range(m))",
    step4="",
)


def _grade(tmp_path, notebooks: dict[str, list[str]], **options):
    (tmp_path / "in").mkdir(parents=True)
    for student, cells in notebooks.items():
        write_notebook(tmp_path / "in" / f"{student}.ipynb", [c for c in cells if c.strip() != "%%puzzle+"])
    results = grade(exercise_dir=PICROSS, submissions_dir=tmp_path / "in", out_dir=tmp_path / "out", **options)
    return {r.student: r for r in results}


def _outcomes(result, kind: str) -> list[Outcome]:
    return [r.outcome for r in result.results if r.kind == kind]


def test_parts_credit_each_viewpoint_and_the_channelling(tmp_path):
    results = _grade(
        tmp_path,
        {
            "full": picross_cells(),
            "no_channelling": picross_cells(step4=""),
            "one_viewpoint": picross_cells(**ONE_VIEWPOINT),
            "transposed_channelling": picross_cells(
                step4="satisfy(x[i][j] == y[i][j] for i in range(n) for j in range(n))"
            ),
        },
        only=["moon", "rows", "columns", "channelling"],
    )
    passed, failed = Outcome.PASSED, Outcome.FAILED
    assert _outcomes(results["full"], "part") == [passed, passed, passed]
    assert _outcomes(results["no_channelling"], "part") == [passed, passed, failed]
    assert _outcomes(results["one_viewpoint"], "part") == [passed, failed, failed]
    assert _outcomes(results["one_viewpoint"], "instance") == [passed]  # one viewpoint solves, but is not the task
    # a channelling that ties x to the wrong cells of y makes the model reject the right picture: every part fails
    assert _outcomes(results["transposed_channelling"], "part") == [failed, failed, failed]
    grades = read_csv(tmp_path / "out" / "grades.csv")
    assert {s: row["total"] for s, row in grades.items()} == {
        "full": "7",
        "no_channelling": "4",
        "one_viewpoint": "3",
        "transposed_channelling": "0",
    }
    feedback = (tmp_path / "out" / "feedback" / "one_viewpoint.txt").read_text()
    assert (
        "viewpoint y (columns) failed    0/2  the model declares no array named 'y', which this part grades" in feedback
    )
    assert "x and y can show different pictures" in (tmp_path / "out" / "feedback" / "no_channelling.txt").read_text()
    transposed = (tmp_path / "out" / "feedback" / "transposed_channelling.txt").read_text()
    assert "the model rejects the right picture when x holds it" in transposed
    assert "y[j][i] should equal x[i][j]" in transposed


def test_written_questions_count_the_teachers_points(tmp_path):
    scores = tmp_path / "scores.csv"
    scores.write_text("student,Q1,Q2\nann,1.5,\n")
    results = _grade(tmp_path, {"ann": picross_cells()}, only=["moon"], scores=scores)
    questions = [r for r in results["ann"].results if r.kind == "question"]
    assert [(q.outcome, q.points, q.max_points) for q in questions] == [
        (Outcome.GRADED, 1.5, 2),
        (Outcome.TO_GRADE, 0, 2),
    ]
    assert read_csv(tmp_path / "out" / "grades.csv")["ann"] == {
        "student": "ann",
        "moon": "1",
        "Q1": "1.5",
        "Q2": "",
        "total": "2.5",
    }
    scores.write_text("student,Q1,Q2\nann,3,\n")
    with pytest.raises(ValueError, match="ann's Q1 is 3; give between 0 and 2"):
        read_scores(scores, (Question("Q1", 2), Question("Q2", 2)))


def test_the_answer_is_found_by_what_a_cell_declares_not_where_it_is(tmp_path):
    full = picross_cells()
    setup, helpers, declaration, steps = full[0], full[1:-4], full[-4], full[-3:]
    results = _grade(
        tmp_path,
        {
            "scratch_after": [
                *full,
                "%%puzzle scratch\nz = VarArray(size=3, dom={0, 1})",
                "%%puzzle+\nsatisfy(z[0] == 1)",
            ],
            "declaration_last": [setup, *helpers, *steps, declaration],
            "nothing_posted": [setup, *helpers, declaration],
            "only_y_constrained": [setup, *helpers, declaration, "%%puzzle+\n" + STEPS[2]],
        },
        only=["moon"],
    )
    moon = {s: r.results[0] for s, r in results.items()}
    assert moon["scratch_after"].outcome is moon["declaration_last"].outcome is Outcome.PASSED
    assert (
        "(`%%puzzle scratch`) and its steps were left out: it does not declare `x`" in results["scratch_after"].notes[0]
    )
    assert "were run after it" in results["declaration_last"].notes[0]
    for student in ("nothing_posted", "only_y_constrained"):
        assert moon[student].outcome is Outcome.FAILED, results[student].summary()
        assert moon[student].student_message.startswith("wrong answer: the model leaves cells free")


def test_extraction_prefers_the_last_model_declaring_the_answer():
    model = extract_model(
        "ann",
        [
            SETUP,
            "%%puzzle a\nx = VarArray(size=2, dom={0, 1})",
            "%%puzzle+\nsatisfy(x[0] == 1)",
            "%%puzzle b\nx, z = VarArray(size=2, dom={1}), 3",
            "%%puzzle c\nq = 1",
        ],
        answer="x",
    )
    assert model.steps == ("x, z = VarArray(size=2, dom={1}), 3",)
    assert "a later `%%puzzle` cell declares `x` too" in model.notes[0] and "does not declare `x`" in model.notes[1]


def test_runs_stop_after_repeated_time_outs_or_past_the_budget(tmp_path):
    four = ["moon", "star", "cat", "horse"]
    results = _grade(
        tmp_path,
        {"loops": picross_cells(step2="while True:\n    pass")},
        only=four,
        time_limit=2,
        workers=2,
        max_timeouts=1,
    )
    assert _outcomes(results["loops"], "instance") == [Outcome.TIMEOUT] * 2 + [Outcome.NOT_RUN] * 2
    feedback = (tmp_path / "out" / "feedback" / "loops.txt").read_text()
    assert "not run: this notebook's runs stopped after 1 time-out" in feedback
    # Each run sleeps 1 s, so the first run uses up a 0.5 s budget however fast the machine is.
    slow = picross_cells()
    slow[-1] += "\nimport time\ntime.sleep(1)"
    budget = _grade(tmp_path / "b", {"slow": slow}, only=four[:3], workers=1, budget=0.5)
    assert _outcomes(budget["slow"], "instance") == [Outcome.PASSED, Outcome.NOT_RUN, Outcome.NOT_RUN]
    assert "used up its time budget (0.5 s)" in budget["slow"].feedback()


def test_runs_at_once_default_to_the_cores_this_process_may_use(monkeypatch):
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})  # one core of the host's, as a container or a batch job may get
    try:
        assert usable_cores() == 1
    finally:
        os.sched_setaffinity(0, allowed)
    assert usable_cores() == len(allowed)
    monkeypatch.delattr(os, "sched_getaffinity")  # as on macOS
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert usable_cores() == 1
