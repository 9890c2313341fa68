"""ACE kept warm: one long-lived JVM in a worker process, reused from solve to solve.

The JVM never lives in the calling process: ACE calls System.exit on malformed input, which
would end the caller (a Jupyter kernel). A dead or stuck worker is replaced on the next solve.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path

from kernelext.scratch import make_scratch_folder
from kernelext.solver.errors import JavaNotFound, SolverError, WorkerCrashed
from kernelext.solver.jvm.jars import ace_jar
from kernelext.solver.jvm.java import JavaRuntime, find_java
from kernelext.solver.portfolio import POLL

GRACE = 0.7  # seconds a worker gets after a stop request sent on Ctrl-C, before it is killed
STOP_WAIT = 0.2  # seconds a worker gets to answer the stop request sent at its wall-clock deadline
START_TIMEOUT = 60.0  # seconds for a new worker to start its JVM and load ACE
_CRASHED = (
    "The solver process stopped unexpectedly (the model file may be malformed); it will restart on the next solve."
)


@dataclass(frozen=True)
class AceRun:
    """What one warm solve gave.

    Attributes:
        output: everything ACE printed to System.out during the solve ('s SATISFIABLE', 'v <instantiation ...>'...).
        interrupted: the solve was cut short by KeyboardInterrupt.
        restarted: a new worker had to be started for this solve, the previous one having died or been killed.
        out_of_time: the wall-clock time limit ran out before ACE's own (which counts from its start and
            stops only the search; its output then says `stop:EXCEEDED_TIME`): the search was stopped, or
            the worker killed when it did not stop at once.
    """

    output: str
    interrupted: bool
    restarted: bool
    out_of_time: bool = False


class WarmAce:
    """Runs ACE in one long-lived worker JVM; the worker starts on the first `run`.

    Arguments:
        java: the Java runtime to use; found with `find_java()` when None.
        stop_wait: seconds the worker gets to end its search once the wall-clock deadline has passed, before it
            is killed (and restarted on the next solve).
    """

    def __init__(self, java: JavaRuntime | None = None, stop_wait: float = STOP_WAIT):
        self._java = java
        self._stop_wait = stop_wait
        self._worker: _Worker | None = None
        self._lost_worker = False  # a worker died or was killed, so the next start is a restart
        self._restart = False  # the current worker replaced a lost one and has not answered a request yet

    @property
    def pid(self) -> int | None:
        """The worker's process id, or None when no worker runs."""
        return self._worker.process.pid if self._worker is not None else None

    def run(self, args: list[str], timeout: float, stop: threading.Event | None = None) -> AceRun:
        """Solve with ACE's command-line `args` (the XCSP3 file first), stopping after `timeout` seconds, or
        when `stop` is set (as at the time limit).

        A `-t=` limit is added to `args` unless one is there. KeyboardInterrupt stops the search
        and returns what ACE printed so far, with `interrupted` set.

        Raises:
            WorkerCrashed: the worker died during the solve (its `run` attribute holds the output captured).
            JavaNotFound: no Java runtime to start the worker with.
        """
        args = _with_time_limit(args, timeout)
        return self._exchange({"op": "solve", "args": [str(arg) for arg in args]}, timeout, stop)[1]

    def _exchange(
        self, message: dict, timeout: float, stop: threading.Event | None = None
    ) -> tuple[dict | None, AceRun]:
        """Send `message` to the worker (started if need be) and wait for its reply, with what ACE printed.

        KeyboardInterrupt asks the worker to stop its search (an interrupted run); so does the wall-clock
        deadline, `timeout` seconds from now (an out-of-time run). A worker that does not answer the stop
        request (within GRACE after Ctrl-C, `stop_wait` after the deadline) is ended, and the reply is None.
        """
        deadline = time.monotonic() + timeout  # starting the worker counts too
        if self._worker is not None and self._worker.process.poll() is not None:
            self._discard_worker()  # it died while idle
        if self._worker is None:
            self._worker = self._start_worker()
            self._restart, self._lost_worker = self._lost_worker, False
        restarted = self._restart
        try:
            self._worker.wait_until_ready(deadline)
        except KeyboardInterrupt:
            return None, AceRun("", interrupted=True, restarted=restarted)
        except TimeoutError:  # the worker goes on starting, for the next request
            return None, AceRun("", interrupted=False, restarted=restarted, out_of_time=True)
        except SolverError:
            self._discard_worker()
            raise
        self._restart = False
        worker = self._worker
        interrupted = out_of_time = False
        try:
            worker.clear_output()
            worker.send(message)
            reply = worker.receive(deadline, stop)
        except KeyboardInterrupt:
            interrupted = True
            reply = self._stop_search(worker, GRACE)
        except TimeoutError:
            out_of_time = True
            reply = self._stop_search(worker, self._stop_wait)
        stopped = interrupted or out_of_time
        output = worker.output(with_errors=reply is None and not stopped)
        if reply is None:
            self._discard_worker()
            self._worker = self._start_worker()  # warming up for the next solve while this one is reported
            self._restart, self._lost_worker = True, False
            if not stopped:
                raise WorkerCrashed(_CRASHED, AceRun(output, interrupted=False, restarted=restarted))
        elif reply.get("error"):
            raise SolverError(reply["error"])
        return reply, AceRun(output, interrupted=interrupted, restarted=restarted, out_of_time=out_of_time)

    def heap_used(self) -> int | None:
        """Bytes of Java heap in use in the worker after a garbage collection, or None when no worker runs."""
        if self._worker is None:
            return None
        self._worker.wait_until_ready(time.monotonic() + START_TIMEOUT)
        self._worker.send({"op": "heap"})
        reply = self._worker.receive(time.monotonic() + START_TIMEOUT)
        return None if reply is None else reply["bytes"]

    def close(self) -> None:
        """Stop the worker, if one runs."""
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    def __enter__(self) -> WarmAce:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _start_worker(self) -> _Worker:
        java = self._java if self._java is not None else find_java()
        self._java = java
        version = java.major_version() or 11
        if version < 11:
            raise JavaNotFound(
                f"Java {version} found at {java.home}, but ACE needs Java 11+: install a newer Java "
                f"or set JAVA_HOME to one."
            )
        return _Worker(java, version)

    @staticmethod
    def _stop_search(worker: _Worker, wait: float) -> dict | None:
        """Ask ACE to end its search: its reply, or None if it cannot (it is still reading the model) or did
        not within `wait` seconds (or on a second interrupt)."""
        try:
            worker.send({"op": "stop"})
            reply = worker.receive(time.monotonic() + wait)
        except (KeyboardInterrupt, TimeoutError):
            return None
        return None if reply is not None and reply.get("op") == "reading" else reply

    def _discard_worker(self) -> None:
        if self._worker is not None:
            self._worker.kill()
            self._worker = None
            self._lost_worker = True


class _Worker:
    """One worker process: its pipes, the files its JVM writes to, and how to end it."""

    def __init__(self, java: JavaRuntime, java_version: int):
        self.directory = make_scratch_folder("ace")
        self.stdout_path = self.directory / "stdout.txt"
        self.stderr_path = self.directory / "stderr.txt"
        self.stdout_path.touch()
        config = {
            "libjvm": str(java.libjvm),
            "java_version": java_version,
            "jar": str(ace_jar()),
            "stdout": str(self.stdout_path),
            "stack": "64m",
        }
        env = dict(
            os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(_package_root()), os.environ.get("PYTHONPATH")]))
        )
        with open(self.stderr_path, "ab") as stderr:  # appending, so that truncating it works
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kernelext.solver.jvm._warm_worker", json.dumps(config)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                env=env,
                cwd=self.directory,
                start_new_session=(os.name == "posix"),
            )
        self.replies: queue.Queue = queue.Queue()
        threading.Thread(target=_read_replies, args=(self.process.stdout, self.replies), daemon=True).start()
        self._finalizer = weakref.finalize(self, _end_process, self.process, self.directory)
        self.ready_by = time.monotonic() + START_TIMEOUT
        self.ready = False

    def wait_until_ready(self, deadline: float) -> None:
        """Wait until the worker's JVM runs with ACE loaded (TimeoutError at `deadline`, which leaves the
        worker starting).

        Raises:
            SolverError: the worker stopped, or did not start within START_TIMEOUT.
        """
        if self.ready:
            return
        try:
            ready = self.receive(min(deadline, self.ready_by))
        except TimeoutError:
            if time.monotonic() < self.ready_by:
                raise
            ready = None
        if ready is None:
            errors = self.output(with_errors=True).strip().splitlines()
            raise SolverError("The Java VM for ACE could not start" + (f": {errors[-1]}" if errors else "."))
        self.ready = True

    def send(self, message: dict) -> None:
        try:
            self.process.stdin.write((json.dumps(message) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the worker is gone; receive() reports it

    def receive(self, deadline: float, stop: threading.Event | None = None) -> dict | None:
        """The worker's next reply, or None if it died; TimeoutError at `deadline`, or once `stop` is set."""
        while True:
            wait = deadline - time.monotonic()
            try:
                return self.replies.get(timeout=max(0.0, min(wait, POLL) if stop is not None else wait))
            except queue.Empty:
                if wait <= POLL or stop is None or stop.is_set():
                    raise TimeoutError from None

    def clear_output(self) -> None:
        os.truncate(self.stdout_path, 0)
        os.truncate(self.stderr_path, 0)

    def output(self, with_errors: bool = False) -> str:
        """What the JVM printed since the last `clear_output()` (stdout, then stderr if asked)."""
        paths = [self.stdout_path, self.stderr_path] if with_errors else [self.stdout_path]
        return "".join(path.read_bytes().decode("utf-8", errors="replace") for path in paths if path.exists())

    def kill(self) -> None:
        self._finalizer()

    def close(self) -> None:
        """Let the worker exit on its own (its stdin closes), killing it if it lingers."""
        try:
            self.process.stdin.close()
            self.process.wait(timeout=GRACE)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._finalizer()


def _with_time_limit(args: list[str], timeout: float) -> list[str]:
    """`args` with ACE's `-t=` time limit added, unless one is there."""
    if any(str(arg).startswith("-t=") for arg in args):
        return list(args)
    return [*args, f"-t={max(1, round(timeout * 1000))}"]


def _read_replies(stream, replies: queue.Queue) -> None:
    """Queue each reply of the worker, then None when its stdout closes."""
    with stream:
        for line in stream:
            replies.put(json.loads(line))
    replies.put(None)


def _end_process(process: subprocess.Popen, directory: Path) -> None:
    """Kill the worker's whole process group and remove its files.

    The killed process is reaped on a thread of its own: the system takes a moment to free a large JVM,
    and a caller whose time limit ran out should not wait for it.
    """
    if process.poll() is None:
        try:
            if os.name == "posix":
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
        except (ProcessLookupError, PermissionError):
            pass
        threading.Thread(target=process.wait, daemon=True).start()
    try:
        process.stdin.close()
    except OSError:
        pass
    shutil.rmtree(directory, ignore_errors=True)


def _package_root() -> Path:
    """The directory holding the `kernelext` package, so the worker can import it."""
    return Path(__file__).resolve().parents[3]  # kernelext/solver/jvm/warm.py
