"""Views and checkers as pure data: hand-made grids in, grid descriptions out (no widget, no solver)."""

import json
from pathlib import Path

import pytest

from kernelext.errors import PuzzleUsageError
from kernelext.grid import Grid
from kernelext.kinds import detect_kind, kind_for, kinds
from kernelext.kinds import futoshiki as futoshiki_rules
from kernelext.kinds import nonogram as nonogram_rules
from kernelext.kinds import queens as queens_rules
from kernelext.kinds import sudoku as sudoku_rules
from kernelext.plugins import data_for
from kernelext.widgets.static_forms import grid_text


def grid(values, holes=(), changed=(), name="x"):
    return Grid(name, tuple(tuple(row) for row in values), frozenset(holes), frozenset(changed))


def cells_with(description, name):
    return {
        (r, c)
        for r, row in enumerate(description["cells"])
        for c, cell in enumerate(row)
        if name in cell.get("classes", ())
    }


SUDOKU_4 = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]


def test_sudoku_duplicate_is_a_conflict():
    values = [row[:] for row in SUDOKU_4]
    values[3][3] = 2  # 2 twice in the last row and in the last block; the last column lacks 1
    assert sudoku_rules.conflicts(values) == {(3, 2), (3, 3), (1, 3)}
    described = kind_for("sudoku").describe(grid(values), {})
    assert cells_with(described, "conflict") == {(3, 2), (3, 3), (1, 3)}


def test_solved_sudoku_has_no_conflict_and_ignores_free_cells():
    assert sudoku_rules.conflicts(SUDOKU_4) == set()
    assert sudoku_rules.conflicts([[1, None], [None, None]]) == set()


def test_sudoku_blocks_have_thick_borders_and_givens_are_marked():
    described = kind_for("sudoku").describe(grid(SUDOKU_4), {"clues": [[1, 0, 0, 0]] + [[0] * 4] * 3})
    cells = described["cells"]
    assert cells[0][0]["borders"] == "tl" and cells[0][2]["borders"] == "tl" and cells[0][1]["borders"] == "t"
    assert cells[1][1].get("borders", "") == "" and cells[3][3]["borders"] == "rb"
    assert cells_with(described, "given") == {(0, 0)}
    assert (0, 1) in cells_with(described, "solved")


def test_futoshiki_signs_sit_between_adjacent_cells():
    values = [[1, 2, 3], [2, 3, 1], [3, 1, 2]]
    less_than = [((0, 0), (0, 1)), ((0, 2), (0, 1)), ((1, 2), (0, 2)), ((0, 0), (1, 0)), ((0, 0), (2, 2))]
    described = kind_for("futoshiki").describe(grid(values), {"less_than": less_than})
    assert described["signs"] == [
        {"cells": [[0, 0], [0, 1]], "text": "<"},
        {"cells": [[0, 1], [0, 2]], "text": ">"},
        {"cells": [[0, 2], [1, 2]], "text": "v"},
        {"cells": [[0, 0], [1, 0]], "text": "^"},
    ]
    assert cells_with(described, "conflict") == {(0, 1), (0, 2)}  # 3 < 2 is broken


def test_futoshiki_checker_finds_repeats_and_broken_inequalities():
    assert futoshiki_rules.conflicts([[1, 1], [2, 2]]) == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert futoshiki_rules.conflicts([[1, 2], [2, 1]], [((0, 0), (0, 1))]) == set()
    assert futoshiki_rules.conflicts([[1, 2], [2, 1]], [((1, 0), (1, 1))]) == {(1, 0), (1, 1)}


def test_nonogram_shows_clues_filled_cells_and_text_squares():
    values = [[1, 1, 0], [0, 1, 0], [1, None, 1]]
    data = {"rows": [[2], [1], [1, 1]], "cols": [[1, 1], [2], [1]]}
    described = kind_for("picross").describe(grid(values, changed={(0, 0)}), data)
    assert described["kind"] == "nonogram"
    assert described["row_clues"] == [[2], [1], [1, 1]] and described["col_clues"] == [[1, 1], [2], [1]]
    assert cells_with(described, "filled") == {(0, 0), (0, 1), (1, 1), (2, 0), (2, 2)}
    assert grid_text(described) == "[■] ■  ·\n ·  ■  ·\n ■  *  ■"


def test_nonogram_line_not_matching_its_clue_is_a_conflict():
    assert nonogram_rules.runs([1, 1, 0, 1, 0]) == [2, 1]
    values = [[1, 1], [1, 0]]
    assert nonogram_rules.conflicts(values, [[2], [1]], [[2], [1]]) == set()
    assert nonogram_rules.conflicts(values, [[1], [1]], [[2], [1]]) == {(0, 0), (0, 1)}
    described = kind_for("nonogram").describe(grid(values), {"rows": [[2], [0]], "cols": [[2], [1]]})
    assert cells_with(described, "conflict") == {(1, 0), (1, 1)}  # row 1 should be empty


def test_numberlink_colours_paths_and_circles_endpoints():
    values = [[1, 1, 1], [2, 0, 1], [2, 2, 2]]
    described = kind_for("amaze").describe(grid(values), {"points": [[(0, 0), (1, 2)], [(1, 0), (2, 2)]]})
    cells = described["cells"]
    assert cells[0][0]["fill"] == cells[1][2]["fill"] != cells[1][0]["fill"] == cells[2][1]["fill"]
    assert "fill" not in cells[1][1] and cells[1][1]["text"] == ""
    assert cells_with(described, "endpoint") == {(0, 0), (1, 2), (1, 0), (2, 2)}


def test_layout_gives_each_piece_a_colour_and_leaves_unused_cells_blank():
    values = [[1, 1, 2], [1, 2, 2], [0, 3, 3]]
    described = kind_for("polyomino").describe(grid(values), {"grid": [[1, 1, 1], [1, 1, 0], [1, 1, 1]]})
    cells = described["cells"]
    fills = {cells[r][c].get("fill") for r, c in [(0, 0), (0, 1), (1, 0)]}
    assert len(fills) == 1 and None not in fills
    assert cells[0][2]["fill"] != cells[0][0]["fill"] != cells[2][1]["fill"]
    assert cells_with(described, "hole") == {(2, 0), (1, 2)}  # value 0 and board 0
    assert cells[0][0]["borders"] == "tl" and cells[0][1]["borders"] == "trb"


def test_queens_from_a_row_of_columns_or_a_board():
    from_row = kind_for("queens").describe(grid([[1, 3, 0, 2]], changed={(0, 1)}), {})
    assert cells_with(from_row, "queen") == {(0, 1), (1, 3), (2, 0), (3, 2)}
    assert cells_with(from_row, "changed") == {(1, 3)} and cells_with(from_row, "conflict") == set()
    assert from_row["cells"][0][0]["fill"] != from_row["cells"][0][1]["fill"]  # checkered
    from_board = kind_for("queens").describe(grid([[1, 0], [0, 1]]), {})
    assert cells_with(from_board, "conflict") == {(0, 0), (1, 1)}
    assert grid_text(from_board) == " ♛  ·\n ·  ♛"
    assert queens_rules.conflicts([(0, 1), (1, 3), (2, 0), (3, 2)]) == set()


def test_generic_shows_values_stars_and_changes():
    described = kind_for("generic").describe(grid([[1, None, 3], [4, 5, None]], holes={(1, 2)}, changed={(0, 0)}), {})
    assert grid_text(described) == "[1] *  3\n 4  5"
    assert cells_with(described, "free") == {(0, 1)}


@pytest.mark.parametrize("kind", kinds())
def test_descriptions_are_plain_json(kind):
    described = kind_for(kind).describe(grid([[1, 0, None], [2, 1, 1], [0, 3, 1]], changed={(1, 1)}), {})
    assert json.loads(json.dumps(described)) == described
    assert {"kind", "name", "legend", "cells"} <= described.keys()


@pytest.mark.parametrize("kind", kinds())
def test_each_view_documents_the_names_it_reads(kind):
    module = kind_for(kind)
    assert all(f"`{name}`" in module.__doc__ for name in module.DATA_NAMES)


def test_detect_kind_from_the_puzzle_name_or_the_data():
    assert detect_kind("sudoku9") == "sudoku"
    assert detect_kind("My_Futoshiki") == "futoshiki"
    assert detect_kind("picross-cat") == "nonogram"
    assert detect_kind("amaze") == "numberlink"
    assert detect_kind("n_queens") == "queens"
    assert detect_kind("warehouse") == "generic"
    assert detect_kind("art", data={"rows": [[1]], "cols": [[1]]}) == "nonogram"
    assert detect_kind("paths", data={"points": [[(0, 0), (1, 1)]]}) == "numberlink"
    three_rows = grid([[0, 1], [1, 1], [1, 0]])
    assert detect_kind("art", three_rows, {"rows": [[1], [2], [1]], "cols": [[2], [2]]}) == "nonogram"
    assert detect_kind("art", three_rows, {"rows": [[1]], "cols": [[2], [2]]}) == "generic"


def test_detect_kind_ignores_functions_in_a_namespace():
    namespace = {}
    exec("from pycsp3 import *", namespace)  # binds functions named rows and columns
    assert detect_kind("art", data=namespace) == "generic"


def test_unknown_view_lists_the_views_there_are():
    with pytest.raises(PuzzleUsageError, match="sudoku"):
        kind_for("crossword")


def test_a_kind_takes_plain_data_from_the_namespace():
    namespace = {}
    exec("from pycsp3 import *", namespace)
    namespace.update(rows=((1, 2), (3,)), cols=[[1]], unrelated=[1])
    assert data_for(kind_for("nonogram"), namespace) == {"rows": [[1, 2], [3]], "cols": [[1]]}
    assert data_for(kind_for("generic"), namespace) == {}


def test_futoshiki_reads_hints_as_the_notebook_and_the_grader_write_them():
    values = [[1, 2, 3], [2, 3, 1], [3, 1, 2]]
    as_dict = data_for(kind_for("futoshiki"), {"hints": {(0, 0): 1, (1, 1): 3}, "less": [((0, 0), (0, 1))]})
    as_rows = {"hints": [[0, 0, 1], [1, 1, 3]], "less": [[[0, 0], [0, 1]]]}
    for data in (as_dict, as_rows):
        described = kind_for("futoshiki").describe(grid(values), data)
        assert cells_with(described, "given") == {(0, 0), (1, 1)}
        assert described["signs"] == [{"cells": [[0, 0], [0, 1]], "text": "<"}]


@pytest.mark.parametrize("kind", [k for k in kinds() if kind_for(k).DATA_NAMES])
def test_a_view_that_finds_none_of_its_data_says_what_it_reads(kind):
    described = kind_for(kind).describe(grid([[1, 2], [2, 1]]), {"unrelated": [1]})
    note = described.get("note", "")
    assert note.startswith(f"note: the {kind} view found no data it can use")
    assert all(name in note for name in kind_for(kind).DATA_NAMES)


def test_the_note_reaches_the_report_and_goes_once_the_data_is_there():
    from kernelext.magic.render import report_text
    from kernelext.steps.session import StepReport

    report = StepReport("f", 1, grid=grid([[1, 2], [2, 1]]))
    assert "note: the futoshiki view found no data it can use" in report_text(report, "futoshiki", {})
    assert "note:" not in report_text(report, "futoshiki", {"less": [((0, 0), (0, 1))]})


def test_kinds_are_found_by_their_aliases_and_no_alias_is_taken_twice():
    from kernelext.kinds import KINDS, kind_choices
    from kernelext.plugins import aliases

    names = [alias for module in map(kind_for, kinds()) for alias in getattr(module, "ALIASES", ())]
    assert len(names) == len(set(names)) and not set(names) & set(kinds())
    for alias, kind in aliases(KINDS.modules()).items():
        assert kind_for(alias) is kind_for(kind)
        assert f"{kind} (" in kind_choices() and alias in kind_choices()


def test_the_graders_checks_use_the_kinds_rules():
    from kernelext.grading.format.answer_checks import resolve
    from kernelext.kinds import answer_checks

    CHECKERS = answer_checks()
    assert all(resolve(name, Path(".")) is check for name, check in CHECKERS.items())
    wrong = [row[:] for row in SUDOKU_4]
    wrong[3][3] = 2
    assert sudoku_rules.conflicts(wrong) == {(3, 2), (3, 3), (1, 3)}
    assert CHECKERS["sudoku"](wrong, {"clues": [[0] * 4] * 4}, {}) == "row 3 should hold 1..4 once each"
    assert CHECKERS["sudoku"](SUDOKU_4, {"clues": [[1, 0, 0, 0]] + [[0] * 4] * 3}, {}) == ""
    assert CHECKERS["nonogram"]([[1, 1], [0, 1]], {"row_clues": [[2], [1]], "cols": [[1], [2]]}, {}) == ""
    assert "column 0" in CHECKERS["nonogram"]([[1, 1], [1, 0]], {"rows": [[2], [1]], "columns": [[1], [2]]}, {})
    futoshiki = {"hints": [[0, 0, 1]], "less_than": [((0, 0), (0, 1))]}
    assert CHECKERS["futoshiki"]([[1, 2], [2, 1]], {"n": 2, **futoshiki}, {}) == ""
    assert "less than" in CHECKERS["futoshiki"]([[1, 2], [2, 1]], {"n": 2, "lt": [((0, 1), (0, 0))]}, {})


@pytest.mark.parametrize("check", sorted(__import__("kernelext.kinds", fromlist=["x"]).answer_checks()))
def test_answer_checks_say_what_is_wrong_with_a_malformed_answer(check):
    from kernelext.kinds import answer_checks

    data = {
        "grid": [[1, 0], [0, 0]],
        "clues": [[1, 0], [0, 0]],
        "n": 2,
        "m": 2,
        "points": [[(1, 1), (2, 2)]],
        "rows": [[1]],
        "columns": [[1]],
        "hints": [],
        "less": [],
        "shapes": [[[1]]],
    }
    message = answer_checks()[check]("not an array", data, {})
    assert isinstance(message, str) and message  # kinds whose data is missing here say so


def test_futoshiki_signs_and_givens_are_read_off_the_posted_model_whatever_the_data_are_called(shell):
    """1-based pairs under a name no view knows: the signs and the given come from the constraints posted."""
    from kernelext.kinds import futoshiki

    shell.ok("n = 4\nbigger_than = [((2, 1), (1, 1)), ((1, 3), (1, 4))]\nstart = [(4, 4, 2)]")
    shell.ok(
        "%%puzzle futoshiki\nx = VarArray(size=[n, n], dom=range(1, n + 1))\n"
        "satisfy(AllDifferent(x[i]) for i in range(n))\nsatisfy(AllDifferent(x[:, j]) for j in range(n))"
    )
    shell.ok(
        "%%puzzle+\nsatisfy(x[a - 1][b - 1] > x[c - 1][d - 1] for ((a, b), (c, d)) in bigger_than)\n"
        "satisfy(x[r - 1][c - 1] == v for (r, c, v) in start)"
    )
    puzzle = shell.ip.magics_manager.registry["PuzzleMagics"].current
    description = futoshiki.describe(puzzle.session.last_grid, puzzle.data("futoshiki"))
    assert description["signs"] == [{"cells": [[0, 0], [1, 0]], "text": "^"}, {"cells": [[0, 2], [0, 3]], "text": ">"}]
    assert "given" in description["cells"][3][3]["classes"] and not description.get("note")


def test_killer_sudoku_cages_and_givens_are_read_off_the_posted_model_when_the_data_name_none(shell):
    from kernelext.kinds import sudoku

    shell.ok("blocks = [(3, [(0, 0), (0, 1)]), (7, [(1, 0), (2, 0), (2, 1)]), (4, [(0, 2), (1, 2), (1, 1)])]")
    shell.ok("%%puzzle killer\nx = VarArray(size=[4, 4], dom=range(1, 5))\n")
    shell.ok(
        "%%puzzle+\nsatisfy(Sum(x[i][j] for i, j in cells) == total for total, cells in blocks)\n"
        "satisfy(x[3][3] == 2, Sum(x[3]) == 10, Sum(x[0][3], x[2][3]) == 5)\n"
    )
    puzzle = shell.ip.magics_manager.registry["PuzzleMagics"].current
    cells = sudoku.describe(puzzle.session.last_grid, puzzle.data("sudoku"))["cells"]
    assert [cells[r][c].get("corner") for r, c in ((0, 0), (1, 0), (0, 2))] == ["3", "7", "4"]
    assert cells[0][0]["cage"] == "tbl" and cells[0][1]["cage"] == "trb"
    assert "cage" not in cells[3][0] and "cage" not in cells[0][3]  # a whole row, and cells apart: no cage
    assert "given" in cells[3][3]["classes"]
