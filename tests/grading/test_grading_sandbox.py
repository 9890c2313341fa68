"""Student code cannot reach hidden instances, the grader's environment or the teacher's files; nothing is left behind;
a run that crashes, loops or allocates without bound loses only itself, within its limits.

Each submission here is a real notebook graded with the real solver; bwrap tests need bubblewrap
(`apt-get install bubblewrap`) and fail without it.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from test_grading import EXERCISES, PICROSS, picross_cells, write_notebook

from kernelext.grading import Outcome, grade
from kernelext.grading.format.exercise import Instance, load_exercise
from kernelext.grading.format.notebook import read_submission
from kernelext.grading.runs.fork_server import CPU_FACTOR
from kernelext.grading.runs.jobs import GRACE, Job
from kernelext.grading.runs.sandbox import exposed, mount_points
from kernelext.grading.runs.warm_pool import ANSWER_MARGIN, WarmPool

STEP2 = read_submission(PICROSS / "instructor.ipynb").steps[1]  # the rows of x follow their clues
LATE = 30  # seconds past a limit that a run may take here: a limit that never fires fails, a busy machine does not
HIDDEN_ROWS = [json.dumps(i.data["rows"]) for i in load_exercise(PICROSS).instances if i.hidden]

SNOOP = f"""import glob, os
roots = {{{str(PICROSS)!r}}}
for pid in filter(str.isdigit, os.listdir("/proc")):
    for link in ("cwd", "root"):
        try:
            roots.add(os.readlink(f"/proc/{{pid}}/{{link}}"))
        except OSError:
            pass
found = []
for root in roots:
    for path in glob.glob(os.path.join(root, "hidden", "*.json")) + glob.glob(os.path.join(root, "*", "hidden", "*.json")):
        try:
            found.append(open(path).read())
        except OSError:
            pass
if found:
    raise RuntimeError("found " + " ".join(found))
{STEP2}"""

ENVIRONMENT = (
    "import os\nraise RuntimeError(f\"{sorted(os.listdir())} {sorted(os.environ)} {os.environ.get('GRADER_SECRET')}\")"
)

LEAKY_HIDDEN = (
    """import os
name = "Leak" + "".join(str(v) for clue in data["rows"] for v in clue) + "Error"
if data["rows"] != [[2], [2], [1, 2], [5], [3]]:  # any instance but moon
    raise type(name, (Exception,), {})(str(data["rows"]))
"""
    + STEP2
)

CRASH_PRINTING_DATA = 'import os\nprint(data["rows"], flush=True)\nos.write(1, str(data["rows"]).encode())\nos._exit(1)'


def _write(folder, notebooks: dict[str, str]) -> None:
    folder.mkdir()
    for student, step2 in notebooks.items():
        write_notebook(folder / f"{student}.ipynb", picross_cells(step2=step2))


def _texts(tmp_path, results) -> dict[str, str]:
    """Everything written or returned about each student: feedback (text, HTML) and the teacher's summary."""
    return {
        r.student: r.summary()
        + (tmp_path / "out" / "feedback" / f"{r.student}.txt").read_text()
        + (tmp_path / "out" / "feedback" / f"{r.student}.html").read_text()
        for r in results
    }


def test_sealed_run_finds_no_hidden_instance_through_its_parent_or_any_process(tmp_path, monkeypatch):
    monkeypatch.chdir(EXERCISES)  # the teacher grades from the exercises' folder
    _write(tmp_path / "in", {"snoop": SNOOP})
    [result] = grade(
        exercise_dir=PICROSS,
        submissions_dir=tmp_path / "in",
        out_dir=tmp_path / "out",
        only=["moon", "arrow"],
        sandbox="bwrap",
    )
    text = _texts(tmp_path, [result])["snoop"]
    assert [r.outcome for r in result.results if r.kind == "instance"] == [Outcome.PASSED] * 2, result.summary()
    assert not any(rows in text for rows in HIDDEN_ROWS)


@pytest.mark.parametrize("mode", ["bwrap", "process"])
def test_student_code_sees_an_empty_folder_and_none_of_the_graders_environment(mode, tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_SECRET", "s3cret-token")
    _write(tmp_path / "in", {"env": ENVIRONMENT})
    [result] = grade(
        exercise_dir=PICROSS, submissions_dir=tmp_path / "in", out_dir=tmp_path / "out", only=["moon"], sandbox=mode
    )
    [moon] = [r for r in result.results if r.kind == "instance"]
    assert moon.outcome is Outcome.ERROR and "'PATH'" in moon.message and "'HOME'" in moon.message
    assert "['job.json'" in moon.message and "GRADER_SECRET" not in moon.message and "s3cret" not in moon.message
    shown = moon.student_message
    assert shown.endswith("[...]") and len(shown) <= 170  # student-controlled text is capped in feedback


def test_sealed_run_cannot_write_to_the_teachers_files(tmp_path, monkeypatch):
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    monkeypatch.chdir(teacher)
    targets = [tmp_path / "escaped.txt", "/proc/{os.getppid()}/cwd/escaped.txt", EXERCISES / "escaped.txt"]
    attempts = "\n".join(
        f'try:\n    open(f"{target}", "w").write("x")\nexcept OSError:\n    pass' for target in targets
    )
    _write(tmp_path / "in", {"writer": f"import os\n{attempts}\n{STEP2}"})
    [result] = grade(
        exercise_dir=PICROSS, submissions_dir=tmp_path / "in", out_dir=tmp_path / "out", only=["moon"], sandbox="bwrap"
    )
    assert result.results[0].outcome is Outcome.PASSED, result.summary()
    assert list(teacher.iterdir()) == [] and not (tmp_path / "escaped.txt").exists()
    assert not (EXERCISES / "escaped.txt").exists()


def test_feedback_never_repeats_student_text_for_hidden_instances(tmp_path):
    _write(tmp_path / "in", {"leaky": LEAKY_HIDDEN, "crash": CRASH_PRINTING_DATA})
    results = grade(
        exercise_dir=PICROSS, submissions_dir=tmp_path / "in", out_dir=tmp_path / "out", only=["moon", "arrow"]
    )
    by_student = {r.student: r for r in results}
    leaky, crash = (by_student[s].results for s in ("leaky", "crash"))
    assert [r.outcome for r in leaky[:2]] == [Outcome.PASSED, Outcome.ERROR]
    assert leaky[1].student_message == "your code raised an error" and "Leak" in leaky[1].message
    assert [r.outcome for r in crash[:2]] == [Outcome.CRASHED, Outcome.CRASHED]
    assert crash[1].student_message == "the process stopped before giving an answer"
    assert "[[2], [2], [1, 2]" in crash[0].student_message  # a public instance's own data may be shown
    feedback = {s: (tmp_path / "out" / "feedback" / f"{s}.txt").read_text() for s in by_student}
    arrow = load_exercise(PICROSS, only=["arrow"]).instances[0].data["rows"]
    digits = "".join(str(v) for clue in arrow for v in clue)
    assert not any(str(arrow) in text or digits in text or "arrow" in text for text in feedback.values())


def _dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait(timeout=60)
    return process.pid


@pytest.mark.parametrize("mode", ["bwrap", "process"])
def test_no_temporary_folder_is_left_by_crashed_or_killed_runs(mode, tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    (scratch / f"kernelext-{_dead_pid()}-grade-left").mkdir()  # a grader killed before it removed a run's folder
    _write(tmp_path / "in", {"exits": f"{STEP2}\nimport os\nos._exit(3)", "loops": "while True:\n    pass"})
    results = grade(
        exercise_dir=PICROSS,
        submissions_dir=tmp_path / "in",
        out_dir=tmp_path / "out",
        only=["moon"],
        time_limit=2,
        sandbox=mode,
    )
    assert [r.results[0].outcome for r in results] == [Outcome.CRASHED, Outcome.TIMEOUT]
    assert os.listdir(scratch) == []


def test_bwrap_mode_says_when_a_hidden_instance_would_be_inside_the_sandbox():
    inside = [str(Path(sys.prefix) / "picross" / "hidden" / "arrow.json"), "/usr/share/hidden/arrow.json"]
    assert exposed("bwrap", [*inside, str(PICROSS / "hidden" / "arrow.json")]) == inside
    assert exposed("process", inside) == []


# -- one warm process per sandbox, a fresh child per run ----------------------------------------------

TINY_MODEL = "x = VarArray(size=data['n'], dom=range(data['n']))\nsatisfy(AllDifferent(x))"
REPORT = "os.write(1, json.dumps(seen).encode())"  # what a probing step saw goes back in the run's output
WARM_IDENTITY = "seen['warm'] = open(f'/proc/{os.getppid()}/stat').read().split()[21] + str(os.getppid())"

LEAVE_TRACES = """import builtins, os, subprocess, tempfile, pycsp3
open("left.txt", "w").write("x")  # in the run's folder
open(os.path.join(tempfile.gettempdir(), "left.txt"), "w").write("x")
os.chmod(tempfile.gettempdir(), 0o751)  # the folder itself carries data too: its mode, times, attributes
os.utime(tempfile.gettempdir(), (1, 1))
os.setxattr(tempfile.gettempdir(), "user.left", b"x")
os.environ["LEFT_BY_RUN"] = "1"
pycsp3.left_by_run = True
builtins.abs = str
subprocess.Popen(["sleep", "317"], start_new_session=True)
"""
SEALED_TRACES = """import ctypes
open("/dev/shm/left.txt", "w").write("x")
ctypes.CDLL(None).shmget(0x5eed, 4096, 0o1600)  # IPC_CREAT | 0600: a System V segment, kept without processes
"""
LOOK_FOR_TRACES = f"""import builtins, json, os, tempfile, pycsp3
mine = f"kernelext-{{os.getpid()}}-"  # this run's own model folder
seen = {{"folder": sorted(os.listdir()), "tmp": [f for f in os.listdir(tempfile.gettempdir()) if not f.startswith(mine)],
         "tmp_itself": [oct(os.stat(tempfile.gettempdir()).st_mode & 0o777), os.stat(tempfile.gettempdir()).st_mtime > 1,
                        os.listxattr(tempfile.gettempdir())],
         "env": "LEFT_BY_RUN" in os.environ, "module": hasattr(pycsp3, "left_by_run"), "builtin": abs(-1),
         "sleeping": [pid for pid in filter(str.isdigit, os.listdir("/proc"))
                      if open(f"/proc/{{pid}}/cmdline", "rb").read() == b"sleep\\x00317\\x00"]}}
{WARM_IDENTITY}
"""
SEALED_LOOK = """import ctypes
seen["shm"] = os.listdir("/dev/shm")
seen["segment"] = ctypes.CDLL(None).shmget(0x5eed, 0, 0)
seen["processes"] = sorted(int(pid) for pid in filter(str.isdigit, os.listdir("/proc")))
seen["me"] = os.getpid()
"""


def tiny_job(step: str, *, sandbox: str, time_limit: float = 10, memory_mb: int = 2048) -> Job:
    """A job whose one step is `step`, then a model CP-SAT solves in a few milliseconds."""
    return Job(
        "student",
        "tiny",
        Instance("tiny", False, {"n": 3}, {}, 1),
        (step, TINY_MODEL),
        ("from pycsp3 import *",),
        "x",
        1,
        time_limit,
        memory_mb,
        sandbox=sandbox,
    )


def seen(run) -> dict:
    """What a probing step reported (the last line it wrote to its output)."""
    return json.loads(run.output.strip().splitlines()[-1])


def solved(run) -> bool:
    return run.code == 0 and run.reply is not None and run.reply.get("status") == "SAT"


@pytest.mark.parametrize("mode", ["bwrap", "process"])
def test_nothing_a_run_leaves_reaches_the_next_run_of_the_same_warm_process(mode):
    sealed = mode == "bwrap"
    leave = LEAVE_TRACES + (SEALED_TRACES if sealed else "")
    look = "import json, os\nseen = {}\n" + WARM_IDENTITY + "\n" + REPORT
    check = LOOK_FOR_TRACES + (SEALED_LOOK if sealed else "") + REPORT
    with WarmPool() as pool:
        first = pool.run(tiny_job(look + "\n" + leave, sandbox=mode))
        second = pool.run(tiny_job(check, sandbox=mode))
        third = pool.run(tiny_job("pass", sandbox=mode))
    assert solved(first) and solved(second) and solved(third)
    before, after = seen(first), seen(second)
    assert after["warm"] == before["warm"]  # the same warm process forked both runs
    bound = sorted({Path(point).parts[0] for point in mount_points()}) if sealed else []  # a kit installed in /tmp
    assert after["folder"] == ["job.json"] and after["tmp"] == bound and after["tmp_itself"] == ["0o700", True, []]
    assert (after["env"], after["module"], after["builtin"], after["sleeping"]) == (False, False, 1, [])
    if sealed:
        assert after["shm"] == [] and after["segment"] == -1
        assert after["processes"] == [1, after["me"]]  # the warm process (init) and this run: nothing else


SECRET = "KXSECRET"  # what the memory search looks for, followed by 16 hex digits
SEARCH_MEMORY = f"""import json, os, re
seen = {{"mine": "{SECRET}0123456789abcdef", "found": set()}}
with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as memory:
    for line in maps:
        span, permissions = line.split()[:2]
        start, end = (int(address, 16) for address in span.split("-"))
        if "r" not in permissions:
            continue
        try:
            memory.seek(start)
            chunk = memory.read(end - start)
        except (OSError, ValueError, OverflowError):
            continue
        seen["found"].update(m.group(1).decode() for m in re.finditer(rb"{SECRET}([0-9a-f]{{16}})", chunk))
seen["found"] = sorted(seen["found"])
{REPORT}"""


def test_a_run_finds_nothing_of_the_previous_run_in_its_memory():
    token = secrets.token_hex(8)
    writes = f"import os\nsecret = '{SECRET}{token}'\nos.write(1, secret.encode())\nopen('mine.txt', 'w').write(secret)"
    with WarmPool() as pool:
        pool.run(tiny_job(writes, sandbox="bwrap"))
        search = pool.run(tiny_job(SEARCH_MEMORY, sandbox="bwrap"))
    found = seen(search)["found"]
    assert "0123456789abcdef" in found  # the search finds what this run holds...
    assert token not in found  # ...and nothing of the previous run's code, output or files


TOUCH_THE_WARM_PROCESS = """import ctypes, json, os, signal
seen = {}
for name in ("SIGINT", "SIGTERM", "SIGSTOP", "SIGKILL"):
    os.kill(1, getattr(signal, name))  # as the sandbox's init, it gets no signal it does not handle
for path in ("/proc/1/mem", "/proc/1/environ", "/proc/1/fd/0"):
    try:
        open(path, "rb").read(1)
        seen[path] = "read"
    except OSError as error:
        seen[path] = type(error).__name__
libc = ctypes.CDLL(None, use_errno=True)
seen["ptrace"] = libc.ptrace(16, 1, 0, 0)  # PTRACE_ATTACH
"""


def test_a_sealed_run_can_neither_signal_nor_read_its_warm_process():
    with WarmPool() as pool:
        touch = pool.run(tiny_job(TOUCH_THE_WARM_PROCESS + WARM_IDENTITY + "\n" + REPORT, sandbox="bwrap"))
        after = pool.run(tiny_job("import json, os\nseen = {}\n" + WARM_IDENTITY + "\n" + REPORT, sandbox="bwrap"))
    assert solved(touch) and solved(after)
    told = seen(touch)
    assert {told[p] for p in ("/proc/1/mem", "/proc/1/environ", "/proc/1/fd/0")} == {"PermissionError"}
    assert told["ptrace"] == -1
    assert seen(after)["warm"] == told["warm"]  # still the same warm process


CHANGE_THE_WARM_PROCESS = """import os, resource
resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (64, 64))
os.setpriority(os.PRIO_PROCESS, os.getppid(), 19)
os.sched_setaffinity(os.getppid(), {min(os.sched_getaffinity(0))})
"""
LIMITS_SEEN = (
    """import json, os, resource
seen = {"files": resource.getrlimit(resource.RLIMIT_NOFILE)[0], "nice": os.getpriority(os.PRIO_PROCESS, 0),
        "cores": len(os.sched_getaffinity(0))}
"""
    + REPORT
)


@pytest.mark.parametrize("mode", ["bwrap", "process"])
def test_a_run_that_changes_its_warm_process_limits_does_not_pass_them_on(mode):
    with WarmPool() as pool:
        before = pool.run(tiny_job(LIMITS_SEEN, sandbox=mode))
        change = pool.run(tiny_job(CHANGE_THE_WARM_PROCESS, sandbox=mode))
        after = pool.run(tiny_job(LIMITS_SEEN, sandbox=mode))
    assert solved(before) and solved(change) and solved(after)
    assert seen(before)["files"] > 64 and seen(before)["cores"] == len(os.sched_getaffinity(0))
    assert seen(after) == seen(before)  # a new warm process served the run after the change


def test_a_run_that_kills_its_warm_process_crashes_alone():
    kill = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)"  # possible in process mode only
    with WarmPool() as pool:
        killed = pool.run(tiny_job(kill, sandbox="process"))
        after = pool.run(tiny_job("pass", sandbox="process"))
    assert killed.reply is None and killed.code is not None  # a crash, not a hang or a time-out
    assert solved(after)


def test_a_run_that_stops_its_warm_process_times_out_alone():
    stop = "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)"  # possible in process mode only
    with WarmPool() as pool:
        start = time.monotonic()
        stopped = pool.run(tiny_job(stop, sandbox="process", time_limit=0.1))
        took = time.monotonic() - start
        after = pool.run(tiny_job("pass", sandbox="process"))
    assert stopped.code is None and stopped.reply is None  # reported as timed out, once the grader gave up
    assert took < 0.1 + GRACE + ANSWER_MARGIN + 2
    assert solved(after)


def test_emptying_a_sandbox_folder_removes_locked_folders_keeps_mount_points_and_follows_no_link(tmp_path):
    folder, outside = tmp_path / "tmp", tmp_path / "teacher.txt"
    outside.write_text("kept")
    (folder / "venv" / "lib").mkdir(parents=True)  # a mount point under /tmp (a runtime folder bound there)
    (folder / "venv" / "left.txt").write_text("x")
    (folder / "locked" / "inner").mkdir(parents=True)
    (folder / "locked" / "inner" / "left.txt").write_text("x")
    (folder / "link").symlink_to(outside)
    (folder / "linked_folder").symlink_to(tmp_path)
    os.chmod(folder / "locked" / "inner", 0)
    os.chmod(folder / "locked", 0o500)
    powerless = ["setpriv", "--inh-caps=-all", "--bounding-set=-all"] if os.geteuid() == 0 else []  # as a grader
    empty = f"from kernelext.grading.runs.run_cleanup import empty_folder\nassert empty_folder({str(folder)!r}, ('venv/lib',))"
    done = subprocess.run([*powerless, sys.executable, "-c", empty], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")) == ["venv", "venv/lib"]
    assert outside.read_text() == "kept"


# -- graded runs: each a child forked by a warm process in its sandbox ---------------------------------

CRASHING = {
    "exits": "import os\nos._exit(3)",
    "segfaults": "import ctypes\nctypes.string_at(0)",
    "loops": "while True:\n    pass",
    "allocates": "hog = []\nwhile True:\n    hog.append(bytearray(10 ** 7))",
}
RUN_LIMITS_SEEN = (
    """import json, os, resource
seen = {"memory": resource.getrlimit(resource.RLIMIT_AS)[0] // 2 ** 20, "cpu": resource.getrlimit(resource.RLIMIT_CPU),
        "queues": resource.getrlimit(resource.RLIMIT_MSGQUEUE), "session": os.getsid(0) == os.getpid()}
"""
    + REPORT
)


@pytest.mark.parametrize("mode", ["bwrap", "process"])
def test_a_graded_run_that_crashes_loops_or_allocates_without_bound_loses_only_itself(mode):
    said = "import json, os\nseen = {}\n" + WARM_IDENTITY + "\n" + REPORT + "\n"  # who forked it, said before it fails
    runs, took = {}, {}
    with WarmPool() as pool:
        for name, code in CRASHING.items():
            start = time.monotonic()
            limit = 5 if name == "allocates" else 0.5  # reaching 1 GB takes a busy machine more than 0.5 s
            runs[name] = pool.run(tiny_job(said + code, sandbox=mode, time_limit=limit, memory_mb=1024))
            took[name] = time.monotonic() - start
        after = pool.run(tiny_job(said, sandbox=mode, time_limit=0.5, memory_mb=1024))
    assert (runs["exits"].code, runs["segfaults"].code, runs["loops"].code) == (3, -signal.SIGSEGV, None), runs
    assert "MemoryError" in runs["allocates"].reply["error"], runs["allocates"]
    assert 0.5 + GRACE <= took["loops"] < 0.5 + GRACE + LATE, took  # killed at its wall-clock limit, not before
    assert after.reply["status"] == "SAT", after
    assert len({seen(run)["warm"] for run in [*runs.values(), after]}) == 1  # one warm process outlived them all


@pytest.mark.parametrize("mode", ["bwrap", "process"])
def test_a_graded_run_has_its_limits_and_a_session_of_its_own(mode):
    with WarmPool() as pool:
        run = pool.run(tiny_job(RUN_LIMITS_SEEN, sandbox=mode, time_limit=2, memory_mb=1500))
    cpu = CPU_FACTOR * math.ceil(2 + GRACE)
    assert seen(run) == {"memory": 1500, "cpu": [cpu, cpu + 1], "queues": [0, 0], "session": True}
