"""The benchmark scripts still run: each one imports (the shared helpers too), and each is run as
`python benchmarks/NAME.py ...` from the repository's root with its smallest settings (one round, one case, a
short limit), must exit 0 and print its figures. No figure is compared with a target (timings vary with the
machine's load): the words and counts the runs print are.

Not run here: `--base REV` (a checkout of another revision) and `grading.py --dask`. compat.py, portfolio.py and
checker_agreement.py run on a tiny collection written here in the PyCSP3-models layout (the collection itself is not
downloaded).
browser_steps.py runs only its option parsing and its desktop side (`--desktop-only`: stock pycsp3 on the Amaze
walkthrough's steps), not its browser parts: they build two JupyterLite sites of their own and drive Chromium
through several page loads, minutes on two cores (tests/browser/ drives the kit's site in Chromium).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
from contextlib import suppress
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
SCRIPTS = sorted(path.stem for path in BENCHMARKS.glob("*.py"))
HELPERS = {"kernels"}  # imported by the scripts, run by none
RUN_TIMEOUT = 240  # seconds, one script's run
pytestmark = pytest.mark.timeout(RUN_TIMEOUT + 60)

# Imports each module named after the folders on its command line, in turn, as a script run from benchmarks/
# would: sys.path, and the modules of those folders (benchmarks/, tests/), put back as they were before the next,
# so that no import leans on another's. Prints {name: traceback} of those that fail.
IMPORT_EACH = """
import importlib, json, sys, traceback
folders, names = tuple(sys.argv[1:3]), sys.argv[3:]
sys.argv[1:] = []  # pycsp3 reads the command line when it is imported
path, before = list(sys.path), set(sys.modules)
failed = {}
for name in names:
    try:
        importlib.import_module(name)
    except BaseException:
        failed[name] = traceback.format_exc(limit=-3)
    sys.path[:] = path
    for module in set(sys.modules) - before:
        if (getattr(sys.modules[module], "__file__", None) or "").startswith(folders):
            del sys.modules[module]
print(json.dumps(failed))
"""

# Each script's smallest run: its command line's arguments, and what its output must hold (regular expressions,
# multiline).
SMOKE_RUNS = {
    "checker_cost": (
        "--rounds 1 --only 'walkthrough FUTOSHIKI' queens",
        [r"^walkthrough FUTOSHIKI\s+3\s", r"^queens\s+6\s", "over 9 steps: median share"],
    ),
    "command_limits": (
        "--timeout 1 --rounds 1",
        [
            "^--timeout 1, median of 1 rounds:",
            r"^\s+tree --nodes 1000000\s",
            r"^\s+why x\[0\]\[1\]\s",
            "memory after",
            r"the kernel.s first solve, before them: \+\d+ MB",
        ],
    ),
    "constructs": (
        "--draws 1 --timeout 20 allDifferent",
        [r"^allDifferent #1\s.*\s24 sols$", "^THROUGH THE KIT", r"^\s+auto\s+right\s+1\s"],
    ),
    "explain": (
        "--rounds 1",
        ["contradict each other", "^explain, median of 1: ", r"^hint \(1 constraint\(s\) per fact"],
    ),
    "explanations": (
        "--rounds 1 --idle 0",
        [r"^%puzzle why x\[0\]\[1\] --timeout 300\s+now\s+\d", r"^%puzzle explain --timeout 300\s+now\s+\d"],
    ),
    "first_cell": (
        "--rounds 1",
        [r"^From a ready kernel to the first solved step \(Amaze\)", r"^\s+kit\s+median", r"^\s+cpmpy \+ cp-sat\s"],
    ),
    "grading": (
        "--submissions 1 --workers 1 --sandbox process",
        [r"^a process per run: 1 submissions, \d+ runs", "1/1 with full marks", "grades.csv identical: True"],
    ),
    "hodoku_paths": (
        "--limit 1 --timeout 60",
        [r"^1\. 0307", r"^\s+HoDoKu: hard;", r"^\s+walkthrough: \w+", r"^same level: \d of 1;"],
    ),
    "large_instances": (
        "--rounds 1 --steps 10 --only 'futoshiki 9x9'",
        [r"^futoshiki 9x9\s.*\[\('SAT', None\)\]$", r"^memory after 10 steps: kernel \d+ MB"],
    ),
    "optimisation": (
        "--rounds 1 --timeout 20 --only 'amaze notebook 5x5 (optimum step)' 'amaze exercise public/first' golomb-5",
        [
            r"^amaze notebook 5x5 \(optimum step\)\s+OPTIMUM \(20\)\s+OPTIMUM \(20\)\s",
            r"^amaze exercise public/first\s+OPTIMUM \(13\)\s+OPTIMUM \(13\)\s+13\s",
            r"^golomb-5\s+OPTIMUM \(11\)\s+OPTIMUM \(11\)\s+11\s",
        ],
    ),
    "pencil_marks": (
        "--rounds 1",
        [r"^9x9 Sudoku, \d+ values left after propagation; median of 1:", "with the model already compiled"],
    ),
    "reference_check": ("layout", [r"^layout\s+(\d+)\s+\1\s", r"^all\s+(\d+)\s+\1\s"]),
    "smallest_step": (
        "--puzzle 'easy sudoku' --timeout 60",
        [
            r"^easy sudoku, after 1 deduction\(s\): the walkthrough's next step has \d+ constraints",
            "^smallest step: 1 ",
        ],
    ),
    "solve_steps": (
        "--rounds 1 --only layout",
        [r"^walkthrough\s+step\s+pycsp3 solve\(\)", r"^layout\s+2\s", r"^layout\s+3\s", r"^median\s"],
    ),
    "step_cells": (
        "--rounds 1 --only layout",
        ["2 steps of layout, 1 rounds in turn:", r"^\s+kit\s+\d", r"^\s+stock pycsp3 solve\(\)\s+\d"],
    ),
    "step_phases": (
        "--rounds 1 --only layout",
        [r"^2 steps \(1 rounds of layout\), solver auto", r"^\s+render\s+\d", "^kit: whole step / CPMpy"],
    ),
    "step_sets": (
        "1 --puzzle 'easy sudoku'",
        [r"connected sets of 1; checking \d+", r"^forces: \['allDifferent", r"^\d+ of \d+ sets force something"],
    ),
    "time_limits": (
        "--rounds 1",
        [
            "median of 1 rounds:$",
            "warm ACE reading tables: after Stop$",
            "minizinc reading tables: past a 2 s limit$",
            "a graded run that loops: past",
        ],
    ),
    "views_drawing": (
        "1",
        [r"^job shop 10x10, 100 tasks \(Gantt chart\): picture .*\(status \w+\)$", r"^graph colouring.*\(graph\)"],
    ),
    "walkthrough": (
        "--only 'easy sudoku' --timeout 60",
        [r"^easy sudoku: walkthrough solved; \d+ deductions", r"^\s+rating: easy"],
    ),
    "widget_update": ("1", [r"^widget update cost \(30x30 nonogram, median of 1\): [\d.]+ ms, [\d.]+ kB$"]),
    "xcsp3_reading": (
        "--rounds 1 --only layout",
        [r"^\d+ step models of layout, 1 rounds", r"^\s+pycsp3 parser \(parse only\)\s+median"],
    ),
}
# Run by a test of their own below (a collection to write, or a browser left out).
OWN_TESTS = {"compat", "portfolio", "checker_agreement", "browser_steps"}

# The tiny collection's models: a satisfaction model on its default data, an optimisation model on a data file.
QUEENS = """from pycsp3 import *

n = data or 6

q = VarArray(size=n, dom=range(n))

satisfy(
    AllDifferent(q),
    AllDifferent(q[i] + i for i in range(n)),
    AllDifferent(q[i] - i for i in range(n))
)
"""
KNAPSACK = """from pycsp3 import *

capacity, weights, values = data
n = len(weights)

x = VarArray(size=n, dom={0, 1})

satisfy(
    Sum(x[i] * weights[i] for i in range(n)) <= capacity
)

maximize(
    Sum(x[i] * values[i] for i in range(n))
)
"""
KNAPSACK_DATA = {"capacity": 10, "weights": [5, 4, 6, 3], "values": [10, 40, 30, 50]}  # optimum 90: items 2 and 4


def run_script(name: str, arguments: list[str], scratch: Path) -> str:
    """Run benchmarks/NAME.py from the repository's root (temporary files in `scratch`); what it printed, once it
    exited 0. Anything it left running is ended with it."""
    process = subprocess.Popen(
        [sys.executable, f"benchmarks/{name}.py", *arguments],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(scratch)},
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        pytest.fail(f"{name}.py did not end within {RUN_TIMEOUT} s:\n{(out + err)[-3000:]}")
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, f"{name}.py exited {process.returncode}:\n{(out + err)[-3000:]}"
    return out


def assert_printed(name: str, out: str, patterns: list[str]) -> None:
    missing = [pattern for pattern in patterns if not re.search(pattern, out, re.M)]
    assert not missing, f"{name}.py did not print {missing}:\n{out[-3000:]}"


@pytest.fixture(scope="module")
def import_failures() -> dict[str, str]:
    """{script: traceback} of the benchmarks/*.py modules that do not import, each imported on its own."""
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_EACH, f"{BENCHMARKS}/", f"{ROOT / 'tests'}/", *SCRIPTS],
        cwd=BENCHMARKS,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        env={**os.environ, "PYTHONPATH": str(BENCHMARKS)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", SCRIPTS)
def test_benchmark_imports(import_failures, name):
    assert name not in import_failures, f"benchmarks/{name}.py does not import:\n{import_failures[name]}"


@pytest.mark.parametrize("name", sorted(set(SCRIPTS) - HELPERS - OWN_TESTS))
def test_benchmark_runs_and_prints_its_figures(tmp_path, name):
    assert name in SMOKE_RUNS, f"benchmarks/{name}.py has no smoke run: add its smallest run to SMOKE_RUNS"
    arguments, patterns = SMOKE_RUNS[name]
    assert_printed(name, run_script(name, shlex.split(arguments), tmp_path), patterns)


def test_every_smoke_run_names_a_script():
    assert set(SMOKE_RUNS) <= set(SCRIPTS), f"smoke runs of no script: {sorted(set(SMOKE_RUNS) - set(SCRIPTS))}"


@pytest.fixture(scope="module")
def collection(tmp_path_factory) -> Path:
    """A tiny collection in the PyCSP3-models layout: CATEGORY/MODEL/MODEL.py, the example data beside it."""
    root = tmp_path_factory.mktemp("collection")
    queens, knapsack = root / "academic" / "Queens", root / "recreational" / "Knapsack"
    for folder in (queens, knapsack):
        folder.mkdir(parents=True)
    (queens / "Queens.py").write_text(QUEENS)
    (knapsack / "Knapsack.py").write_text(KNAPSACK)
    (knapsack / "Knapsack-small.json").write_text(json.dumps(KNAPSACK_DATA))
    return root


def test_compat_builds_and_solves_a_tiny_collection(tmp_path, collection):
    out = run_script("compat", [str(collection), "--solve", "5", "--json", str(tmp_path / "outcomes.json")], tmp_path)
    assert_printed(
        "compat",
        out,
        [
            r"^2 models; stock pycsp3 compiles 2",
            r"^compared 2: identical 2, refused by the kit 0, built differently 0",
            r"^solved by stock ACE within 5 s: 2",
            r"agree 2, differ 0",
            r"^kernel memory: before \d+ MB",
        ],
    )
    queens, knapsack = json.loads((tmp_path / "outcomes.json").read_text())
    assert queens["data"] == "None" and knapsack["data"].endswith("Knapsack-small.json")
    assert knapsack["solved"]["stock"] == ["OPTIMUM", "90"]


def test_portfolio_races_on_a_tiny_collection(tmp_path, collection):
    out = run_script("portfolio", [str(collection), "--seconds", "3", "--cache", str(tmp_path / "stock")], tmp_path)
    assert_printed(
        "portfolio",
        out,
        [
            r"^2 models; stock pycsp3 compiles 2",
            r"^recreational/Knapsack\s+OPT 90 ",
            r"^2 models solved; finished within the limit",
            r"^\s+auto\s+4 s\s",
            r"^disagreements: 0$",
        ],
    )
    kept = {path.name for path in (tmp_path / "stock").iterdir()}
    assert {"academic-Queens.stock.xml", "recreational-Knapsack.stock.xml"} <= kept, kept


def test_checker_agreement_compares_both_checkers_on_a_tiny_collection(tmp_path, collection):
    out = run_script(
        "checker_agreement", [str(collection), "--seconds", "3", "--cache", str(tmp_path / "stock")], tmp_path
    )
    assert_printed(
        "checker_agreement",
        out,
        [
            r"^2 models; stock pycsp3 compiles 2",
            r"^academic/Queens\s+cp-sat\s+3\s+\d+\s",
            r"^recreational/Knapsack\s+cp-sat\s+\d+\s",
            r"^models: 2; compiled 2; checked 2$",
            r"^assignments checked: \d+ \(solutions \d+, mutants \d+\)$",
            r"^not judged by SolutionChecker: 0$",
            r"^disagreements: 0$",
        ],
    )


def test_browser_steps_parses_its_options_and_times_the_desktop_side(tmp_path):
    """Its browser parts are left out (see the module's docstring): the options, and stock pycsp3's figures."""
    help_text = run_script("browser_steps", ["--help"], tmp_path)
    assert all(option in help_text for option in ("--rounds", "--site", "--desktop-only"))
    out = run_script("browser_steps", ["--rounds", "1", "--desktop-only"], tmp_path)
    assert_printed(
        "browser_steps",
        out,
        [r"^Amaze walkthrough, median of 1 rounds: stock pycsp3 solve\(\) on the desktop", r"^2\s+\d", r"^5\s+\d"],
    )
