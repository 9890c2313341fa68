"""Which picture a step draws, chosen from what is posted (never the puzzle's name), in a real shell with real
solves: models typed as users type them."""

from __future__ import annotations

import pytest
from IPython.utils.capture import capture_output
from view_models import (
    ADJACENCY_COLOURING,
    JOBSHOP,
    MAP_COLOURING,
    PACKING,
    RCPSP,
    TSP,
    TSP_WITHOUT_COORDINATES,
)

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


def test_a_sudoku_stays_a_grid(shell):
    shown = shell.ok(
        "%%puzzle mini\nx = VarArray(size=[4, 4], dom=range(1, 5))\n"
        "satisfy(AllDifferent(x[i]) for i in range(4))\nsatisfy(AllDifferent(x[:, j]) for j in range(4))\n"
    )
    assert "Gantt" not in shown and "Graph" not in shown and "x (" in shown
