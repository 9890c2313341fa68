"""Run one job (a submission on an instance, a part's probes, a reference check) in its own sandboxed process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from kernelext.grading.exercise import Instance
from kernelext.grading.sandbox import launch
from kernelext.scratch import scratch_folder

GRACE = 3.0  # seconds a run gets beyond its time limit before its process is killed
OUTPUT_CAP = 64 * 1024  # bytes of a run's output kept (the rest is read and dropped)


@dataclass(frozen=True)
class Job:
    """One submission on one instance, or one graded part: everything a run needs (picklable, for remote executors).

    Attributes:
        label: what the student sees ("moon", "hidden 1", a part's title).
        kind: "instance" (solve and check the answer), "part" (run `probes` and compare their statuses) or
            "verify" (a reference run: fix each of `answers` in the model and say what it breaks).
        probes: for a part, `{"fix": {array: values}, "expect": "sat"|"unsat", "why": text}` each.
        sandbox: "bwrap" or "process" (see `kernelext.grading.sandbox`).
        strict_indexing: an index past the end of an array fails the run (see `Exercise`).
        data_style: how `data` is bound: "json" or "pycsp3" (see `Exercise`).
    """

    student: str
    label: str
    instance: Instance
    steps: tuple[str, ...]
    helpers: tuple[str, ...]
    answer: str
    sols: int | str
    time_limit: float
    memory_mb: int
    jvm_archive: str = ""
    kind: str = "instance"
    probes: tuple = ()
    sandbox: str = "process"
    strict_indexing: bool = False
    answers: tuple = ()
    solver: str = "ace-cold"
    data_style: str = "json"


@dataclass(frozen=True)
class Run:
    """What one run gave back: its exit code (None when killed at the time limit), its output, its reply."""

    code: int | None
    output: str
    reply: dict | None


def execute(job: Job) -> Run:
    """Run one job in a fresh process; its folder is removed whatever happens."""
    with scratch_folder("grade") as work:
        payload = {"data": job.instance.data, "steps": job.steps, "helpers": job.helpers, "answer": job.answer,
                   "sols": job.sols, "time_limit": job.time_limit, "memory_mb": job.memory_mb,
                   "jvm_archive": job.jvm_archive, "probes": [{"fix": p["fix"]} for p in job.probes],
                   "strict_indexing": job.strict_indexing, "kind": job.kind, "answers": list(job.answers),
                   "solver": job.solver, "data_style": job.data_style}
        Path(work, "job.json").write_text(json.dumps(payload))
        reads = (job.jvm_archive,) if job.jvm_archive else ()
        code, output = run_process(launch(job.sandbox, Path(work), "kernelext.grading.run_instance", reads=reads),
                                   job.time_limit + GRACE)
        return Run(code, output, _read_reply(Path(work, "result.json")))


def run_process(start, wall: float) -> tuple[int | None, str]:
    """Run `start` (a sandbox Launch) in its own session; (exit code, or None when killed at `wall` s; output kept)."""
    process = subprocess.Popen(list(start.argv), cwd=start.cwd, env=start.env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
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


def _read_reply(path: Path) -> dict | None:
    try:
        reply = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return reply if isinstance(reply, dict) else None


def _drain(stream, kept: bytearray) -> None:
    """Read `stream` to its end, keeping its first OUTPUT_CAP bytes."""
    for chunk in iter(lambda: stream.read1(65536), b""):
        kept.extend(chunk[:max(0, OUTPUT_CAP - len(kept))])
    stream.close()
