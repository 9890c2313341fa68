"""The search tree the kit's own search records: its shape, its counts, and its drawings."""

from __future__ import annotations

import re

import pytest
from sanitized_html import sanitizer_problems

from kernelext.insight.search_tree import (
    compare_trees,
    grid_at,
    record_tree,
)
from kernelext.kinds.queens import conflicts
from kernelext.pycsp3_glue import model_state
from kernelext.steps.session import PuzzleSession
from kernelext.widgets.tree_forms import COLOURS, HIGHLIGHT, tree_html, tree_outline, tree_svg
from kernelext.widgets.tree_widget import WIDGET_MIME, TreeWidget

QUEENS = "q = VarArray(size=4, dom=range(4))\n"
QUEENS_RULES = (
    "satisfy(AllDifferent(q), AllDifferent(q[i] + i for i in range(4)), AllDifferent(q[i] - i for i in range(4)))\n"
)


pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def queens():
    session = PuzzleSession("queens")
    session.add_step(QUEENS, solve=False)
    session.add_step(QUEENS_RULES, solve=False)
    yield session
    assert session.solver.worker_pid is None  # no JVM, no solver process: the kit alone
    session.close()


def test_four_queens_tree_has_two_solutions_and_counts_its_own_nodes(queens):
    tree = record_tree(queens, nodes=1000)
    assert not tree.truncated
    assert len(tree.solutions) == 2 == tree.stats["solutions"]
    assert all(not tree.children(node_id) for node_id in tree.solutions)  # green leaves
    assert tree.decisions == tree.size == tree.stats["decisions"]  # every decision on an open variable
    assert len(tree.nodes) == tree.stats["nodes"]  # the root counted as a node
    assert len(tree.failures) == tree.stats["failures"] > 0


def test_a_file_gives_the_same_tree_as_its_session(queens, tmp_path):
    path = tmp_path / "queens.xml"
    model_state.compile_to(path)
    assert record_tree(path) == record_tree(queens)


def test_solution_nodes_show_valid_solutions(queens):
    tree = record_tree(queens)
    info = queens.shown_array()
    boards = {grid_at(tree, node_id, info).values[0] for node_id in tree.solutions}
    assert boards == {(1, 3, 0, 2), (2, 0, 3, 1)}
    assert not any(conflicts(enumerate(board)) for board in boards)


def test_node_limit_truncates_with_a_note(queens):
    tree = record_tree(queens, nodes=3)
    assert tree.truncated and tree.size == 3
    assert "Stopped after 3 decisions" in tree.note and tree.note in tree.summary()
    full = record_tree(queens)
    table = compare_trees(full, tree, ("all", "first 3"))
    assert table.splitlines()[1].split() == ["nodes", str(full.size), "3"]


def test_grid_at_a_node_applies_the_decisions_on_its_path(queens):
    tree = record_tree(queens)
    info = queens.shown_array()
    node = next(n for n in tree.nodes if n.kind == "failure" and n.positive)
    grid = grid_at(tree, node.id, info)
    for variable, value in node.path:
        assert grid.values[0][int(variable[2])] == value
    assert sum(v is not None for v in grid.values[0]) == len(node.path)
    assert grid.changed == {(0, int(node.variable[2]))}


def test_svg_colours_failures_and_solutions_and_highlights_the_path(queens):
    tree = record_tree(queens)
    picture = tree_svg(tree, selected=tree.solutions[0])
    assert len(re.findall(f'<polygon[^>]*fill="{COLOURS["solution"]}"', picture)) == 2  # diamonds
    assert len(re.findall(f'<rect[^>]*fill="{COLOURS["failure"]}"', picture)) == len(tree.failures)  # squares
    assert len(re.findall(f'<line[^>]*stroke="{HIGHLIGHT}"', picture)) == len(tree.path_ids(tree.solutions[0])) - 1
    assert picture == tree_svg(tree, selected=tree.solutions[0])


def test_outline_draws_the_tree_in_search_order_for_saved_notebooks(queens):
    tree = record_tree(queens)
    lines = tree_outline(tree)
    assert [node.id for _, node in lines] == sorted(node.id for node in tree.nodes)  # depth first = search order
    assert lines[0] == ("", tree.nodes[0])
    depth = {node.id: len(branch) // 3 for branch, node in lines}
    assert all(depth[node.id] == depth[node.parent] + 1 for node in tree.nodes[1:])
    assert all(branch.endswith(("├─ ", "└─ ")) for branch, _ in lines[1:])
    picture = tree_html(tree)
    assert sanitizer_problems(picture) == [] and "<svg" not in picture
    assert picture.count("✓ solution") == len(tree.solutions) and picture.count("✗ failure") == len(tree.failures)
    short = tree_outline(tree, most=5)
    assert len(short) == 5 and "more nodes" not in picture


def test_widget_selection_computes_the_grid_at_that_node(queens):
    tree = record_tree(queens)
    widget = TreeWidget(tree, queens.shown_array())
    assert widget.grid_html == ""
    widget.selected = tree.solutions[0]  # as the front end's one message does
    assert widget.grid_html.count("<td") == len(queens.shown_array().cells)
    assert f"node {tree.solutions[0]}" in widget.caption
    bundle, _ = widget._repr_mimebundle_()
    assert set(bundle) == {WIDGET_MIME, "text/html", "text/plain"}
    assert bundle["text/plain"] == tree.summary() and bundle["text/html"] == tree_html(tree)
    widget.selected = 10_000
    assert widget.selected == -1 and widget.grid_html == ""
    assert "export default" in str(TreeWidget._esm)


def test_unsatisfiable_root_is_a_single_failed_node():
    session = PuzzleSession("none")
    session.add_step("y = VarArray(size=2, dom=range(2))\n", solve=False)
    session.add_step("satisfy(y[0] + y[1] > 2)\n", solve=False)
    tree = record_tree(session)
    assert tree.size == 0 and not tree.solutions and tree.nodes[0].kind == "failure"
