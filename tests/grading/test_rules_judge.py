"""A right answer is never refused: steps marked `--not-rule` do not judge answers, `validate` names an unmarked
step that refuses a right answer, and an optimum is any optimal answer. Real exercises, real solvers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from kernelext.grading import grade
from kernelext.grading.authoring.preflight import validate
from kernelext.grading.cli import main as cli
from kernelext.grading.format.answer_checks import ExerciseFault
from kernelext.grading.format.exercise import Instance
from kernelext.grading.format.notebook import extract_model
from kernelext.grading.judging.by_reference import _objective_problem
from kernelext.steps.not_rule import not_rule_in

EUROPE = {
    "regions": ["Belgium", "France", "Germany", "Luxembourg", "Netherlands", "Switzerland"],
    "edges": [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 5], [2, 3], [2, 4], [2, 5]],
}
RING = {"regions": ["A", "B", "C", "D", "E"], "edges": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [0, 2]]}
DECLARE = (
    '%%puzzle colouring\nregions, edges = data["regions"], data["edges"]\n'
    "c = VarArray(size=len(regions), dom=range(len(regions)))"
)
NEIGHBOURS = "%%puzzle+\nsatisfy(c[i] != c[j] for i, j in edges)"
FEWEST = "%%puzzle+\nminimize(Maximum(c))"
SETUP = '%load_ext kernelext\nfrom pycsp3 import *\nfrom kernelext.grading import load_instance\ndata = load_instance("europe")'


def colouring_exercise(folder: Path, mark: str) -> Path:
    """A map-colouring exercise made with `kernelext-grade new` from a notebook that fixes `c[0] == 0`
    (marked with `mark`, or not), its instances filled."""
    folder.mkdir()
    (folder / "europe.json").write_text(json.dumps(EUROPE))
    (folder / "ring.json").write_text(json.dumps(RING))
    cells = [
        new_markdown_cell("# Colour the map with the fewest colours"),
        new_code_cell('%load_ext kernelext\nimport json\nfrom pycsp3 import *\ndata = json.load(open("europe.json"))'),
        new_code_cell(DECLARE),
        new_code_cell(NEIGHBOURS),
        new_code_cell(f"%%puzzle+ {mark}\nsatisfy(c[0] == 0)"),
        new_code_cell(FEWEST),
    ]
    nbformat.write(new_notebook(cells=cells), folder / "colouring.ipynb")
    exercise = folder / "colouring"
    new = ["new", str(exercise), "--from", str(folder / "colouring.ipynb"), "--hidden", str(folder / "ring.json")]
    assert cli(new) == 0
    assert cli(["instances", str(exercise)]) == 0
    return exercise


@pytest.fixture(scope="module")
def unmarked(tmp_path_factory) -> Path:
    return colouring_exercise(tmp_path_factory.mktemp("unmarked") / "work", "")


@pytest.fixture(scope="module")
def marked(tmp_path_factory) -> Path:
    return colouring_exercise(tmp_path_factory.mktemp("marked") / "work", "--not-rule symmetry")


def students(folder: Path, models: dict[str, list[str]]) -> Path:
    folder.mkdir()
    for student, cells in models.items():
        notebook = new_notebook(cells=[new_code_cell(SETUP), *map(new_code_cell, cells)])
        nbformat.write(notebook, folder / f"{student}.ipynb")
    return folder


def test_the_magic_line_and_the_extracted_model_carry_the_mark():
    assert not_rule_in("%%puzzle+ --not-rule symmetry") == "symmetry"
    assert not_rule_in("%%puzzle+ --step s --not-rule=implied --sols 2") == "implied"
    assert not_rule_in("%%puzzle+ --step not-rule") == "" and not_rule_in("%%puzzle+ --not-rule sym") == ""
    model = extract_model("t", [DECLARE, NEIGHBOURS, "%%puzzle+ --not-rule hint\nsatisfy(c[0] == 0)", FEWEST])
    assert model.not_rules == ("", "", "hint", "")
    assert model.rules == (model.steps[0], model.steps[1], model.steps[3])


@pytest.mark.timeout(300)
def test_validate_names_an_unmarked_symmetry_breaking_step_with_a_right_answer_it_refuses(unmarked):
    told, problems = validate(unmarked, sandbox="process")
    assert any(line.startswith("instructor notebook: 3/3 points") for line in told)
    assert len(problems) == 2  # each instance: europe and the hidden ring
    europe = next(p for p in problems if p.startswith("public/europe:"))
    assert "step 3 (`satisfy(c[0] == 0)`) alone refuses c = [" in europe
    assert "%%puzzle+ --not-rule symmetry" in europe and "swapped" in europe
    shown = json.loads(europe.split("alone refuses c = ")[1].split(", a right answer")[0])
    assert shown[0] != 0 and all(shown[i] != shown[j] for i, j in EUROPE["edges"]) and max(shown) == 3


@pytest.mark.timeout(300)
def test_a_marked_step_passes_validate_and_no_longer_judges_answers(marked, unmarked, tmp_path):
    told, problems = validate(marked, sandbox="process")
    assert problems == [] and any("steps 3 marked --not-rule" in line for line in told)
    permuted = [DECLARE, NEIGHBOURS, "%%puzzle+\nsatisfy(c[0] == 2)", FEWEST]  # optimal, other colours
    clash = [DECLARE, "%%puzzle+\nsatisfy(c[i] != c[j] for i, j in edges[:-1])\nsatisfy(c[2] == c[5])", FEWEST]
    worse = [DECLARE, NEIGHBOURS, "%%puzzle+\nsatisfy(c[1] == 4)"]  # a colouring, not the fewest colours
    folder = students(tmp_path / "in", {"permuted": permuted, "clash": clash, "worse": worse})
    for exercise, out, permuted_points in ((marked, "after", "3"), (unmarked, "before", "0")):
        grade(exercise_dir=exercise, submissions_dir=folder, out_dir=tmp_path / out, sandbox="process")
        with open(tmp_path / out / "grades.csv") as file:
            rows = {row["student"]: row for row in csv.DictReader(file)}
        assert rows["permuted"]["total"] == permuted_points  # before the mark, the right answer scored 0
        assert rows["clash"]["europe"] == "0" and rows["worse"]["total"] == "0"
    feedback = (tmp_path / "after" / "feedback" / "worse.txt").read_text()
    assert "its objective is 4, where the best possible is 3 (to minimize)" in feedback
    clash = (tmp_path / "after" / "feedback" / "clash.txt").read_text()
    assert "it breaks ne(c[2],c[5]), where c[2] (Germany) = 1, c[5] (Switzerland) = 1" in clash  # the data's names
    page = (tmp_path / "after" / "feedback" / "clash.html").read_text()
    assert "<caption>the answer; ✗ marks the cells of the constraint it breaks</caption>" in page
    assert page.count('border:3px solid #cf222e;font-weight:bold">1 ✗</td>') == 2  # c[2] and c[5]
    assert page.count("<caption>the answer") == 1  # drawn for the public instance only
    assert (
        "hidden 1     failed    0/2  wrong answer: it breaks one of the puzzle's rules (a constraint of the kind ne)"
        in clash
    )


def test_an_objective_must_equal_the_optimum_and_an_unproven_one_goes_to_the_teacher():
    proven = {"objective": "minimize", "bound": 3, "status": "OPTIMUM"}
    instance = Instance("europe", False, {}, {}, 1)
    assert _objective_problem(proven, 3, instance, 30) == ""
    assert "best possible is 3" in _objective_problem(proven, 4, instance, 30)
    with pytest.raises(ExerciseFault, match="cuts off optimal answers"):
        _objective_problem(proven, 2, instance, 30)
    stored = Instance("europe", False, {}, {"optimum": 2}, 1)
    assert _objective_problem(proven, 2, stored, 30) == ""  # the stored optimum decides
    unproven = {"objective": "maximize", "bound": 7, "status": "SAT"}
    assert "a better one (7) exists" in _objective_problem(unproven, 6, instance, 30)
    with pytest.raises(ExerciseFault, match="did not prove its optimum"):
        _objective_problem(unproven, 7, instance, 30)


@pytest.mark.timeout(300)
def test_a_released_folder_judges_any_answer_on_its_public_instances_by_the_stored_rules(marked, tmp_path):
    from kernelext.grading import check_public, release
    from kernelext.grading.judging.stored_rules import unpack

    stored = json.loads((marked / "public" / "europe.json").read_text())["expected"]
    assert "<constraints>" in unpack(stored["rules"]) and "eq(c[0],0)" not in unpack(stored["rules"])  # rules only
    release(exercise_dir=marked, out_dir=tmp_path / "out")
    answers = {
        "permuted": [DECLARE, NEIGHBOURS, "%%puzzle+\nsatisfy(c[0] == 2)", FEWEST],
        "clash": [DECLARE, "%%puzzle+\nsatisfy(c[i] != c[j] for i, j in edges[:-1])\nsatisfy(c[2] == c[5])", FEWEST],
        "worse": [DECLARE, NEIGHBOURS, "%%puzzle+\nsatisfy(c[1] == 4)"],
    }
    lines = {}
    for student, cells in answers.items():
        sources = [cell.split("\n", 1)[1] for cell in cells]
        [result] = check_public(sources, tmp_path / "out", namespace={}, sandbox="process").results
        lines[student] = (result.outcome.value, result.message)
    from kernelext.grading.judging.course_cells import own_points

    with pytest.raises(ValueError, match="%puzzle points colors: give public, hidden."):
        own_points(None, "colors", tmp_path / "out")
    assert lines["permuted"] == ("passed", "")
    assert lines["clash"] == (
        "failed",
        "wrong answer: it breaks ne(c[2],c[5]), where c[2] (Germany) = 1, c[5] (Switzerland) = 1",
    )
    assert lines["worse"] == ("failed", "wrong answer: its objective is 4, where the best possible is 3 (to minimize)")


@pytest.mark.timeout(300)
def test_validate_finds_a_mirror_symmetry_broken_in_a_magic_square_and_passes_once_it_is_marked(tmp_path):
    (tmp_path / "three.json").write_text(json.dumps({"n": 3}))
    (tmp_path / "four.json").write_text(json.dumps({"n": 4}))
    breaking = (
        "satisfy(x[0][0] < x[0][n - 1], x[0][0] < x[n - 1][0], x[0][0] < x[n - 1][n - 1], x[0][n - 1] < x[n - 1][0])"
    )
    cells = [
        new_code_cell('%load_ext kernelext\nimport json\nfrom pycsp3 import *\ndata = json.load(open("three.json"))'),
        new_code_cell('%%puzzle magic\nn = data["n"]\nx = VarArray(size=[n, n], dom=range(1, n * n + 1))'),
        new_code_cell("%%puzzle+\nsatisfy(AllDifferent(x))"),
        new_code_cell(
            "%%puzzle+\ns = n * (n * n + 1) // 2\nsatisfy([Sum(x[i]) == s for i in range(n)], "
            "[Sum(x[:, j]) == s for j in range(n)], Sum(x[i][i] for i in range(n)) == s, "
            "Sum(x[i][n - 1 - i] for i in range(n)) == s)"
        ),
        new_code_cell(f"%%puzzle+\n{breaking}"),
    ]
    nbformat.write(new_notebook(cells=cells), tmp_path / "magic.ipynb")
    exercise = tmp_path / "magic"
    assert (
        cli(["new", str(exercise), "--from", str(tmp_path / "magic.ipynb"), "--hidden", str(tmp_path / "four.json")])
        == 0
    )
    config = json.loads((exercise / "exercise.json").read_text())
    (exercise / "exercise.json").write_text(json.dumps({**config, "unique": False}))  # 4 x 4 has 880 squares
    assert cli(["instances", str(exercise)]) == 0
    _, problems = validate(exercise, sandbox="process")
    three = next(p for p in problems if p.startswith("public/three:"))
    assert "step 4 (`satisfy(x[0][0] < x[0][n - 1], x[0][0] < x[n - 1][0]," in three
    square = json.loads(three.split("alone refuses x = ")[1].split(", a right answer")[0])
    assert sorted(v for row in square for v in row) == list(range(1, 10)) and square[0][0] > square[0][2]
    assert any(move in three for move in ("mirrored", "turned"))
    notebook = nbformat.read(exercise / "instructor.ipynb", as_version=4)
    marked = next(c for c in notebook.cells if "x[0][0] < x[0][n - 1]" in c.source)
    marked.source = marked.source.replace("%%puzzle+", "%%puzzle+ --not-rule symmetry", 1)
    nbformat.write(notebook, exercise / "instructor.ipynb")
    told, problems = validate(exercise, sandbox="process")
    assert problems == [] and any("steps 4 marked --not-rule" in line for line in told)
