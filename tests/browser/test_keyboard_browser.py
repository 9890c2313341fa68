"""The live widgets with the keyboard alone, in JupyterLab and Debian's chromium (WCAG 2.1: 2.1.1 keyboard,
2.1.2 no keyboard trap, 2.4.7 focus visible, 4.1.2 name, role, value).

One notebook shows a walkthrough's stepper, a 4x4 Sudoku's solutions (the grid widget's stepper) and its search
tree. Tab reaches each widget; the arrow keys step through the pages and the solutions and walk the tree, Enter
selects a node; the focused element shows an outline; Tab goes on past every widget; axe-core finds no WCAG 2.1
A/AA violation in them. Screenshots go to test-artifacts/keyboard-*.png. Fails (never skips) when chromium or
Playwright is missing.
"""

from __future__ import annotations

import json
import pickle

import pytest
from axe import described, notebook_violations
from lab_server import ARTIFACTS, jupyter_server, open_notebook, require_browser
from local_web import launch
from sample_walkthrough import walkthrough
from test_grid_browser import notebook, run_cell

pytestmark = pytest.mark.browser

NO_WINDOWING = {"@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"}}  # every cell in the page
CELLS = [
    "%load_ext kernelext\nfrom pycsp3 import *",
    """\
import pickle
from kernelext.widgets.stepper_widget import StepperWidget

with open("walkthrough.pickle", "rb") as file:
    walkthrough = pickle.load(file)
StepperWidget(walkthrough, block=2)""",
    "%%puzzle sudoku --view sudoku\nx = VarArray(size=[4, 4], dom=range(1, 5))",
    """%%puzzle+
satisfy(
    x[0][0] == 1,
    x[1][2] == 2,
    [AllDifferent(x[i]) for i in range(4)],
    [AllDifferent(x[:, j]) for j in range(4)],
    [AllDifferent(x[i][j] for i in range(r, r + 2) for j in range(c, c + 2)) for r in (0, 2) for c in (0, 2)]
)""",
    "%puzzle solve --sols 3",
    "%puzzle tree --nodes 100",
]
STEPPER, SOLUTIONS, TREE = 1, 4, 5  # the cells showing each widget

# The focused element: where it is, what it is, and its outline.
ACTIVE = """() => {
    const node = document.activeElement;
    const style = getComputedStyle(node);
    const cell = node.closest(".jp-Cell");
    const cells = [...document.querySelectorAll(".jp-Notebook .jp-Cell")];
    return {
        cell: cell ? cells.indexOf(cell) : null,
        tag: node.tagName.toLowerCase(),
        className: typeof node.className === "string" ? node.className : "",
        role: node.getAttribute("role"),
        label: node.getAttribute("aria-label"),
        node: node.getAttribute("data-node"),
        inOutput: Boolean(node.closest(".jp-OutputArea")),
        outline: [style.outlineStyle, parseFloat(style.outlineWidth), style.outlineColor],
    };
}"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """JupyterLab showing the notebook, every cell run; yields the Playwright page."""
    sync_playwright = require_browser()
    tmp_path = tmp_path_factory.mktemp("keyboard")
    root = tmp_path / "root"
    root.mkdir()
    (root / "walkthrough.pickle").write_bytes(pickle.dumps(walkthrough()))
    (root / "keyboard.ipynb").write_text(json.dumps(notebook(CELLS)))
    with jupyter_server(tmp_path, root, NO_WINDOWING) as server, sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(30_000)
            open_notebook(page, server.url("lab/tree/keyboard.ipynb"))
            for index in range(len(CELLS)):
                run_cell(page, index)
            yield page
        finally:
            browser.close()


def active(page) -> dict:
    return page.evaluate(ACTIVE)


def tab_to(page, wanted, most: int = 80) -> dict:
    """Press Tab until the focused element is `wanted` (a predicate on `active`); its description."""
    for _ in range(most):
        page.keyboard.press("Tab")
        found = active(page)
        if wanted(found):
            return found
    pytest.fail(f"{most} presses of Tab never reached the element; focus ends on {found}")


def outlined(found: dict) -> bool:
    style, width, _ = found["outline"]
    return style != "none" and width >= 2


def shot(page, locator, name: str) -> None:
    """A screenshot of `locator` with a margin, so that its focus outline shows, to test-artifacts/keyboard-NAME.png."""
    box = locator.bounding_box()
    clip = {"x": box["x"] - 8, "y": box["y"] - 8, "width": box["width"] + 16, "height": box["height"] + 16}
    page.screenshot(path=str(ARTIFACTS / f"keyboard-{name}.png"), clip=clip)


def press(page, key: str, text, expected: str) -> None:
    """Press `key`, then wait for the element `text` (a locator) to read `expected`."""
    page.keyboard.press(key)
    page.wait_for_function("([node, text]) => node.textContent === text", arg=[text.element_handle(), expected])


def test_the_walkthrough_steps_with_the_arrow_keys(page):
    cell = page.locator(".jp-Notebook .jp-Cell").nth(STEPPER)
    widget = cell.locator(".kx-walkthrough")
    count = widget.locator(".kx-step-count")
    found = tab_to(page, lambda f: f["cell"] == STEPPER and f["className"] == "kx-walkthrough")
    assert found["role"] == "group" and found["label"].startswith("sudoku walkthrough: "), found
    assert outlined(found), found
    assert count.inner_text() == "step 0 of 2" and count.get_attribute("aria-live") == "polite"
    press(page, "ArrowRight", count, "step 1 of 2")
    press(page, "ArrowRight", count, "step 2 of 2")
    press(page, "ArrowLeft", count, "step 1 of 2")
    press(page, "Home", count, "step 0 of 2")
    press(page, "End", count, "step 2 of 2")
    assert active(page)["className"] == "kx-walkthrough", "the widget kept the focus"
    shot(page, widget, "stepper")

    found = tab_to(page, lambda f: f["className"] == "kx-step-previous", most=2)  # next is disabled at the end
    assert outlined(found), found
    press(page, "Enter", count, "step 1 of 2")
    press(page, "ArrowLeft", count, "step 0 of 2")  # the arrow keys work from a button too
    assert active(page)["className"] == "kx-walkthrough", "a button that became disabled handed the focus over"
    tab_to(page, lambda f: f["cell"] == STEPPER and f["tag"] == "summary")
    page.keyboard.press("Enter")
    text = widget.locator(".kx-text-body")
    text.wait_for(state="visible")
    assert text.inner_text().startswith("x: ") and len(text.inner_text().splitlines()) == 5  # summary, 4 rows


def test_the_solutions_step_with_the_arrow_keys_and_the_focus_stays(page):
    widget = page.locator(".jp-Notebook .jp-Cell").nth(SOLUTIONS).locator(".kx-root")
    count, grid, live = widget.locator(".kx-count"), widget.locator(".kx-grid"), widget.locator(".kx-live")
    found = tab_to(page, lambda f: f["cell"] == SOLUTIONS and f["className"] == "kx-root")
    assert found["role"] == "group" and found["label"] == "sudoku · step 2, SAT: 3 solutions", found
    assert outlined(found), found
    assert count.inner_text() == "1 of 3" and live.get_attribute("aria-live") == "polite"
    first = grid.inner_html()
    press(page, "ArrowRight", count, "2 of 3")
    assert grid.inner_html() != first and live.text_content() == "solution 2 of 3"
    press(page, "End", count, "3 of 3")
    press(page, "Home", count, "1 of 3")
    assert grid.inner_html() == first and active(page)["className"] == "kx-root", "the widget kept the focus"
    found = tab_to(page, lambda f: f["className"] == "kx-next", most=2)
    assert found["label"] == "next solution" and outlined(found), found
    press(page, "Enter", count, "2 of 3")
    assert active(page)["className"] == "kx-next", "the redrawn button has the focus again"
    shot(page, widget, "solutions")
    press(page, "Enter", count, "3 of 3")
    assert active(page)["className"] == "kx-root", "a button that became disabled handed the focus over"


def test_the_search_tree_is_walked_and_a_node_chosen_with_the_keys(page):
    tree = page.locator(".jp-Notebook .jp-Cell").nth(TREE).locator(".kx-tree")
    caption = tree.locator("pre")
    found = tab_to(page, lambda f: f["cell"] == TREE and f["role"] == "treeitem")
    assert found["node"] == "0" and found["label"] == "node 0: root (root)" and outlined(found), found
    assert tree.locator("[tabindex='0'][data-node]").count() == 1, "one tab stop for the whole tree"
    assert tree.locator("svg").get_attribute("role") == "tree"
    page.keyboard.press("ArrowDown")
    assert active(page)["node"] == "1"
    page.keyboard.press("ArrowUp")
    assert active(page)["node"] == "0"
    page.keyboard.press("ArrowRight")
    assert active(page)["node"] == "1", "the root's first child"
    for _ in range(tree.locator("[data-node]").count()):  # down to the first solution
        if "(solution)" in active(page)["label"]:
            break
        page.keyboard.press("ArrowDown")
    found = active(page)
    assert "(solution)" in found["label"] and outlined(found), found
    node = found["node"]
    level = int(tree.locator(f"[data-node='{node}']").get_attribute("aria-level"))
    page.keyboard.press("Enter")
    page.wait_for_function(
        "([node, text]) => node.textContent.startsWith(text)", arg=[caption.element_handle(), f"node {node}: "]
    )
    tree.locator("table").wait_for(state="visible")
    assert "(solution)" in caption.inner_text() and tree.locator("table td").count() == 4 * 4
    page.wait_for_function(  # Python redrew the tree: the focus is back on the chosen node
        "(node) => document.activeElement.getAttribute('data-node') === node"
        " && document.activeElement.getAttribute('aria-selected') === 'true'",
        arg=node,
    )
    assert outlined(active(page))
    shot(page, tree, "tree")
    page.keyboard.press("ArrowLeft")
    parent = active(page)["node"]
    assert int(tree.locator(f"[data-node='{parent}']").get_attribute("aria-level")) == level - 1


def test_tab_goes_through_every_widget_and_out(page):
    tab_to(page, lambda f: f["cell"] == STEPPER and f["className"] == "kx-walkthrough")
    seen = []
    for _ in range(30):
        page.keyboard.press("Tab")
        found = active(page)
        seen.append(found)
        assert found["inOutput"] is False or outlined(found), found
        if not found["inOutput"]:
            break
    cells = [f["cell"] for f in seen if f["inOutput"]]
    assert cells == sorted(cells) and {STEPPER, SOLUTIONS, TREE} <= set(cells), seen
    assert not seen[-1]["inOutput"], f"Tab never left the widgets: {seen[-3:]}"
    page.screenshot(path=str(ARTIFACTS / "keyboard-notebook.png"), full_page=True)


def test_the_widgets_break_no_wcag_21_aa_rule_axe_checks(page):
    """After the walk (a page shown, a solution shown, a node chosen): axe-core's WCAG 2.1 A/AA rules."""
    for widget in (".kx-walkthrough", ".kx-root", ".kx-tree"):
        found = notebook_violations(page, widget)
        assert not found, f"{widget}:\n{described(found)}"
