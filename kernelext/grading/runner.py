"""Run submissions on instances: each run in its own limited process, many runs in parallel, answers checked here."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from kernelext.grading.checkers import CHECKERS
from kernelext.grading.exercise import Exercise, Instance
from kernelext.grading.jvm import ace_archive
from kernelext.grading.notebook import Submission
from kernelext.grading.results import InstanceResult, Outcome, SubmissionResult
from kernelext.scratch import scratch_folder

GRACE = 3.0  # seconds a run gets beyond its time limit before its process group is killed
OUTPUT_CAP = 64 * 1024  # bytes of a run's output kept (the rest is read and dropped)


@dataclass(frozen=True)
class Job:
    """One submission on one instance: everything a run needs (picklable, for remote executors)."""

    student: str
    label: str
    instance: Instance
    steps: tuple[str, ...]
    helpers: tuple[str, ...]
    answer: str
    checker: str
    sols: int | str
    time_limit: float
    memory_mb: int
    jvm_archive: str = ""


def grade_submissions(exercise: Exercise, submissions: list[Submission], *, executor=None,
                      workers: int | None = None) -> list[SubmissionResult]:
    """Run every submission on every instance of `exercise`.

    Arguments:
        executor: any object with `submit(fn, *args)` returning a future with `result()` (a
            `concurrent.futures` executor, a Dask `distributed.Client`...); a local thread pool
            of `workers` threads (default: one per core) when None.
    """
    runnable = [s for s in submissions if not s.problem]
    jobs = [job for s in runnable for job in jobs_for(exercise, s)]
    results = iter(run_jobs(jobs, executor=executor, workers=workers))
    by_student = {s.student: tuple(next(results) for _ in exercise.instances) for s in runnable}
    graded = []
    for s in submissions:
        instance_results = by_student.get(s.student) or tuple(
            _result(job, Outcome.NOT_RUN, s.problem) for job in jobs_for(exercise, s))
        graded.append(SubmissionResult(s.student, instance_results, s.notes))
    return graded


def jobs_for(exercise: Exercise, submission: Submission) -> list[Job]:
    """One job per instance of `exercise`, hidden instances labelled "hidden 1", "hidden 2"..."""
    hidden = [i for i in exercise.instances if i.hidden]
    return [Job(submission.student, f"hidden {hidden.index(i) + 1}" if i.hidden else i.name, i, submission.steps,
                submission.helpers, exercise.answer, exercise.checker, exercise.sols, exercise.time_limit,
                exercise.memory_mb) for i in exercise.instances]


def run_jobs(jobs: list[Job], *, executor=None, workers: int | None = None) -> list[InstanceResult]:
    """Run `jobs` in parallel; the results come back in the jobs' order."""
    if jobs:
        archive = ace_archive(jobs[0].memory_mb)
        jobs = [replace(job, jvm_archive=archive) for job in jobs]
    if executor is not None:
        futures = [executor.submit(run_job, job) for job in jobs]
        return [future.result() for future in futures]
    with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        return list(pool.map(run_job, jobs))


def run_job(job: Job) -> InstanceResult:
    """Run one job in a fresh process and judge what it gives back."""
    with scratch_folder("grade") as work:
        payload = {"data": job.instance.data, "steps": job.steps, "helpers": job.helpers, "answer": job.answer,
                   "sols": job.sols, "time_limit": job.time_limit, "memory_mb": job.memory_mb,
                   "jvm_archive": job.jvm_archive}
        Path(work, "job.json").write_text(json.dumps(payload))
        code, output = _run_process(work, job.time_limit + GRACE)
        reply = _read_reply(Path(work, "result.json"))
    if code is None:
        return _result(job, Outcome.TIMEOUT, f"no answer within the time limit ({job.time_limit:g} s)")
    if reply is None:
        return _result(job, Outcome.CRASHED, _crash_message(code, output))
    try:
        return _judge(job, reply)
    except Exception as error:  # a result file the model itself wrote or damaged
        return _result(job, Outcome.FAILED, f"the run gave back an unreadable answer ({type(error).__name__})")


def _read_reply(path: Path) -> dict | None:
    try:
        reply = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return reply if isinstance(reply, dict) else None


def _judge(job: Job, reply: dict) -> InstanceResult:
    if "error" in reply:
        hint = f" (the memory limit is {job.memory_mb} MB)" if "MemoryError" in reply["error"] else ""
        return _result(job, Outcome.ERROR, reply["error"] + hint)
    answers = reply["answers"]
    if not answers:
        if reply["stopped"] == "timeout":
            return _result(job, Outcome.TIMEOUT, f"the solver found no solution within {job.time_limit:g} s")
        why = "the constraints exclude every solution" if reply["status"] == "UNSAT" else "the solver gave up"
        return _result(job, Outcome.FAILED, f"no solution ({reply['status']}): {why}")
    problem = _check(job, answers)
    return _result(job, Outcome.FAILED, problem) if problem else _result(job, Outcome.PASSED)


def _check(job: Job, answers: list) -> str:
    """What is wrong with the answers ("" if nothing): each must pass the checker; with sols="all", count them."""
    checker = CHECKERS[job.checker]
    for number, answer in enumerate(answers, start=1):
        problem = checker(answer, job.instance.data, job.instance.expected)
        if problem:
            return f"solution {number}: {problem}" if len(answers) > 1 else problem
    if job.sols == "all":
        distinct = {json.dumps(answer) for answer in answers}
        if len(distinct) < len(answers):
            return "the same solution was found more than once"
        wanted = job.instance.expected.get("n_solutions")
        if wanted is not None and len(answers) != wanted:
            return f"found {len(answers)} solutions; there are {wanted}"
    return ""


def _result(job: Job, outcome: Outcome, message: str = "") -> InstanceResult:
    points = job.instance.points if outcome is Outcome.PASSED else 0
    return InstanceResult(job.instance.name, job.instance.hidden, job.label, outcome, points, job.instance.points,
                          message)


def _run_process(cwd: str, wall: float) -> tuple[int | None, str]:
    """Run the instance runner in `cwd` in its own process group; (exit code or None on timeout, output kept)."""
    process = subprocess.Popen([sys.executable, "-m", "kernelext.grading.run_instance"], cwd=cwd,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    kept = bytearray()
    reader = threading.Thread(target=_drain, args=(process.stdout, kept), daemon=True)
    reader.start()
    try:
        code = process.wait(timeout=wall)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        code = None
    reader.join(timeout=5)
    return code, kept.decode(errors="replace")


def _drain(stream, kept: bytearray) -> None:
    """Read `stream` to its end, keeping its first OUTPUT_CAP bytes."""
    for chunk in iter(lambda: stream.read1(65536), b""):
        kept.extend(chunk[:max(0, OUTPUT_CAP - len(kept))])
    stream.close()


def _crash_message(code: int, output: str) -> str:
    how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
    lines = [line.strip() for line in output.splitlines() if line.strip() and "JAVA_TOOL_OPTIONS" not in line]
    last = f": {lines[-1][:200]}" if lines else ""
    return f"the process stopped ({how}) before giving an answer{last}"
