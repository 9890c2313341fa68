"""Where a graded run's student code executes: a bubblewrap sandbox, or a plain process with a scrubbed start.

Each sandbox holds one warm process (`kernelext.grading.runs.fork_server`) that forks a child per run.
`bwrap`: a private root holding only the system, Python and Java read-only, and three writable folders
that the grader empties after each run: the run's folder (/sandbox), /tmp and /dev/shm; new PID (the warm
process is its init), network, IPC and user namespaces, a cleared environment.
`process`: the same folders and scrubbed environment, but the student's code runs as the grader's user,
with that user's view of the files and of /proc.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kernelext.solver.jvm.java import find_java

MODES = ("auto", "bwrap", "process")
INSIDE = "/sandbox"  # the run's folder, as the student's code sees it under bwrap
LIBRARY = "/opt/kernelext-lib"  # the kernelext package's parent, as seen under bwrap
_SYSTEM = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


@dataclass(frozen=True)
class Launch:
    """How to start one run: the command, its environment and working folder (paths as seen by the grader)."""

    argv: tuple[str, ...]
    env: dict
    cwd: str


def resolve_mode(mode: str = "auto") -> str:
    """ "bwrap" or "process": `auto` takes bwrap when it works here; asking for bwrap without it is an error."""
    if mode not in MODES:
        raise ValueError(f"Unknown sandbox {mode!r}: use one of {', '.join(MODES)}.")
    if mode == "process":
        return mode
    if bwrap_works():
        return "bwrap"
    if mode == "bwrap":
        raise ValueError(
            "The bwrap sandbox does not work on this machine: install bubblewrap "
            "(`apt-get install bubblewrap`) and allow user namespaces, or pass --sandbox process."
        )
    return "process"


@lru_cache(maxsize=1)
def bwrap_works() -> bool:
    """Whether `bwrap` is installed and can make a sandbox with new namespaces here."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return False
    try:
        done = subprocess.run(
            [bwrap, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"],
            capture_output=True,
            timeout=20,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def launch(mode: str, work: Path, module: str, *args: str, reads: tuple[str, ...] = ()) -> Launch:
    """The command running `python -m module MODE ARGS...` under `mode`, with the folders of `work` (see
    `folders`); `reads` are files bound read-only (bwrap)."""
    run, temporary, shared = folders(work)
    if mode == "process":
        return Launch((sys.executable, "-m", module, mode, *args), child_env(home=str(temporary)), str(run))
    env = {**child_env(home="/tmp"), "PYTHONPATH": LIBRARY}
    argv = [
        shutil.which("bwrap") or "bwrap",
        "--unshare-all",
        "--as-pid-1",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--cap-drop",
        "ALL",
    ]
    for name, value in env.items():
        argv += ["--setenv", name, value]
    argv += _system_binds()
    argv += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--bind",
        str(shared),
        "/dev/shm",
        "--remount-ro",
        "/dev",
        "--bind",
        str(temporary),
        "/tmp",
    ]  # first: what is bound below may lie in /tmp (see `mount_points`)
    for path in _runtime_paths():
        argv += ["--ro-bind", path, path]
    argv += ["--ro-bind", str(_library() / "kernelext"), f"{LIBRARY}/kernelext"]
    for path in reads:
        argv += ["--ro-bind", path, path]
    argv += [
        "--bind",
        str(run),
        INSIDE,
        "--remount-ro",
        "/",
        "--chdir",
        INSIDE,
        sys.executable,
        "-m",
        module,
        mode,
        *args,
    ]
    return Launch(tuple(argv), {}, str(run))


def folders(work: Path) -> tuple[Path, Path, Path]:
    """The folders in `work` a sandbox can write to, made if missing: the run's own (/sandbox under bwrap), its
    temporary folder (/tmp under bwrap, HOME and TMPDIR in process mode) and /dev/shm (bwrap)."""
    made = tuple(Path(work, name) for name in ("run", "tmp", "shm"))
    for folder in made:
        folder.mkdir(mode=0o700, exist_ok=True)
    return made


def mount_points(reads: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The paths, relative to /tmp, that bwrap binds inside the sandbox's /tmp: their folders are mount points
    that emptying the temporary folder must keep."""
    return tuple(
        str(Path(path).relative_to("/tmp")) for path in (*_runtime_paths(), *reads) if Path(path).is_relative_to("/tmp")
    )


def child_env(*, home: str) -> dict:
    """The whole environment a run gets: nothing of the grader's but where Java is."""
    java_home = _java_home()
    path = "/usr/local/bin:/usr/bin:/bin" if not java_home else f"{java_home}/bin:/usr/local/bin:/usr/bin:/bin"
    env = {"PATH": path, "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
    if java_home:
        env["JAVA_HOME"] = java_home
    return env


def exposed(mode: str, paths) -> list[str]:
    """Those of `paths` a run could read under `mode` (bwrap: inside a bound folder); [] in process mode."""
    if mode != "bwrap":
        return []
    roots = [Path(p) for p in (*_runtime_paths(), str(_library() / "kernelext"), "/usr", "/etc")]
    return [str(p) for p in paths if any(Path(p).resolve().is_relative_to(root) for root in roots)]


def _system_binds() -> list[str]:
    binds = []
    for path in _SYSTEM:
        if os.path.islink(path):
            binds += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            binds += ["--ro-bind", path, path]
    return binds


@lru_cache(maxsize=1)
def _runtime_paths() -> tuple[str, ...]:
    """Python's installation, the virtual environment and its site-packages, and Java: outside /usr, deduplicated."""
    candidates = [sys.base_prefix, sys.prefix, sys.exec_prefix, *site.getsitepackages(), _java_home()]
    kept: list[str] = []
    for path in sorted({os.path.realpath(p) for p in candidates if p and os.path.isdir(p)}, key=len):
        if not any(Path(path).is_relative_to(k) for k in kept) and not Path(path).is_relative_to("/usr"):
            kept.append(path)
    for path in {sys.prefix, sys.base_prefix}:  # a virtual environment may be reached through a symlink
        if os.path.realpath(path) != os.path.abspath(path) and os.path.isdir(path):
            kept.append(os.path.abspath(path))
    return tuple(kept)


def _library() -> Path:
    """The folder that holds the kernelext package."""
    return Path(__file__).resolve().parents[3]


@lru_cache(maxsize=1)
def _java_home() -> str:
    try:
        return str(find_java().home.resolve())
    except Exception:
        return ""
