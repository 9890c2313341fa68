"""Find the submitted notebooks: a flat folder of `<student>.ipynb`, or nbgrader's `submitted/<student>/<assignment>/`.

Every student folder is found, even one with no notebook to grade: it is graded 0 with the reason.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from kernelext.grading.format.notebook import cell_magic
from kernelext.grading.reports.results import Outcome, SubmissionResult

_CHOSE = "graded "  # how the note on a notebook chosen among several starts
_OTHERS = " (also there: "


@dataclass(frozen=True)
class Found:
    """One student's submission as found on disk.

    Attributes:
        student: the student's name (the notebook's or the nbgrader folder's).
        path: the notebook to grade, or None when there is none.
        note: why this notebook was chosen among several, or (path None) why there is none; "" otherwise.
    """

    student: str
    path: Path | None
    note: str = ""


def find_submissions(folder: str | Path, assignment: str) -> list[Found]:
    """One `Found` per student, sorted by student.

    `folder` holds `<student>.ipynb` files, or is nbgrader's `submitted/` folder (or a course folder holding
    one), where each student's `<assignment>/` folder holds the notebook (see `choose_notebook`).
    Raises FileNotFoundError naming both layouts when no student folder holds an `<assignment>/` folder.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"No folder {folder}: give the folder of submitted notebooks.")
    flat = sorted(folder.glob("*.ipynb"))
    if flat:
        return [Found(path.stem, path) for path in flat]
    submitted = folder / "submitted" if (folder / "submitted").is_dir() else folder
    students = sorted(p for p in submitted.iterdir() if p.is_dir() and not p.name.startswith("."))
    if not any((student / assignment).is_dir() for student in students):
        raise FileNotFoundError(
            f"No submissions found in {folder}: expected {folder}/<student>.ipynb files, or nbgrader's "
            f"submitted/<student>/{assignment}/{assignment}.ipynb "
            "(use --assignment if the assignment has another name)."
        )
    return [_found(student, assignment, f"{submitted.name}/{student.name}") for student in students]


def _found(student: Path, assignment: str, where: str) -> Found:
    work = student / assignment
    if not work.is_dir():
        there = sorted(p.name + "/" * p.is_dir() for p in student.iterdir() if not p.name.startswith("."))
        return Found(
            student.name,
            None,
            f"no folder {where}/{assignment}/" + (f" (it holds: {', '.join(there)})" if there else ""),
        )
    notebooks = _notebooks(work)
    if not notebooks:
        return Found(student.name, None, f"no notebook in {where}/{assignment}/")
    path, note = choose_notebook(notebooks, assignment, root=work)
    return Found(student.name, path, note)


def choose_notebook(notebooks: list[Path], assignment: str, *, root: Path) -> tuple[Path, str]:
    """The notebook to grade among `notebooks` (not empty), and a note saying why when there were several.

    The one named `<assignment>.ipynb` (the shallowest); else the only one with `%%puzzle` cells; else the most
    recently modified of those with `%%puzzle` cells; else (none has any) the most recently modified one.
    """
    if len(notebooks) == 1:
        return notebooks[0], ""
    named = sorted((p for p in notebooks if p.name == f"{assignment}.ipynb"), key=lambda p: len(p.parts))
    puzzles = [p for p in notebooks if _has_puzzle_cells(p)]
    if named:
        chosen, why = named[0], "named after the assignment"
    elif len(puzzles) == 1:
        chosen, why = puzzles[0], "the only notebook with %%puzzle cells"
    elif puzzles:
        chosen = max(puzzles, key=_modified)
        why = f"the most recently modified of the {len(puzzles)} notebooks with %%puzzle cells"
    else:
        chosen, why = max(notebooks, key=_modified), "the most recently modified; none has %%puzzle cells"
    others = ", ".join(p.relative_to(root).as_posix() for p in notebooks if p != chosen)
    return chosen, f"{_CHOSE}{chosen.relative_to(root).as_posix()}: {why}{_OTHERS}{others})"


def roll_call(results: list[SubmissionResult]) -> list[str]:
    """`N students: G graded, P with problems (listed)`, then `  student: why` per student with a problem.

    A problem is a submission that could not be run at all (every instance and part not run: no notebook,
    an unreadable one, no `%%puzzle` cell), or a notebook chosen among several (graded, but listed).
    """
    listed, unrun = [], 0
    for result in results:
        runs = [r for r in result.results if r.kind != "question"]
        problem = runs[0].message if runs and all(r.outcome is Outcome.NOT_RUN for r in runs) else ""
        chose = [note for note in result.notes if note.startswith(_CHOSE) and _OTHERS in note]
        unrun += bool(problem)
        if problem or chose:
            listed.append(f"  {result.student}: " + "; ".join([problem] * bool(problem) + chose))
    head = (
        f"{len(results)} student{'s' * (len(results) != 1)}: {len(results) - unrun} graded, {len(listed)} with problems"
    )
    return [head + " (listed)" * bool(listed), *listed]


def _has_puzzle_cells(path: Path) -> bool:
    """Whether the notebook at `path` has a `%%puzzle NAME` cell (False when it cannot be read)."""
    import nbformat

    try:
        cells = nbformat.read(path, as_version=4).cells
    except Exception:  # not JSON, not a notebook: read_submission says why if it is graded
        return False
    return any(c.get("cell_type") == "code" and cell_magic(str(c.get("source", ""))) == "%%puzzle" for c in cells)


def _notebooks(folder: Path) -> list[Path]:
    """The notebooks in `folder` and its sub-folders, hidden ones (`.ipynb_checkpoints/`...) left out."""
    found = []
    for where, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        found += [Path(where) / name for name in files if name.endswith(".ipynb") and not name.startswith(".")]
    return sorted(found)


def _modified(path: Path) -> tuple[float, str]:
    return path.stat().st_mtime, path.name
