"""A proven smallest step (OCUS): the fewest rules that rule out a candidate, checked against every subset of
rules on a 4x4 Sudoku's candidates, and a walkthrough whose unproven steps `--prove` proves."""

from __future__ import annotations

import itertools
import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st
from sessions import session_with

from kernelext.insight.walkthrough.driver import walkthrough
from kernelext.insight.walkthrough.smallest import smallest_refutation
from kernelext.solver.kit.propagation import Reasoner
from kernelext.solver.kit.rules import AllDifferent

SOLUTION = ((1, 2, 3, 4), (3, 4, 1, 2), (2, 1, 4, 3), (4, 3, 2, 1))
CELLS = [f"x[{r}][{c}]" for r in range(4) for c in range(4)]
RULES = (
    [AllDifferent(tuple(f"x[{r}][{c}]" for c in range(4))) for r in range(4)]
    + [AllDifferent(tuple(f"x[{r}][{c}]" for r in range(4))) for c in range(4)]
    + [
        AllDifferent(tuple(f"x[{2 * p + i}][{2 * q + j}]" for i in range(2) for j in range(2)))
        for p in range(2)
        for q in range(2)
    ]
)


@st.composite
def candidates(draw):
    """Each cell's candidates: its value in SOLUTION and some others, then what each rule alone removes
    removed (as a walkthrough's singles do), so that a step needs two rules or more."""
    domains = {
        cell: frozenset({SOLUTION[k // 4][k % 4]} | draw(st.sets(st.integers(1, 4), min_size=2)))
        for k, cell in enumerate(CELLS)
    }
    changed = True
    while changed:
        changed = False
        for rule in RULES:
            after = rule.filter(tuple(domains[v] for v in rule.scope))
            for variable, left in zip(rule.scope, after):
                changed |= left != domains[variable]
                domains[variable] = left
    return domains


@settings(max_examples=20, deadline=None, derandomize=True)
@given(candidates())
def test_the_fewest_rules_ruling_out_a_candidate_are_found_and_proven(domains):
    reasoner = Reasoner(RULES, time.monotonic() + 600)
    active = [i for i, rule in enumerate(RULES) if any(len(domains[v]) > 1 for v in rule.scope)]
    literals = [
        (v, x)
        for v in CELLS
        for x in sorted(domains[v])  # candidates in no solution
        if reasoner.unsat(active, {**domains, v: frozenset((x,))})
    ]
    if not literals:
        return
    fewest = next(
        k
        for k in range(1, len(active) + 1)
        if any(
            reasoner.unsat(ids, {**domains, v: frozenset((x,))})
            for ids in itertools.combinations(active, k)
            for v, x in literals
        )
    )
    witnesses = []
    found = smallest_refutation(reasoner, active, domains, literals, 1, len(active) + 1, witnesses)
    assert found is not None
    ids, (variable, value) = found
    assert len(ids) == fewest and reasoner.unsat(ids, {**domains, variable: frozenset((value,))})
    assert smallest_refutation(reasoner, active, domains, literals, 1, fewest) is None  # none smaller
    # the assignments of the first proof, reused, change nothing found
    assert smallest_refutation(reasoner, active, domains, literals, 1, fewest, witnesses) is None
    again = smallest_refutation(reasoner, active, domains, literals, 1, len(active) + 1, witnesses)
    assert again is not None and len(again[0]) == fewest


def test_prove_turns_minimal_steps_into_proven_smallest_ones(solver):
    """HoDoKu's example of an X-chain: two steps of four houses are minimal; proven, they are smallest."""
    rows = [
        "304020080",
        "006000000",
        "050070300",
        "000680020",
        "000034000",
        "060150700",
        "010000000",
        "009000060",
        "008217005",
    ]
    board = f"clues = [[int(d) for d in row] for row in {rows!r}]\nx = VarArray(size=[9, 9], dom=range(1, 10))\n"
    steps = (
        "satisfy(x[i][j] == clues[i][j] for i in range(9) for j in range(9) if clues[i][j] > 0)",
        "satisfy(AllDifferent(x[i]) for i in range(9))",
        "satisfy(AllDifferent(x[:, j]) for j in range(9))",
        "satisfy(AllDifferent(x[3 * p:3 * p + 3, 3 * q:3 * q + 3]) for p in range(3) for q in range(3))",
    )
    session = session_with(solver, "sudoku", board, *steps)
    plain, proven = walkthrough(session, timeout=600), walkthrough(session, timeout=600, prove=True)
    unproven = [n for n, d in enumerate(plain.deductions) if not d.smallest]
    assert unproven and all(len(plain.deductions[n].constraints) == 4 for n in unproven)
    assert proven.solved and all(d.smallest for d in proven.deductions)
    assert [d.size for d in proven.deductions] == [d.size for d in plain.deductions]
    assert not any(re.search("not proven", d.line()) for d in proven.deductions)
