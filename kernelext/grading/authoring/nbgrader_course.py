"""An exercise as an nbgrader assignment: `kernelext-grade nbgrader EXERCISE COURSE_DIR --assignment NAME`.

Writes `COURSE_DIR/source/NAME/`: the instructor notebook as nbgrader's source (its solution regions already
carry nbgrader's metadata), what a student's copy reads beside it (`exercise.json`, `public/`), and autograder
test cells, one per graded group (public instances, hidden instances, each part), worth the group's points.
The whole exercise, hidden instances and reference model included, goes to `COURSE_DIR/kernelext-exercises/NAME/`,
which nbgrader never releases. The set-up cells above the model are locked (nbgrader puts them back as they were). A 0-point test cell before
the model holds, in a hidden-tests region that
nbgrader strips from `release/` and puts back at `autograde`, `%puzzle grading NAME` (the grader finds that folder
from the notebook's): at autograde the code cells below are then recorded rather than run in nbgrader's kernel, and
the test cells grade them as `kernelext-grade grade` does, the student's code in the grader's sandbox.
"""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

from kernelext.grading.format.exercise import load_exercise
from kernelext.grading.format.notebook import cell_magic
from kernelext.grading.format.release import copy_public_files, handout_notebook
from kernelext.grading.judging.course_cells import COURSE_COPIES
from kernelext.grading.runs.jobs import GRACE

HIDDEN_BEGIN, HIDDEN_END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
KERNEL_START = 60.0  # seconds an autograde cell may need beyond the runs (the grader's processes start)


def nbgrader_source(exercise_dir: str | Path, course_dir: str | Path, assignment: str) -> list[str]:
    """Write the assignment's source and the exercise's course copy; the lines saying what was written and
    the nbgrader settings it needs."""
    import nbformat

    exercise_dir, course = Path(exercise_dir), Path(course_dir).resolve()
    exercise = load_exercise(exercise_dir)
    if not (exercise_dir / "instructor.ipynb").is_file():
        raise FileNotFoundError(f"No instructor.ipynb in {exercise_dir}: nbgrader's source is made from it.")
    kept = course / COURSE_COPIES / assignment
    if kept.exists():
        shutil.rmtree(kept)
    shutil.copytree(exercise_dir, kept, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    source = course / "source" / assignment
    if source.exists():
        shutil.rmtree(source)
    source.mkdir(parents=True)
    notebook = handout_notebook(exercise_dir)
    groups = _groups(exercise)
    first = _first_model_cell(notebook.cells)
    for number, cell in enumerate(notebook.cells[:first], start=1):  # the set-up: put back as it was at autograde
        if cell.cell_type == "code" and "nbgrader" not in cell.metadata:
            cell.metadata["nbgrader"] = {**_test_metadata(f"kernelext-setup-{number}", 0), "grade": False}
            del cell.metadata["nbgrader"]["points"]
    notebook.cells.insert(first, _grading_cell(nbformat, assignment))
    notebook.cells += [_points_cell(nbformat, *group) for group in groups]
    nbformat.write(notebook, source / f"{assignment}.ipynb")
    copy_public_files(exercise_dir, source)
    timeout = math.ceil(2 * (exercise.time_limit + GRACE) * (len(exercise.instances) + len(exercise.parts)))
    return [
        f"Wrote {source}/{assignment}.ipynb: {len(groups)} autograded cells ("
        + ", ".join(f"{title} {points:g}" for _, title, points in groups)
        + " points), with exercise.json and public/",
        f"Wrote {kept}: the exercise as the grader reads it at autograde (never released)",
        f"In nbgrader_config.py: c.Execute.timeout = {timeout + math.ceil(KERNEL_START)} (the first graded cell "
        "runs every instance)",
        f"Next: nbgrader generate_assignment {assignment}",
    ]


def _groups(exercise) -> list[tuple[str, str, float]]:
    """(group, title, points): the public instances, the hidden ones, then each part."""
    groups = []
    for group, hidden in (("public", False), ("hidden", True)):
        points = sum(i.points for i in exercise.instances if i.hidden == hidden)
        if any(i.hidden == hidden for i in exercise.instances):
            groups.append((group, f"{group} instances", points))
    return groups + [(part.name, f'part "{part.title}"', part.points) for part in exercise.parts]


def _first_model_cell(cells) -> int:
    """Where the grading cell goes: before the first `%%puzzle` cell."""
    for index, cell in enumerate(cells):
        if cell.cell_type == "code" and cell_magic(cell.source.lstrip()).startswith("%%puzzle"):
            return index
    raise ValueError("The instructor notebook has no %%puzzle cell: there is no model to grade.")


def _grading_cell(nbformat, assignment: str):
    name = f'"{assignment}"' if any(c.isspace() for c in assignment) else assignment
    source = (
        "# The grader's set-up: empty in your copy, filled in by nbgrader when it grades.\n"
        f"{HIDDEN_BEGIN}\n%puzzle grading {name}\n{HIDDEN_END}"
    )
    return nbformat.v4.new_code_cell(
        source, id="kernelext-grading", metadata={"nbgrader": _test_metadata("kernelext-grading", 0)}
    )


def _points_cell(nbformat, group: str, title: str, points: float):
    note = (
        "run it to check your model on them"
        if group == "public"
        else "only the grader has them"
        if group == "hidden"
        else "run it to check this part"
    )
    source = f"# Your model's points on the {title} ({note}).\n%puzzle points {group}"
    grade_id = "kernelext-" + re.sub(r"[^A-Za-z0-9_-]+", "-", group)
    return nbformat.v4.new_code_cell(source, id=grade_id, metadata={"nbgrader": _test_metadata(grade_id, points)})


def _test_metadata(grade_id: str, points: float) -> dict:
    """nbgrader's metadata of an autograder test cell."""
    return {
        "grade": True,
        "grade_id": grade_id,
        "locked": True,
        "points": points,
        "schema_version": 3,
        "solution": False,
        "task": False,
    }
