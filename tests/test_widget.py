"""The grid widget's Python side: its one state trait, its messages, its static forms and its exports."""

import comm
import pytest
import traitlets
from comm.base_comm import BaseComm

from kernelext.grid import Grid
from kernelext.render import ReportOutput, report_html, report_state, report_text
from kernelext.session import StepReport
from kernelext.solver.result import SolveResult, Status
from kernelext.widgets.export import save_grid
from kernelext.widgets.grid_widget import WIDGET_MIME, GridWidget

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
    return StepReport("nonogram", 3, posted=("regular(...)",), result=result, grid=grids[-1],
                      all_grids=grids if solutions > 1 else ())


def front_end_sets(widget, **state):
    """Deliver an update as the front end sends it when the user clicks."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
                        "buffers": []})


def test_one_comm_opens_per_grid_and_one_trait_holds_the_description(sent):
    state = report_state(report(), "nonogram", CLUES)
    widget = GridWidget(description=state)
    opens = [data for kind, data in sent if kind == "comm_open"]
    assert len(opens) == 1  # no layout widget, no widget per cell
    synced = opens[0]["state"]
    assert synced["description"] == widget.description
    assert [g["cells"] for g in synced["description"]["grids"]] == [g["cells"] for g in state["grids"]]
    assert synced["layout"] is None and synced["index"] == 0
    assert len(synced["description"]["grids"][0]["cells"]) == N


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
    assert "<script" not in data["text/html"] and "<svg" in data["text/html"]
    assert "solved in" not in data["text/html"] + data["text/plain"]  # timings only live
    assert "solution 1 of 3" in data["text/plain"] and "■" in data["text/plain"]


def test_report_output_outside_a_kernel_is_static():
    step = report(solutions=1)
    bundle = ReportOutput(step, "nonogram", CLUES)._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"] == report_text(step, "nonogram", CLUES)
    assert bundle["text/html"] == report_html(step, "nonogram", CLUES)
    assert "posted:\n  regular(...)\nstatus: SAT" in bundle["text/plain"]


def test_optimisation_shows_a_deterministic_bound_plot():
    result = SolveResult(Status.OPTIMUM, ({},), bound=20, progress=((0.31, 31), (0.52, 24), (0.9, 20)))
    step = StepReport("amaze", 4, objective="minimize(Sum(x))", result=result, grid=picture(0))
    first, second = report_html(step, "numberlink"), report_html(step, "numberlink")
    assert "data:image/png;base64," in first and first == second
    assert "status: OPTIMUM (bound 20)" in report_text(step, "numberlink")


def test_save_grid_writes_png_and_stable_svg(tmp_path):
    description = report_state(report(solutions=1), "nonogram", CLUES)["grids"][0]
    assert save_grid(description, tmp_path / "grid.png").read_bytes()[:4] == b"\x89PNG"
    svg = save_grid(description, tmp_path / "a.svg").read_bytes()
    assert svg == save_grid(description, tmp_path / "b.svg").read_bytes()
