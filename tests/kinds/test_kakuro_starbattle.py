"""Kakuro and Star Battle: rules, views, answer checks, detection, the classroom models with the real
solver, and grading their exercises."""

from __future__ import annotations

import json
import re

import nbformat
import pytest
from conftest import ROOT
from sanitized_html import sanitizer_problems

from kernelext.grading import grade
from kernelext.grading.format.exercise import load_exercise
from kernelext.grading.format.notebook import read_submission
from kernelext.grid import Grid
from kernelext.kinds import (
    answer_checks,
    detect_kind,
    kakuro,
    kind_choices,
    kind_for,
    starbattle,
)
from kernelext.steps.session import PuzzleSession
from kernelext.widgets.html_grid import grid_html, legend_html
from kernelext.widgets.static_forms import grid_text

CHECKERS = answer_checks()

ROOT = ROOT
BOARD = [
    [None, [4, 0], [6, 0]],
    [[0, 3], 0, 0],
    [[0, 7], 0, 0],
]  # rows 1 + 2 = 3 and 3 + 4 = 7, columns 1 + 3 = 4 and 2 + 4 = 6
DIGITS = [[0, 0, 0], [0, 1, 2], [0, 3, 4]]
BLACK = frozenset({(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)})
REGIONS = [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]
STARS = [[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0]]


def grid(values, holes=(), changed=()):
    return Grid("x", tuple(tuple(row) for row in values), frozenset(holes), frozenset(changed))


def kakuro_grid(digits, changed=()):
    """A kakuro grid with no variable on the black cells."""
    return grid(
        [[None if (r, c) in BLACK else v for c, v in enumerate(row)] for r, row in enumerate(digits)], BLACK, changed
    )


def cells_with(description, name):
    return {
        (r, c)
        for r, row in enumerate(description["cells"])
        for c, cell in enumerate(row)
        if name in cell.get("classes", ())
    }


# -- rules ------------------------------------------------------------------------------------------


def test_kakuro_runs_start_after_their_clue_across_then_down():
    assert kakuro.runs(kakuro.read_board(BOARD)) == [
        (3, [(1, 1), (1, 2)]),
        (7, [(2, 1), (2, 2)]),
        (4, [(1, 1), (2, 1)]),
        (6, [(1, 2), (2, 2)]),
    ]


def test_kakuro_solution_breaks_no_rule_and_free_cells_break_none():
    board = kakuro.read_board(BOARD)
    assert kakuro.conflicts(DIGITS, board) == set()
    assert kakuro.conflicts([[None] * 3, [None, 1, None], [None, None, None]], board) == set()


def test_kakuro_repeated_digit_and_missed_sum_are_conflicts():
    board = kakuro.read_board(BOARD)
    repeated = [[0, 0, 0], [0, 1, 1], [0, None, None]]  # 1 twice across; 1 + 1 misses 3
    assert kakuro.conflicts(repeated, board) == {(1, 1), (1, 2)}
    swapped = [[0, 0, 0], [0, 2, 1], [0, 3, 4]]  # rows right, columns 5 and 5 instead of 4 and 6
    assert kakuro.conflicts(swapped, board) == {(1, 1), (2, 1), (1, 2), (2, 2)}
    assert kakuro.conflicts([[0, 0, 0], [0, 0, 3], [0, 3, 4]], board) >= {(1, 1)}  # 0 is not a digit


def test_kakuro_board_of_any_other_shape_is_not_read():
    for value in (None, [], [[0, 0], [0]], [[0, "x"]], [[0, [1, 2, 3]]], 5):
        assert kakuro.read_board(value) is None
    assert kakuro.read_board(BOARD, 3, 4) is None


def test_star_battle_solution_breaks_no_rule():
    assert starbattle.conflicts(STARS, REGIONS) == set()


def test_touching_stars_and_crowded_lines_are_conflicts():
    touching = [[1, 0, None, None], [0, 1, None, None], [None] * 4, [None] * 4]
    assert starbattle.conflicts(touching, REGIONS) == {(0, 0), (1, 1)}
    crowded = [[1, 0, 1, 0], [None] * 4, [None] * 4, [None] * 4]  # two in row 0, k = 1
    assert starbattle.conflicts(crowded, REGIONS) == {(0, 0), (0, 2)}
    assert starbattle.conflicts(crowded, REGIONS, k=2) == set()


def test_a_complete_line_short_of_stars_is_a_conflict():
    empty_row = [[0, 0, 0, 0], [None] * 4, [None] * 4, [None] * 4]
    assert starbattle.conflicts(empty_row, REGIONS) == {(0, 0), (0, 1), (0, 2), (0, 3)}


# -- views ------------------------------------------------------------------------------------------


def test_kakuro_view_shows_clues_on_black_cells_and_marks_conflicts():
    repeated = [[0, 0, 0], [0, 1, 1], [0, 3, 4]]
    described = kind_for("kakuro").describe(kakuro_grid(repeated, changed={(1, 2)}), {"board": BOARD})
    assert [cell["text"] for cell in described["cells"][0]] == ["╲", "4╲", "6╲"]
    assert [row[0]["text"] for row in described["cells"][1:]] == ["╲3", "╲7"]
    assert cells_with(described, "clue") == BLACK
    assert cells_with(described, "conflict") == {(1, 1), (1, 2), (2, 2)}  # the row repeats 1; 1 + 4 is not 6
    assert grid_text(described).splitlines()[1] == " ╲3   1 [ 1]"


def test_star_battle_view_colours_regions_outlines_them_and_draws_stars():
    touching = [[1, 0, None, None], [0, 1, None, None], [None] * 4, [None] * 4]
    described = kind_for("star_battle").describe(grid(touching), {"regions": REGIONS, "stars": 1})
    cells = described["cells"]
    assert cells[0][0]["text"] == "★" and cells_with(described, "star") == {(0, 0), (1, 1)}
    assert cells_with(described, "conflict") == {(0, 0), (1, 1)}
    assert cells[0][0]["fill"] == cells[1][1]["fill"] != cells[0][2]["fill"]
    assert cells[0][1]["borders"] == "tr" and cells[1][1]["borders"] == "rb" and cells[1][0]["borders"] == "bl"
    assert grid_text(described).splitlines()[0] == " ★  ·  *  *"


def test_star_battle_view_reads_k_from_stars():
    two = [[1, 0, 1, 0], [None] * 4, [None] * 4, [None] * 4]
    assert cells_with(kind_for("starbattle").describe(grid(two), {"regions": REGIONS}), "conflict")
    assert not cells_with(kind_for("starbattle").describe(grid(two), {"regions": REGIONS, "stars": 2}), "conflict")


@pytest.mark.parametrize("kind", ["kakuro", "starbattle"])
def test_view_without_its_data_says_what_it_reads(kind):
    described = kind_for(kind).describe(grid([[None, 1], [1, 0]]), {"board": [[1]], "regions": [[0]]})
    assert described["note"].startswith(f"note: the {kind} view found no data it can use (it reads ")
    assert "conflict" not in json.dumps(described)


@pytest.mark.parametrize(
    "kind, values, data",
    [
        ("kakuro", kakuro_grid([[0, 0, 0], [0, 1, 1], [0, 3, None]], changed={(1, 1)}), {"board": BOARD}),
        (
            "starbattle",
            grid([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, None, 0], [0, 0, 1, 0]], changed={(0, 0)}),
            {"regions": REGIONS},
        ),
    ],
)
def test_views_draw_tables_the_sanitizer_keeps_with_a_legend_for_their_marks(kind, values, data):
    description = kind_for(kind).describe(values, data)
    markup = grid_html(description) + legend_html(description)
    assert sanitizer_problems(markup) == []
    assert grid_html(description) == grid_html(kind_for(kind).describe(values, data))
    legend = legend_html(description)
    assert "breaks a rule" in legend and "changed by this step" in legend
    assert ("clue cell: 16╲7" in legend) == (kind == "kakuro") and ("star" in legend) == (kind == "starbattle")


def test_clue_cells_are_light_text_on_a_dark_fill():
    markup = grid_html(kind_for("kakuro").describe(kakuro_grid(DIGITS), {"board": BOARD}))
    clue_cell = re.search(r'<td style="([^"]*)">4╲</td>', markup).group(1)
    assert "background-color:#3d3d3d" in clue_cell and "color:#ffffff" in clue_cell


def test_region_borders_are_thick_lines_in_the_table():
    markup = grid_html(kind_for("starbattle").describe(grid(STARS), {"regions": REGIONS}))
    first_row = re.findall(r'<td style="([^"]*)">', markup)[:4]
    assert "border-right:3px solid" in first_row[1] and "border-right:3px solid" not in first_row[0]


# -- detection --------------------------------------------------------------------------------------


def test_kinds_are_found_by_name_alias_and_kakuro_by_its_board():
    assert detect_kind("kakuro_5x5") == "kakuro" and detect_kind("Cross_Sums") == "kakuro"
    assert detect_kind("star_battle") == "starbattle" and detect_kind("two_not_touch 6") == "starbattle"
    assert kind_for("star_battle") is starbattle and "starbattle (star_battle, two_not_touch)" in kind_choices()
    assert detect_kind("evening", kakuro_grid(DIGITS), {"board": BOARD}) == "kakuro"
    assert detect_kind("evening", grid([[0] * 4] * 4), {"board": BOARD}) == "generic"  # not its shape
    assert detect_kind("evening", grid([[0, 0], [0, 0]]), {"grid": [[0, 1], [1, 0]]}) == "generic"


# -- answer checks ----------------------------------------------------------------------------------


def test_kakuro_answer_check_accepts_the_solution_and_says_what_is_wrong():
    check = CHECKERS["kakuro"]
    data = {"board": BOARD}
    black_as_none = [[None, None, None], [None, 1, 2], [None, 3, 4]]
    assert check(DIGITS, data, {}) == "" and check(black_as_none, data, {}) == ""
    assert check([[0, 0, 0], [0, 2, 1], [0, 3, 4]], data, {}) == "the run down from (1, 1) adds up to 5, its clue is 4"
    assert check([[0, 0, 0], [0, 1, 1], [0, 3, 4]], data, {}) == "the run across from (1, 1) repeats a digit: [1, 1]"
    assert check([[0, 0, 0], [0, 1, 12], [0, 3, 4]], data, {}) == "white cell (1, 2) holds 12, not a digit 1..9"
    for bad in (
        None,
        "x",
        [[1, 2]],
        [[0, 0, 0]] * 2,
        [[0, 0, 0], [0, 1], [0, 3, 4]],
        [[0, 0, 0], [0, None, 2], [0, 3, 4]],
    ):
        assert check(bad, data, {}) != ""
    assert check(DIGITS, {"board": "nothing"}, {}) == "the instance has no kakuro board"


def test_star_battle_answer_check_accepts_the_solution_and_says_what_is_wrong():
    check = CHECKERS["starbattle"]
    data = {"regions": REGIONS, "stars": 1}
    assert check(STARS, data, {}) == ""
    moved = [row[:] for row in STARS]
    moved[3] = [0, 0, 0, 1]  # region 3 keeps its star, column 2 loses its star
    assert check(moved, data, {}) == "column 2 has 0 stars, it should have 1"
    assert check(STARS, {"regions": REGIONS, "stars": 2}, {}) == "row 0 has 1 stars, it should have 2"
    touching = [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]
    assert check(touching, {"regions": [[0, 1, 2, 3]] * 4}, {}) == "the stars at (0, 1) and (1, 0) touch"
    for bad in (None, [[1]], [[2, 0, 0, 0]] + STARS[1:], [row[:3] for row in STARS]):
        assert check(bad, data, {}) != ""
    assert check(STARS, {"regions": [[0, 1]]}, {}) == "the instance has no n x n regions"


# -- the classroom models, with the real solver ---------------------------------------------------


def classroom_session(solver, name: str) -> PuzzleSession:
    """The notebook's model on its first instance: its plain code run in the session's namespace, then each
    step in its first version (a step replaced later, to change the instance, is left out)."""
    from kernelext.steps.cell_code import run_source

    notebook = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    session = PuzzleSession(name, solver=solver)
    keys = set()
    for source in (cell.source for cell in notebook.cells if cell.cell_type == "code"):
        magic, _, body = source.partition("\n")
        if magic.startswith("%%puzzle"):
            key = re.search(r"--step\s+(\S+)", magic).group(1)
            if key not in keys:
                keys.add(key)
                session.add_step(body, key=key, solve=False)
        elif not magic.startswith("%puzzle"):
            run_source(source.replace("%load_ext kernelext\n", ""), session.namespace, echo=False)
    return session


@pytest.mark.parametrize("name", ["kakuro", "star_battle"])
def test_classroom_model_has_one_solution_and_it_keeps_the_rules(solver, name):
    session = classroom_session(solver, name)
    try:
        result = session.solve(sols=2)
        assert len(result.solutions) == 1
        values, data = session.grid(result).values, session.namespace
        if name == "kakuro":
            board = kakuro.read_board(data["board"])
            assert all(
                values[r][c] in range(1, 10)
                for r, row in enumerate(board)
                for c, cell in enumerate(row)
                if cell is None
            )
            assert kakuro.conflicts(values, board) == set()
        else:
            assert all(v in (0, 1) for row in values for v in row)
            assert sum(map(sum, values)) == len(values) * data["stars"]
            assert starbattle.conflicts(values, data["regions"], data["stars"]) == set()
    finally:
        session.close()


# -- the exercises ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["kakuro", "star_battle"])
def test_exercise_instances_have_unique_solutions_that_pass_the_check(solver, name):
    from kernelext.steps.cell_code import run_source

    folder = ROOT / "exercises" / name
    exercise = load_exercise(folder)
    model = read_submission(folder / "instructor.ipynb")
    assert len(exercise.public) == 2 and sum(i.hidden for i in exercise.instances) == 3
    for instance in exercise.instances:
        session = PuzzleSession(name, solver=solver)
        try:
            for helper in model.helpers:
                run_source(helper, session.namespace, echo=False)
            session.namespace["data"] = instance.data
            for number, step in enumerate(model.steps):
                session.add_step(step, key=str(number), solve=False)
            result = session.solve(sols=2)
            assert len(result.solutions) == 1, f"{instance.name} has {len(result.solutions)} solutions"
            answer = [list(row) for row in session.grid(result).values]
            assert CHECKERS[exercise.checker](answer, instance.data, instance.expected) == ""
        finally:
            session.close()


WRONG_STEP = {
    "kakuro": "satisfy(AllDifferent(x[i][j] for i, j in cells) for total, cells in runs(board))",
    "star_battle": "satisfy(Sum(x[i]) == stars for i in range(n))",
}  # columns forgotten


@pytest.mark.parametrize("name", ["kakuro", "star_battle"])
def test_instructor_notebook_grades_full_marks_and_a_wrong_model_does_not(name, tmp_path):
    folder = ROOT / "exercises" / name
    exercise = load_exercise(folder)
    only = [exercise.public[0].name, next(i.name for i in exercise.instances if i.hidden)]
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "teacher.ipynb").write_bytes((folder / "instructor.ipynb").read_bytes())
    model = read_submission(folder / "instructor.ipynb")
    wrong = [model.steps[0], WRONG_STEP[name]] + (list(model.steps[2:]) if name == "star_battle" else [])
    cells = [
        "%load_ext kernelext\nfrom pycsp3 import *\nfrom kernelext.grading import load_instance\n"
        f"data = load_instance({exercise.public[0].name!r})",
        *model.helpers,
        f"%%puzzle {name}\n{wrong[0]}",
        *(f"%%puzzle+\n{step}" for step in wrong[1:]),
    ]
    nbformat.write(
        nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells]), tmp_path / "in" / "wrong.ipynb"
    )
    results = {
        r.student: r
        for r in grade(exercise_dir=folder, submissions_dir=tmp_path / "in", out_dir=tmp_path / "out", only=only)
    }

    def automatic(result):  # the written questions are graded by hand
        graded = [r for r in result.results if r.kind != "question"]
        return sum(r.points for r in graded), sum(r.max_points for r in graded)

    points, most = automatic(results["teacher"])
    assert points == most > 0, results["teacher"].summary()
    points, most = automatic(results["wrong"])
    assert points < most, results["wrong"].summary()
