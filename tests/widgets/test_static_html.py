"""Static HTML forms: built only from what notebook sanitizers keep, and still grids of rows and columns."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from conftest import ROOT
from sanitized_html import sanitizer_problems, style_problems

from kernelext.grid import Grid
from kernelext.insight.pencil_marks import PencilGrid
from kernelext.kinds import kind_for
from kernelext.magic.render import report_html
from kernelext.solver.result import SolveResult, Status
from kernelext.steps.session import StepReport
from kernelext.widgets.html_grid import grid_html, legend_html
from kernelext.widgets.pencil_forms import pencil_html

CAGES = json.loads((ROOT / "notebooks" / "data" / "killer_sudoku.json").read_text())


def grid(values, holes=(), changed=()):
    return Grid("x", tuple(tuple(row) for row in values), frozenset(holes), frozenset(changed))


SUDOKU = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, None]]
EXAMPLES = {
    "generic": (grid([[0, 1, None], [2, 3, 4]], changed={(0, 1)}), {}),
    "sudoku": (grid(SUDOKU, changed={(3, 2)}), {"clues": [[1, 0, 0, 0]] + [[0] * 4] * 3}),
    "killer": (grid(SUDOKU), {"cages": CAGES["small"]["cages"]}),
    "futoshiki": (grid([[1, 2, 3], [2, 3, 1], [3, 1, 2]]), {"less_than": [((0, 0), (0, 1)), ((1, 2), (0, 2))]}),
    "nonogram": (grid([[1, 0, 1], [1, 1, 1], [0, 1, None]]), {"rows": [[1, 1], [3], [1]], "cols": [[2], [2], [2]]}),
    "numberlink": (grid([[0, 1, 1], [0, 2, 1], [0, 0, 0]], holes={(2, 2)}), {"points": [[(0, 1), (1, 2)]]}),
    "layout": (grid([[1, 1, 2], [1, 2, 2], [3, 3, 0]]), {}),
    "queens": (grid([[1, 3, 0, 2]]), {}),
}


class Table(HTMLParser):
    """The rows of the outermost table: each row's cells as (text, style)."""

    def __init__(self):
        super().__init__()
        self.rows: list[list[tuple[str, str]]] = []
        self.depth = 0
        self.cell: list | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.depth += 1
        elif self.depth == 1 and tag == "tr":
            self.rows.append([])
        elif self.depth == 1 and tag == "td":
            self.cell = ["", dict(attrs).get("style", "")]

    def handle_endtag(self, tag):
        if tag == "table":
            self.depth -= 1
        elif self.depth == 1 and tag == "td" and self.cell is not None:
            self.rows[-1].append((self.cell[0].strip(), self.cell[1]))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0] += data


def table_of(markup: str) -> list[list[tuple[str, str]]]:
    parser = Table()
    parser.feed(markup)
    return parser.rows


def bordered(row):
    """The cells of a row that are grid cells (they have a 1px border), not clues or signs."""
    return [cell for cell in row if "border:1px solid" in cell[1]]


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_view_draws_a_table_the_sanitizer_keeps_whole(name):
    values, data = EXAMPLES[name]
    kind = "sudoku" if name == "killer" else name
    description = kind_for(kind).describe(values, data)
    markup = grid_html(description) + legend_html(description)
    assert sanitizer_problems(markup) == []
    assert grid_html(description) == grid_html(kind_for(kind).describe(values, data))  # deterministic
    rows = [bordered(row) for row in table_of(grid_html(description)) if bordered(row)]
    assert [len(row) for row in rows] == [len(r) for r in description["cells"]]


def test_sudoku_blocks_are_thick_lines():
    description = kind_for("sudoku").describe(*EXAMPLES["sudoku"])
    rows = [bordered(row) for row in table_of(grid_html(description))]
    assert "border-top:3px solid" in rows[2][0][1] and "border-left:3px solid" in rows[0][2][1]
    assert "border-top:3px solid" not in rows[1][1][1]


def test_futoshiki_signs_sit_in_cells_between_the_cells_they_compare():
    description = kind_for("futoshiki").describe(*EXAMPLES["futoshiki"])
    rows = table_of(grid_html(description))
    assert len(rows) == 5 and [len(row) for row in rows] == [5] * 5
    assert [text for text, _ in rows[0]] == ["1", "<", "2", "", "3"]
    assert rows[1][4][0] == "∨"  # x[0][2] > x[1][2]: the point towards the smaller, lower cell


def test_nonogram_clues_frame_the_grid_and_filled_cells_read_without_styles():
    description = kind_for("nonogram").describe(*EXAMPLES["nonogram"])
    rows = table_of(grid_html(description))
    assert [text for text, _ in rows[0]] == ["", "2", "2", "2"]
    assert [row[0][0] for row in rows[1:]] == ["1 1", "3", "1"]
    assert [text for text, _ in rows[1][1:]] == ["■", "", "■"]


def test_killer_cages_are_outlined_with_their_sum_in_one_corner():
    cages = CAGES["small"]["cages"]
    description = kind_for("sudoku").describe(*EXAMPLES["killer"])
    markup = grid_html(description)
    corners = re.findall(r'<span style="position:absolute;top:1px;left:2px;[^"]*">(\d+)</span>', markup)
    assert sorted(map(int, corners)) == sorted(total for total, _ in cages)
    assert markup.count("dashed") == sum(len(cell.get("cage", "")) for row in description["cells"] for cell in row)
    assert description["cells"][0][0]["cage"] == "trl" and description["cells"][1][0]["cage"] == "rbl"
    assert "cage and its sum" in legend_html(description)


def test_killer_cage_with_a_wrong_sum_is_a_conflict():
    complete = [row[:3] + [v] for row, v in zip(SUDOKU, (4, 2, 3, 1))]
    cage = [(3, 3), (2, 3), (1, 3)]  # 1 + 3 + 2 = 6
    right = kind_for("sudoku").describe(grid(complete), {"cages": [[6, cage]]})
    wrong = kind_for("sudoku").describe(grid(complete), {"cages": [[7, cage]]})
    assert all("conflict" not in right["cells"][r][c].get("classes", ()) for r, c in cage)
    assert all("conflict" in wrong["cells"][r][c]["classes"] for r, c in cage)


def test_legend_names_only_the_marks_the_grid_shows():
    legend = legend_html(kind_for("generic").describe(*EXAMPLES["generic"]))
    assert "changed by this step" in legend and "no constraint on it yet" in legend
    assert "end of a path" not in legend and "queen" not in legend
    assert legend_html(kind_for("generic").describe(grid([[1, 2]]), {})) == ""


def test_pencil_marks_survive_the_sanitizer():
    marks = PencilGrid("x", (((1,), (1, 2), None),), (((), (3,), ()),), frozenset(), boolean=False)
    assert sanitizer_problems(pencil_html(marks)) == []


def test_a_whole_report_survives_the_sanitizer_with_its_solutions_and_bound():
    pictures = tuple({"x[0]": v} for v in (3, 2, 1))
    result = SolveResult(Status.OPTIMUM, pictures, bound=1, progress=((0.1, 3), (0.2, 2), (0.3, 1)))
    report = StepReport(
        "p",
        2,
        result=result,
        grid=grid([[1]]),
        posted=("lt(x[0],4)",),
        all_grids=(grid([[3]]), grid([[2]]), grid([[1]])),
    )
    markup = report_html(report)
    assert sanitizer_problems(markup) == []
    assert markup.count("<table") == 4  # three solutions and the bound's bars
    assert "solution 3 of 3" in markup and "bound per solution: 3 → 1" in markup


def test_the_checker_itself_flags_what_the_sanitizer_removes():
    assert sanitizer_problems("<svg><rect/></svg>") == ["<svg> is removed", "<rect> is removed"]
    assert sanitizer_problems('<div class="kx" onclick="x()">') == [
        "<div class> is removed",
        "<div onclick> is removed",
    ]
    assert style_problems("transform:rotate(45deg);width:calc(1px + 2px)") == [
        "style transform is removed",
        "style width:calc(1px + 2px) is removed",
    ]
