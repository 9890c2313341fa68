"""What the live widgets give screen readers and keyboards: an accessible name (`label`), a text form of each
picture (`texts`, `text`) and a focus outline that shows on white."""

from __future__ import annotations

import re

from sample_walkthrough import walkthrough

from kernelext.grid import Grid
from kernelext.insight.search_tree import build_tree
from kernelext.magic.render import report_state
from kernelext.solver.result import SolveResult, Status
from kernelext.steps.session import StepReport
from kernelext.widgets.grid_widget import GridWidget, picture_text
from kernelext.widgets.pencil_forms import pencil_text
from kernelext.widgets.static_forms import grid_text, state_text
from kernelext.widgets.stepper_widget import StepperWidget
from kernelext.widgets.tree_widget import TreeWidget, tree_text

# A 2x2 search: x=0 fails, x≠0 then y=1 is a solution.
EVENTS = [("+", "x", 0, 2), ("x",), ("-", "x", 0, 2), ("+", "y", 1, 2), ("s", {"x": 1, "y": 1})]


def solutions_report(count: int = 3) -> StepReport:
    grids = tuple(Grid("x", ((k, 1 - k % 2), (2, 3))) for k in range(count))
    result = SolveResult(Status.SAT, ({},) * count, time=0.1, backend="ace")
    return StepReport("tiny", 2, posted=("sum(x) > 1",), result=result, grid=grids[-1], all_grids=grids)


def test_grid_widget_is_named_by_its_title_and_status_and_carries_each_grids_text():
    state = report_state(solutions_report())
    widget = GridWidget(description=state)
    synced = widget.get_state()
    assert synced["label"].startswith("tiny · step 2, SAT")
    assert synced["label"] == f"{state['title']}, {state['lines'][-1].removeprefix('status: ')}"
    assert len(synced["texts"]) == len(state["grids"]) == 3
    for grid, text in zip(state["grids"], synced["texts"]):
        assert text.startswith(f"{grid['name']} (") and text.endswith(grid_text(grid))
        assert grid_text(grid) in state_text(state)  # the text/plain's own lines
    assert "solved in" not in "".join(synced["texts"])  # no timing in a text form


def test_a_single_grid_has_one_text_and_a_picture_keeps_its_own_text():
    step = solutions_report(1)
    state = report_state(StepReport("tiny", 1, result=step.result, grid=step.grid))
    widget = GridWidget(description=state)
    assert widget.texts == [picture_text(state["grids"][0])] and widget.label.startswith("tiny · step 1, ")
    drawing = {"shapes": [], "name": "route", "width": 10, "height": 10, "legend": "", "lines": ["stop 1", "stop 2"]}
    assert picture_text(drawing) == state_text({"title": "", "lines": [], "grids": [drawing], "total": 1})[1:]


def test_stepper_widget_names_itself_and_has_each_pages_marks_as_text():
    w = walkthrough()
    state = StepperWidget(w, block=2).get_state()
    assert state["label"] == f"sudoku walkthrough: {w.header()}"
    marks = [w.start, *(d.marks for d in w.deductions)]
    assert state["texts"] == [pencil_text(grid) for grid in marks]
    assert len(state["texts"]) == len(state["pages"]) == len(state["captions"])


def test_tree_widget_names_itself_by_its_summary_and_has_its_outline_as_text():
    tree = build_tree(EVENTS)
    widget = TreeWidget(tree)
    assert widget.label == tree.summary().splitlines()[0] and widget.label.startswith("search tree: ")
    assert tree_text(tree).splitlines() == ["root", "├─ x = 0  ✗ failure", "└─ x ≠ 0", "   └─ y = 1  ✓ solution"]
    assert widget.text == tree_text(tree) and "Enter" in widget.caption
    truncated = build_tree(EVENTS * 40)
    assert tree_text(truncated).splitlines()[-1].endswith("more nodes")


def contrast(colour: str) -> float:
    """The contrast ratio of a #rrggbb colour against white (WCAG 2.1)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour[k : k + 2], 16)) for k in (1, 3, 5))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def test_every_widget_draws_a_focus_outline_that_shows_on_white():
    css = str(GridWidget._css)
    assert str(StepperWidget._css) == str(TreeWidget._css) == css  # one style sheet for the three views
    selectors, declarations = re.search(r"([^}]*:focus-visible[^{]*)\{([^}]*)\}", css).groups()
    assert all(root in selectors for root in (".kx-root", ".kx-walkthrough", ".kx-tree"))
    width, colour = re.search(r"outline:\s*(\d+)px solid (#[0-9a-fA-F]{6})", declarations).groups()
    assert int(width) >= 2 and contrast(colour) >= 3
    for grey in re.findall(r"[^-]color:\s*(#[0-9a-fA-F]{3,6})", css):  # text colours: 4.5:1 on white
        assert contrast(grey if len(grey) == 7 else "#" + "".join(2 * c for c in grey[1:])) >= 4.5, grey


def test_every_view_takes_keys_and_names_its_root():
    for widget, keys in ((GridWidget, "ArrowRight"), (StepperWidget, "ArrowRight"), (TreeWidget, "ArrowDown")):
        script = str(widget._esm)
        assert keys in script and '"aria-label"' in script and '"role"' in script
        assert "Text form" in script and "keydown" in script
