"""Graded exercises: release, extraction, checkers, and grading real submissions with the real solver."""

from __future__ import annotations

import csv
import json
import linecache
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
import pytest
from conftest import ROOT
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from kernelext.grading import Outcome, check_public, grade, release
from kernelext.grading.cli import main as cli
from kernelext.grading.format.exercise import load_exercise
from kernelext.grading.format.notebook import extract_model, read_submission, strip_solutions
from kernelext.kinds import answer_checks

CHECKERS = answer_checks()

EXERCISES = ROOT / "exercises"
NAMES = sorted(p.name for p in EXERCISES.iterdir() if (p / "exercise.json").is_file())
PICROSS = EXERCISES / "picross"
SETUP = (
    "%load_ext kernelext\nfrom pycsp3 import *\nfrom kernelext.grading import load_instance\n"
    'data = load_instance("moon")'
)
MOON = [[0, 0, 1, 1, 0], [0, 0, 0, 1, 1], [1, 0, 0, 1, 1], [1, 1, 1, 1, 1], [0, 1, 1, 1, 0]]


def picross_cells(**changes: str) -> list[str]:
    """The instructor's picross cells as a student would have them; `step3="..."` replaces step 3's body."""
    model = read_submission(PICROSS / "instructor.ipynb")
    steps = [changes.get(f"step{n}", body) for n, body in enumerate(model.steps, start=1)]
    return [SETUP, *model.helpers, f"%%puzzle picross\n{steps[0]}", *(f"%%puzzle+\n{s}" for s in steps[1:])]


def write_notebook(path: Path, code: list[str]) -> None:
    cells = [new_markdown_cell("My answers")] + [new_code_cell(source) for source in code]
    nbformat.write(new_notebook(cells=cells), path)


def read_csv(path: Path) -> dict[str, dict[str, str]]:
    with open(path) as file:
        return {row["student"]: row for row in csv.DictReader(file)}


# -- release and extraction (no solver) -------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_release_strips_every_solution_and_hidden_instance(name, tmp_path):
    notebook_path = release(exercise_dir=EXERCISES / name, out_dir=tmp_path)
    text = notebook_path.read_text()
    instructor = nbformat.read(EXERCISES / name / "instructor.ipynb", as_version=4)
    student = nbformat.read(notebook_path, as_version=4)
    assert "SOLUTION" not in text
    assert "# YOUR CODE HERE" in text and "YOUR ANSWER HERE" in text
    code = [c for c in student.cells if c.cell_type == "code"]
    assert all(not c.outputs and c.execution_count is None for c in code)
    solution_lines = {line.strip() for cell in instructor.cells for line in _solution_lines(cell.source)}
    assert solution_lines and not any(line in text for line in solution_lines if len(line) > 12)
    assert not (tmp_path / "hidden").exists()
    public = sorted(p.name for p in (EXERCISES / name / "public").glob("*.json"))
    assert sorted(p.name for p in (tmp_path / "public").glob("*.json")) == public
    checker = json.loads((EXERCISES / name / "exercise.json").read_text()).get("checker", "reference")
    checks = [checker.partition(":")[0]] if ":" in checker else []  # a check in the folder goes with it
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == sorted(
        public + checks + ["exercise.json", f"{name}.ipynb"]
    )
    assert read_submission(notebook_path).steps  # the student notebook still has its %%puzzle cells


def _solution_lines(source: str) -> list[str]:
    inside, lines = False, []
    for line in source.splitlines():
        if "BEGIN SOLUTION" in line or "END SOLUTION" in line:
            inside = "BEGIN" in line
        elif inside:
            lines.append(line)
    return lines


def test_strip_solutions_keeps_the_indent_and_the_code_around():
    source = "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\nf()"
    assert strip_solutions(source) == "def f():\n    # YOUR CODE HERE\nf()"


def test_extraction_keeps_the_last_puzzle_its_steps_and_helper_definitions():
    model = extract_model(
        "ann",
        [
            "%load_ext kernelext\nfrom pycsp3 import *\ndata = {'n': 2}\nprint(data)",
            "%%puzzle draft\nx = VarArray(size=3, dom={0})",
            "%%puzzle+\nsatisfy(x[0] == 0)",
            "@lru_cache\ndef helper(n):\n    return n\nhelper(3)\n!ls",
            "%%puzzle final --show y\ny = VarArray(size=2, dom={0, 1})",
            "%puzzle steps",
            "%%puzzle+ --step b\nsatisfy(y[0] != y[1])",
            "def broken(:\n    pass",
            "%%time\nimport os",
        ],
    )
    assert model.steps == ("y = VarArray(size=2, dom={0, 1})", "satisfy(y[0] != y[1])")
    assert model.helpers == ("from pycsp3 import *", "@lru_cache\ndef helper(n):\n    return n")
    assert len(model.notes) == 2 and "code cell 2 (`%%puzzle draft`)" in model.notes[0]
    assert "code cell 8" in model.notes[1] and "SyntaxError" in model.notes[1]


# -- checkers (pure) --------------------------------------------------------------------------------


def test_checkers_accept_right_answers_and_say_what_is_wrong():
    moon = {"rows": [[2], [2], [1, 2], [5], [3]], "columns": [[2], [2], [1, 2], [5], [3]]}
    assert CHECKERS["picross"](MOON, moon, {}) == ""
    assert "row 0 has runs [1, 1]" in CHECKERS["picross"]([[1, 0, 1, 0, 0]] + MOON[1:], moon, {})
    futoshiki = {"n": 2, "hints": [[0, 0, 1]], "less": [[[0, 0], [0, 1]]]}
    assert CHECKERS["futoshiki"]([[1, 2], [2, 1]], futoshiki, {}) == ""
    assert "hint" in CHECKERS["futoshiki"]([[2, 1], [1, 2]], futoshiki, {})
    amaze = {"n": 2, "m": 3, "points": [[[1, 1], [2, 3]]]}
    bordered = [[0] * 5, [0, 1, 1, 1, 0], [0, 0, 0, 1, 0], [0] * 5]
    assert CHECKERS["amaze"](bordered, amaze, {"optimum": 4}) == ""
    assert "fewest possible is 3" in CHECKERS["amaze"](bordered, amaze, {"optimum": 3})
    assert "neighbours" in CHECKERS["amaze"]([[1, 1, 1], [1, 1, 1]], amaze, {})
    layout = {"grid": [[1, 1, 1]], "shapes": [[[1, 1]], [[1]]]}
    assert CHECKERS["layout"]([[0, 0], [0, 2]], layout, {}) == ""
    assert "overlap" in CHECKERS["layout"]([[0, 0], [0, 1]], layout, {})
    sudoku = {"grid": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}
    digits = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    booleans = [[[int(k == d - 1) for k in range(4)] for d in row] for row in digits]
    assert CHECKERS["sudoku_boolean"](booleans, sudoku, {}) == ""
    booleans[0][0] = [1, 1, 0, 0]
    assert "exactly one 1" in CHECKERS["sudoku_boolean"](booleans, sudoku, {})


def test_picross_instances_have_unique_solutions():
    from kernelext.solver.engine import Solver
    from kernelext.steps.cell_code import run_source
    from kernelext.steps.session import PuzzleSession

    model = read_submission(PICROSS / "instructor.ipynb")
    solver = Solver()
    try:
        for instance in load_exercise(PICROSS).instances:
            session = PuzzleSession(instance.name, solver=solver)
            for helper in model.helpers:
                run_source(helper, session.namespace, echo=False)
            session.namespace["data"] = instance.data
            for number, step in enumerate(model.steps):
                session.add_step(step, key=str(number), solve=False)
            result = session.solve(sols=2)
            assert len(result.solutions) == 1, f"{instance.name} has more than one solution"
            session.close()
    finally:
        solver.close()
    assert sum(i.hidden for i in load_exercise(PICROSS).instances) >= 6


# -- grading with the real solver -------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_instructor_solution_scores_full_marks(name, tmp_path):
    exercise = load_exercise(EXERCISES / name)
    only = [exercise.public[0].name, next(i.name for i in exercise.instances if i.hidden)]
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "teacher.ipynb").write_bytes((EXERCISES / name / "instructor.ipynb").read_bytes())
    [result] = grade(
        exercise_dir=EXERCISES / name, submissions_dir=tmp_path / "in", out_dir=tmp_path / "out", only=only
    )
    graded = [r for r in result.results if r.kind != "question"]
    assert sum(r.points for r in graded) == sum(r.max_points for r in graded) > 0, result.summary()
    header = next(csv.reader(open(tmp_path / "out" / "grades.csv")))
    assert header == ["student", only[0], "hidden 1", *(q.name for q in exercise.questions), "total"]
    assert exercise.questions and all(q.points > 0 for q in exercise.questions)


BAD = {
    "syntax_error": dict(step2="satisfy(x[i] in automaton(rows[i]) for i in range(n)"),
    "infinite_loop": dict(step2="while True:\n    pass"),
    "exits": dict(step2="import os\nos._exit(3)"),
    "memory_hog": dict(step2="hog = bytearray(6 * 2 ** 30)  # more than the 2 GB limit, less than the machine has"),
    "chatty": dict(
        step2="import os\nfor _ in range(5):\n    print('x' * 10 ** 6)\n"
        "os.write(1, b'y' * 5_000_000)\n" + read_submission(PICROSS / "instructor.ipynb").steps[1]
    ),
    "hard_coded": dict(
        step1="x = VarArray(size=[5, 5], dom={0, 1})",
        step2=f"satisfy(x[i][j] == v for i, row in enumerate({MOON}) for j, v in enumerate(row))",
        step3="",
        step4="",
    ),
}


def make_submissions(folder: Path, names: list[str]) -> None:
    folder.mkdir()
    for name in names:
        if name == "good":
            write_notebook(folder / "good.ipynb", picross_cells())
        elif name == "not_json":
            (folder / "not_json.ipynb").write_text('{"cells": [')
        elif name == "missing_cells":
            write_notebook(folder / "missing_cells.ipynb", [SETUP, "print('I ran out of time')"])
        else:
            cells = picross_cells(**BAD[name])
            write_notebook(folder / f"{name}.ipynb", [c for c in cells if c.strip() != "%%puzzle+"])


def test_each_bad_submission_costs_only_its_instances(tmp_path):
    names = ["good", "not_json", "missing_cells", *BAD]
    make_submissions(tmp_path / "in", names)
    results = grade(
        exercise_dir=PICROSS,
        submissions_dir=tmp_path / "in",
        out_dir=tmp_path / "out",
        only=["moon", "arrow"],
        time_limit=8,
    )
    by_student = {r.student: r for r in results}
    assert sorted(by_student) == sorted(names)
    outcomes = {s: [i.outcome for i in r.results if i.kind == "instance"] for s, r in by_student.items()}
    assert outcomes["good"] == outcomes["chatty"] == [Outcome.PASSED, Outcome.PASSED]
    assert outcomes["hard_coded"] == [Outcome.PASSED, Outcome.FAILED]
    for student, outcome in [
        ("syntax_error", Outcome.ERROR),
        ("infinite_loop", Outcome.TIMEOUT),
        ("exits", Outcome.CRASHED),
        ("memory_hog", Outcome.ERROR),
        ("not_json", Outcome.NOT_RUN),
        ("missing_cells", Outcome.NOT_RUN),
    ]:
        assert outcomes[student] == [outcome, outcome], by_student[student].summary()
    grades = read_csv(tmp_path / "out" / "grades.csv")
    assert {s: row["total"] for s, row in grades.items()} == {
        "good": "3",
        "chatty": "3",
        "hard_coded": "1",
        "syntax_error": "0",
        "infinite_loop": "0",
        "exits": "0",
        "memory_hog": "0",
        "not_json": "0",
        "missing_cells": "0",
    }
    assert grades["good"]["Q1"] == "" and grades["good"]["Q2"] == ""
    feedback = {s: (tmp_path / "out" / "feedback" / f"{s}.txt").read_text() for s in names}
    expected_lines = {
        "syntax_error": "step 2: Line 2: SyntaxError",
        "infinite_loop": "timed out",
        "exits": "exit code 3",
        "memory_hog": "MemoryError",
        "not_json": "could not be read",
        "missing_cells": "no `%%puzzle NAME` cell",
        "hard_coded": "hidden 1     failed",
    }
    for student, line in expected_lines.items():
        assert line in feedback[student], feedback[student]
    hidden = json.dumps(load_exercise(PICROSS, only=["arrow"]).instances[0].data["rows"])
    assert not any("arrow" in text or hidden in text for text in feedback.values())
    assert "runs [" in by_student["hard_coded"].summary()  # the teacher sees why it failed


def test_grading_is_deterministic_and_takes_any_executor(tmp_path):
    make_submissions(tmp_path / "in", ["good", "hard_coded", "syntax_error", "exits"])
    options = dict(exercise_dir=PICROSS, submissions_dir=tmp_path / "in", only=["moon", "star", "arrow"])
    grade(**options, out_dir=tmp_path / "a")
    with ProcessPoolExecutor(2) as executor:
        grade(**options, out_dir=tmp_path / "b", executor=executor)
    for path in ["grades.csv", *(f"feedback/{s}.txt" for s in ["good", "hard_coded", "syntax_error", "exits"])]:
        assert (tmp_path / "a" / path).read_text() == (tmp_path / "b" / path).read_text(), path


def test_check_public_runs_the_model_and_its_notebook_helpers_on_public_instances():
    model = read_submission(EXERCISES / "layout" / "instructor.ipynb")
    namespace = {"__name__": "__main__"}
    filename = "<ipython-input-1-helpers>"
    source = "\n\n".join(h for h in model.helpers if h.startswith("def "))
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)
    report = check_public(list(model.steps), EXERCISES / "layout", namespace=namespace)
    assert report.passed and len(report.results) == len(load_exercise(EXERCISES / "layout").public)
    assert report.summary().startswith("layout: 2/2 public instances passed")
    assert repr(report) == report.summary() and '<table cellpadding="4">' in report._repr_html_()
    broken = check_public(list(model.steps[:2]), EXERCISES / "layout", namespace=namespace)
    assert not broken.passed and "overlap" in broken.summary()


def test_cli_releases_and_grades(tmp_path, capsys):
    assert cli(["release", str(PICROSS), str(tmp_path / "student")]) == 0
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "zoe.ipynb").write_bytes((tmp_path / "student" / "picross.ipynb").read_bytes())
    assert cli(["grade", str(PICROSS), str(tmp_path / "in"), str(tmp_path / "out"), "--only", "moon"]) == 0
    assert "zoe: 0/5 points" in capsys.readouterr().out  # 1 instance, and 2 + 2 points of written questions
    assert read_csv(tmp_path / "out" / "grades.csv")["zoe"]["total"] == "0"
