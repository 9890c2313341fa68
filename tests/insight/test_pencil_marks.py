"""Pencil marks: the values the kit's own propagation leaves (every constraint read as a rule, to a fixpoint),
checked against arc consistency worked out by hand and by brute force."""

from __future__ import annotations

import itertools

import pytest

from kernelext.grid import ArrayInfo
from kernelext.insight.pencil_marks import compare_domains, pencil_grid, pencil_report
from kernelext.steps.session import PuzzleSession
from kernelext.widgets.pencil_forms import pencil_html, pencil_text
from kernelext.widgets.style import CONFLICT

pytestmark = pytest.mark.timeout(300)

SUDOKU_4 = "x = VarArray(size=[4, 4], dom=range(1, 5))\n"
CLUES = {(0, 0): 1, (1, 2): 3, (2, 1): 4}
CLUE_STEP = "satisfy(x[0][0] == 1, x[1][2] == 3, x[2][1] == 4)\n"
NOT_EQUAL_STEP = """
cells = [(i, j) for i in range(4) for j in range(4)]
same = lambda a, b: a[0] == b[0] or a[1] == b[1] or (a[0] // 2, a[1] // 2) == (b[0] // 2, b[1] // 2)
satisfy(x[a[0]][a[1]] != x[b[0]][b[1]] for a, b in combinations(cells, 2) if same(a, b))
"""
ALL_DIFFERENT_STEP = """
satisfy(AllDifferent(x[i]) for i in range(4))
satisfy(AllDifferent(x[:, j]) for j in range(4))
satisfy(AllDifferent(x[i][j] for i in range(a, a + 2) for j in range(b, b + 2)) for a in (0, 2) for b in (0, 2))
"""


def peers(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a != b and (a[0] == b[0] or a[1] == b[1] or (a[0] // 2, a[1] // 2) == (b[0] // 2, b[1] // 2))


def arc_consistent_not_equal(clues: dict[tuple[int, int], int]) -> dict[str, tuple[int, ...]]:
    """Arc consistency of pairwise != on a 4x4 Sudoku: a value goes when a peer is fixed to it."""
    cells = [(i, j) for i in range(4) for j in range(4)]
    domains = {cell: {clues[cell]} if cell in clues else {1, 2, 3, 4} for cell in cells}
    changed = True
    while changed:
        changed = False
        for a in cells:
            for b in cells:
                if peers(a, b) and len(domains[b]) == 1 and domains[b] <= domains[a]:
                    domains[a] -= domains[b]
                    changed = True
    return {f"x[{i}][{j}]": tuple(sorted(domains[i, j])) for i, j in cells}


def generalized_arc_consistent_all_different(clues: dict[tuple[int, int], int]) -> dict[str, tuple[int, ...]]:
    """The fixpoint of each constraint's own generalized arc consistency on a 4x4 Sudoku with allDifferent
    houses, by brute force: a value stays while some tuple of its house's candidates uses it."""
    cells = [(i, j) for i in range(4) for j in range(4)]
    houses = [[(i, j) for j in range(4)] for i in range(4)] + [[(i, j) for i in range(4)] for j in range(4)]
    houses += [[(a + i, b + j) for i in range(2) for j in range(2)] for a in (0, 2) for b in (0, 2)]
    domains = {cell: {clues[cell]} if cell in clues else {1, 2, 3, 4} for cell in cells}
    changed = True
    while changed:
        changed = False
        for house in houses:
            supported = [set() for _ in house]
            for values in itertools.product(*(sorted(domains[cell]) for cell in house)):
                if len(set(values)) == len(values):
                    for slot, value in zip(supported, values):
                        slot.add(value)
            for cell, kept in zip(house, supported):
                if kept != domains[cell]:
                    domains[cell] = kept
                    changed = True
    return {f"x[{i}][{j}]": tuple(sorted(domains[i, j])) for i, j in cells}


@pytest.fixture
def sessions():
    made = []

    def session_with(*steps: str) -> PuzzleSession:
        session = PuzzleSession("pencil")
        for step in steps:
            session.add_step(step, solve=False)
        made.append(session)
        return session

    yield session_with
    for session in made:
        assert session.solver.worker_pid is None  # no JVM, no solver process: the kit alone
        session.close()


def test_not_equal_marks_are_arc_consistency(sessions):
    expected = arc_consistent_not_equal(CLUES)
    assert 3 < sum(len(v) == 1 for v in expected.values()) < 16  # propagation forces some cells, not all
    session = sessions(SUDOKU_4, CLUE_STEP, NOT_EQUAL_STEP)
    grid, domains = pencil_report(session)
    assert domains == expected
    assert grid.values[0][0] == (1,) and grid.values[3][3] == expected["x[3][3]"] and grid.note == ""


def test_all_different_marks_are_each_house_s_generalized_arc_consistency(sessions):
    expected = generalized_arc_consistent_all_different(CLUES)
    not_equal = arc_consistent_not_equal(CLUES)
    assert any(set(expected[k]) < set(not_equal[k]) for k in expected)  # tighter than pairwise !=
    _, domains = pencil_report(sessions(SUDOKU_4, CLUE_STEP, ALL_DIFFERENT_STEP))
    assert domains == expected
    table = compare_domains(not_equal, domains, ("!=", "AllDifferent"))
    assert table.splitlines()[1].split()[-2:] == [
        str(sum(map(len, not_equal.values()))),
        str(sum(map(len, domains.values()))),
    ]


def test_futoshiki_inequality_removes_the_excluded_values(sessions):
    session = sessions(SUDOKU_4, "satisfy(AllDifferent(x[i]) for i in range(4))\n")
    _, before = pencil_report(session)
    session.add_step("satisfy(x[0][0] < x[1][0])\n", solve=False)
    grid, after = pencil_report(session, before)
    assert after["x[0][0]"] == (1, 2, 3) and after["x[1][0]"] == (2, 3, 4)
    assert grid.removed[0][0] == (4,) and grid.removed[1][0] == (1,)
    assert sum(len(gone) for row in grid.removed for gone in row) == 2
    assert "<s" in pencil_html(grid) and "2 removed by this step" in pencil_text(grid)


def test_unconstrained_variables_keep_their_declared_domain(sessions):
    session = sessions("y = VarArray(size=3, dom=range(5))\n", "satisfy(y[0] > 3)\n")
    grid, domains = pencil_report(session)
    assert domains == {"y[0]": (4,), "y[1]": (0, 1, 2, 3, 4), "y[2]": (0, 1, 2, 3, 4)}
    assert pencil_text(grid).splitlines()[1] == "4  {0,1,2,3,4}  {0,1,2,3,4}"


def test_wiped_out_domain_is_empty_and_red(sessions):
    session = sessions("y = VarArray(size=2, dom=range(3))\n", "satisfy(y[0] > 2)\n")
    grid, domains = pencil_report(session)
    assert domains["y[0]"] == ()
    assert grid.wiped_out == {(0, 0)}
    assert "∅" in pencil_text(grid) and CONFLICT in pencil_html(grid)


def test_time_limit_keeps_what_was_narrowed_and_says_the_marks_were_cut_short(sessions):
    session = sessions(SUDOKU_4, CLUE_STEP, ALL_DIFFERENT_STEP)
    grid, domains = pencil_report(session, timeout=1e-9)
    assert domains == {f"x[{i}][{j}]": (1, 2, 3, 4) for i in range(4) for j in range(4)}  # nothing done in time
    assert grid.note.startswith("cut short by the time limit (more with --timeout)")
    assert pencil_text(grid).splitlines()[0] == f"x: 64 values left after propagation; {grid.note}"
    _, full = pencil_report(session)
    assert full == generalized_arc_consistent_all_different(CLUES)


def test_text_is_aligned_and_html_is_static():
    info = ArrayInfo("x", (2, 2), (((0, 0), "x[0][0]"), ((0, 1), "x[0][1]"), ((1, 0), "x[1][0]")))
    grid = pencil_grid(info, {"x[0][0]": (7,), "x[0][1]": (1, 3), "x[1][0]": ()})
    assert pencil_text(grid).splitlines()[1:] == ["7  {1,3}", "∅"]
    page = pencil_html(grid)
    assert "id=" not in page and "<script" not in page and page == pencil_html(grid)


def test_boolean_cells_are_filled_empty_or_unknown():
    info = ArrayInfo("b", (3,), (((0,), "b[0]"), ((1,), "b[1]"), ((2,), "b[2]")))
    grid = pencil_grid(info, {"b[0]": (1,), "b[1]": (0,), "b[2]": (0, 1)})
    page = pencil_html(grid)
    assert grid.boolean and page.count("background:#333") == 1 and page.count("background:#ccc") == 1
