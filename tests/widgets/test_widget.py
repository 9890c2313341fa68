"""The grid widget's Python side: its one state trait, its messages, its static forms and its exports."""

import re
import sys
from xml.etree import ElementTree

import comm
import pytest
import traitlets
from comm.base_comm import BaseComm
from sanitized_html import sanitizer_problems

import kernelext.magic.puzzle
import kernelext.magic.render
from kernelext.errors import PuzzleUsageError
from kernelext.grid import Grid
from kernelext.insight.findings import Culprit, Explanation
from kernelext.magic.render import ReportOutput, report_html, report_state, report_text
from kernelext.solver.result import SolveResult, Status
from kernelext.steps.session import StepReport
from kernelext.widgets.export import save_grid
from kernelext.widgets.grid_widget import WIDGET_MIME, GridWidget
from kernelext.widgets.static_forms import (
    explanation_html,
    explanation_text,
    grid_text,
    picture_html,
)
from kernelext.widgets.style import CONFLICT_MARK

N = 30
CLUES = {"rows": [[N // 2]] * N, "cols": [[N]] * (N // 2) + [[]] * (N - N // 2)}


class RecordingComm(BaseComm):
    """A comm that keeps what the kernel side sends to the front end."""

    kernel = "recording"

    def __init__(self, *args, sent, **kwargs):
        self.sent = sent
        super().__init__(*args, **kwargs)

    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
        self.sent.append((msg_type, data))


@pytest.fixture
def sent(monkeypatch):
    messages = []
    monkeypatch.setattr(comm, "create_comm", lambda *args, **kwargs: RecordingComm(*args, sent=messages, **kwargs))
    return messages


def picture(shift):
    return Grid("x", tuple(tuple(int((c + shift) % N < N // 2) for c in range(N)) for _ in range(N)))


def report(solutions=3):
    grids = tuple(picture(k) for k in range(solutions))
    result = SolveResult(Status.SAT, ({},) * solutions, time=0.42, backend="ace-warm")
    return StepReport(
        "nonogram", 3, posted=("regular(...)",), result=result, grid=grids[-1], all_grids=grids if solutions > 1 else ()
    )


def front_end_sets(widget, **state):
    """Deliver an update as the front end sends it when the user clicks."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}}, "buffers": []})


def front_end_sends(widget, content):
    """Deliver a custom message as the front end's `model.send(content)` does."""
    widget._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def unsat_report():
    return StepReport(
        "futoshiki",
        3,
        posted=("eq(F[0][2],2)",),
        result=SolveResult(Status.UNSAT, ()),
        grid=Grid("F", ((None,) * 3,) * 3),
    )


def explanation():
    culprits = (
        Culprit("lt(F[0][1],F[0][2])", 2, ("F[0][1]", "F[0][2]"), ((0, 1), (0, 2))),
        Culprit("eq(F[0][2],2)", 3, ("F[0][2]",), ((0, 2),)),
    )
    grid = Grid("F", ((None,) * 3,) * 3, changed=frozenset({(0, 1), (0, 2)}))
    return Explanation("futoshiki", (2, 3), culprits, True, grid)


@pytest.fixture
def live(monkeypatch, sent):
    """ReportOutputs draw their widget, as in a kernel."""
    monkeypatch.setattr(kernelext.magic.render, "in_kernel", lambda: True)
    return sent


def test_one_comm_opens_per_grid_and_one_trait_holds_the_description(sent):
    state = report_state(report(), "nonogram", CLUES)
    GridWidget(description=state)
    opens = [data for kind, data in sent if kind == "comm_open"]
    assert len(opens) == 1  # no layout widget, no widget per cell
    synced = opens[0]["state"]["description"]
    assert {key: value for key, value in synced.items() if key not in ("pictures", "chart")} == state
    assert synced["pictures"] == [picture_html(grid) for grid in state["grids"]]  # the tables the front end inserts
    assert synced["chart"] == ""  # no bound
    assert opens[0]["state"]["layout"] is None and opens[0]["state"]["index"] == 0
    assert len(synced["grids"][0]["cells"]) == N


def test_browsing_solutions_is_one_message_each(sent):
    widget = GridWidget(description=report_state(report(), "nonogram", CLUES))
    sent.clear()
    front_end_sets(widget, index=2)
    assert widget.index == 2 and sent == []  # the click itself is the only message, nothing echoes back
    widget.index = 1
    assert sent == [("comm_msg", {"method": "update", "state": {"index": 1}, "buffer_paths": []})]


def test_index_stays_within_the_solutions(sent):
    widget = GridWidget(description=report_state(report(), "nonogram", CLUES))
    widget.index = 7
    assert widget.index == 2
    widget.index = -1
    assert widget.index == 0


def test_description_without_its_parts_is_refused(sent):
    with pytest.raises(traitlets.TraitError, match="grids"):
        GridWidget(description={"title": "t", "lines": []})


def test_mimebundle_holds_the_widget_and_static_fallbacks(sent):
    state = report_state(report(), "nonogram", CLUES)
    data, _ = GridWidget(description=state)._repr_mimebundle_()
    other, _ = GridWidget(description=state)._repr_mimebundle_()
    assert data[WIDGET_MIME]["model_id"] != other[WIDGET_MIME]["model_id"]
    assert data["text/html"] == other["text/html"] and data["text/plain"] == other["text/plain"]
    assert sanitizer_problems(data["text/html"]) == [] and "<table" in data["text/html"]
    assert data["text/html"].count("<table") == 3  # the first three solutions, one table each
    assert "solved in" not in data["text/html"] + data["text/plain"]  # timings only live
    assert "solution 1 of 3" in data["text/plain"] and "■" in data["text/plain"]


def test_report_output_outside_a_kernel_is_static():
    step = report(solutions=1)
    bundle = ReportOutput(step, "nonogram", CLUES)._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"] == report_text(step, "nonogram", CLUES)
    assert bundle["text/html"] == report_html(step, "nonogram", CLUES)
    assert "posted:\n  regular(...)\nstatus: SAT" in bundle["text/plain"]


def test_optimisation_shows_its_bound_per_solution_as_bars():
    result = SolveResult(Status.OPTIMUM, ({},), bound=20, progress=((0.31, 31), (0.52, 24), (0.9, 20)))
    step = StepReport("amaze", 4, objective="minimize(Sum(x))", result=result, grid=picture(0))
    first, second = report_html(step, "numberlink"), report_html(step, "numberlink")
    assert first == second and sanitizer_problems(first) == []
    assert "bound per solution: 31 → 20 over 3 solutions" in first
    assert [int(h) for h in re.findall(r'<div style="width:8px;height:(\d+)px', first)] == [50, 22, 6]
    assert "status: OPTIMUM (bound 20)" in report_text(step, "numberlink")


def test_save_grid_writes_png_and_stable_svg(tmp_path):
    description = report_state(report(solutions=1), "nonogram", CLUES)["grids"][0]
    assert save_grid(description, tmp_path / "grid.png").read_bytes()[:4] == b"\x89PNG"
    svg = save_grid(description, tmp_path / "a.svg").read_bytes()
    assert svg == save_grid(description, tmp_path / "b.svg").read_bytes()


def test_an_svg_is_drawn_without_matplotlib_and_a_png_then_says_to_save_an_svg(tmp_path, monkeypatch):
    description = {
        "kind": "futoshiki",
        "name": "tiny",
        "legend": "",
        "cells": [
            [{"text": "1", "classes": ["given"], "borders": "tl", "corner": "3"}, {"text": "2", "cage": "trb"}],
            [{"text": "*", "classes": ["free"]}, {"text": "", "classes": ["hole"]}],
            [{"text": "2", "classes": ["conflict"]}, {"text": "1", "classes": ["solved", "changed"], "fill": "#eee"}],
        ],
        "signs": [{"cells": [[0, 0], [0, 1]], "text": "<"}, {"cells": [[1, 0], [2, 0]], "text": "v"}],
        "row_clues": [[1], [], [1, 1]],
        "col_clues": [[2], [1]],
    }
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as in the browser's kit
    path = save_grid(description, tmp_path / "grid.svg")
    svg = ElementTree.parse(path).getroot()
    texts = sorted(t.text for t in svg.iter("{http://www.w3.org/2000/svg}text"))
    assert texts == sorted(["1", "2", "*", "2", "1", "3", "<", "\u2228", "1", "1 1", "2", "1", CONFLICT_MARK])
    assert svg.find("{http://www.w3.org/2000/svg}title").text.endswith(": 3 x 2")
    assert svg.find("{http://www.w3.org/2000/svg}desc").text == grid_text(description)  # what a screen reader reads
    assert path.read_text() == save_grid(description, tmp_path / "again.svg").read_text()
    with pytest.raises(PuzzleUsageError, match=r"save grid\.svg instead"):
        save_grid(description, tmp_path / "grid.png")


def test_explain_button_only_for_unsat_steps_given_a_way_to_explain(live):
    def shown(step, **options):
        output = ReportOutput(step, **options)
        bundle, _ = output._repr_mimebundle_()
        return output.widget.explainable, {k: v for k, v in bundle.items() if k != WIDGET_MIME}

    assert shown(unsat_report(), on_explain=explanation)[0]
    assert not shown(unsat_report())[0]
    assert not shown(report(solutions=1), on_explain=explanation)[0]
    assert shown(unsat_report(), on_explain=explanation)[1] == shown(unsat_report())[1]  # static forms unchanged


def test_explain_message_fills_the_explanation_in_one_update(live):
    output = ReportOutput(unsat_report(), on_explain=explanation)
    output._repr_mimebundle_()
    widget = output.widget
    assert widget.explanation == {}
    live.clear()
    front_end_sends(widget, {"event": "explain"})
    assert [kind for kind, _ in live] == ["comm_msg"]
    assert live[0][1]["state"] == {"explanation": widget.explanation}
    assert widget.explanation["lines"] == explanation_text(explanation()).splitlines()
    assert (
        widget.explanation["html"] == explanation_html(explanation(), "generic", {})
        and "<table" in widget.explanation["html"]
    )


def test_explain_failure_shows_its_message(live):
    def refuse():
        raise PuzzleUsageError("explain looks for a conflict, but the model has solutions.")

    output = ReportOutput(unsat_report(), on_explain=refuse)
    output._repr_mimebundle_()
    front_end_sends(output.widget, {"event": "explain"})
    assert output.widget.explanation == {
        "lines": ["explain looks for a conflict, but the model has solutions."],
        "html": "",
    }


def test_pencil_marks_reach_the_widget_in_one_update_and_toggle_in_the_browser(live):
    output = ReportOutput(report(solutions=1), "nonogram", CLUES)
    static, _ = output._repr_mimebundle_()
    assert output.widget.pencil == ""  # no toggle
    live.clear()
    output.pencil = "<table><caption>x: 9 values left after propagation</caption></table>"
    assert live == [("comm_msg", {"method": "update", "state": {"pencil": output.pencil}, "buffer_paths": []})]
    early = ReportOutput(report(solutions=1), "nonogram", CLUES)
    early.pencil = output.pencil
    bundle, _ = early._repr_mimebundle_()
    assert early.widget.pencil == output.pencil
    assert (bundle["text/plain"], bundle["text/html"]) == (static["text/plain"], static["text/html"])


def test_magics_wire_the_explain_button_and_the_pencil_toggle(shell, live, monkeypatch):
    shown = []
    monkeypatch.setattr(kernelext.magic.puzzle, "display", lambda obj, **kwargs: shown.append(obj))
    shell.ok("%%puzzle futoshiki\nF = VarArray(size=[3, 3], dom=range(1, 4))\n")
    shell.ok("%%puzzle+\nsatisfy([AllDifferent(r) for r in F], [AllDifferent(c) for c in columns(F)])\n")
    shell.ok("%%puzzle+\nsatisfy(F[0][0] < F[0][1], F[0][1] < F[0][2])\n")
    shown.clear()
    shell.ok("%%puzzle+ --domains\nsatisfy(F[0][2] == 2)\n")
    output, marks = shown
    assert isinstance(output, ReportOutput) and set(marks) == {"text/plain", "text/html"}
    output._repr_mimebundle_()
    widget = output.widget
    assert widget.explainable and widget.pencil == marks["text/html"]
    front_end_sends(widget, {"event": "explain"})
    lines = widget.explanation["lines"]
    assert "futoshiki: no solution" in lines[0] and any("eq(F[0][2],2)" in line for line in lines)
    assert "<table" in widget.explanation["html"]
    shell.ok("%puzzle undo")
    widget.explanation = {}
    front_end_sends(widget, {"event": "explain"})
    assert widget.explanation["lines"] == ["The puzzle has changed since this grid was shown: run `%puzzle explain`."]
