"""Run every submission's jobs on a pool (local threads on warm processes, or any executor such as a Dask
client), in order.

A submission's remaining runs are not started once it has timed out `max_timeouts` times or spent its
time `budget`; they are reported as not run, with the reason.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from kernelext.grading.format.exercise import Exercise
from kernelext.grading.format.notebook import Submission
from kernelext.grading.judging.by_reference import answer_check
from kernelext.grading.judging.judge import judge_run, result_for
from kernelext.grading.reports.results import InstanceResult, Outcome, SubmissionResult
from kernelext.grading.runs.jobs import Job
from kernelext.grading.runs.jvm import ace_archive
from kernelext.grading.runs.sandbox import resolve_mode
from kernelext.grading.runs.warm_pool import WarmPool, execute
from kernelext.solver.portfolio import usable_cores


@dataclass(frozen=True)
class Limits:
    """When to stop running a submission: after `max_timeouts` time-outs (0: never), past `budget` seconds."""

    max_timeouts: int = 2
    budget: float | None = None


@dataclass
class _Tally:
    """One submission's runs so far (owned by one `run_jobs` call)."""

    left: int
    timeouts: int = 0
    seconds: float = 0.0
    results: dict = field(default_factory=dict)


def jobs_for(exercise: Exercise, submission: Submission, *, sandbox: str = "process") -> list[Job]:
    """One job per instance (hidden ones labelled "hidden 1", "hidden 2"...), then one per part."""
    hidden = [i for i in exercise.instances if i.hidden]
    common = dict(
        steps=submission.steps,
        helpers=submission.helpers,
        answer=exercise.answer,
        sols=exercise.sols,
        time_limit=exercise.time_limit,
        memory_mb=exercise.memory_mb,
        sandbox=sandbox,
        strict_indexing=exercise.strict_indexing,
        data_style=exercise.data_style,
    )
    jobs = [
        Job(submission.student, f"hidden {hidden.index(i) + 1}" if i.hidden else i.name, i, **common)
        for i in exercise.instances
    ]
    jobs += [
        Job(
            submission.student,
            part.title,
            replace(part.instance, name=part.name),
            **common,
            kind="part",
            probes=part.probes,
        )
        for part in exercise.parts
    ]
    return jobs


def grade_submissions(
    exercise: Exercise,
    submissions: list[Submission],
    *,
    executor=None,
    workers: int | None = None,
    sandbox: str = "auto",
    progress: Callable[[SubmissionResult], None] | None = None,
) -> list[SubmissionResult]:
    """Run every submission on every instance and part of `exercise`; results in submission order.

    Arguments:
        executor: any object with `submit(fn, *args)` returning a future with `result()` (a
            `concurrent.futures` executor, a Dask `distributed.Client`...); runs go to a local pool when None.
        workers: runs at once (default: one per core this process may use, or the Dask cluster's thread count).
        sandbox: "auto", "bwrap" or "process" (see `kernelext.grading.runs.sandbox`).
        progress: called with each submission's result as soon as all its runs are done.
    """
    mode = resolve_mode(sandbox)
    notes = {s.student: s for s in submissions}
    runnable = [s for s in submissions if not s.problem]
    jobs = [job for s in runnable for job in jobs_for(exercise, s, sandbox=mode)]

    def finished(student: str, results: list[InstanceResult]) -> None:
        if progress is not None:
            progress(SubmissionResult(student, tuple(results), notes[student].notes))

    graded = {}
    with WarmPool() as pool:
        results = run_jobs(
            jobs,
            answer_check(exercise, run=pool.run),
            pool=pool,
            executor=executor,
            workers=workers,
            limits=Limits(exercise.max_timeouts, exercise.budget),
            on_submission=finished,
        )
    for job, result in zip(jobs, results):
        graded.setdefault(job.student, []).append(result)
    out = []
    for s in submissions:
        if s.student not in graded:
            graded[s.student] = [result_for(job, Outcome.NOT_RUN, s.problem) for job in jobs_for(exercise, s)]
            finished(s.student, graded[s.student])
        out.append(SubmissionResult(s.student, tuple(graded[s.student]), s.notes))
    return out


def run_jobs(
    jobs: list[Job],
    check,
    *,
    pool: WarmPool,
    executor=None,
    workers: int | None = None,
    limits: Limits = Limits(),
    on_submission: Callable[[str, list[InstanceResult]], None] | None = None,
) -> list[InstanceResult]:
    """Run `jobs` in parallel on `pool`'s warm processes (or as tasks of `executor`) and judge each here with
    `check` (see `by_reference.answer_check`); the results come back in the jobs' order."""
    if not jobs:
        return []
    archive = ace_archive(jobs[0].memory_mb)
    jobs = [replace(job, jvm_archive=archive) for job in jobs]
    tallies: dict[str, _Tally] = {}
    for job in jobs:
        tallies.setdefault(job.student, _Tally(0)).left += 1
    lock = threading.Lock()
    run = pool.run if executor is None else (lambda job: executor.submit(execute, job).result())

    def one(index: int) -> InstanceResult:
        job = jobs[index]
        tally = tallies[job.student]
        with lock:
            reason = _stop_reason(tally, limits)
        started = time.monotonic()
        result = result_for(job, Outcome.NOT_RUN, reason) if reason else judge_run(job, run(job), check)
        with lock:
            tally.seconds += time.monotonic() - started
            tally.timeouts += result.outcome is Outcome.TIMEOUT
            tally.results[index] = result
            tally.left -= 1
            done = [tally.results[i] for i in sorted(tally.results)] if tally.left == 0 else None
            if done is not None and on_submission is not None:
                on_submission(job.student, done)
        return result

    with ThreadPoolExecutor(max_workers=workers or _capacity(executor)) as pool:
        return list(pool.map(one, range(len(jobs))))


def _stop_reason(tally: _Tally, limits: Limits) -> str:
    if limits.max_timeouts and tally.timeouts >= limits.max_timeouts:
        return f"not run: this notebook's runs stopped after {tally.timeouts} time-out{'s' * (tally.timeouts > 1)}"
    if limits.budget is not None and tally.seconds >= limits.budget:
        return f"not run: this notebook used up its time budget ({limits.budget:g} s)"
    return ""


def _capacity(executor) -> int:
    """Runs at once: the Dask cluster's threads when it says, else one per core this process may use."""
    try:
        return max(1, sum(executor.nthreads().values()))
    except Exception:
        return usable_cores()
