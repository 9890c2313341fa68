"""Which picture a step draws, chosen from what is posted (never the puzzle's name), in a real shell with real
solves: models typed as users type them."""

from __future__ import annotations

import re
import types

import pytest
from IPython.utils.capture import capture_output
from view_models import (
    ADJACENCY_COLOURING,
    JOBSHOP,
    MAP_COLOURING,
    PACKING,
    RCPSP,
    TSP,
    TSP_BY_POSITIONS,
    TSP_WITHOUT_COORDINATES,
)

from kernelext import plugins, views

pytestmark = pytest.mark.timeout(300)


def outputs(shell, cells: list[str]) -> dict:
    """The last cell's rich output (text/plain and text/html), after running every cell."""
    for cell in cells[:-1]:
        shell.ok(cell)
    with capture_output() as captured:
        result = shell.ip.run_cell(cells[-1])
    assert result.error_in_exec is None, captured.stdout + captured.stderr
    return captured.outputs[-1].data


def test_job_shop_is_drawn_as_a_gantt_chart_with_its_makespan(shell):
    shown = outputs(shell, JOBSHOP)["text/plain"]
    assert "status: OPTIMUM (bound 10)" in shown
    assert "Gantt chart: 3 resources, 9 tasks, makespan 10" in shown
    assert "machine 0: s[0][0] 0→3, s[1][1] " in shown  # rows named by the data's machine of each task
    assert "objective (minimize maximum): 10" in shown


def test_job_shop_before_its_no_overlap_is_still_a_grid(shell):
    shown = outputs(shell, JOBSHOP[:2])["text/plain"]
    assert "Gantt" not in shown and "s (* = no constraint on it yet" in shown


def test_rcpsp_shows_its_usage_profile_against_the_capacity(shell):
    shown = outputs(shell, RCPSP)["text/plain"]
    assert "start[*] (capacity 4), peak " in shown or "resource 1 (capacity 4), peak " in shown
    assert "over the capacity" not in shown
    assert "start[0] 0→3 ×2" in shown


def test_rectangle_packing_is_drawn_in_its_container(shell):
    shown = outputs(shell, PACKING)["text/plain"]
    assert "Packing: 4 rectangles in 4 x 4, 4 placed" in shown
    assert "0: 3 x 2 at (" in shown and "overlaps" not in shown


def test_map_colouring_over_an_edge_list_is_drawn_as_a_graph(shell):
    shown = outputs(shell, MAP_COLOURING)["text/plain"]
    assert "Graph: 7 nodes, 9 edges" in shown
    assert "WA (c[0]) = " in shown  # the data's names label the nodes
    assert "broken" not in shown


def test_colouring_from_an_adjacency_matrix_is_drawn_as_a_graph(shell):
    shown = outputs(shell, ADJACENCY_COLOURING)["text/plain"]
    assert "Graph: 6 nodes, 9 edges" in shown


def test_tsp_with_coordinates_is_a_route_with_its_length(shell):
    shown = outputs(shell, TSP)["text/plain"]
    assert "Route: 5 stops" in shown and "on the data's coordinates" in shown
    assert "tour length 18" in shown


def test_tsp_without_coordinates_is_a_route_on_a_circle(shell):
    shown = outputs(shell, TSP_WITHOUT_COORDINATES)["text/plain"]
    assert "Route: 4 stops" in shown and "on a circle" in shown
    assert "tour length 10" in shown


def test_positions_under_all_different_with_a_distance_objective_are_a_route(shell):
    shown = outputs(shell, TSP_BY_POSITIONS)["text/plain"]
    assert "Route: 4 stops (city[*]), on a circle, tour length 10" in shown
    assert "tour: " in shown


def test_a_grid_model_is_not_read_for_pictures(shell, monkeypatch):
    from kernelext.steps.session import PuzzleSession

    monkeypatch.setattr(PuzzleSession, "xcsp_model", lambda self: pytest.fail("a grid model was read"))
    shown = shell.ok(
        "%%puzzle latin\nx = VarArray(size=[3, 3], dom=range(3))\n"
        "satisfy(AllDifferent(x[i]) for i in range(3))\nsatisfy(x[0][0] == 1)\n"
    )
    assert "status: SAT" in shown


def test_a_sudoku_stays_a_grid(shell):
    shown = shell.ok(
        "%%puzzle mini\nx = VarArray(size=[4, 4], dom=range(1, 5))\n"
        "satisfy(AllDifferent(x[i]) for i in range(4))\nsatisfy(AllDifferent(x[:, j]) for j in range(4))\n"
    )
    assert "Gantt" not in shown and "Graph" not in shown and "x (" in shown


def test_a_forced_picture_draws_a_puzzle_named_after_a_grid_kind(shell):
    forced = outputs(
        shell,
        [
            "%%puzzle sudoku --view packing\nx = VarArray(size=2, dom=range(3))\ny = VarArray(size=2, dom=range(3))\n",
            "%%puzzle+\nsatisfy(NoOverlap(origins=[(x[i], y[i]) for i in range(2)], lengths=[(2, 2), (1, 1)]))\n",
        ],
    )
    assert "Packing: 2 rectangles in 4 x 4, 2 placed" in forced["text/plain"]  # named after a grid kind, forced


def test_a_forced_picture_with_nothing_to_draw_yet_says_so_and_the_grid_is_drawn(shell):
    shell.ok("%%puzzle mini --view gantt\nx = VarArray(size=3, dom=range(3))\n")  # nothing posted yet: no note
    with capture_output() as captured:
        result = shell.ip.run_cell("%%puzzle+\nsatisfy(AllDifferent(x))\n")
    assert result.error_in_exec is None, captured.stderr
    note = captured.stdout.strip()
    assert "\n" not in note and note.startswith("--view gantt: the Gantt chart draws the tasks of NoOverlap"), note
    assert note.endswith("The grid is drawn until then.") and "x (" in captured.outputs[-1].data["text/plain"]
    assert "2 step(s)" in shell.ok("%puzzle steps")  # the step is kept
    solved = shell.ok("%%puzzle+\nsatisfy(NoOverlap(origins=x, lengths=[1, 1, 1]))\n")
    assert "Gantt chart: 1 resource, 3 tasks" in solved


def test_an_unknown_view_names_the_grids_and_the_pictures(shell):
    message = shell.fails("%%puzzle mini --view pert\nx = VarArray(size=3, dom=range(3))\n")
    assert "no such view" in message and "pictures: gantt, packing, route, graph" in message


def test_what_a_step_changes_is_marked_on_the_picture(shell):
    shell.ok(JOBSHOP[0])
    shell.ok(JOBSHOP[1])
    shell.ok(JOBSHOP[2])
    shown = outputs(shell, [JOBSHOP[3]])["text/plain"]
    changed = shown.count("(changed)")
    later = outputs(shell, ["%%puzzle+\nsatisfy(s[2][0] >= 5)\n"])["text/plain"]
    assert changed == 0 and re.search(r"s\[2\]\[0\] \d+→\d+ \(changed\)", later)
    assert "s[0][0] 0→3," in later  # unchanged: not marked


def test_the_static_html_of_a_step_holds_the_picture_and_no_svg(shell):
    from sanitized_html import sanitizer_problems

    html = outputs(shell, PACKING)["text/html"]
    assert "position:relative" in html and "Packing: 4 rectangles" in html
    assert not any(tag in html for tag in ("<svg", "<style", "<script")) and sanitizer_problems(html) == []


def test_save_writes_the_picture_as_svg_and_refuses_png(shell, tmp_path):
    for cell in RCPSP:
        shell.ok(cell)
    shell.ok(f"%puzzle save {tmp_path / 'plan.svg'}")
    svg = (tmp_path / "plan.svg").read_text()
    assert svg.startswith("<?xml") and "<rect" in svg and "start[0]" in svg
    assert "save plan.svg instead" in shell.fails(f"%puzzle save {tmp_path / 'plan.png'}")


def test_the_live_widget_shows_the_static_picture(shell):
    from kernelext.widgets.grid_widget import GridWidget

    for cell in MAP_COLOURING:
        shell.ok(cell)
    puzzle = shell.ip.magics_manager.registry["PuzzleMagics"].current
    report = puzzle.session.state_report()
    from kernelext.magic.render import report_state

    state = report_state(report, puzzle.kind(report.grid), {}, puzzle.drawings(report))
    widget = GridWidget(description=state)
    assert (
        widget.description["pictures"][0].startswith('<div title="Graph: ')
        and "position:relative" in widget.description["pictures"][0]
    )


def test_a_step_not_solved_draws_every_task_undecided(shell):
    shell.ok(JOBSHOP[0])
    shown = outputs(shell, [JOBSHOP[2].replace("%%puzzle+", "%%puzzle+ --no-solve")])["text/plain"]
    assert "Gantt chart: 3 resources, 9 tasks, 0 placed" in shown
    assert "machine 0: s[0][0] * (length 3), s[1][1] * (length 1), s[2][2] * (length 1)" in shown


def test_a_picture_that_fails_on_its_data_costs_no_step(shell, monkeypatch):
    def describe(model, data, solution, previous):
        raise TypeError("unhashable type: 'list'")  # a course's picture meeting data it did not expect

    buggy = types.ModuleType("flow")
    buggy.SUMMARY, buggy.DATA_NAMES, buggy.recognise, buggy.describe = "flows", (), lambda m, d: True, describe
    entry = types.SimpleNamespace(name="flow", value="mycourse.flow", load=lambda: buggy)
    monkeypatch.setattr(plugins, "entry_points", lambda group: [entry] if group == views.PICTURES.group else [])
    shell.ok("%%puzzle mini --view flow\nx = VarArray(size=3, dom=range(3))\n")
    said = shell.ok("%%puzzle+\nsatisfy(AllDifferent(x))\n")
    assert "The picture could not be drawn (TypeError: unhashable type: 'list'); the grid is drawn instead." in said
    assert "status: SAT" in said and "x (" in said  # the step is solved and drawn as a grid
    assert "2 step(s)" in shell.ok("%puzzle steps")
