"""Student code cannot reach hidden instances, the grader's environment or the teacher's files; nothing is left behind.

Each submission here is a real notebook graded with the real solver; bwrap tests need bubblewrap
(`apt-get install bubblewrap`) and fail without it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from kernelext.grading import Outcome, grade
from kernelext.grading.exercise import load_exercise
from kernelext.grading.notebook import read_submission
from kernelext.grading.sandbox import exposed
from test_grading import EXERCISES, PICROSS, picross_cells, write_notebook

STEP2 = read_submission(PICROSS / "instructor.ipynb").steps[1]  # the rows of x follow their clues
HIDDEN_ROWS = [json.dumps(i.data["rows"]) for i in load_exercise(PICROSS).instances if i.hidden]

SNOOP = f"""import glob, os
roots = {{os.path.realpath(f"/proc/{{os.getppid()}}/cwd"), {str(PICROSS)!r}}}
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

ENVIRONMENT = 'import os\nraise RuntimeError(f"{sorted(os.listdir())} {sorted(os.environ)} {os.environ.get(\'GRADER_SECRET\')}")'

LEAKY_HIDDEN = """import os
name = "Leak" + "".join(str(v) for clue in data["rows"] for v in clue) + "Error"
if data["rows"] != [[2], [2], [1, 2], [5], [3]]:  # any instance but moon
    raise type(name, (Exception,), {})(str(data["rows"]))
""" + STEP2

CRASH_PRINTING_DATA = 'import os\nprint(data["rows"], flush=True)\nos.write(1, str(data["rows"]).encode())\nos._exit(1)'


def _write(folder, notebooks: dict[str, str]) -> None:
    folder.mkdir()
    for student, step2 in notebooks.items():
        write_notebook(folder / f"{student}.ipynb", picross_cells(step2=step2))


def _texts(tmp_path, results) -> dict[str, str]:
    """Everything written or returned about each student: feedback (text, HTML) and the teacher's summary."""
    return {r.student: r.summary() + (tmp_path / "out" / "feedback" / f"{r.student}.txt").read_text()
            + (tmp_path / "out" / "feedback" / f"{r.student}.html").read_text() for r in results}


def test_sealed_run_finds_no_hidden_instance_through_its_parent_or_any_process(tmp_path, monkeypatch):
    monkeypatch.chdir(EXERCISES)  # the teacher grades from the exercises' folder
    _write(tmp_path / "in", {"snoop": SNOOP})
    [result] = grade(exercise_dir=PICROSS, submissions_dir=tmp_path / "in", out_dir=tmp_path / "out",
                     only=["moon", "arrow"], sandbox="bwrap")
    text = _texts(tmp_path, [result])["snoop"]
    assert [r.outcome for r in result.results if r.kind == "instance"] == [Outcome.PASSED] * 2, result.summary()
    assert not any(rows in text for rows in HIDDEN_ROWS)


@pytest.mark.parametrize("mode", ["bwrap", "process"])
def test_student_code_sees_an_empty_folder_and_none_of_the_graders_environment(mode, tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_SECRET", "s3cret-token")
    _write(tmp_path / "in", {"env": ENVIRONMENT})
    [result] = grade(exercise_dir=PICROSS, submissions_dir=tmp_path / "in", out_dir=tmp_path / "out",
                     only=["moon"], sandbox=mode)
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
    attempts = "\n".join(f'try:\n    open(f"{target}", "w").write("x")\nexcept OSError:\n    pass'
                         for target in targets)
    _write(tmp_path / "in", {"writer": f"import os\n{attempts}\n{STEP2}"})
    [result] = grade(exercise_dir=PICROSS, submissions_dir=tmp_path / "in", out_dir=tmp_path / "out",
                     only=["moon"], sandbox="bwrap")
    assert result.results[0].outcome is Outcome.PASSED, result.summary()
    assert list(teacher.iterdir()) == [] and not (tmp_path / "escaped.txt").exists()
    assert not (EXERCISES / "escaped.txt").exists()


def test_feedback_never_repeats_student_text_for_hidden_instances(tmp_path):
    _write(tmp_path / "in", {"leaky": LEAKY_HIDDEN, "crash": CRASH_PRINTING_DATA})
    results = grade(exercise_dir=PICROSS, submissions_dir=tmp_path / "in", out_dir=tmp_path / "out",
                    only=["moon", "arrow"])
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
    process.wait()
    return process.pid


@pytest.mark.parametrize("mode", ["bwrap", "process"])
def test_no_temporary_folder_is_left_by_crashed_or_killed_runs(mode, tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    (scratch / f"kernelext-{_dead_pid()}-grade-left").mkdir()  # a grader killed before it removed a run's folder
    _write(tmp_path / "in", {"exits": f"{STEP2}\nimport os\nos._exit(3)", "loops": "while True:\n    pass"})
    results = grade(exercise_dir=PICROSS, submissions_dir=tmp_path / "in", out_dir=tmp_path / "out",
                    only=["moon"], time_limit=2, sandbox=mode)
    assert [r.results[0].outcome for r in results] == [Outcome.CRASHED, Outcome.TIMEOUT]
    assert os.listdir(scratch) == []


def test_bwrap_mode_says_when_a_hidden_instance_would_be_inside_the_sandbox():
    inside = [str(Path(sys.prefix) / "picross" / "hidden" / "arrow.json"), "/usr/share/hidden/arrow.json"]
    assert exposed("bwrap", [*inside, str(PICROSS / "hidden" / "arrow.json")]) == inside
    assert exposed("process", inside) == []
