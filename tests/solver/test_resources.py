"""500 solved steps in one session: the threads, the memory and the temporary files stay bounded, in the warm
ACE worker and in the kernel's own process (where CP-SAT, the default, solves)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from kernelext.solver.engine import Solver
from kernelext.steps.session import PuzzleSession

STEPS = 500
WARM_UP = 50
MAX_NEW_THREADS = 4
MAX_RSS_GROWTH_MB = 120
MAX_KERNEL_RSS_GROWTH_MB = 40


def worker_threads(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/task").iterdir()))


def worker_rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def kernelext_files() -> int:
    return sum(1 for _ in Path(tempfile.gettempdir()).glob("kernelext-*/**/*"))


def test_five_hundred_solved_steps_use_bounded_resources_in_the_ace_worker(monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # a temp dir of its own: other processes use /tmp
    session = PuzzleSession("tiny", solver=Solver("ace"))
    session.add_step("x = VarArray(size=3, dom=range(3))\n", solve=False)
    for number in range(STEPS):
        if number == WARM_UP:
            pid = session.solver.worker_pid
            threads, rss, files = worker_threads(pid), worker_rss_mb(pid), kernelext_files()
        report = session.add_step(f"satisfy(AllDifferent(x), x[0] == {number % 3})\n", key="rerun")
        assert report.result.status.value == "SAT" and report.replaced == (number > 0)
    assert session.solver.worker_pid == pid, "the worker was restarted"
    assert worker_threads(pid) <= threads + MAX_NEW_THREADS
    assert worker_rss_mb(pid) <= rss + MAX_RSS_GROWTH_MB
    assert kernelext_files() <= files
    assert len(session.steps) == 2
    session.solver.close()
    session.close()
    assert kernelext_files() == 0


def test_five_hundred_solved_steps_use_bounded_resources_in_the_kernel(monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    session = PuzzleSession("tiny")  # the default solver: CP-SAT, in this process, on a thread of its own
    session.add_step("x = VarArray(size=3, dom=range(3))\n", solve=False)
    for number in range(STEPS):
        if number == WARM_UP:
            threads, rss, files = worker_threads(os.getpid()), worker_rss_mb(os.getpid()), kernelext_files()
        report = session.add_step(f"satisfy(AllDifferent(x), x[0] == {number % 3})\n", key="rerun")
        assert report.result.status.value == "SAT" and report.result.backend == "cp-sat"
    assert session.solver.worker_pid is None  # no JVM was needed
    assert worker_threads(os.getpid()) <= threads + MAX_NEW_THREADS
    assert worker_rss_mb(os.getpid()) <= rss + MAX_KERNEL_RSS_GROWTH_MB
    assert kernelext_files() <= files
    session.solver.close()
