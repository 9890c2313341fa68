"""Grade a folder of submitted notebooks: a grades CSV and one feedback file per student."""

from __future__ import annotations

import csv
from pathlib import Path

from kernelext.grading.exercise import Exercise, load_exercise
from kernelext.grading.notebook import read_submission
from kernelext.grading.results import SubmissionResult, format_points
from kernelext.grading.runner import grade_submissions


def grade(*, exercise_dir: str | Path, submissions_dir: str | Path, out_dir: str | Path,
          only: list[str] | None = None, time_limit: float | None = None, memory_mb: int | None = None,
          executor=None, workers: int | None = None) -> list[SubmissionResult]:
    """Grade every `*.ipynb` in `submissions_dir`; write `grades.csv` and `feedback/<student>.txt` in `out_dir`.

    Arguments:
        only: grade just these instances (by name).
        time_limit, memory_mb: override the exercise's limits per instance.
        executor: runs the instances instead of the local thread pool (see `runner.grade_submissions`).
        workers: the local pool's size (default: one per core).
    Returns:
        one SubmissionResult per notebook, sorted by student.
    """
    exercise = load_exercise(exercise_dir, only=only, time_limit=time_limit, memory_mb=memory_mb)
    if not Path(submissions_dir).is_dir():
        raise FileNotFoundError(f"No folder {submissions_dir}: give the folder of submitted notebooks.")
    submissions = [read_submission(path) for path in sorted(Path(submissions_dir).glob("*.ipynb"))]
    results = grade_submissions(exercise, submissions, executor=executor, workers=workers)
    out_dir = Path(out_dir)
    (out_dir / "feedback").mkdir(parents=True, exist_ok=True)
    write_grades(out_dir / "grades.csv", exercise, results)
    for result in results:
        (out_dir / "feedback" / f"{result.student}.txt").write_text(result.feedback() + "\n")
    return results


def write_grades(path: Path, exercise: Exercise, results: list[SubmissionResult]) -> None:
    """One row per student: points per instance, the total, and an empty column per written question."""
    with open(path, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["student", *(i.name for i in exercise.instances), "total", *exercise.questions])
        for result in results:
            points = [format_points(r.points) for r in result.results]
            writer.writerow([result.student, *points, format_points(result.points), *("" for _ in exercise.questions)])
