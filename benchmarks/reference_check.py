"""Does the instructor's model judge answers as each kind's own check does, and what does it cost?

Run: python benchmarks/reference_check.py [EXERCISE ...]

For each shipped exercise checked by a kind's answer check (all of them by default): the instructor notebook,
and one notebook per `%%puzzle+` step left out (a student who forgot it), are graded twice in one run, once
with the kind's check and once with `"checker": "reference"` (graded parts left out of both). Each instance's
outcome must be the same; the wall time of both gradings is printed, with their ratio.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from kernelext.grading import grade
from kernelext.grading.format.answer_checks import REFERENCE

EXERCISES = Path(__file__).resolve().parent.parent / "exercises"


def variants(instructor: Path, folder: Path) -> None:
    """The instructor notebook, and one notebook per step cell left out, in `folder`."""
    notebook = nbformat.read(instructor, as_version=4)
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    steps = [i for i, source in enumerate(code) if source.lstrip().startswith("%%puzzle+")]
    folder.mkdir()
    nbformat.write(notebook, folder / "right.ipynb")
    for number, left_out in enumerate(steps, start=1):
        cells = [new_code_cell(source) for i, source in enumerate(code) if i != left_out]
        nbformat.write(new_notebook(cells=cells), folder / f"without_step_{number + 1}.ipynb")


def copy_with(exercise: Path, target: Path, checker: str) -> Path:
    shutil.copytree(exercise, target)
    config = json.loads((target / "exercise.json").read_text())
    config.pop("parts", None)
    (target / "exercise.json").write_text(json.dumps({**config, "checker": checker}))
    return target


def compare(exercise: Path, work: Path) -> tuple[int, int, float, float]:
    """(items, items judged alike, seconds with the kind's check, seconds with the reference)."""
    checker = json.loads((exercise / "exercise.json").read_text())["checker"]
    variants(exercise / "instructor.ipynb", work / "in")
    seconds, outcomes = [], []
    for name, check in (("kind", checker), ("reference", REFERENCE)):
        folder = copy_with(exercise, work / name, check)
        started = time.monotonic()
        results = grade(exercise_dir=folder, submissions_dir=work / "in", out_dir=work / f"{name}-out")
        seconds.append(time.monotonic() - started)
        outcomes.append(
            {
                (r.student, i.instance): (i.outcome.value, i.message)
                for r in results
                for i in r.results
                if i.kind == "instance"
            }
        )
    kind, reference = outcomes
    for key in sorted(kind):
        if kind[key][0] != reference[key][0]:
            print(f"  DIFFERENT {exercise.name} {key}: {kind[key]} / {reference[key]}")
    alike = sum(kind[key][0] == reference[key][0] for key in kind)
    return len(kind), alike, *seconds


def kind_checked() -> list[str]:
    """The shipped exercises checked by a kind's answer check."""
    return sorted(
        p.parent.name
        for p in EXERCISES.glob("*/exercise.json")
        if json.loads(p.read_text()).get("checker", REFERENCE) != REFERENCE
        and ":" not in json.loads(p.read_text())["checker"]
    )


def main() -> None:
    checked = kind_checked()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "exercises",
        nargs="*",
        metavar="EXERCISE",
        help=f"exercises/ folders to compare (default: {', '.join(checked)})",
    )
    names = parser.parse_args().exercises or checked
    print(f"{'exercise':<16}{'items':>6}{'alike':>7}{'kind s':>9}{'reference s':>13}{'ratio':>7}")
    totals = [0, 0, 0.0, 0.0]
    for name in names:
        with tempfile.TemporaryDirectory(prefix="kernelext-reference-") as work:
            figures = compare(EXERCISES / name, Path(work))
        totals = [a + b for a, b in zip(totals, figures)]
        items, alike, kind, reference = figures
        print(f"{name:<16}{items:>6}{alike:>7}{kind:>9.1f}{reference:>13.1f}{reference / kind:>7.2f}")
    items, alike, kind, reference = totals
    print(f"{'all':<16}{items:>6}{alike:>7}{kind:>9.1f}{reference:>13.1f}{reference / kind:>7.2f}")


if __name__ == "__main__":
    main()
