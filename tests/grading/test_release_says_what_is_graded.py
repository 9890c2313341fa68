"""The released notebook tells the student what is graded: the answer array, the instances, the points, the limits.

No solver runs here: releasing only reads the exercise folder.
"""

from __future__ import annotations

import json
import re
import shutil

import nbformat
import pytest
from conftest import ROOT
from nbformat.v4 import new_code_cell, new_markdown_cell

from kernelext.grading import release
from kernelext.grading.format.exercise import load_exercise
from kernelext.grading.format.graded_summary import TAG, graded_summary

pytestmark = pytest.mark.timeout(60)

EXERCISES = ROOT / "exercises"
NAMES = sorted(p.name for p in EXERCISES.iterdir() if (p / "exercise.json").is_file())
ITEM = re.compile(r"^  - .*: (\d+(?:\.\d+)?) points?$", re.M)
TOTAL = re.compile(r"\*\*Points: (\d+(?:\.\d+)?) in all\*\*")


def summary_cells(notebook_path) -> list:
    notebook = nbformat.read(notebook_path, as_version=4)
    return [c for c in notebook.cells if TAG in c.metadata.get("tags", [])]


@pytest.mark.parametrize("name", NAMES)
def test_the_released_notebook_names_the_answer_the_instances_and_points_that_add_up(name, tmp_path):
    folder = EXERCISES / name
    notebook = nbformat.read(release(exercise_dir=folder, out_dir=tmp_path), as_version=4)
    [cell] = [c for c in notebook.cells if TAG in c.metadata.get("tags", [])]
    text = cell.source
    assert cell.cell_type == "markdown" and "nbgrader" not in cell.metadata  # plain text for nbgrader too
    first_markdown = next(i for i, c in enumerate(notebook.cells) if c.cell_type == "markdown" and c is not cell)
    assert notebook.cells.index(cell) == first_markdown + 1
    assert text.startswith("## What is graded\n") and "<" not in text  # Markdown, no HTML
    assert f"named `{json.loads((folder / 'exercise.json').read_text())['answer']}`" in text
    assert all(f"`{p.stem}`" in text for p in (folder / "public").glob("*.json"))
    hidden = sorted(p.stem for p in (folder / "hidden").glob("*.json"))
    assert f"{len(hidden)} hidden instance" in text
    assert not [h for h in hidden if re.search(rf"\b{re.escape(h)}\b", text)]
    full = load_exercise(folder)
    total = sum(i.points for i in full.instances) + sum(p.points for p in full.parts)
    total += sum(q.points for q in full.questions)
    assert float(TOTAL.search(text).group(1)) == sum(float(p) for p in ITEM.findall(text)) == total


def test_releasing_twice_into_the_same_folder_gives_one_summary_and_the_same_file(tmp_path):
    first = release(exercise_dir=EXERCISES / "picross", out_dir=tmp_path).read_bytes()
    second = release(exercise_dir=EXERCISES / "picross", out_dir=tmp_path)
    assert len(summary_cells(second)) == 1
    assert second.read_bytes() == first


def test_a_summary_cell_in_the_instructor_notebook_is_replaced_where_it_stands(tmp_path):
    folder = tmp_path / "takuzu"
    shutil.copytree(EXERCISES / "takuzu", folder)
    notebook = nbformat.read(folder / "instructor.ipynb", as_version=4)
    notebook.cells.append(new_markdown_cell("an old summary", metadata={"tags": [TAG]}))
    notebook.cells.append(new_markdown_cell("another old one", metadata={"tags": [TAG]}))
    nbformat.write(notebook, folder / "instructor.ipynb")
    released = nbformat.read(release(exercise_dir=folder, out_dir=tmp_path / "out"), as_version=4)
    [cell] = [c for c in released.cells if TAG in c.metadata.get("tags", [])]
    assert released.cells.index(cell) == len(released.cells) - 1
    assert cell.source == graded_summary(load_exercise(folder, public_only=True))


def test_a_notebook_without_markdown_gets_the_summary_first(tmp_path):
    folder = tmp_path / "takuzu"
    shutil.copytree(EXERCISES / "takuzu", folder)
    notebook = nbformat.read(folder / "instructor.ipynb", as_version=4)
    notebook.cells = [c for c in notebook.cells if c.cell_type == "code"] + [new_code_cell("1")]
    nbformat.write(notebook, folder / "instructor.ipynb")
    released = nbformat.read(release(exercise_dir=folder, out_dir=tmp_path / "out"), as_version=4)
    assert TAG in released.cells[0].metadata["tags"]


def test_release_counts_the_hidden_instances_without_reading_them(tmp_path):
    folder = tmp_path / "job_shop"
    shutil.copytree(EXERCISES / "job_shop", folder)
    for path in (folder / "hidden").glob("*.json"):
        path.write_text("not JSON: release must not open it")
    [cell] = summary_cells(release(exercise_dir=folder, out_dir=tmp_path / "out"))
    assert "3 hidden instances, 2 points each: 6 points" in cell.source


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("takuzu", "any solution that keeps the puzzle's rules gets full marks"),
        ("job_shop", "it must be optimal: any optimal solution gets full marks"),
        ("amaze", "it must be optimal"),
        ("layout", "every solution: your model must find all the solutions"),
        ("picross", "any right solution gets full marks"),  # no instance stores what it expects
    ],
)
def test_the_summary_says_what_one_answer_is(name, said):
    assert said in graded_summary(load_exercise(EXERCISES / name, public_only=True))


def test_the_answer_shape_is_given_where_public_instances_store_a_solution():
    text = graded_summary(load_exercise(EXERCISES / "takuzu", public_only=True))
    assert "Its shape: 6 x 6 on `six`, 4 x 4 on `small`." in text
    assert "Its shape" not in graded_summary(load_exercise(EXERCISES / "picross", public_only=True))


def test_the_limits_are_the_exercises():
    text = graded_summary(load_exercise(EXERCISES / "picross", public_only=True, time_limit=12, memory_mb=512))
    assert "has 12 s (starting, modelling and solving) and 512 MB of memory" in text
    assert "After 2 runs out of time" in text and "All your runs together have 120 s." in text
