"""No student is lost: every folder in submitted/ gets a row and feedback, with the reason when it has no notebook."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_grading import PICROSS, SETUP, picross_cells, read_csv, write_notebook

from kernelext.grading import Outcome, grade
from kernelext.grading.cli import main as cli
from kernelext.grading.reports.submissions import find_submissions

NO_PUZZLE = [SETUP, "print('my own try, not the model')"]


def work_folder(course: Path, student: str, notebooks: dict[str, list[str]], *, assignment="picross") -> Path:
    """`course/submitted/<student>/<assignment>/` holding `notebooks` (relative name -> code cells)."""
    folder = course / "submitted" / student / assignment
    folder.mkdir(parents=True)
    for name, cells in notebooks.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        write_notebook(folder / name, cells)
    return folder


def touch(path: Path, seconds: float) -> None:
    os.utime(path, (seconds, seconds))


def chosen(course: Path, student: str) -> tuple[str, str]:
    [entry] = [e for e in find_submissions(course, "picross") if e.student == student]
    return entry.path.name if entry.path else "", entry.note


# -- choosing the notebook (no solver) --------------------------------------------------------------


def test_the_notebook_named_after_the_assignment_wins_and_the_others_are_noted(tmp_path):
    work_folder(tmp_path, "ann", {"picross.ipynb": NO_PUZZLE, "draft.ipynb": picross_cells()})
    assert chosen(tmp_path, "ann") == (
        "picross.ipynb",
        "graded picross.ipynb: named after the assignment (also there: draft.ipynb)",
    )


def test_of_several_notebooks_with_puzzle_cells_the_latest_is_graded(tmp_path):
    folder = work_folder(
        tmp_path, "ann", {"a.ipynb": picross_cells(), "b.ipynb": picross_cells(), "c.ipynb": NO_PUZZLE}
    )
    touch(folder / "a.ipynb", 2_000_000)
    touch(folder / "b.ipynb", 1_000_000)
    touch(folder / "c.ipynb", 3_000_000)
    assert chosen(tmp_path, "ann") == (
        "a.ipynb",
        "graded a.ipynb: the most recently modified of the 2 notebooks with %%puzzle cells "
        "(also there: b.ipynb, c.ipynb)",
    )


def test_without_puzzle_cells_anywhere_the_latest_notebook_is_graded(tmp_path):
    folder = work_folder(tmp_path, "ann", {"a.ipynb": NO_PUZZLE, "b.ipynb": NO_PUZZLE})
    (folder / "broken.ipynb").write_text('{"cells": [')
    touch(folder / "a.ipynb", 1_000_000)
    touch(folder / "b.ipynb", 2_000_000)
    touch(folder / "broken.ipynb", 500_000)
    name, note = chosen(tmp_path, "ann")
    assert (
        name == "b.ipynb"
        and "the most recently modified; none has %%puzzle cells" in note
        and "a.ipynb, broken.ipynb" in note
    )


def test_checkpoints_and_hidden_notebooks_are_ignored(tmp_path):
    work_folder(
        tmp_path,
        "ann",
        {
            ".ipynb_checkpoints/picross.ipynb": picross_cells(),
            ".~picross.ipynb": picross_cells(),
            "mine.ipynb": NO_PUZZLE,
        },
    )
    assert chosen(tmp_path, "ann") == ("mine.ipynb", "")


def test_a_folder_without_student_folders_is_an_error_naming_both_layouts(tmp_path):
    (tmp_path / "submitted").mkdir()
    with pytest.raises(FileNotFoundError, match=r"<student>\.ipynb files, or nbgrader's submitted/<student>/picross/"):
        find_submissions(tmp_path, "picross")
    (tmp_path / "submitted" / "ann" / "colouring").mkdir(parents=True)  # a wrong assignment name: no one has it
    with pytest.raises(FileNotFoundError, match="--assignment"):
        find_submissions(tmp_path, "picross")


def test_the_flat_layout_gives_one_entry_per_notebook(tmp_path):
    write_notebook(tmp_path / "bob.ipynb", NO_PUZZLE)
    write_notebook(tmp_path / "ann.ipynb", NO_PUZZLE)
    assert [(e.student, e.path.name, e.note) for e in find_submissions(tmp_path, "picross")] == [
        ("ann", "ann.ipynb", ""),
        ("bob", "bob.ipynb", ""),
    ]


# -- grading with the real grader -------------------------------------------------------------------


@pytest.mark.timeout(240)
def test_a_notebook_chosen_among_several_is_graded_with_a_note(tmp_path):
    work_folder(tmp_path, "bob", {"picross-copy.ipynb": NO_PUZZLE, "Untitled.ipynb": picross_cells()})
    [result] = grade(
        exercise_dir=PICROSS, submissions_dir=tmp_path, out_dir=tmp_path / "out", only=["moon"], sandbox="process"
    )
    assert [(r.instance, r.outcome) for r in result.results if r.kind == "instance"] == [("moon", Outcome.PASSED)]
    note = "graded Untitled.ipynb: the only notebook with %%puzzle cells (also there: picross-copy.ipynb)"
    assert result.notes[0] == note
    assert f"note: {note}" in (tmp_path / "out" / "feedback" / "bob.txt").read_text()


@pytest.mark.timeout(240)
def test_every_student_folder_gets_a_row_feedback_and_a_count_at_the_end(tmp_path, capsys):
    course = tmp_path / "course"
    work_folder(course, "ann", {})  # an empty picross/ folder
    work_folder(course, "bob", {"picross-copy.ipynb": NO_PUZZLE, "Untitled.ipynb": picross_cells()})
    (course / "submitted" / "cat" / "picros").mkdir(parents=True)  # no picross/ folder
    work_folder(course, "dan", {"picross.ipynb": picross_cells()})
    options = ["--only", "moon", "--sandbox", "process", "--quiet"]
    assert cli(["grade", str(PICROSS), str(course), str(tmp_path / "out"), *options]) == 0
    grades = read_csv(tmp_path / "out" / "grades.csv")
    assert {student: (row["moon"], row["total"]) for student, row in grades.items()} == {
        "ann": ("0", "0"),
        "bob": ("1", "1"),
        "cat": ("0", "0"),
        "dan": ("1", "1"),
    }
    reasons = {
        "ann": "no notebook in submitted/ann/picross/",
        "cat": "no folder submitted/cat/picross/ (it holds: picros/)",
    }
    for student, reason in reasons.items():
        feedback = (tmp_path / "out" / "feedback" / f"{student}.txt").read_text()
        assert f"moon         not run   0/1  {reason}" in feedback
        assert reason in (tmp_path / "out" / "feedback" / f"{student}.html").read_text()
    out = capsys.readouterr().out.splitlines()
    assert f"    moon         not run   0/1  {reasons['ann']}" in out  # the teacher's summary
    assert out[-4:] == [
        "4 students: 2 graded, 3 with problems (listed)",
        f"  ann: {reasons['ann']}",
        "  bob: graded Untitled.ipynb: the only notebook with %%puzzle cells (also there: picross-copy.ipynb)",
        f"  cat: {reasons['cat']}",
    ]
