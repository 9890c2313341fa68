"""The warm process of a sandbox, started by the grader:
`python -m kernelext.grading.runs.fork_server MODE [--preload]`.

With --preload it imports pycsp3, the kit and OR-Tools once (without, for a single run, the child imports
what it uses). For each run it forks a fresh child that runs `instance_run.main` in the run's folder, its
working folder, where the grader wrote `job.json`. The child gets a session of its own, its limits and its
output pipe; this process kills the child at the wall-clock limit, then every process the run left, and
answers with the child's exit code. It never runs student code, so every child starts from the same state.

Protocol, on a SEQPACKET socket as stdin: the grader sends `{"wall": seconds}` with the write end of the
run's output pipe; this process answers `{"code": int or null, "reusable": bool}` (null: killed at `wall`
or out of CPU time; not reusable: something of the run could not be undone, so the grader starts a new
warm process). Nothing the run wrote or printed passes through this process: its memory is every child's.
"""

from __future__ import annotations

import ctypes
import importlib
import json
import math
import os
import resource
import select
import signal
import socket
import sys
import tempfile
import traceback

from kernelext.grading.runs.instance_run import main as run
from kernelext.grading.runs.run_cleanup import (
    end_processes,
    own_settings,
    remove_ipc_objects,
)

CONTROL = 0  # the file descriptor of the socket to the grader
PRELOADED = (
    "pycsp3",
    "kernelext.steps.session",
    "kernelext.steps.cell_code",
    "kernelext.grading.format.exercise",
    "kernelext.grading.runs.instance_run",
    "kernelext.solver.backends.cpsat",
    "ortools.sat.python.cp_model",
)
_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_SET_CHILD_SUBREAPER = 1, 4, 36
CPU_FACTOR = 2  # CPU seconds a run may use per second of its wall-clock limit: ends a run keeping many cores busy


def main() -> None:
    sealed = sys.argv[1] == "bwrap"
    os.environ["OPENBLAS_NUM_THREADS"] = "1"  # numpy (through OR-Tools) would start a thread: fork needs none
    if "--preload" in sys.argv[2:]:
        preload()
    if len(os.listdir("/proc/self/task")) != 1:
        raise SystemExit("the warm process has threads after its imports: it cannot fork safely")
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as the sandbox's init, it gets only the signals it handles
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    _prctl(_PR_SET_DUMPABLE, 0)  # no run may read or write this process's memory or file descriptors
    control = socket.socket(fileno=CONTROL)
    settings = own_settings()
    control.send(b"ready")
    while True:
        message, fds, _, _ = socket.recv_fds(control, 4096, 1)
        if not message:
            os._exit(0)  # the grader is done (no exit hooks: pycsp3 would compile an empty model)
        code = supervise(fds[0], json.loads(message)["wall"])
        reusable = end_processes(sealed) and (not sealed or remove_ipc_objects()) and own_settings() == settings
        control.send(json.dumps({"code": code, "reusable": reusable}).encode())


def preload() -> None:
    """Import what runs use, so that each child starts with it loaded."""
    for name in PRELOADED:
        importlib.import_module(name)


def supervise(output: int, wall: float) -> int | None:
    """Fork the run's child and wait for it; its exit code (negative: the signal that ended it), or None when
    it was killed at `wall` seconds or ran out of CPU time."""
    child = os.fork()
    if child == 0:
        run_child(output, wall)
    os.close(output)
    ended = os.pidfd_open(child)
    if not select.select([ended], [], [], wall)[0]:
        os.killpg(child, signal.SIGKILL)  # its session's group: what it started, unless that left the group
        os.waitpid(child, 0)
        os.close(ended)
        return None
    os.close(ended)
    code = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
    return None if code == -signal.SIGXCPU else code


def run_child(output: int, wall: float) -> None:
    """In the child: a session of its own, the run's output on stdout and stderr, its limits; then the run."""
    try:
        os.setsid()
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # ends with the warm process, should that die
        _prctl(_PR_SET_DUMPABLE, 1)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(output, 1)
        os.dup2(output, 2)
        os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        signal.signal(signal.SIGINT, signal.default_int_handler)
        del os.environ["OPENBLAS_NUM_THREADS"]
        tempfile.tempdir = None  # found again from TMPDIR
        cpu = CPU_FACTOR * math.ceil(wall)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_MSGQUEUE, (0, 0))  # POSIX message queues would outlive the run

        run()
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(70)


def _prctl(option: int, value: int) -> None:
    if ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option}) failed")


if __name__ == "__main__":
    main()
