"""Grade submitted notebooks: a grades CSV, and feedback per student as text and HTML."""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from kernelext.grading.format.exercise import Exercise, load_exercise
from kernelext.grading.format.notebook import Submission, read_submission
from kernelext.grading.judging.schedule import grade_submissions, jobs_for
from kernelext.grading.reports.results import Outcome, SubmissionResult, format_points
from kernelext.grading.reports.scores import read_scores, with_questions
from kernelext.grading.reports.submissions import Found, find_submissions
from kernelext.grading.runs.sandbox import exposed, resolve_mode
from kernelext.scratch import reap_stale_folders


def grade(
    *,
    exercise_dir: str | Path,
    submissions_dir: str | Path,
    out_dir: str | Path,
    only: list[str] | None = None,
    time_limit: float | None = None,
    memory_mb: int | None = None,
    executor=None,
    workers: int | None = None,
    sandbox: str = "auto",
    max_timeouts: int | None = None,
    budget: float | None = None,
    scores: str | Path | None = None,
    assignment: str | None = None,
    progress: Callable[[SubmissionResult], None] | None = None,
) -> list[SubmissionResult]:
    """Grade the notebooks in `submissions_dir`; write `grades.csv` and `feedback/<student>.txt|.html` in `out_dir`.

    Arguments:
        submissions_dir: `<student>.ipynb` files, or nbgrader's `submitted/<student>/<assignment>/` layout; a
            student folder without a notebook to grade gets 0 with the reason (see `find_submissions`).
        only: grade just these instances and parts (by name).
        time_limit, memory_mb: override the exercise's limits per run.
        executor: runs the jobs instead of the local pool (see `schedule.grade_submissions`).
        workers: runs at once (default: one per core).
        sandbox: "auto" (bwrap when it works here), "bwrap" or "process"; see `kernelext.grading.runs.sandbox`.
        max_timeouts, budget: stop a submission's runs after this many time-outs, or past this many seconds.
        scores: a CSV of the written questions' points (`student,Q1,Q2...`), counted in the totals.
        assignment: the nbgrader assignment's name (default: the exercise folder's name).
        progress: called with each submission's result as soon as it is graded.
    Returns:
        one SubmissionResult per student, sorted by student.
    """
    exercise = load_exercise(
        exercise_dir, only=only, time_limit=time_limit, memory_mb=memory_mb, max_timeouts=max_timeouts, budget=budget
    )
    reap_stale_folders()  # run folders of a grader that was killed before it could remove them
    mode = resolve_mode(sandbox)
    reachable = exposed(mode, sorted(Path(exercise_dir).glob("hidden/*.json")))
    if reachable:
        raise ValueError(
            f"The sandbox binds the folder holding {reachable[0]}, so student code could read it: "
            "keep exercises outside the Python installation, the virtual environment and /usr."
        )
    marks = read_scores(scores, exercise.questions) if scores else {}
    found = find_submissions(submissions_dir, assignment or exercise.name)
    submissions = [_read(entry, exercise.answer) for entry in found]
    tell = None if progress is None else (lambda result: progress(with_questions(result, exercise.questions, marks)))
    results = [
        with_questions(r, exercise.questions, marks)
        for r in grade_submissions(
            exercise, submissions, executor=executor, workers=workers, sandbox=mode, progress=tell
        )
    ]
    out_dir = Path(out_dir)
    (out_dir / "feedback").mkdir(parents=True, exist_ok=True)
    write_grades(out_dir / "grades.csv", exercise, results)
    for result in results:
        (out_dir / "feedback" / f"{result.student}.txt").write_text(result.feedback() + "\n")
        (out_dir / "feedback" / f"{result.student}.html").write_text(result.feedback_html())
    return results


def _read(entry: Found, answer: str | None) -> Submission:
    """The submission of a found entry: its notebook's model, noting why that notebook; or (no notebook) why not."""
    if entry.path is None:
        return Submission(entry.student, problem=entry.note)
    submission = read_submission(entry.path, student=entry.student, answer=answer)
    return replace(submission, notes=(entry.note, *submission.notes)) if entry.note else submission


def columns(exercise: Exercise) -> list[str]:
    """The grades file's columns: instances as students see them ("hidden 1"), parts, questions, total."""
    labels = [job.label if job.kind == "instance" else job.instance.name for job in jobs_for(exercise, Submission(""))]
    return ["student", *labels, *(q.name for q in exercise.questions), "total"]


def write_grades(path: Path, exercise: Exercise, results: list[SubmissionResult]) -> None:
    """One row per student: points per instance, part and written question (blank until marked), the total."""
    with open(path, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(columns(exercise))
        for result in results:
            points = ["" if r.outcome is Outcome.TO_GRADE else format_points(r.points) for r in result.results]
            writer.writerow([result.student, *points, format_points(result.points)])
