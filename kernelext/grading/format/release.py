"""Notebooks out: the student version of an exercise, and what it reads beside it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from kernelext.grading.format.exercise import load_exercise
from kernelext.grading.format.graded_summary import TAG, graded_summary
from kernelext.grading.format.notebook import BEGIN, END, strip_solutions
from kernelext.publish.handout import KERNELSPEC


def release(*, exercise_dir: str | Path, out_dir: str | Path) -> Path:
    """Write the student version of an exercise into `out_dir`; return the notebook's path.

    The notebook loses its solutions (replaced by a placeholder) and its outputs; `exercise.json`, the public
    instances and the exercise's own check file (if it has one) are copied; the hidden instances and the
    instructor notebook are not. A markdown cell tagged `graded-summary`, after the first markdown cell (or in
    place of one the notebook has), says what is graded (see `graded_summary`).
    """
    import nbformat

    exercise_dir, out_dir = Path(exercise_dir), Path(out_dir)
    notebook = handout_notebook(exercise_dir)
    for number, cell in enumerate(notebook.cells, start=1):
        cell.source = strip_solutions(cell.source, cell.cell_type)
        if BEGIN in cell.source or END in cell.source:
            raise ValueError(f"Cell {number} of the instructor notebook has an unpaired solution marker.")
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{exercise_dir.resolve().name}.ipynb"
    nbformat.write(notebook, target)
    copy_public_files(exercise_dir, out_dir)
    return target


def handout_notebook(exercise_dir: Path):
    """The instructor notebook without outputs, with the cell saying what is graded (solutions still in)."""
    import nbformat

    notebook = nbformat.read(exercise_dir / "instructor.ipynb", as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    tagged = [i for i, cell in enumerate(notebook.cells) if TAG in cell.metadata.get("tags", [])]
    notebook.cells = [cell for cell in notebook.cells if TAG not in cell.metadata.get("tags", [])]
    first = next((i + 1 for i, cell in enumerate(notebook.cells) if cell.cell_type == "markdown"), 0)
    summary = graded_summary(load_exercise(exercise_dir, public_only=True))  # hidden instances only counted
    # a fixed id, so that releasing again writes the same file (cells have no id before nbformat 4.5)
    summary_cell = nbformat.v4.new_markdown_cell(summary, id=TAG, metadata={"tags": [TAG]})
    if notebook.nbformat_minor < 5:
        del summary_cell["id"]
    notebook.cells.insert(tagged[0] if tagged else first, summary_cell)
    notebook.metadata.pop("widgets", None)
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)  # as JupyterLab writes it: opening it changes nothing
    return notebook


def copy_public_files(exercise_dir: Path, out_dir: Path) -> None:
    """Copy what a student's notebook reads beside it: `exercise.json`, `public/`, the exercise's check file."""
    shutil.copyfile(exercise_dir / "exercise.json", out_dir / "exercise.json")
    shutil.copytree(exercise_dir / "public", out_dir / "public", dirs_exist_ok=True)
    checker = json.loads((exercise_dir / "exercise.json").read_text()).get("checker", "")
    if ":" in checker:  # a check in the folder: `%puzzle check` needs it beside the public instances
        shutil.copyfile(exercise_dir / checker.partition(":")[0], out_dir / checker.partition(":")[0])
