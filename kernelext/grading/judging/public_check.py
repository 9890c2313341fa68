"""Check a model in progress on an exercise's public instances (what `%puzzle check` runs)."""

from __future__ import annotations

import inspect
import types
from dataclasses import replace
from pathlib import Path

from kernelext.grading.format.exercise import load_exercise
from kernelext.grading.format.notebook import Submission
from kernelext.grading.judging.by_reference import answer_check
from kernelext.grading.judging.judge import judge_run
from kernelext.grading.judging.schedule import jobs_for, run_jobs
from kernelext.grading.reports.results import CheckReport
from kernelext.grading.runs.instance_run import run_here
from kernelext.grading.runs.sandbox import resolve_mode
from kernelext.grading.runs.warm_pool import WarmPool
from kernelext.solver.choice import in_browser


def check_public(
    model,
    exercise_dir: str | Path = ".",
    *,
    namespace: dict | None = None,
    executor=None,
    sandbox: str = "auto",
    timeout: float | None = None,
) -> CheckReport:
    """Run a model on the public instances of the exercise in `exercise_dir`, each in a process of its own (in a
    browser, one after the other in the kernel's process).

    Arguments:
        model: a PuzzleSession, its `steps`, or the steps' sources (strings), in order.
        namespace: where to find the functions, classes and imports the steps use (a notebook's user
            namespace); a PuzzleSession's own namespace by default.
        executor: runs the instances instead of a local thread pool.
        sandbox: where the model runs: "auto", "bwrap" or "process" (see `kernelext.grading.runs.sandbox`).
        timeout: seconds for the whole check: no instance runs longer, and none starts once the runs have used
            them up (the exercise's own limits otherwise).
    Returns:
        a CheckReport: one row per public instance (passed, failed, error, timed out, crashed).
    """
    if namespace is None:
        namespace = getattr(model, "namespace", None) or {}
    steps = getattr(model, "steps", model)
    sources = tuple(getattr(step, "source", step) for step in steps)
    exercise = replace(load_exercise(exercise_dir, public_only=True), parts=())
    if timeout is not None:
        exercise = replace(exercise, time_limit=min(exercise.time_limit, timeout), budget=timeout)
    submission = Submission("you", sources, helper_sources(namespace))
    if not sources:
        return CheckReport(exercise.name, (), ("no steps yet: start the puzzle with a %%puzzle NAME cell",))
    if in_browser():
        check = answer_check(exercise)
        return CheckReport(
            exercise.name, tuple(judge_run(job, run_here(job), check) for job in jobs_for(exercise, submission))
        )
    jobs = jobs_for(exercise, submission, sandbox=resolve_mode(sandbox))
    with WarmPool() as pool:
        results = run_jobs(jobs, answer_check(exercise, run=pool.run), pool=pool, executor=executor)
    return CheckReport(exercise.name, tuple(results))


def helper_sources(namespace: dict) -> tuple[str, ...]:
    """Sources that recreate the namespace's notebook-defined functions and classes, and its imported modules."""
    sources = []
    for name, value in namespace.items():
        if isinstance(value, types.ModuleType) and not name.startswith("_"):
            sources.append(f"import {value.__name__} as {name}")
        elif _defined_in_notebook(value):
            sources.append(inspect.getsource(value))
    return tuple(sources)


def _defined_in_notebook(value) -> bool:
    if not (inspect.isfunction(value) or inspect.isclass(value)) or value.__module__ != "__main__":
        return False
    try:
        filename = inspect.getsourcefile(value) or ""
        inspect.getsource(value)
    except (OSError, TypeError):
        return False
    return not filename.startswith("<puzzle-step-")
