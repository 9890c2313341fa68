"""Written questions: the points the teacher enters in a CSV (one row per student, one column per question)."""

from __future__ import annotations

import csv
from pathlib import Path

from kernelext.grading.format.exercise import Question
from kernelext.grading.reports.results import InstanceResult, Outcome, SubmissionResult


def read_scores(path: str | Path, questions: tuple[Question, ...]) -> dict[str, dict[str, float]]:
    """{student: {"Q1": points...}} from a CSV with a `student` column and one per question; blanks are left out.

    Raises ValueError naming the cell to fix when a value is not a number or exceeds the question's points.
    """
    limits = {q.name: q.points for q in questions}
    scores: dict[str, dict[str, float]] = {}
    with open(path, newline="") as file:
        rows = list(csv.DictReader(file))
    if rows and "student" not in rows[0]:
        raise ValueError(f"{path}: the first row must name the columns, starting with `student`.")
    for row in rows:
        marks = {}
        for name, limit in limits.items():
            text = (row.get(name) or "").strip()
            if not text:
                continue
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"{path}: {row['student']}'s {name} is {text!r}; write a number.") from None
            if not 0 <= value <= limit:
                raise ValueError(f"{path}: {row['student']}'s {name} is {text}; give between 0 and {limit:g}.")
            marks[name] = value
        scores[row["student"]] = marks
    return scores


def with_questions(
    result: SubmissionResult, questions: tuple[Question, ...], scores: dict[str, dict[str, float]]
) -> SubmissionResult:
    """`result` with one item per written question: the teacher's points, or "to grade"."""
    marks = scores.get(result.student, {})
    items = tuple(
        InstanceResult(
            q.name,
            False,
            q.name,
            Outcome.GRADED if q.name in marks else Outcome.TO_GRADE,
            marks.get(q.name, 0.0),
            q.points,
            "" if q.name in marks else "marked by hand",
            kind="question",
        )
        for q in questions
    )
    return SubmissionResult(result.student, result.results + items, result.notes)
