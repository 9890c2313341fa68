"""What a run leaves behind, removed before the next run: its processes, IPC objects and files.

Inside the sandbox, the warm process (`fork_server`) ends the processes and removes the IPC objects; outside,
the grader (`warm_pool`) empties the folders the sandbox can write to. The warm process never reads a file
the run wrote: whatever enters its memory would be copied into the next run's child.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

ROUNDS = 100  # rounds of killing before processes that keep forking are given up on
IPCRM_TIMEOUT = 30.0  # seconds for `ipcrm --all`, which takes milliseconds


def end_processes(sealed: bool) -> bool:
    """Kill and reap every process the run left; whether none is left.

    Sealed (this process is the init of the sandbox's PID namespace): every other process in it. Else every
    descendant: this process is their subreaper, so an orphan (a daemon started with setsid) comes back to it.
    """
    for _ in range(ROUNDS):
        children = _children()
        if not children:
            return True
        if sealed:
            os.kill(-1, signal.SIGKILL)  # all but this process: no fork can slip in between
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
    return False


def _children() -> list[int]:
    pids = []
    for task in os.listdir("/proc/self/task"):
        pids += [int(pid) for pid in Path(f"/proc/self/task/{task}/children").read_text().split()]
    return pids


def remove_ipc_objects() -> bool:
    """Remove every System V shared memory segment, semaphore set and message queue (all the run's: the sandbox
    has an IPC namespace of its own); whether none is left."""
    try:
        subprocess.run(
            ["ipcrm", "--all"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
            timeout=IPCRM_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return False  # ipcrm is stuck: the warm process is not used again
    return all(len(Path("/proc/sysvipc", kind).read_text().splitlines()) <= 1 for kind in ("shm", "sem", "msg"))


def own_settings() -> tuple:
    """This process's priority, CPU affinity, scheduling policy and resource limits: a process of the same user
    can change them from outside, and every later child would inherit the change."""
    import resource  # not in a browser's Python, which imports this module but runs no process

    limits = sorted(name for name in dir(resource) if name.startswith("RLIMIT_"))
    return (
        os.getpriority(os.PRIO_PROCESS, 0),
        os.sched_getaffinity(0),
        os.sched_getscheduler(0),
        tuple(resource.getrlimit(getattr(resource, name)) for name in limits),
    )


def empty_folder(folder: Path, keep: tuple[str, ...] = ()) -> bool:
    """Remove everything in `folder` but the folders on the way to `keep` (paths relative to it, mount points),
    and reset its mode, times and extended attributes; whether that worked."""
    try:
        os.chmod(folder, 0o700)
        for entry in os.scandir(folder):
            inner = tuple(str(Path(k).relative_to(entry.name)) for k in keep if Path(k).is_relative_to(entry.name))
            if not inner:
                _remove(Path(entry.path))
            elif inner != (".",) and not empty_folder(Path(entry.path), inner):
                return False
        os.utime(folder)
        for name in os.listxattr(folder):
            os.removexattr(folder, name)
    except OSError:
        return False
    return True


def _remove(path: Path) -> None:
    """Remove `path`, first making every folder in it (never through a link) writable and searchable."""
    if path.is_symlink() or not path.is_dir():
        path.unlink()
        return
    os.chmod(path, 0o700)
    for parent, folders, _ in os.walk(path):
        for name in folders:
            if not os.path.islink(os.path.join(parent, name)):
                os.chmod(os.path.join(parent, name), 0o700)
    shutil.rmtree(path)
