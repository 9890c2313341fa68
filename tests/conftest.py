"""Shared fixtures: a real IPython shell with kernelext loaded, and the model as text."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from docs_site import site  # noqa: F401  (the documentation site, built once for tests/docs/)
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

ROOT = Path(__file__).resolve().parent.parent  # the repository

AMAZE_BOARD = """%%puzzle amaze
n, m = 5, 5
points = [[(3, 4), (5, 1)], [(2, 2), (5, 5)]]
x = VarArray(size=[n + 2, m + 2], dom=lambda i, j: {0} if i in {0, n + 1} or j in {0, m + 1} else range(len(points) + 1))
"""
AMAZE_CLUES = """%%puzzle+
satisfy(x[i][j] == v + 1 for v in range(len(points)) for i, j in points[v])
"""


@dataclass
class CellRun:
    text: str  # everything shown: printed text and the text/plain of rich outputs
    error: BaseException | None


class Shell:
    """Runs cells as a notebook would (optionally with the cell id a front end sends)."""

    def __init__(self, ip: InteractiveShell):
        self.ip = ip

    def run(self, source: str, cell_id: str | None = None) -> CellRun:
        with capture_output() as captured:
            result = self.ip.run_cell(source, store_history=True, cell_id=cell_id)
        shown = [captured.stdout, captured.stderr]
        shown += [out.data.get("text/plain", "") for out in captured.outputs]
        return CellRun("\n".join(shown), result.error_in_exec or result.error_before_exec)

    def ok(self, source: str, cell_id: str | None = None) -> str:
        run = self.run(source, cell_id)
        assert run.error is None, run.text
        return run.text

    def solution(self) -> dict:
        """The current puzzle's last solution: variable id -> value."""
        session = self.ip.magics_manager.registry["PuzzleMagics"].session
        return dict(session.last_result.solution)

    def fails(self, source: str, cell_id: str | None = None) -> str:
        run = self.run(source, cell_id)
        assert run.error is not None, f"expected an error, got:\n{run.text}"
        return run.text + "\n" + str(run.error)


# Solutions a test's solver keeps: the differential tests compare whole sets of solutions, some over the
# 10,000 a notebook keeps.
EVERY_SOLUTION = 10**7


@pytest.fixture(scope="module")
def solver():
    """One solver for a test module, so that its warm JVM starts once."""
    from kernelext.solver.engine import Solver

    shared = Solver(keep=EVERY_SOLUTION)
    yield shared
    shared.close()


@pytest.fixture
def shell():
    ip = InteractiveShell.instance()
    ip.run_cell("%load_ext kernelext")
    ip.run_cell("from pycsp3 import *")
    yield Shell(ip)
    ip.run_cell("%unload_ext kernelext")
    ip.reset(new_session=True)


def model_text() -> str:
    """The whole pycsp3 model as its XCSP3 text (the same however the model was built up)."""
    import tempfile
    from pathlib import Path

    from pycsp3.classes.entities import CtrEntities, ObjEntities, VarEntities

    from kernelext.pycsp3_glue import model_state

    if not (CtrEntities.items or ObjEntities.items):
        return "\n".join(repr(item) for item in VarEntities.items)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.xml"
        model_state.compile_to(path)
        return path.read_text()


@contextmanager
def ctrl_c_kept():
    """Put Ctrl-C's handler back as it was after the block: nbclient, as it shuts its kernel down, sets Python's
    default handler whatever was there (an ignored SIGINT included)."""
    import signal

    before = signal.getsignal(signal.SIGINT)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.fixture
def ctrl_c_interrupts():
    """Ctrl-C raises KeyboardInterrupt in this test, as in a kernel, even when the suite was started with SIGINT
    ignored (as `nohup` or a background job starts it); what was there is put back afterwards."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.fixture(autouse=True)
def interrupt_handler_is_left_as_it_was():
    """Every test leaves Ctrl-C's handler as it found it (a kernel relies on it to stop a solve)."""
    import signal

    before = signal.getsignal(signal.SIGINT)
    yield
    assert signal.getsignal(signal.SIGINT) is before, "this test changed the SIGINT handler"


# Test files that take tens of seconds or minutes each (solvers' differential sweeps, graded runs in sandboxes,
# walkthroughs proven smallest, kernels started in subprocesses): marked `slow`, left out of the fast command.
SLOW_FILES = {
    "grading/test_exercise_authoring.py",
    "grading/test_generate.py",
    "grading/test_grading.py",
    "grading/test_grading_parts.py",
    "grading/test_grading_platforms.py",
    "grading/test_grading_sandbox.py",
    "solver/test_against_brute_force.py",
    "solver/test_backends_agree.py",
    "solver/test_time_and_memory.py",
    "solver/test_resources.py",
    "solver/test_warm_solver.py",
    "solver/test_portfolio.py",
    "publish/test_lite_build.py",
    "pycsp3_glue/test_stock_models.py",
    "widgets/test_ipywidgets7.py",
    "steps/test_picross_steps.py",
    "insight/walkthrough/test_walkthrough.py",
    "insight/walkthrough/test_smallest.py",
    "insight/walkthrough/test_patterns.py",
    "magic/test_bad_inputs.py",
    "steps/test_session_properties.py",
    "test_benchmarks.py",
    "xcsp/test_checker_agreement.py",
}


# The files that take minutes (browsers, the docs site, whole notebooks, an nbgrader course), started first: the
# workers (pytest-xdist, one whole file at a time, in this order with --no-loadscope-reorder) then end together
# instead of one waiting on a long last file.
LONGEST_FIRST = (
    "browser/test_stored_notebooks.py",
    "browser/test_lite_site.py",
    "browser/test_lite_student.py",
    "docs/",
    "test_without_java.py",
    "grading/test_nbgrader_course.py",
    "browser/",
)


def pytest_collection_modifyitems(config, items):
    def relative(item) -> str:
        return Path(item.fspath).resolve().relative_to(ROOT / "tests").as_posix()

    for item in items:
        if relative(item) in SLOW_FILES:
            item.add_marker(pytest.mark.slow)

    def rank(item) -> int:
        path = relative(item)
        return next((k for k, prefix in enumerate(LONGEST_FIRST) if path.startswith(prefix)), len(LONGEST_FIRST))

    items.sort(key=rank)  # stable: a file's tests keep their order
