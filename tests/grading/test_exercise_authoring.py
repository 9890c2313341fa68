"""A teacher makes an exercise from their own notebook: new, instances, validate, release, grade.

Everything runs for real: the instructor's model is solved in processes of its own, the students' in sandboxes.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from conftest import ROOT
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from kernelext.grading import check_public, grade, release
from kernelext.grading.authoring.author import new_exercise
from kernelext.grading.authoring.instances import fill_instances
from kernelext.grading.authoring.preflight import validate
from kernelext.grading.cli import main as cli
from kernelext.grading.format.exercise import load_exercise
from kernelext.grading.format.notebook import read_submission
from kernelext.grading.reports.results import Outcome

EXERCISES = ROOT / "exercises"
TAKUZU = {
    "tiny": ["0...", ".1..", "0..0", "...."],
    "six": ["......", "....1.", "..00..", "...0..", ".00.0.", "......"],
    "hidden8": ["..1...11", ".......1", ".1.0.1..", "..0.....", "....1...", ".....0..", ".0....11", "..1....."],
}
STEPS = [
    '%%puzzle takuzu\ngrid = data["grid"]\nn = len(grid)\nx = VarArray(size=[n, n], dom={0, 1})',
    '%%puzzle+\nsatisfy(x[i][j] == int(grid[i][j]) for i in range(n) for j in range(n) if grid[i][j] != ".")',
    "%%puzzle+\nsatisfy([Sum(x[i]) == n // 2 for i in range(n)], [Sum(x[:, j]) == n // 2 for j in range(n)])",
    "%%puzzle+\nsatisfy([Sum(x[i][j:j + 3]) in range(1, 3) for i in range(n) for j in range(n - 2)],\n"
    "        [Sum(x[i:i + 3, j]) in range(1, 3) for i in range(n - 2) for j in range(n)])",
    "%%puzzle+\nsatisfy(AllDifferentList(x), AllDifferentList(x[:, j] for j in range(n)))",
]


def teacher_folder(folder: Path, grids: dict = TAKUZU) -> Path:
    """A teacher's working folder: a Takuzu notebook that reads six.json, and instance files."""
    folder.mkdir()
    for name, grid in grids.items():
        (folder / f"{name}.json").write_text(json.dumps({"grid": grid}))
    question = new_markdown_cell("**Question 1** (2 points). Which step could go on `six`?")
    question.metadata["tags"] = ["question"]
    notebook = new_notebook(
        cells=[
            new_markdown_cell("# Takuzu"),
            new_code_cell(
                '%load_ext kernelext\nimport json\nfrom pycsp3 import *\n\nwith open("six.json") as file:\n'
                "    data = json.load(file)"
            ),
            *(new_code_cell(step) for step in STEPS),
            question,
            new_markdown_cell("The last one."),
        ]
    )
    nbformat.write(notebook, folder / "takuzu.ipynb")
    return folder


def submissions(folder: Path, models: dict[str, list[str]]) -> Path:
    """A notebook per student: the usual first cell, then the student's cells."""
    folder.mkdir()
    setup = '%load_ext kernelext\nfrom pycsp3 import *\nfrom kernelext.grading import load_instance\n\ndata = load_instance("six")'
    for student, cells in models.items():
        nbformat.write(
            new_notebook(cells=[new_code_cell(setup), *map(new_code_cell, cells)]), folder / f"{student}.ipynb"
        )
    return folder


def test_a_notebook_becomes_an_exercise_filled_and_validated(tmp_path, capsys):
    source = teacher_folder(tmp_path / "work")
    exercise = tmp_path / "takuzu"
    assert (
        cli(
            [
                "new",
                str(exercise),
                "--from",
                str(source / "takuzu.ipynb"),
                "--public",
                str(source / "tiny.json"),
                "--hidden",
                str(source / "hidden8.json"),
            ]
        )
        == 0
    )
    said = capsys.readouterr().out
    assert "the answer array is 'x'" in said and "2 public and 1 hidden" in said
    config = json.loads((exercise / "exercise.json").read_text())
    assert config["answer"] == "x" and config["checker"] == "reference"
    instructor = nbformat.read(exercise / "instructor.ipynb", as_version=4)
    first = instructor.cells[1].source
    assert 'data = load_instance("six")' in first and "json.load" not in first and "import json" in first
    marked = [c for c in instructor.cells if "### BEGIN SOLUTION" in c.source]
    assert len(marked) == len(STEPS) + 1 and all(c.metadata["nbgrader"]["solution"] for c in marked)
    assert marked[-1].metadata["nbgrader"]["points"] == 2.0  # the written answer
    assert json.loads((exercise / "public" / "six.json").read_text()) == {
        "data": {"grid": TAKUZU["six"]},
        "expected": {},
    }

    assert cli(["instances", str(exercise)]) == 0
    said = capsys.readouterr().out
    assert "public/six.json: 1 solution (unique)" in said and "hidden/hidden8.json: 1 solution (unique)" in said
    stored = json.loads((exercise / "public" / "six.json").read_text())["expected"]
    assert stored["n_solutions"] == 1 and len(stored["solutions"]) == 1
    assert "solutions" not in json.loads((exercise / "hidden" / "hidden8.json").read_text())["expected"]

    assert cli(["validate", str(exercise)]) == 0
    said = capsys.readouterr().out
    assert (
        "instructor notebook: 4/4 points on 3 instances" in said
        and "student notebook: 0 points" in said
        and "Ready" in said
    )


def test_the_takuzu_exercise_grades_right_wrong_and_partly_right(tmp_path):
    steps = read_submission(EXERCISES / "takuzu" / "instructor.ipynb", answer="x").steps
    models = {"right": steps, "no_equal_lines": steps[:-1], "no_three": [*steps[:3], steps[4]]}
    cells = {
        student: [f"%%puzzle takuzu\n{s}" if n == 0 else f"%%puzzle+\n{s}" for n, s in enumerate(model)]
        for student, model in models.items()
    }
    graded = grade(
        exercise_dir=EXERCISES / "takuzu", submissions_dir=submissions(tmp_path / "in", cells), out_dir=tmp_path / "out"
    )
    outcomes = {r.student: [i.outcome.value for i in r.results if i.kind == "instance"] for r in graded}
    assert outcomes == {
        "no_equal_lines": ["passed", "passed", "passed", "failed", "failed"],
        "no_three": ["failed", "passed", "failed", "failed", "failed"],
        "right": ["passed"] * 5,
    }, outcomes
    feedback = (tmp_path / "out" / "feedback" / "no_three.txt").read_text()
    three_alike = (
        r"six          failed    0/1  wrong answer: it breaks sum\(list: (x\[\d\]\[\d\]) (x\[\d\]\[\d\]) "
        r"(x\[\d\]\[\d\]), condition: \(in,1\.\.2\)\), where \1 = ([01]), \2 = \4, \3 = \4\n"
    )
    assert re.search(three_alike, feedback), feedback  # which three cells depends on the solver's answer
    kind_only = "wrong answer: it breaks one of the puzzle's rules (a constraint of the kind sum)"
    assert f"hidden 1     failed    0/2  {kind_only}" in feedback  # the kind of rule, nothing of the instance
    assert "data[" not in feedback and "Sum(" not in feedback  # never the reference's code
    teacher = (tmp_path / "out" / "feedback" / "no_equal_lines.txt").read_text()
    assert (
        "hidden 2     failed    0/2  wrong answer: it breaks one of the puzzle's rules (a constraint of the kind"
        in teacher
    )
    summary = next(r for r in graded if r.student == "no_equal_lines").summary()
    rows_or_columns = r"allDifferent\(list: x\[0\]\[0\.\.7\]|allDifferent\(list: x\[0\.\.7\]\[0\]"
    assert re.search(rf"h8a +failed +0/2  wrong answer: it breaks ({rows_or_columns})", summary), summary


def test_instances_refuses_a_puzzle_with_two_solutions_and_shows_both(tmp_path):
    source = teacher_folder(tmp_path / "work", {"six": TAKUZU["six"], "open": ["....", "....", "....", "...."]})
    exercise = tmp_path / "takuzu"
    new_exercise(exercise, source / "takuzu.ipynb", hidden=(source / "open.json",))
    told, problems = fill_instances(exercise)
    assert told == ["public/six.json: 1 solution (unique)"]
    [problem] = problems
    assert problem.startswith("hidden/open.json: has several solutions, where sols: 1 promises one")
    solutions = [json.loads(line.split(": ", 1)[1]) for line in problem.splitlines()[1:]]
    assert len(solutions) == 2 and solutions[0] != solutions[1] and all(len(s) == 4 for s in solutions)
    assert json.loads((exercise / "hidden" / "open.json").read_text())["expected"] == {}  # left as it was
    config = json.loads((exercise / "exercise.json").read_text())
    (exercise / "exercise.json").write_text(json.dumps({**config, "unique": False}))
    told, problems = fill_instances(exercise)
    assert problems == [] and "hidden/open.json: several solutions (any one is accepted)" in told


def test_validate_says_what_is_off(tmp_path):
    source = teacher_folder(tmp_path / "work")
    exercise = tmp_path / "takuzu"
    new_exercise(exercise, source / "takuzu.ipynb")
    notebook = nbformat.read(exercise / "instructor.ipynb", as_version=4)
    notebook.cells[2].source = (
        notebook.cells[2].source.replace("### BEGIN SOLUTION\n", "").replace("\n### END SOLUTION", "")
    )  # the declaration left in the student's notebook
    notebook.cells[-3].source = "%%puzzle+\nsatisfy(AllDifferentList(x))"  # the instructor's model is wrong
    nbformat.write(notebook, exercise / "instructor.ipynb")
    told, problems = validate(exercise)
    assert told[0].startswith("instructor notebook:")
    assert "no hidden instance: an answer hard-coded for the public ones would get full marks" in problems
    assert (
        "public/six.json: no stored rules, so %puzzle check cannot judge it: run kernelext-grade instances" in problems
    )


def test_the_released_folder_checks_public_answers_without_the_instructor_notebook(tmp_path):
    release(exercise_dir=EXERCISES / "takuzu", out_dir=tmp_path / "student")
    assert not (tmp_path / "student" / "instructor.ipynb").exists()
    steps = read_submission(EXERCISES / "takuzu" / "instructor.ipynb", answer="x").steps
    right = check_public(list(steps), tmp_path / "student", sandbox="process")
    assert right.passed, right.summary()
    wrong = check_public(list(steps[:3]), tmp_path / "student", sandbox="process")
    assert not wrong.passed and "six          failed    0/1  wrong answer: it breaks sum(" in wrong.summary()
    assert "), where x[" in wrong.summary()  # the stored rules name the broken one and its cells
    six = tmp_path / "student" / "public" / "six.json"  # as an instance filled by an older kit
    six.write_text(json.dumps({**json.loads(six.read_text()), "expected": {}}))
    unsure = check_public(list(steps[:3]), tmp_path / "student", sandbox="process")
    assert unsure.summary().splitlines()[:2] == [
        "student: 1/2 public instances passed, 1 answered but only the grader can check it",
        "  six          unchecked 0/1  six has several solutions (or stores none): only the grader, with the "
        "instructor's model, can check this answer",
    ], unsure.summary()


def test_a_check_in_the_folder_grades_and_its_errors_are_the_teachers(tmp_path):
    exercise = tmp_path / "kenken"
    shutil.copytree(EXERCISES / "kenken", exercise)
    steps = read_submission(exercise / "instructor.ipynb", answer="x").steps
    latin_only = list(steps[:2])
    one_order = [
        *steps[:2],
        steps[2].replace(
            'either(cells[0] == c["target"] * cells[1], cells[1] == c["target"] * cells[0])',
            'cells[0] == c["target"] * cells[1]',
        ),
    ]
    assert one_order[2] != steps[2]
    folder = tmp_path / "in"
    folder.mkdir()
    setup = "%load_ext kernelext\nfrom pycsp3 import *\nfrom kernelext.grading import load_instance\nimport math\n"
    for student, model in {"right": steps, "latin": latin_only, "order": one_order}.items():
        cells = [setup, *(f"%%puzzle kenken\n{s}" if n == 0 else f"%%puzzle+\n{s}" for n, s in enumerate(model))]
        nbformat.write(new_notebook(cells=[new_code_cell(c) for c in cells]), folder / f"{student}.ipynb")
    results = {r.student: r for r in grade(exercise_dir=exercise, submissions_dir=folder, out_dir=tmp_path / "out")}
    instances = {s: [i for i in r.results if i.kind == "instance"] for s, r in results.items()}
    assert all(i.outcome is Outcome.PASSED for i in instances["right"]), results["right"].summary()
    assert all(i.outcome is Outcome.FAILED for i in instances["latin"]), results["latin"].summary()
    assert "wrong answer: the cage" in instances["latin"][0].message
    partly = [i.outcome for i in instances["order"]]
    assert Outcome.PASSED in partly and Outcome.FAILED in partly, results["order"].summary()

    (exercise / "checks.py").write_text("def check_kenken(answer, data, expected):\n    return answer[0][0] / 0\n")
    [broken] = grade(exercise_dir=exercise, submissions_dir=folder, out_dir=tmp_path / "again", only=["four"])[:1]
    [item] = [i for i in broken.results if i.kind == "instance"]
    assert item.outcome is Outcome.ERROR
    assert (
        "the exercise is at fault: the exercise's check checks.py:check_kenken raised ZeroDivisionError" in item.message
        and "line 2 of checks.py" in item.message
    )
    assert "not your model's fault" in item.student_message

    (exercise / "exercise.json").write_text(json.dumps({"answer": "x", "checker": "checks.py:nothing"}))
    with pytest.raises(ValueError, match="checks.py has no function nothing"):
        load_exercise(exercise)
    assert not (exercise / "__pycache__").exists()  # the check is not imported into the exercise folder


def test_the_reference_checks_all_solutions_and_optimal_answers(tmp_path):
    for name in ("layout", "amaze"):
        shutil.copytree(EXERCISES / name, tmp_path / name)
        config = json.loads((tmp_path / name / "exercise.json").read_text())
        (tmp_path / name / "exercise.json").write_text(json.dumps({**config, "checker": "reference"}))
    told, problems = fill_instances(tmp_path / "amaze")  # the optimum, not the second solution found
    assert problems == [] and len(told) == 5
    for path in (tmp_path / "amaze").glob("*/*.json"):
        stored = json.loads((EXERCISES / "amaze" / path.parent.name / path.name).read_text())["expected"]
        assert json.loads(path.read_text())["expected"]["optimum"] == stored["optimum"], path.name
    layout = read_submission(EXERCISES / "layout" / "instructor.ipynb", answer="pos")
    amaze = read_submission(EXERCISES / "amaze" / "instructor.ipynb", answer="x")
    cases = {
        "layout": {"right": layout.steps, "overlapping": layout.steps[:2]},
        "amaze": {"right": amaze.steps, "not_optimal": amaze.steps[:-1]},
    }
    messages = {}
    for name, models in cases.items():
        exercise = load_exercise(tmp_path / name)
        folder = tmp_path / f"{name}-in"
        folder.mkdir()
        first = read_submission(EXERCISES / name / "instructor.ipynb").helpers
        for student, steps in models.items():
            cells = [
                f"%load_ext kernelext\nfrom pycsp3 import *\nfrom kernelext.grading import load_instance\n"
                f'{chr(10).join(first)}\ndata = load_instance("{exercise.public[0].name}")',
                *(f"%%puzzle {name}\n{s}" if n == 0 else f"%%puzzle+\n{s}" for n, s in enumerate(steps)),
            ]
            nbformat.write(new_notebook(cells=[new_code_cell(c) for c in cells]), folder / f"{student}.ipynb")
        results = grade(
            exercise_dir=tmp_path / name,
            submissions_dir=folder,
            out_dir=tmp_path / f"{name}-out",
            only=[exercise.public[0].name],
        )
        for result in results:
            [item] = [i for i in result.results if i.kind == "instance"]
            messages[name, result.student] = (item.outcome, item.message)
    assert messages["layout", "right"][0] is messages["amaze", "right"][0] is Outcome.PASSED, messages
    outcome, message = messages["layout", "overlapping"]
    assert outcome is Outcome.FAILED and message.startswith("wrong answer: solution "), message
    outcome, message = messages["amaze", "not_optimal"]
    assert outcome is Outcome.FAILED and "where the best possible is" in message and "(to minimize)" in message


def test_a_notebook_that_reads_its_data_the_pycsp3_way_grades_the_same_way(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    for name, givens in {"first": [[0, 0, 2], [0, 1, 7]], "other": [[0, 0, 8], [0, 1, 1]]}.items():
        (work / f"{name}.json").write_text(json.dumps({"n": 3, "givens": givens}))
    nbformat.write(
        new_notebook(
            cells=[
                new_code_cell(c)
                for c in [
                    '%load_ext kernelext\nfrom pycsp3 import *\n\ndata = load_json_data("first.json")',
                    "%%puzzle magic\nn, givens = data\nx = VarArray(size=[n, n], dom=range(1, n * n + 1))",
                    "%%puzzle+\nsatisfy(AllDifferent(x), [x[i][j] == v for i, j, v in givens])",
                    "%%puzzle+\nsatisfy([Sum(row) == 15 for row in x], [Sum(col) == 15 for col in columns(x)],\n"
                    "        Sum(diagonal_down(x)) == 15, Sum(diagonal_up(x)) == 15)",
                ]
            ]
        ),
        work / "magic.ipynb",
    )
    exercise = tmp_path / "magic"
    new_exercise(exercise, work / "magic.ipynb", hidden=(work / "other.json",))
    assert json.loads((exercise / "exercise.json").read_text())["data"] == "pycsp3"
    assert json.loads((exercise / "public" / "first.json").read_text())["data"] == {
        "n": 3,
        "givens": [[0, 0, 2], [0, 1, 7]],
    }
    assert fill_instances(exercise)[1] == []
    told, problems = validate(exercise, sandbox="process")
    assert problems == [] and told[0].startswith("instructor notebook: 3/3 points"), (told, problems)
    monkeypatch.chdir(exercise)
    from kernelext.grading import load_instance

    n, givens = load_instance("first")  # as load_json_data gives it, in the student's notebook too
    assert (n, givens) == (3, [[0, 0, 2], [0, 1, 7]])
