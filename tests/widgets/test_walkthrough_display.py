"""A walkthrough's display: highlighted pencil marks, its text and static HTML, and the stepper widget."""

from __future__ import annotations

import html
from dataclasses import replace

from IPython.utils.capture import capture_output
from sample_walkthrough import walkthrough
from sanitized_html import sanitizer_problems

from kernelext.insight.pencil_marks import PencilGrid
from kernelext.magic.puzzle import NotebookPuzzle
from kernelext.steps.session import PuzzleSession
from kernelext.widgets.pencil_forms import HIGHLIGHT, HIGHLIGHT_RING, pencil_html, pencil_text
from kernelext.widgets.static_forms import (
    MOST_PAGES,
    page_spans,
    walkthrough_captions,
    walkthrough_html,
    walkthrough_text,
)
from kernelext.widgets.stepper_widget import WIDGET_MIME, StepperWidget
from kernelext.widgets.style import CHANGED, CHANGED_LINE, CONFLICT


def cell_styles(markup: str) -> list[str]:
    return markup.split('<td style="')[1:]


def test_highlighted_cells_are_ringed_in_blue_and_placed_cells_stay_yellow_with_a_thick_ring():
    step = walkthrough().deductions[0].marks
    styles = cell_styles(pencil_html(step))
    assert len(styles) == 16
    blue_ring = f"box-shadow:inset 0 0 0 2px {HIGHLIGHT_RING}"
    placed = styles[1]  # x[0][1]: placed by this step, and in the constraints
    assert CHANGED in placed and f"box-shadow:inset 0 0 0 3px {CHANGED_LINE}" in placed and HIGHLIGHT not in placed
    for k in (0, 2, 3, 5):  # the rest of row 0, and x[1][1]: a ring besides the colour
        assert HIGHLIGHT in styles[k] and blue_ring in styles[k]
    assert not any(HIGHLIGHT in styles[k] or "box-shadow" in styles[k] for k in (4, 6, 15))
    plain = PencilGrid("x", step.values, step.removed)
    assert HIGHLIGHT not in pencil_html(plain) and HIGHLIGHT_RING not in pencil_html(plain)
    binary = PencilGrid("b", (((0,), (0, 1)),), (((), ()),), boolean=True, highlighted=frozenset({(0, 0), (0, 1)}))
    assert pencil_html(binary).count(HIGHLIGHT_RING) == 2  # a ring: the fill keeps meaning filled / empty / unknown
    assert sanitizer_problems(pencil_html(step, block=2)) == [] and sanitizer_problems(pencil_html(binary)) == []


def test_text_is_the_words_then_the_candidates_at_the_end():
    w = walkthrough()
    text = walkthrough_text(w)
    assert text == "\n".join([*w.words(), "candidates at the end:", pencil_text(w.end)])
    assert text.startswith("sudoku: not solved (time ran out) after 2 deduction(s)")
    assert "  1. x[0][1] = 2 by allDifferent(x[0][0..3]); allDifferent(x[0..3][1]) known: x[1][1] = 3" in text


def test_static_html_shows_every_step_survives_the_sanitizer_and_is_the_same_bytes_each_time():
    w = walkthrough()
    markup = walkthrough_html(w, block=2)
    assert markup == walkthrough_html(walkthrough(), block=2)
    assert sanitizer_problems(markup) == []
    for forbidden in ("<svg", "<style", "<script", " id=", "solved in"):
        assert forbidden not in markup
    assert html.escape(w.header()) in markup
    captions = walkthrough_captions(w)
    assert len(captions) == len(w.deductions) + 1 and captions[0].startswith("start")
    assert all(html.escape(caption) in markup for caption in captions)
    assert markup.count("values left after propagation") == 3  # one pencil grid per page
    assert markup.count("display:inline-block") == 3 and "border-top:2px solid" in markup
    assert markup.count("#dbeafe") == 4 + 3  # highlighted cells of the two steps (placed cells ringed)
    assert "border-top:2px solid" not in walkthrough_html(w, block=None)


def test_a_long_walkthrough_s_static_form_gathers_its_steps_into_a_few_cards():
    w = walkthrough()
    steps = w.deductions * 15  # 30 steps
    long = replace(w, deductions=steps)
    markup = walkthrough_html(long, block=2)
    assert page_spans(30) == [(0, 5), (5, 10), (10, 15), (15, 20), (20, 25), (25, 30)]
    assert markup.count("display:inline-block") == 1 + MOST_PAGES  # the start, then the pages
    assert all(f"{n}. {html.escape(d.line())}" in markup for n, d in enumerate(steps, 1))  # every step named
    assert markup.count("#dbeafe") == 0  # a page of several steps highlights none: it marks what they changed
    changed = markup.count(f"background:{CHANGED}") + markup.count(
        f'<s style="color:{CONFLICT}">'
    )  # placed, or struck out
    assert changed == MOST_PAGES * 2  # on each page, both cells its steps changed
    assert sanitizer_problems(markup) == [] and len(markup) < len(walkthrough_html(w, block=2)) * 6
    assert page_spans(2) == [(0, 1), (1, 2)] and page_spans(0) == []


def test_stepper_widget_sends_every_page_once_and_falls_back_to_static_forms():
    w = walkthrough()
    widget = StepperWidget(w, block=2)
    state = widget.get_state()
    assert len(state["pages"]) == len(state["captions"]) == len(w.deductions) + 1
    assert state["pages"][0] == pencil_html(w.start, 2) and state["pages"][2] == pencil_html(w.end, 2)
    assert state["captions"] == walkthrough_captions(w) and state["title"] == w.header()
    assert state["layout"] is None  # no layout widget: one comm
    bundle, _ = widget._repr_mimebundle_()
    assert set(bundle) == {WIDGET_MIME, "text/html", "text/plain"}
    assert bundle["text/html"] == walkthrough_html(w, 2) and bundle["text/plain"] == walkthrough_text(w)
    script = str(StepperWidget._esm)  # the module's text
    assert "model.set(" not in script and "save_changes" not in script and "model.send(" not in script


def test_show_walkthrough_outside_a_kernel_draws_blocks_for_a_sudoku_view_only(shell):
    w = walkthrough()
    for view, thick in (("sudoku", True), ("generic", False)):
        puzzle = NotebookPuzzle(PuzzleSession("sudoku"), {}, view, 10)
        with capture_output() as captured:
            puzzle.show_walkthrough(w)
        (shown,) = captured.outputs
        assert shown.data["text/plain"] == walkthrough_text(w)
        assert shown.data["text/html"] == walkthrough_html(w, 2 if thick else None)
