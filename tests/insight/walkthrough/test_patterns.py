"""Named patterns (wings, chains, colouring): every removal is forced by the pattern's houses alone, the
names agree with HoDoKu's on states of its own solution paths, and chains are drawn on the grid.

`hodoku_steps.json` holds the steps past singles of HoDoKu 2.2.0's solution paths (its default settings) for
26 puzzles from its example library, qqwing's expert set and the 17-clue collection: per step, HoDoKu's
technique, the candidates it eliminated (row, column, digit, from 0) and every cell's candidates before it.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from sessions import sudoku_rules

from kernelext.insight.findings import Deduction
from kernelext.insight.pencil_marks import PencilGrid
from kernelext.insight.walkthrough.patterns import ORDER, Board, find, rank
from kernelext.insight.walkthrough.techniques import houses, pattern_step
from kernelext.solver.kit.propagation import Reasoner
from kernelext.widgets.pencil_forms import pencil_html

REFERENCE = json.loads((Path(__file__).parent / "hodoku_steps.json").read_text())
HODOKU_NAMES = {
    "XY-Wing": "XY-wing",
    "XYZ-Wing": "XYZ-wing",
    "W-Wing": "W-wing",
    "Skyscraper": "skyscraper",
    "2-String Kite": "2-string kite",
    "Turbot Fish": "turbot fish",
    "X-Chain": "X-chain",
    "Simple Colors Trap": "simple colouring (trap)",
    "Simple Colors Wrap": "simple colouring (wrap)",
    "X-Wing": "X-wing",
    "Swordfish": "swordfish",
    "Locked Candidates Type 1 (Pointing)": "locked candidates (pointing)",
    "Locked Candidates Type 2 (Claiming)": "locked candidates (claiming)",
}


RULES, POSITIONS = sudoku_rules()
HOUSES = houses(RULES, POSITIONS)


def domains_of(candidates: list[str]) -> dict[str, frozenset[int]]:
    return {f"x[{i // 9}][{i % 9}]": frozenset(map(int, values)) for i, values in enumerate(candidates)}


def board_of(domains) -> Board:
    return Board(HOUSES, {POSITIONS[v]: d for v, d in domains.items()})


def states() -> list[dict[str, frozenset[int]]]:
    """Candidate states: each reference state, and each with random candidates outside a solution removed."""
    reasoner = Reasoner(RULES, time.monotonic() + 600)
    found, rng = [], random.Random(7)
    for steps in REFERENCE.values():
        for step in steps[::3]:
            domains = domains_of(step["candidates_before"])
            found.append(domains)
            solution = reasoner.solution(range(len(RULES)), domains)
            thinned = {
                v: d
                if len(d) == 1 or rng.random() < 0.7
                else solution[v] | frozenset(rng.sample(sorted(d), len(d) // 2))
                for v, d in domains.items()
            }
            found.append(thinned)
    return found


def test_every_removal_is_forced_by_the_pattern_s_houses_alone():
    reasoner = Reasoner(RULES, time.monotonic() + 600)
    names = set()
    checked = 0
    for domains in states():
        board = board_of(domains)
        for pattern in sorted(find(board), key=rank)[:25]:
            ids = sorted(pattern.houses)
            names.add(pattern.name)
            assert reasoner.solution(ids, domains) is not None  # the houses alone have solutions...
            for cell, digits in pattern.removals.items():
                variable = f"x[{cell[0]}][{cell[1]}]"
                assert digits <= domains[variable]
                for digit in digits:  # ...but none with the removed candidate
                    assert reasoner.unsat(ids, {**domains, variable: frozenset((digit,))}), (pattern, digit)
                    checked += 1
    assert checked >= 200
    assert names >= set(ORDER) - {"turbot fish"}, set(ORDER) - names


@pytest.mark.parametrize("technique", sorted(HODOKU_NAMES))
def test_names_agree_with_hodoku_on_its_own_steps(technique):
    """At each state where HoDoKu's path takes the technique, a pattern of that name removes what it removes."""
    steps = [step for path in REFERENCE.values() for step in path if step["technique"] == technique]
    assert steps, technique
    for step in steps:
        domains = domains_of(step["candidates_before"])
        named = [p for p in find(board_of(domains)) if p.name == HODOKU_NAMES[technique]]
        removed = {}
        for pattern in named:
            for cell, digits in pattern.removals.items():
                removed[cell] = removed.get(cell, frozenset()) | digits
        wanted = {(r, c): digit for r, c, digit in step["eliminated"]}
        assert all(digit in removed.get(cell, ()) for cell, digit in wanted.items()), (technique, step["eliminated"])


def test_a_pattern_step_takes_the_same_chain_s_other_removals_its_houses_force():
    skyscraper = next(step for path in REFERENCE.values() for step in path if step["technique"] == "Skyscraper")
    domains = domains_of(skyscraper["candidates_before"])
    found = pattern_step(HOUSES, POSITIONS, domains)
    assert found is not None and found.technique in HODOKU_NAMES.values() and found.ids
    for variable, left in found.after.items():
        assert left < domains[variable]
        for digit in domains[variable] - left:
            assert Reasoner(RULES, time.monotonic() + 60).unsat(found.ids, {**domains, variable: frozenset((digit,))})


def test_a_chain_is_written_out_and_drawn_on_the_grid():
    links = (("x[0][1]", "x[0][6]", 5, True), ("x[0][6]", "x[3][6]", 5, False), ("x[3][6]", "x[3][2]", 5, True))
    deduction = Deduction((), (("x[8][8]", (5,)),), (), (), "X-chain", False, None, links)
    assert "[X-chain: x[0][1] =5= x[0][6] -5- x[3][6] =5= x[3][2]; minimal" in deduction.line()
    values = tuple(tuple((1, 5) for _ in range(9)) for _ in range(9))
    removed = tuple(tuple(() for _ in range(9)) for _ in range(9))
    grid = PencilGrid("x", values, removed, links=(((0, 1), (0, 6), 5, True), ((0, 6), (3, 6), 5, False)))
    html = pencil_html(grid, 3)
    dots = html.count("position:absolute")
    assert dots > 40 and "strong link" in html and "weak link" in html
    # dots run along row 0 between columns 1 and 6, then down column 6: none elsewhere
    rows = html.split("<tr")[1:]
    assert all("position:absolute" not in row for row in rows[4:])
    assert "position:absolute" not in pencil_html(PencilGrid("x", values, removed), 3)
