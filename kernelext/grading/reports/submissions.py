"""Find the submitted notebooks: a flat folder of `<student>.ipynb`, or nbgrader's `submitted/<student>/<assignment>/`."""

from __future__ import annotations

from pathlib import Path


def find_submissions(folder: str | Path, assignment: str) -> list[tuple[str, Path]]:
    """(student, notebook) pairs, sorted by student.

    `folder` holds `<student>.ipynb` files, or is nbgrader's `submitted/` folder (or a course folder holding
    one), where each student's `<assignment>/` folder holds the notebook (`<assignment>.ipynb`, or its only one).
    Raises FileNotFoundError naming both layouts when nothing is found.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"No folder {folder}: give the folder of submitted notebooks.")
    flat = sorted(folder.glob("*.ipynb"))
    if flat:
        return [(path.stem, path) for path in flat]
    submitted = folder / "submitted" if (folder / "submitted").is_dir() else folder
    found = []
    for student in sorted(p for p in submitted.iterdir() if p.is_dir()):
        notebooks = sorted((student / assignment).glob("*.ipynb"))
        named = [p for p in notebooks if p.stem == assignment]
        if named or len(notebooks) == 1:
            found.append((student.name, (named or notebooks)[0]))
    if not found:
        raise FileNotFoundError(
            f"No submissions found in {folder}: expected {folder}/<student>.ipynb files, or nbgrader's "
            f"submitted/<student>/{assignment}/{assignment}.ipynb (use --assignment if the assignment has another name)."
        )
    return found
