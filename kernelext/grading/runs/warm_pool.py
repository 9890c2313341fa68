"""Warm processes, on the grader's side: each waits in a sandbox of its own with the kit imported and forks
a child per run (see `fork_server`); a pool lends them to the threads that run jobs.

For each run the grader writes `job.json` into the sandbox's run folder, reads the run's output from a
pipe and its `result.json` from that folder, then empties every folder the sandbox can write to.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

from kernelext.grading.runs.jobs import GRACE, OUTPUT_CAP, Job, Run
from kernelext.grading.runs.run_cleanup import empty_folder
from kernelext.grading.runs.sandbox import folders, launch, mount_points
from kernelext.scratch import scratch_folder

START_TIMEOUT = 60.0  # seconds for a warm process to import what runs use
ANSWER_MARGIN = 3.0  # seconds past a run's wall-clock limit for the warm process to clean up and answer
DRAIN_WAIT = 1.0  # seconds to read the rest of a run's output once the warm process has answered
EXIT_WAIT = 5.0  # seconds for a warm process to end once told to


class WarmProcessDied(Exception):
    """The warm process ended, or never started, before answering; `run` is what is known of the run."""

    def __init__(self, run: Run):
        super().__init__(run.output)
        self.run = run


class WarmProcess:
    """A warm process in a sandbox of its own (`mode`, with `reads` bound read-only), serving one run at a time;
    `preload`: it imports what runs use before the first (else each run imports it: for a single run).

    Raises:
        WarmProcessDied: it did not start (its own output, such as an import error, is the run's output).
    """

    def __init__(self, mode: str, reads: tuple[str, ...] = (), *, preload: bool = True):
        self._scratch = scratch_folder("grade")
        work = Path(self._scratch.name)
        self.run_folder, temporary, shared = folders(work)
        self._writable = (
            (self.run_folder, ()),
            (temporary, mount_points(reads) if mode == "bwrap" else ()),
            (shared, ()),
        )
        self._log = work / "warm.log"
        options = ("--preload",) if preload else ()
        start = launch(mode, work, "kernelext.grading.runs.fork_server", *options, reads=reads)
        self._control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs, open(self._log, "wb") as log:
            self.process = subprocess.Popen(
                list(start.argv),
                cwd=start.cwd,
                env=start.env,
                stdin=theirs,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.healthy = True
        if self._receive(time.monotonic() + START_TIMEOUT) != b"ready":
            raise self._died("")

    def run(self, job: Job) -> Run:
        """Run `job` in a fresh child; the folders are emptied afterwards.

        Raises:
            WarmProcessDied: the warm process ended before answering (it is closed).
        """
        Path(self.run_folder, "job.json").write_text(json.dumps(job.payload()))
        wall = job.time_limit + GRACE
        output, write_end = os.pipe()
        try:
            socket.send_fds(self._control, [json.dumps({"wall": wall}).encode()], [write_end])
        except OSError:
            os.close(output)
            raise self._died("") from None
        finally:
            os.close(write_end)
        answer, printed = self._await(output, time.monotonic() + wall + ANSWER_MARGIN)
        if answer == b"":
            raise self._died(printed)
        if answer is None:  # the warm process is stuck (stopped by the run?): it was killed
            return Run(None, printed, None)
        told = json.loads(answer)
        reply = _read_reply(self.run_folder / "result.json")
        self.healthy = told["reusable"] and all(empty_folder(folder, keep) for folder, keep in self._writable)
        return Run(told["code"], printed, reply)

    def close(self) -> None:
        """End the warm process (it exits when its socket closes; it is killed if it does not) and its folders."""
        self._control.close()
        try:
            self.process.wait(timeout=EXIT_WAIT)
        except subprocess.TimeoutExpired:
            self._kill()
        self._scratch.cleanup()

    def _await(self, output: int, deadline: float) -> tuple[bytes | None, str]:
        """The warm process's answer (b"" if it died, None if it did not answer by `deadline`) and the run's
        output (its first OUTPUT_CAP bytes), read while waiting."""
        kept = bytearray()
        answer = None
        with selectors.DefaultSelector() as selector:
            selector.register(output, selectors.EVENT_READ)
            selector.register(self._control, selectors.EVENT_READ)
            while selector.get_map() and (ready := selector.select(max(0.0, deadline - time.monotonic()))):
                for key, _ in ready:
                    if key.fileobj is self._control:
                        answer = self._control.recv(4096)
                        deadline = min(deadline, time.monotonic() + DRAIN_WAIT)
                        selector.unregister(self._control)
                    elif chunk := os.read(output, 65536):
                        kept.extend(chunk[: max(0, OUTPUT_CAP - len(kept))])
                    else:
                        selector.unregister(output)
        os.close(output)
        if answer is None:
            self.healthy = False
            self._kill()
        return answer, kept.decode(errors="replace")

    def _receive(self, deadline: float) -> bytes | None:
        """The next message of the warm process (b"" if it died), or None if none came by `deadline`."""
        with selectors.DefaultSelector() as selector:
            selector.register(self._control, selectors.EVENT_READ)
            if not selector.select(max(0.0, deadline - time.monotonic())):
                return None
        return self._control.recv(4096)

    def _died(self, output: str) -> WarmProcessDied:
        """The warm process ended: it is closed; its exit code, and its own last words after the run's output."""
        self.healthy = False
        self._kill()
        try:
            own = self._log.read_text(errors="replace")[-OUTPUT_CAP:]
        except OSError:
            own = ""
        code = self.process.returncode
        self.close()
        return WarmProcessDied(Run(code, output + own, None))

    def _kill(self) -> None:
        try:
            self.process.wait(timeout=0.1)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)  # under bwrap, the sandbox dies with it
            self.process.wait()


class WarmPool:
    """Warm processes lent to the threads that run jobs: a run takes an idle one of its sandbox, or starts one
    (that imports what runs use first, when `preload`).

    A context manager: leaving it ends them all. Under bwrap a warm process ends with the thread that started
    it (`--die-with-parent`), so a pool serves the threads of one pool of workers.
    """

    def __init__(self, *, preload: bool = True):
        self.preload = preload
        self._lock = threading.Lock()
        self._idle: dict[tuple, list[WarmProcess]] = {}
        self._open: list[WarmProcess] = []

    def __enter__(self) -> WarmPool:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def run(self, job: Job) -> Run:
        """Run `job` on a warm process of its sandbox; once more on a new one if that process dies before
        answering (then, if the new one dies too, what is known of the run: a crash)."""
        sandbox = (job.sandbox, (job.jvm_archive,) if job.jvm_archive else ())
        for _attempt in range(2):
            warm = None
            try:
                warm = self._take(sandbox)
                run = warm.run(job)
            except WarmProcessDied as died:
                lost = died.run
                if warm is not None:
                    self._drop(warm)
                continue
            if warm.healthy:
                with self._lock:
                    self._idle.setdefault(sandbox, []).append(warm)
            else:
                self._drop(warm)
            return run
        return lost

    def close(self) -> None:
        """End every warm process the pool started."""
        with self._lock:
            started, self._open, self._idle = self._open, [], {}
        for warm in started:
            warm.close()

    def _take(self, sandbox: tuple) -> WarmProcess:
        with self._lock:
            if self._idle.get(sandbox):
                return self._idle[sandbox].pop()
        warm = WarmProcess(*sandbox, preload=self.preload)
        with self._lock:
            self._open.append(warm)
        return warm

    def _drop(self, warm: WarmProcess) -> None:
        with self._lock:
            self._open.remove(warm)
        warm.close()


def execute(job: Job) -> Run:
    """Run one job in a sandboxed process started for it alone (a remote executor's task)."""
    with WarmPool(preload=False) as pool:
        return pool.run(job)


def _read_reply(path: Path) -> dict | None:
    """The run's `result.json` as a dict, or None (missing, not JSON, not a dict, or a link)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with open(descriptor, "rb") as file:
            reply = json.loads(file.read())
    except (OSError, ValueError):
        return None
    return reply if isinstance(reply, dict) else None
