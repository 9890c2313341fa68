"""An exercise run as a real nbgrader course: `kernelext-grade nbgrader`, then nbgrader's own generate_assignment,
autograde, export and generate_feedback, with a right answer in another form, a wrong one, a blank one and an
endless loop that ignores Ctrl-C."""

from __future__ import annotations

import copy
import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from test_rules_judge import RING, colouring_exercise

from kernelext.grading.cli import main as cli

BIN = Path(sys.executable).parent
ASSIGNMENT = "colouring"
DECLARE = 'regions, edges = data["regions"], data["edges"]\nc = VarArray(size=len(regions), dom=range(len(regions)))'
STUDENTS = {
    "right": [DECLARE, "satisfy(c[i] != c[j] for i, j in edges)", "satisfy(c[1] == 0)", "minimize(Maximum(c))"],
    "wrong": [
        DECLARE,
        "satisfy(c[i] != c[j] for i, j in edges[:-1])\nsatisfy(c[2] == c[5])",
        "",
        "minimize(Maximum(c))",
    ],
    "blank": None,  # the released notebook, untouched
    "loop": [DECLARE, "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass", "", ""],
}
CHEAT = (
    "import kernelext.grading.judging.course_cells as cells\n"
    "cells.CourseGrading.points = lambda self, group: ('all good', 99.0)\n"
    "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass"
)


def nbgrader(course: Path, *args: str, timeout: float = 600) -> str:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}  # nbgrader runs alembic from there
    done = subprocess.run(
        [BIN / "nbgrader", *args], cwd=course, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """The course after generate_assignment, autograde, export and generate_feedback."""
    work = tmp_path_factory.mktemp("nbgrader")
    exercise = colouring_exercise(work / "teacher", "--not-rule symmetry")
    config = json.loads((exercise / "exercise.json").read_text())
    (exercise / "exercise.json").write_text(json.dumps({**config, "time_limit": 5}))  # the loop costs 5 s a run
    course = work / "course"
    course.mkdir()
    said = _cli_lines(["nbgrader", str(exercise), str(course), "--assignment", ASSIGNMENT])
    timeout = int(re.search(r"c\.Execute\.timeout = (\d+)", said).group(1))
    (course / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.CourseDirectory.root = {str(course)!r}\nc.Execute.timeout = {timeout}\n"
    )
    nbgrader(course, "generate_assignment", ASSIGNMENT)
    released = nbformat.read(course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    for student, bodies in STUDENTS.items():
        notebook = copy.deepcopy(released)
        answers = iter(bodies or [])
        for cell in notebook.cells:
            if bodies and cell.cell_type == "code" and "# YOUR CODE HERE" in cell.source:
                body = next(answers) or "pass"
                cell.source = cell.source.replace("# YOUR CODE HERE\nraise NotImplementedError()", body)
        if student == "wrong":  # and a cell of its own, added before the model, that patches the grader
            first = next(i for i, c in enumerate(notebook.cells) if c.source.startswith("%%puzzle"))
            notebook.cells.insert(first, nbformat.v4.new_code_cell(CHEAT))
        folder = course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / f"{ASSIGNMENT}.ipynb")
    nbgrader(course, "autograde", ASSIGNMENT, "--create", timeout=900)
    nbgrader(course, "export")
    nbgrader(course, "generate_feedback", ASSIGNMENT)
    return course


def _cli_lines(argv: list[str]) -> str:
    from contextlib import redirect_stdout
    from io import StringIO

    out = StringIO()
    with redirect_stdout(out):
        assert cli(argv) == 0
    return out.getvalue()


@pytest.mark.timeout(1200)
def test_the_release_holds_no_hidden_instance_nor_the_reference(course):
    released = course / "release" / ASSIGNMENT
    names = sorted(p.relative_to(released).as_posix() for p in released.rglob("*") if p.is_file())
    assert names == [f"{ASSIGNMENT}.ipynb", "exercise.json", "public/europe.json"]
    text = "\n".join(p.read_text() for p in released.rglob("*") if p.is_file())
    assert "%puzzle grading" not in text and "HIDDEN TESTS" not in text and "BEGIN SOLUTION" not in text
    assert json.dumps(RING["regions"]) not in text and "ring.json" not in text and "hidden/" not in text
    assert "satisfy(c[i] != c[j]" not in text  # the reference model's steps
    source = (course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text()
    assert "%puzzle grading" in source and "### BEGIN HIDDEN TESTS" in source


@pytest.mark.timeout(1200)
def test_the_gradebook_holds_the_models_points_per_group_and_each_student(course):
    with open(course / "grades.csv") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    assert sorted(rows) == sorted(STUDENTS)
    scores = {s: float(rows[s]["score"]) for s in rows}
    assert scores == {"right": 3.0, "wrong": 0.0, "blank": 0.0, "loop": 0.0}  # the patch had no effect
    assert {float(row["max_score"]) for row in rows.values()} == {3.0}
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        notebook = gradebook.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, "right")
        scores = {grade.name: (grade.score, grade.max_score) for grade in notebook.grades}
        wrong = gradebook.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, "wrong")
        wrong_scores = {grade.name: grade.score for grade in wrong.grades}
    assert scores == {"kernelext-grading": (0, 0), "kernelext-public": (1, 1), "kernelext-hidden": (2, 2)}
    assert wrong_scores == {"kernelext-grading": 0, "kernelext-public": 0, "kernelext-hidden": 0}


@pytest.mark.timeout(1200)
def test_nbgraders_feedback_shows_the_kits_results_without_the_hidden_instances(course):
    def feedback(student: str) -> str:
        return (course / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()

    right, wrong, loop = feedback("right"), feedback("wrong"), feedback("loop")
    assert "europe" in right and "passed" in right and "hidden 1" in right
    assert "it breaks ne(c[2],c[5])" in wrong and "Germany" in wrong
    assert "timed out" in loop and "no answer within the time limit" in loop
    for text in (right, wrong, loop):
        leaked = [w for w in ("ring.json", "hidden/", "kernelext-exercises") if w in text]
        assert not leaked, [text[max(0, text.index(w) - 300) : text.index(w) + 100] for w in leaked]
    autograded = nbformat.read(course / "autograded" / "loop" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    recorded = [c for c in autograded.cells if "while True" in c.source]
    assert recorded and "Recorded for grading" in recorded[0].outputs[0]["text"]  # never run in nbgrader's kernel
    cheat = nbformat.read(course / "autograded" / "wrong" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    patch = next(c for c in cheat.cells if "CourseGrading.points" in c.source)
    assert [o["text"] for o in patch.outputs] == ["Recorded for grading (cell 1): the grader runs it in its sandbox.\n"]
