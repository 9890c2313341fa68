"""Check an exercise before students see it: `kernelext-grade validate EXERCISE`.

The instructor notebook must earn full marks on every instance and part; the released student notebook
must earn nothing and crash nowhere; every instance must hold what its checker needs; the reference model must
judge by the puzzle's rules alone (no unmarked step refuses a right answer: see `rule_audit`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from kernelext.grading.authoring.rule_audit import rule_problems
from kernelext.grading.format.answer_checks import REFERENCE
from kernelext.grading.format.exercise import load_exercise
from kernelext.grading.format.release import release
from kernelext.grading.judging.grade import grade
from kernelext.grading.reports.results import Outcome


def validate(exercise_dir: str | Path, *, sandbox: str = "auto") -> tuple[list[str], list[str]]:
    """Grade the instructor and the released student notebooks; (lines saying how each did, problems)."""
    exercise = load_exercise(exercise_dir)
    problems = _instance_problems(exercise)
    if not (exercise.folder / "instructor.ipynb").is_file():
        return [], problems + [f"no instructor.ipynb in {exercise.folder}"]
    with tempfile.TemporaryDirectory(prefix="kernelext-validate-") as work:
        work = Path(work)
        student = release(exercise_dir=exercise.folder, out_dir=work / "release")
        (work / "in").mkdir()
        (work / "in" / "instructor.ipynb").write_bytes((exercise.folder / "instructor.ipynb").read_bytes())
        (work / "in" / "student.ipynb").write_bytes(student.read_bytes())
        results = {
            r.student: r
            for r in grade(
                exercise_dir=exercise.folder, submissions_dir=work / "in", out_dir=work / "out", sandbox=sandbox
            )
        }
    teacher, released = results["instructor"], results["student"]
    graded = [r for r in teacher.results if r.kind != "question"]
    told = [
        f"instructor notebook: {sum(r.points for r in graded):g}/{sum(r.max_points for r in graded):g} points "
        f"on {len(graded)} instances and parts",
        f"student notebook: {released.points:g} points, "
        f"{sum(r.outcome in (Outcome.CRASHED, Outcome.TIMEOUT) for r in released.results)} crashes or time-outs",
    ]
    problems += [
        f"instructor notebook: {r.instance} {r.outcome.value}: {r.message}"
        for r in graded
        if r.outcome is not Outcome.PASSED
    ]
    problems += [
        f"student notebook: {r.instance} earns {r.points:g} points: is a solution left outside the solution markers?"
        for r in released.results
        if r.points > 0
    ]
    problems += [
        f"student notebook: {r.instance} {r.outcome.value}: {r.message}"
        for r in released.results
        if r.outcome in (Outcome.CRASHED, Outcome.TIMEOUT) or "the exercise is at fault" in r.message
    ]
    if exercise.checker == REFERENCE and exercise.audit_rules:
        audited, wrong_rules = rule_problems(exercise)
        told += audited
        problems += wrong_rules
    return told, problems


def _instance_problems(exercise) -> list[str]:
    """Instances missing what grading them needs."""
    problems = []
    if not exercise.public:
        problems.append("no public instance: students need one to run their notebook")
    if not any(i.hidden for i in exercise.instances):
        problems.append("no hidden instance: an answer hard-coded for the public ones would get full marks")
    for instance in exercise.instances:
        where = f"{'hidden' if instance.hidden else 'public'}/{instance.name}.json"
        if exercise.sols == "all" and "n_solutions" not in instance.expected and exercise.checker != REFERENCE:
            problems.append(f"{where}: no expected n_solutions: run kernelext-grade instances")
        if exercise.checker == REFERENCE and not instance.hidden and "rules" not in instance.expected:
            problems.append(
                f"{where}: no stored rules, so %puzzle check cannot judge it: run kernelext-grade instances"
            )
    return problems
