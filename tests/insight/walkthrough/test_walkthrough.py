"""Walkthroughs: every deduction's facts are forced by its
constraints (checked with real ACE), steps are named by their shape, and bad requests get clear messages."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from sessions import (
    FUTOSHIKI_PUZZLE,
    FUTOSHIKI_RULES,
    SUDOKU_BOARD,
    SUDOKU_STEPS,
    session_with,
)

from kernelext.errors import PuzzleUsageError
from kernelext.insight import subset_solves
from kernelext.insight.walkthrough import deduction as deduction_module
from kernelext.insight.walkthrough import driver
from kernelext.insight.walkthrough.driver import walkthrough
from kernelext.insight.walkthrough.techniques import rating
from kernelext.pycsp3_glue.model_state import solution_cells
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.kit.propagation import TooLong
from kernelext.solver.result import Status
from kernelext.widgets.static_forms import walkthrough_html
from kernelext.xcsp.subsets import read_model

# -- walkthroughs of sessions ---------------------------------------------------------------------------------


def candidates_before(deduction) -> dict[str, tuple[int, ...]]:
    """Each drawn cell's candidates before the step: what is left and what the step removed."""
    before = {}
    for r, (row, gone) in enumerate(zip(deduction.marks.values, deduction.marks.removed)):
        for c, (left, removed) in enumerate(zip(row, gone)):
            before[f"x[{r}][{c}]"] = tuple(sorted(set(left) | set(removed)))
    return before


def assert_every_fact_is_forced(session, found, tmp_path, check_minimal: bool):
    """With ACE: the step's constraints and the candidates before it rule out every removed value; without
    any one of its constraints (when `check_minimal`), some removed value is possible again."""
    model = read_model(session.export(tmp_path / "model.xml"))
    by_text = {(c.text, c.scope): c.xml for c in model.constraints}
    for deduction in found.deductions:
        before = candidates_before(deduction)
        domains = [
            f"<extension><list> {v} </list><supports> {' '.join(map(str, values))} </supports></extension>"
            for v, values in before.items()
        ]
        own = [by_text[(c.text, c.scope)] for c in deduction.constraints]

        def possible(constraints, cell, value, domains=domains):
            path = model.write(
                tmp_path / "fact.xml", constraints + domains + [f"<intension> eq({cell},{value}) </intension>"]
            )
            return session.solver.solve(path, solution_cells(), timeout=20, backend="ace").status is Status.SAT

        facts = [(cell, value) for cell, values in deduction.removed for value in values]
        assert not any(possible(own, cell, value) for cell, value in facts), deduction.line()
        if check_minimal and deduction.technique != "singles":
            for k in range(len(own)):
                fewer = own[:k] + own[k + 1 :]
                assert any(possible(fewer, cell, value) for cell, value in facts), (deduction.line(), k)


def test_futoshiki_walkthrough_is_solved_and_every_step_is_forced_and_minimal(solver, tmp_path):
    session = session_with(solver, "futoshiki", FUTOSHIKI_PUZZLE, *FUTOSHIKI_RULES)
    solution = session.solve().solution
    found = walkthrough(session)
    assert found.solved and found.rating.startswith("easy")
    for deduction in found.deductions:
        for cell, value in deduction.placed:
            assert solution[cell] == value
        for cell, values in deduction.removed:
            assert solution[cell] not in values
    assert_every_fact_is_forced(session, found, tmp_path, check_minimal=True)
    assert found.words() == walkthrough(session).words()  # deterministic


def test_easy_sudoku_is_solved_by_singles_placed_one_by_one(solver):
    session = session_with(solver, "sudoku", SUDOKU_BOARD, *SUDOKU_STEPS)
    solution = session.solve().solution
    found = walkthrough(session)
    assert found.solved and found.rating == "easy (singles)"
    assert found.header().startswith(f"sudoku: solved in {len(found.deductions)} deduction(s)")
    assert all(d.size == 1 and d.smallest for d in found.deductions)
    for deduction in found.deductions:  # each single is named for what it is, on the candidates before it
        if deduction.technique in ("hidden single", "naked single"):
            before = candidates_before(deduction)
            ((cell, value),) = deduction.placed
            others = [v for v in deduction.constraints[0].scope if v != cell]
            elsewhere = [v for v in others if value in before[v]]
            assert (deduction.technique == "hidden single") == (not elsewhere), deduction.line()
            if elsewhere:
                assert set(before[cell]) - {value} <= {before[v][0] for v in others if len(before[v]) == 1}
    hidden = [d for d in found.deductions if d.technique == "hidden single"]
    assert hidden and all(len(d.placed) == 1 and len(d.constraints) == 1 for d in hidden)
    final = found.end.values
    assert [[solution[f"x[{i}][{j}]"] for j in range(9)] for i in range(9)] == [[v[0] for v in row] for row in final]
    line = hidden[0].line()
    assert re.fullmatch(
        r"x\[\d\]\[\d\] = \d by allDifferent\(x\[[\d.]+\]\[[\d.]+\]\) known: .* \[hidden single\]", line
    )
    assert hidden[0].marks.highlighted  # the constraint's cells
    assert hidden[0].known and all(value == solution[cell] for cell, value in hidden[0].known)


def test_a_limited_walkthrough_is_the_hint_and_its_next_steps(solver):
    session = session_with(solver, "sudoku", SUDOKU_BOARD, *SUDOKU_STEPS)
    whole = walkthrough(session)
    first_three = walkthrough(session, limit=3)
    assert first_three.deductions == whole.deductions[:3]
    assert not first_three.solved and first_three.stopped == ""
    assert first_three.header().startswith("sudoku: the first 3 deduction(s) of the solve")


def test_a_puzzle_with_several_solutions_stops_without_guessing(solver):
    session = session_with(
        solver,
        "latin",
        "x = VarArray(size=[3, 3], dom=range(1, 4))",
        "satisfy([AllDifferent(r) for r in x], [AllDifferent(c) for c in columns(x)])",
        "satisfy(x[0][0] == 1)",
    )
    found = walkthrough(session)
    assert not found.solved and "several solutions" in found.stopped
    assert found.rating == ""
    assert found.end.values[0][0] == (1,) and found.end.values[1][1] == (1, 2, 3)
    assert "not solved (the constraints allow several solutions from here)" in found.header()


def test_constraints_it_cannot_read_are_left_out_and_said(solver):
    session = session_with(
        solver, "zeros", "q = VarArray(size=4, dom=range(3))", "satisfy(AllDifferent(q, excepting=0), q[0] == 1)"
    )
    found = walkthrough(session)
    assert not found.solved
    assert "1 constraint(s) the walkthrough cannot read were left out" in found.stopped


def test_queens_are_read_whole_and_deduced_to_where_their_solutions_branch(solver):
    session = session_with(
        solver,
        "queens",
        "q = VarArray(size=5, dom=range(5))",
        "satisfy(AllDifferent(q), AllDifferent(q[i] + i for i in range(5)), AllDifferent(q[i] - i for i in range(5)))",
        "satisfy(q[0] == 0)",
    )
    found = walkthrough(session)
    assert found.stopped == "the constraints allow several solutions from here" and "left out" not in found.header()
    assert [d.line() for d in found.deductions][:1] and not found.solved  # q[0] = 0 leaves two solutions


def test_an_optimisation_is_walked_through_with_its_optimum_posted(solver):
    session = session_with(
        solver,
        "cheap",
        "x = VarArray(size=[1, 4], dom=range(1, 5))",
        "satisfy(AllDifferent(x[0]))",
        "minimize(x[0][0] + 2 * x[0][1])",
    )
    found = walkthrough(session)
    assert found.header().endswith("; its optimum posted as the constraint eq(add(x[0][0],mul(2,x[0][1])),4).")
    assert [d.placed for d in found.deductions[:2]] == [(("x[0][0]", 2),), (("x[0][1]", 1),)]
    assert found.deductions[0].constraints[0].text.endswith("(the optimum)")
    assert found.stopped == "the constraints allow several solutions from here"  # x[0][2] and x[0][3] swap


def test_time_running_out_shows_the_state_reached(solver):
    session = session_with(solver, "sudoku", SUDOKU_BOARD.replace('"530070000"', '"000000000"'), *SUDOKU_STEPS)
    found = walkthrough(session, timeout=0)  # its time is up before its first deduction, however fast the machine
    assert not found.solved and found.stopped.startswith("time ran out")
    assert found.end is not None


def test_a_walkthrough_needs_a_drawn_array(solver):
    session = session_with(solver, "cube", "x = VarArray(size=[2, 2, 2], dom=range(2))", "satisfy(Sum(x) == 3)")
    with pytest.raises(PuzzleUsageError, match="drawn array"):
        walkthrough(session)


# -- the commands ------------------------------------------------------------------------------------------------


def test_walkthrough_hint_and_hints_commands(shell):
    shell.ok("%%puzzle futoshiki\n" + FUTOSHIKI_PUZZLE)
    for rules in FUTOSHIKI_RULES:
        shell.ok("%%puzzle+\n" + rules)
    text = shell.ok("%puzzle walkthrough")
    assert "futoshiki: solved in " in text and "difficulty: easy" in text and "\n  1. " in text
    assert "candidates at the end:" in text
    assert "futoshiki: the first 1 deduction(s) of the solve" in shell.ok("%puzzle hint")
    hints = shell.ok("%puzzle hints 2")
    assert "the first 2 deduction(s)" in hints and "\n  2. " in hints and "\n  3. " not in hints
    assert "time ran out" in shell.ok("%puzzle walkthrough --timeout 0.001")
    assert "N is how many deductions" in shell.fails("%puzzle hints 0")
    assert "N is how many deductions" in shell.fails("%puzzle hints two")
    assert "%puzzle walkthrough takes no argument" in shell.fails("%puzzle walkthrough x[0][0]")
    assert "futoshiki: solved in " in shell.ok("%puzzle walkthrough --prove")
    assert "walkthrough" in shell.ok("%puzzle help")
    assert rating([("", 3, False), ("", 4, False), ("", 3, False)]) == "hard (a step of 4 constraints)"


def test_a_model_with_no_solution_says_so(solver):
    latin = (
        "x = VarArray(size=[3, 3], dom=range(1, 4))",
        "satisfy([AllDifferent(r) for r in x], [AllDifferent(c) for c in columns(x)])",
    )
    for wrong in (
        "satisfy(x[0][0] == 1, x[1][0] == 1)",
        "satisfy(x[0][0] == 1, x[0][1] == 1)",
        "satisfy(x[0][0] < x[0][1], x[0][1] < x[0][2], x[0][2] < x[0][0])",
    ):
        found = walkthrough(session_with(solver, "latin", *latin, wrong))
        assert not found.solved and found.stopped == "the constraints have no solution: use %puzzle explain", wrong


W_WING = [  # HoDoKu's example of a W-wing
    "500900067",
    "001000050",
    "074500000",
    "000020000",
    "000600008",
    "080019300",
    "000000000",
    "210060000",
    "930000705",
]


def sudoku_of(rows: list[str]) -> str:
    """The board step of the Sudoku with these clues."""
    return SUDOKU_BOARD.replace(
        SUDOKU_BOARD[SUDOKU_BOARD.index("[") : SUDOKU_BOARD.index("]]") + 2],
        f"[[int(d) for d in row] for row in {rows!r}]",
    )


def test_a_wing_is_named_drawn_forced_by_its_constraints_and_minimal(solver, tmp_path):
    """HoDoKu's example of a W-wing: the walkthrough names it, writes and draws its chain, and its houses
    force its facts and are all needed (checked with ACE)."""
    session = session_with(solver, "sudoku", sudoku_of(W_WING), *SUDOKU_STEPS)
    found = walkthrough(session)
    assert found.solved and found.rating == "hard (W-wing)"
    wing = next(d for d in found.deductions if d.technique == "W-wing")
    assert len(wing.constraints) == 4 and len(wing.links) == 3 and not wing.smallest
    assert re.search(
        r"\[W-wing: (x\[\d\]\[\d\]) -(\d)- x\[\d\]\[\d\] =\2= x\[\d\]\[\d\] -\2- (x\[\d\]\[\d\]); minimal", wing.line()
    ), wing.line()
    assert wing.marks.links and "position:absolute" in walkthrough_html(found, 3)
    named = [d for d in found.deductions if d.technique not in ("", "singles", "hidden single", "naked single")]
    assert {d.technique for d in named} >= {"locked candidates (pointing)", "naked triple", "W-wing"}
    assert_every_fact_is_forced(session, SimpleNamespace(deductions=named), tmp_path, check_minimal=True)


STAR_BATTLE = (  # 9x9, two stars per row, column and region
    "regions = ['000554222', '000544222', '000544422', '330444446', '333444446', '338884466', '338887777',\n"
    "           '118877777', '111111777']\n"
    "x = VarArray(size=[9, 9], dom={0, 1})",
    "satisfy(Sum(x[i]) == 2 for i in range(9))",
    "satisfy(Sum(x[:, j]) == 2 for j in range(9))",
    "satisfy(Sum(x[i:i + 2, j:j + 2]) <= 1 for i in range(8) for j in range(8))",
    "satisfy(Sum(x[i][j] for i in range(9) for j in range(9) if regions[i][j] == str(r)) == 2 for r in range(9))",
)


@pytest.mark.parametrize("puzzle", ["W-wing Sudoku", "star battle"])
def test_solutions_kept_from_earlier_steps_spare_searches_and_change_no_step(solver, monkeypatch, puzzle):
    """A solution found at an earlier step is still one while its values are candidates: kept, it answers
    the same questions again with no search, and the walkthrough is the one found searching each time."""
    steps = (sudoku_of(W_WING), *SUDOKU_STEPS) if puzzle == "W-wing Sudoku" else STAR_BATTLE
    session = session_with(solver, puzzle, *steps)
    searches, asked = [], []  # every search; the questions `_shrunk` asks
    real_search, real_example = deduction_module.Reasoner.solution, deduction_module.Deducer._example
    monkeypatch.setattr(
        deduction_module.Reasoner, "solution", lambda *args, **named: searches.append(1) or real_search(*args, **named)
    )
    monkeypatch.setattr(
        deduction_module.Deducer, "_example", lambda deducer, *args: asked.append(1) or real_example(deducer, *args)
    )
    kept = walkthrough(session, timeout=300)
    with_kept, asked_with_kept = len(searches), len(asked)
    real_consequences = deduction_module.Reasoner.consequences
    monkeypatch.setattr(
        deduction_module.Reasoner,
        "consequences",
        lambda reasoner, ids, domains, solve=None, examples=None: real_consequences(reasoner, ids, domains, solve),
    )
    monkeypatch.setattr(deduction_module.Deducer, "_solved_without", lambda deducer, *args: deducer._example(*args))
    searches.clear(), asked.clear()
    searched_each_time = walkthrough(session, timeout=300)
    assert kept.solved and [d.line() for d in kept.deductions] == [d.line() for d in searched_each_time.deductions]
    assert 0 < with_kept < len(searches)
    assert asked_with_kept <= len(asked) and (puzzle != "star battle" or asked_with_kept < len(asked))


def magic_square(n: int) -> tuple[str, ...]:
    """The steps of an n x n magic square, its symmetry broken (as in the classroom notebook)."""
    return (
        f"n = {n}\nS = n * (n * n + 1) // 2\nx = VarArray(size=[n, n], dom=range(1, n * n + 1))",
        "satisfy(AllDifferent(x))",
        "satisfy(Sum(x[i]) == S for i in range(n))",
        "satisfy(Sum(x[:, j]) == S for j in range(n))",
        "satisfy(Sum(diagonal_down(x)) == S, Sum(diagonal_up(x)) == S)",
        "satisfy(x[0][0] < x[0][n - 1], x[0][0] < x[n - 1][0], x[0][0] < x[n - 1][n - 1], x[0][n - 1] < x[n - 1][0])",
    )


def test_searches_handed_to_the_solver_keep_every_step_forced_and_minimal(solver, tmp_path, monkeypatch):
    session = session_with(solver, "magic", *magic_square(3))
    in_kernel = walkthrough(session, timeout=300)
    handed = []
    real = driver._Walk._solve_outside
    monkeypatch.setattr(driver._Walk, "_solve_outside", lambda walk, *args: handed.append(args) or real(walk, *args))
    monkeypatch.setattr(deduction_module, "KERNEL_NODES", 0)  # every search goes to the solver: hundreds of solves
    found = walkthrough(session, timeout=300)
    assert handed and found.solved and in_kernel.solved
    assert [d.size for d in found.deductions] == [d.size for d in in_kernel.deductions]
    assert all(d.minimal for d in found.deductions)
    assert_every_fact_is_forced(session, found, tmp_path, check_minimal=True)


def test_a_step_shrunk_on_answers_cut_short_says_it_is_not_proven_minimal(solver, tmp_path, monkeypatch):
    """A solver that never answers within the short limit: the step found stays true, and says that it may
    hold a constraint too many."""
    session = session_with(solver, "magic", *magic_square(4))
    plain = walkthrough(session, limit=3)
    real = driver._Walk._solve_outside

    def never_in_time(walk, ids, domains, patient):
        if not patient:
            raise TooLong
        return real(walk, ids, domains, patient)

    monkeypatch.setattr(driver._Walk, "_solve_outside", never_in_time)
    found = walkthrough(session, limit=3)
    assert plain.deductions[-1].minimal and plain.deductions[-1].line().endswith("[minimal, not proven smallest]")
    last = found.deductions[-1]
    assert not last.minimal and not last.smallest and last.line().endswith("[not proven minimal]")
    assert all(d.minimal for d in found.deductions if d.smallest)
    assert_every_fact_is_forced(session, found, tmp_path, check_minimal=False)


def test_with_no_solver_to_hand_out_to_the_kernel_searches_on(solver, monkeypatch):
    """As in a browser that cannot wait for MiniZinc: the first search handed out finds no solver, and the
    walkthrough goes on in the kernel, with the same steps."""
    session = session_with(solver, "magic", *magic_square(3))
    in_kernel = walkthrough(session)
    refused = []

    def cannot_wait(context, *args):
        refused.append(args)
        raise BackendUnsupported("This browser cannot wait for MiniZinc inside a cell.")

    monkeypatch.setattr(subset_solves, "in_browser", lambda: True)  # no CP-SAT in memory there
    monkeypatch.setattr(subset_solves.SubsetSolves, "solve", cannot_wait)
    monkeypatch.setattr(deduction_module, "KERNEL_NODES", 0)
    found = walkthrough(session)
    assert len(refused) == 1 and found.solved
    assert [d.line() for d in found.deductions] == [d.line() for d in in_kernel.deductions]


TAKUZU = (  # 6x6, three of its steps a set of rules that only search refutes
    "givens = ['1..0..', '..0..1', '.0..1.', '......', '0.1..0', '.....0']\nn = len(givens)\n"
    "x = VarArray(size=[n, n], dom={0, 1})",
    "satisfy(x[i][j] == int(givens[i][j]) for i in range(n) for j in range(n) if givens[i][j] != '.')",
    "satisfy([Sum(x[i]) == n // 2 for i in range(n)], [Sum(x[:, j]) == n // 2 for j in range(n)])",
    "forbidden = {(0, 0, 0), (1, 1, 1)}\n"
    "satisfy([(x[i][j], x[i][j + 1], x[i][j + 2]) not in forbidden for i in range(n) for j in range(n - 2)],\n"
    "        [(x[i][j], x[i + 1][j], x[i + 2][j]) not in forbidden for i in range(n - 2) for j in range(n)])",
    "satisfy(AllDifferentList(x), AllDifferentList(columns(x)))",
)


def test_sets_refuted_by_search_come_from_cp_sat_s_cores_forced_and_minimal(solver, tmp_path, monkeypatch):
    """Cores asked of CP-SAT in memory give the walkthrough's sets that search refutes, each forced and minimal
    (checked with ACE)."""
    session = session_with(solver, "takuzu", *TAKUZU)
    asked = []
    real = driver._Walk._conflict
    monkeypatch.setattr(driver._Walk, "_conflict", lambda walk, *args: asked.append(real(walk, *args)) or asked[-1])
    found = walkthrough(session, timeout=300)
    assert len([core for core in asked if core]) >= 3
    assert found.stopped == "the constraints allow several solutions from here"
    searched = [d for d in found.deductions if len(d.constraints) > 3]
    assert searched and all(d.minimal for d in found.deductions)
    assert_every_fact_is_forced(session, SimpleNamespace(deductions=searched), tmp_path, check_minimal=True)


def test_a_core_that_is_not_one_is_set_aside(solver, monkeypatch):
    """A solver's core that does not refute its candidate (a wrong answer) is checked by search and replaced
    by QuickXplain's: the steps stay those of the kernel alone."""
    session = session_with(solver, "takuzu", *TAKUZU)
    monkeypatch.setattr(subset_solves, "in_browser", lambda: True)
    in_kernel = walkthrough(session, timeout=300)
    monkeypatch.undo()
    wrong = []
    monkeypatch.setattr(driver._Walk, "_conflict", lambda walk, ids, *asked: wrong.append(ids[:1]) or ids[:1])
    found = walkthrough(session, timeout=300)
    assert wrong and [d.line() for d in found.deductions] == [d.line() for d in in_kernel.deductions]
