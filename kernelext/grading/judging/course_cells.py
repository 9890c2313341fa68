"""The grader inside nbgrader's autograde, cell by cell: `%puzzle grading NAME` records the notebook's code cells
below it instead of running them in nbgrader's kernel (the `%%puzzle` cells as the model, the others for their
imports and definitions), `%puzzle points GROUP` grades the model (once, as `kernelext-grade grade` does: in a
sandbox of its own, checked by the grader here) and gives a group's points as the cell's value, which nbgrader
takes as that cell's partial credit.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import warnings
from dataclasses import replace
from pathlib import Path

from kernelext.grading.format.exercise import load_exercise
from kernelext.grading.format.notebook import extract_model
from kernelext.grading.judging.public_check import check_public, helper_sources
from kernelext.grading.judging.schedule import grade_submissions
from kernelext.grading.reports.results import Outcome, StudentFeedback, SubmissionResult
from kernelext.grading.runs.sandbox import exposed, resolve_mode

COURSE_COPIES = "kernelext-exercises"  # in the course folder, beside nbgrader's: never released
STUDENT = "you"  # nbgrader's kernel does not know whose notebook it runs
HIDDEN_NOTE = "The hidden instances are graded by your teacher's grader, with the same checks as the public ones."


class CourseGrading:
    """One notebook's grading under nbgrader: the `%%puzzle` cells recorded, then graded once.

    Arguments:
        assignment: the exercise's course copy, `kernelext-exercises/<assignment>/` in the course folder (found
            from the notebook's folder up), with its reference model and hidden instances (never released).
        namespace: the notebook's user namespace (its imports and functions are the model's helpers).
    """

    def __init__(self, assignment: str, namespace: dict):
        exercise_dir = course_copy(assignment)
        self.exercise = load_exercise(exercise_dir)
        reachable = exposed(resolve_mode("auto"), sorted(Path(exercise_dir).glob("hidden/*.json")))
        if reachable:
            raise ValueError(f"The sandbox binds the folder holding {reachable[0]}: keep the course outside /usr.")
        self.namespace = namespace
        self.cells: list[str] = []
        self._result: SubmissionResult | None = None

    def record(self, magic_line: str, body: str) -> str:
        """Keep a `%%puzzle` or `%%puzzle+` cell for grading; the line the notebook shows."""
        self.cells.append(f"{magic_line}\n{body}")
        self._result = None
        return self._said(len(self.cells))

    def record_cell(self, source: str) -> str:
        """Keep another code cell for grading (it gives the model its imports and definitions), once however often
        the kernel transforms it; the line the notebook shows."""
        if source not in self.cells:
            self.cells.append(source)
            self._result = None
        return self._said(self.cells.index(source) + 1)

    @staticmethod
    def _said(number: int) -> str:
        return f"Recorded for grading (cell {number}): the grader runs it in its sandbox."

    def points(self, group: str) -> tuple[StudentFeedback, float]:
        """A group's results as the student sees them, and its points: "public", "hidden" or a part's name."""
        result = self._graded()
        items = tuple(r for r in result.results if _in_group(r, group))
        if not items:
            parts = ", ".join(p.name for p in self.exercise.parts)
            raise ValueError(f"%puzzle points {group}: give public, hidden{' or a part: ' + parts if parts else ''}.")
        return StudentFeedback(replace(result, results=items)), float(sum(r.points for r in items))

    def _graded(self) -> SubmissionResult:
        if self._result is None:
            submission = extract_model(STUDENT, self.cells, answer=self.exercise.answer)
            submission = replace(submission, helpers=helper_sources(self.namespace) + submission.helpers)
            with _quiet():
                [self._result] = grade_submissions(self.exercise, [submission])
        return self._result


def course_copy(assignment: str, here: Path | None = None) -> Path:
    """The folder `kernelext-exercises/<assignment>` in `here` (the working folder: nbgrader's autograde runs a
    notebook in `autograded/<student>/<assignment>/`) or the nearest folder above it that holds one."""
    here = (here or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        found = folder / COURSE_COPIES / assignment
        if (found / "exercise.json").is_file():
            return found
    raise FileNotFoundError(f"No {COURSE_COPIES}/{assignment}/ in {here} or above: run kernelext-grade nbgrader.")


def runs_while_grading(source: str) -> bool:
    """Whether a cell runs in nbgrader's kernel while grading: the grader's own cells (`%puzzle points`), and the
    `%%puzzle` cells, which record themselves."""
    return source.lstrip().startswith("%%puzzle") or bool(re.search(r"^\s*%puzzle\s+(points|grading)\b", source, re.M))


def own_points(session, group: str, exercise_dir: str | Path = ".") -> tuple[object, float | None]:
    """In a student's own released notebook: the public instances checked (see `check_public`) and their
    points; the hidden ones wait for the grader (no points)."""
    if group == "hidden":
        return HIDDEN_NOTE, None
    parts = [part.name for part in load_exercise(exercise_dir, public_only=True).parts]
    if group != "public" and group not in parts:
        raise ValueError(
            f"%puzzle points {group}: give public, hidden{' or a part: ' + ', '.join(parts) if parts else ''}."
        )
    report = check_public(session, exercise_dir)
    if group == "public":
        return report, float(sum(r.points for r in report.results if r.outcome is Outcome.PASSED))
    return report, None


def _in_group(result, group: str) -> bool:
    if group in ("public", "hidden"):
        return result.kind == "instance" and result.hidden == (group == "hidden")
    return result.kind == "part" and result.instance == group


@contextlib.contextmanager
def _quiet():
    """Nothing on stderr while grading: nbgrader gives 0 points to a test cell that writes there (the
    file descriptor too, where the sandboxes' processes would write)."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as sink, contextlib.redirect_stderr(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            os.dup2(sink.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
