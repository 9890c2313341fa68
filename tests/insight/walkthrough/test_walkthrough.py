"""Walkthroughs: the rules filter exactly what brute force keeps, every deduction's facts are forced by its
constraints (checked with real ACE), steps are named by their shape, and bad requests get clear messages."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_explain import (
    FUTOSHIKI_PUZZLE,
    FUTOSHIKI_RULES,
    SUDOKU_BOARD,
    SUDOKU_STEPS,
    session_with,
)

from kernelext.errors import PuzzleUsageError
from kernelext.insight.explain import walkthrough
from kernelext.insight.walkthrough.propagation import Reasoner
from kernelext.insight.walkthrough.rules import AllDifferent, Regular, Sum, rule_of
from kernelext.insight.walkthrough.techniques import houses, rating, shape_name
from kernelext.solver.result import Status
from kernelext.xcsp.subsets import XmlConstraint, read_model

FAR = 10 ** 9  # a deadline nobody reaches
domains_strategy = st.lists(st.frozensets(st.integers(1, 6), min_size=1, max_size=4), min_size=1, max_size=5)


def projection(domains, allows):
    """What brute force keeps: each position's values in some allowed tuple (None when there is none)."""
    kept = [set() for _ in domains]
    for values in itertools.product(*(sorted(d) for d in domains)):
        if allows(values):
            for slot, value in zip(kept, values):
                slot.add(value)
    return tuple(map(frozenset, kept)) if kept[0] else None


# -- the rules, each against brute force -------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(domains_strategy)
def test_all_different_keeps_exactly_the_values_of_some_solution(domains):
    rule = AllDifferent(tuple(f"v{i}" for i in range(len(domains))))
    assert rule.filter(tuple(domains)) == projection(domains, lambda t: len(set(t)) == len(t))


@settings(max_examples=300, deadline=None)
@given(domains_strategy, st.lists(st.sampled_from([1, 2, -1, 3]), min_size=5, max_size=5),
       st.sampled_from(["eq", "le", "ge", "ne", "lt", "gt"]), st.integers(-5, 20))
def test_sum_keeps_exactly_the_values_of_some_solution(domains, coeffs, op, limit):
    scope = tuple(f"v{i}" for i in range(len(domains)))
    weights = " ".join(map(str, coeffs[:len(domains)]))
    xml = f"<sum><list> {' '.join(scope)} </list><coeffs> {weights} </coeffs><condition> ({op},{limit}) </condition></sum>"
    rule = rule_of(XmlConstraint(xml, "sum", scope))
    assert isinstance(rule, Sum)
    test = {"eq": limit.__eq__, "le": limit.__ge__, "ge": limit.__le__, "ne": limit.__ne__, "lt": limit.__gt__,
            "gt": limit.__lt__}[op]
    expected = projection(domains, lambda t: test(sum(c * v for c, v in zip(coeffs, t))))
    assert rule.filter(tuple(domains)) == expected


@settings(max_examples=200, deadline=None)
@given(domains_strategy, st.lists(st.tuples(st.sampled_from("abc"), st.integers(1, 6), st.sampled_from("abc")),
                                  min_size=1, max_size=12))
def test_regular_keeps_exactly_the_values_of_some_accepted_word(domains, moves):
    rule = Regular(tuple(f"v{i}" for i in range(len(domains))), "a", frozenset("c"), tuple(moves))

    def accepted(word):
        states = {"a"}
        for value in word:
            states = {b for a, v, b in moves if a in states and v == value}
        return "c" in states

    assert rule.filter(tuple(domains)) == projection(domains, accepted)


@pytest.mark.parametrize("xml, scope, allows", [
    ("<intension> lt(add(x,4),y) </intension>", ("x", "y"), lambda t: t[0] + 4 < t[1]),
    ("<intension> or(eq(x,y),iff(ne(x,2),gt(y,3))) </intension>", ("x", "y"),
     lambda t: t[0] == t[1] or ((t[0] != 2) == (t[1] > 3))),
    ("<intension> in(dist(x,y),set(1,3)) </intension>", ("x", "y"), lambda t: abs(t[0] - t[1]) in (1, 3)),
    ("<intension> eq(div(x,sub(y,2)),1) </intension>", ("x", "y"), lambda t: t[1] != 2 and int(t[0] / (t[1] - 2)) == 1),
    ("<extension><list> x y z </list><conflicts> (1,1,1)(2,2,2) </conflicts></extension>", ("x", "y", "z"),
     lambda t: t not in ((1, 1, 1), (2, 2, 2))),
    ("<sum><list> and(le(x,2),ge(y,2)) z </list><condition> (eq,w) </condition></sum>", ("x", "y", "z", "w"),
     lambda t: (t[0] <= 2 and t[1] >= 2) + t[2] == t[3]),
])
def test_intension_extension_and_sums_of_expressions_filter_exactly(xml, scope, allows):
    rule = rule_of(XmlConstraint(xml, xml, scope))
    domains = tuple(frozenset(range(1, 5)) for _ in scope)
    assert rule.filter(domains) == projection(domains, allows)


@settings(max_examples=200, deadline=None)
@given(domains_strategy, st.frozensets(st.integers(1, 6), min_size=1, max_size=3), st.integers(0, 4),
       st.sampled_from(["eq", "le", "ge", "ne"]))
def test_count_keeps_exactly_the_values_of_some_solution(domains, values, limit, op):
    scope = tuple(f"v{i}" for i in range(len(domains)))
    xml = (f"<count><list> {' '.join(scope)} </list><values> {' '.join(map(str, sorted(values)))} </values>"
           f"<condition> ({op},{limit}) </condition></count>")
    test = {"eq": limit.__eq__, "le": limit.__ge__, "ge": limit.__le__, "ne": limit.__ne__}[op]
    expected = projection(domains, lambda t: test(sum(v in values for v in t)))
    assert rule_of(XmlConstraint(xml, "count", scope)).filter(tuple(domains)) == expected


@pytest.mark.parametrize("table", ["supports", "conflicts"])
def test_tables_with_stars_match_any_value(table):
    xml = f"<extension><list> x y z </list><{table}> (0,*,*)(1,2,*)(2,*,3) </{table}></extension>"
    listed = lambda t: t[0] == 0 or (t[0] == 1 and t[1] == 2) or (t[0] == 2 and t[2] == 3)  # noqa: E731
    allows = listed if table == "supports" else (lambda t: not listed(t))
    domains = tuple(frozenset(range(0, 4)) for _ in range(3))
    rule = rule_of(XmlConstraint(xml, xml, ("x", "y", "z")))
    assert rule.filter(domains) == projection(domains, allows)
    narrow = (frozenset({1, 2}), frozenset({0, 1}), frozenset({0, 1, 2, 3}))
    assert rule.filter(narrow) == projection(narrow, allows)


def test_a_constraint_it_cannot_read_is_none():
    assert rule_of(XmlConstraint("<allDifferent> sub(q[1],1) q[0] </allDifferent>", "", ("q[1]", "q[0]"))) is None
    assert rule_of(XmlConstraint("<circuit> x y z </circuit>", "", ("x", "y", "z"))) is None
    assert rule_of(XmlConstraint("<extension><supports> (1,2) </supports></extension>", "", ("x", "y"))) is None


@settings(max_examples=100, deadline=None)
@given(st.lists(st.frozensets(st.integers(1, 4), min_size=1, max_size=4), min_size=5, max_size=5),
       st.integers(4, 12))
def test_consequences_of_rules_together_are_exact(domains, total):
    names = [f"v{i}" for i in range(5)]
    rules = [AllDifferent(tuple(names[:3])), AllDifferent(tuple(names[2:])),
             Sum((names[0], names[4]), (1, 1), total.__eq__, total)]
    reasoner = Reasoner(rules, FAR)
    found = reasoner.consequences([0, 1, 2], dict(zip(names, domains)))
    expected = projection(domains, lambda t: len(set(t[:3])) == 3 and len(set(t[2:])) == 3 and t[0] + t[4] == total)
    assert (None if found is None else tuple(found[v] for v in names)) == expected


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
        domains = [f"<extension><list> {v} </list><supports> {' '.join(map(str, values))} </supports></extension>"
                   for v, values in before.items()]
        own = [by_text[(c.text, c.scope)] for c in deduction.constraints]

        def possible(constraints, cell, value):
            path = model.write(tmp_path / "fact.xml", constraints + domains + [f"<intension> eq({cell},{value}) "
                                                                                "</intension>"])
            return session.solver.solve(path, {}, timeout=20, backend="ace").status is Status.SAT

        facts = [(cell, value) for cell, values in deduction.removed for value in values]
        assert not any(possible(own, cell, value) for cell, value in facts), deduction.line()
        if check_minimal and deduction.technique != "singles":
            for k in range(len(own)):
                fewer = own[:k] + own[k + 1:]
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
            (cell, value), = deduction.placed
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
    assert re.fullmatch(r"x\[\d\]\[\d\] = \d by allDifferent\(x\[[\d.]+\]\[[\d.]+\]\) known: .* \[hidden single\]", line)
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
    session = session_with(solver, "latin", "x = VarArray(size=[3, 3], dom=range(1, 4))",
                           "satisfy([AllDifferent(r) for r in x], [AllDifferent(c) for c in columns(x)])",
                           "satisfy(x[0][0] == 1)")
    found = walkthrough(session)
    assert not found.solved and "several solutions" in found.stopped
    assert found.rating == ""
    assert found.end.values[0][0] == (1,) and found.end.values[1][1] == (1, 2, 3)
    assert "not solved (the constraints allow several solutions from here)" in found.header()


def test_constraints_it_cannot_read_are_left_out_and_said(solver):
    session = session_with(solver, "queens", "q = VarArray(size=5, dom=range(5))",
                           "satisfy(AllDifferent(q), AllDifferent(q[i] + i for i in range(5)), "
                           "AllDifferent(q[i] - i for i in range(5)))")
    found = walkthrough(session)
    assert not found.solved
    assert "2 constraint(s) the walkthrough cannot read were left out" in found.stopped


def test_time_running_out_shows_the_state_reached(solver):
    session = session_with(solver, "sudoku", SUDOKU_BOARD.replace('"530070000"', '"000000000"'), *SUDOKU_STEPS)
    found = walkthrough(session, timeout=0.05)
    assert not found.solved and found.stopped.startswith("time ran out")
    assert found.end is not None


def test_a_walkthrough_needs_a_drawn_array(solver):
    session = session_with(solver, "cube", "x = VarArray(size=[2, 2, 2], dom=range(2))", "satisfy(Sum(x) == 3)")
    with pytest.raises(PuzzleUsageError, match="drawn array"):
        walkthrough(session)


# -- names and rating ------------------------------------------------------------------------------------------

def sudoku_houses():
    positions = {f"x[{r}][{c}]": (r, c) for r in range(9) for c in range(9)}
    rules = [AllDifferent(tuple(f"x[{r}][{c}]" for c in range(9))) for r in range(9)]
    rules += [AllDifferent(tuple(f"x[{r}][{c}]" for r in range(9))) for c in range(9)]
    rules += [AllDifferent(tuple(f"x[{3 * p + i}][{3 * q + j}]" for i in range(3) for j in range(3)))
              for p in range(3) for q in range(3)]
    return houses(rules, positions), positions


def test_houses_are_rows_columns_and_blocks():
    house_of, _ = sudoku_houses()
    assert [house_of[i][0] for i in (0, 9, 18)] == ["row", "column", "block"] and len(house_of) == 27


def test_steps_are_named_by_their_shape_only_when_the_pattern_holds():
    house_of, positions = sudoku_houses()
    full = {v: frozenset(range(1, 10)) for v in positions}

    def without(cells, value, domains=full):
        return {**domains, **{v: domains[v] - {value} for v in cells}}

    def name(ids, before, removed_cells, value):
        after = {v: before[v] - {value} for v in removed_cells}
        return shape_name(house_of, positions, ids, before, after)

    # 5 of block 0 only in row 0: removed from row 0 outside the block (pointing)
    pointing = without([f"x[{r}][{c}]" for r in (1, 2) for c in range(3)], 5)
    assert name((0, 18), pointing, ["x[0][5]", "x[0][7]"], 5) == "locked candidates (pointing)"
    assert name((0, 18), full, ["x[0][5]", "x[0][7]"], 5) == ""  # 5 can go elsewhere in the block
    # 5 of row 0 only in block 0: removed from the block outside row 0 (claiming)
    claiming = without([f"x[0][{c}]" for c in range(3, 9)], 5)
    assert name((0, 18), claiming, ["x[1][1]", "x[2][0]"], 5) == "locked candidates (claiming)"
    # 3 of rows 1 and 4 only in columns 2 and 6: removed from those columns elsewhere (X-wing)
    xwing = without([f"x[{r}][{c}]" for r in (1, 4) for c in range(9) if c not in (2, 6)], 3)
    assert name((1, 4, 11, 15), xwing, ["x[7][2]", "x[0][6]"], 3) == "X-wing"
    assert name((1, 4, 11, 15), full, ["x[7][2]", "x[0][6]"], 3) == ""
    swordfish = without([f"x[{r}][{c}]" for r in (1, 4, 7) for c in range(3, 9)], 3)
    assert name((1, 4, 7, 9, 10, 11), swordfish, ["x[8][0]"], 3) == "swordfish"
    two_values = {"x[0][5]": full["x[0][5]"] - {5}, "x[0][6]": full["x[0][6]"] - {4}}
    assert shape_name(house_of, positions, (0, 18), pointing, two_values) == ""
    assert name((0, 1), full, ["x[0][5]"], 5) == ""


def test_rating_is_the_hardest_step():
    assert rating([("singles", 1, True), ("hidden single", 1, True)]) == "easy (singles)"
    assert rating([("singles", 1, True), ("X-wing", 4, True), ("naked pair", 1, True)]) == "hard (X-wing)"
    assert rating([("", 5, True)]) == "extreme (a step of 5 houses with no name)"
    assert rating([("", 2, True), ("naked pair", 1, True)]) == "medium (a step of 2 houses with no name)"
    assert rating([("", 2, False), ("", 1, False)]) == "medium (a step of 2 constraints)"
    assert rating([]) == ""


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
    assert "walkthrough" in shell.ok("%puzzle help")
    assert rating([("", 3, False), ("", 4, False), ("", 3, False)]) == "hard (a step of 4 constraints)"


def test_a_model_with_no_solution_says_so(solver):
    latin = ("x = VarArray(size=[3, 3], dom=range(1, 4))",
             "satisfy([AllDifferent(r) for r in x], [AllDifferent(c) for c in columns(x)])")
    for wrong in ("satisfy(x[0][0] == 1, x[1][0] == 1)", "satisfy(x[0][0] == 1, x[0][1] == 1)",
                  "satisfy(x[0][0] < x[0][1], x[0][1] < x[0][2], x[0][2] < x[0][0])"):
        found = walkthrough(session_with(solver, "latin", *latin, wrong))
        assert not found.solved and found.stopped == "the constraints have no solution: use %puzzle explain", wrong
