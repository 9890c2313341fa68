"""Handing notebooks out: widget views that cannot be drawn go, static forms stay, and the stored
notebooks are ready as they are."""

from __future__ import annotations

import copy
import json
import signal

import nbformat
import pytest
from conftest import ROOT
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from kernelext.publish import handout
from kernelext.publish.handout import (
    KERNELSPEC,
    WIDGET_STATE,
    WIDGET_VIEW,
    drop_dead_widget_views,
    main,
    prepare,
)
from kernelext.publish.server import drop_dead_widget_views_before_save

ROOT = ROOT


def output(model_id: str, html: bool = True) -> dict:
    data = {WIDGET_VIEW: {"version_major": 2, "version_minor": 0, "model_id": model_id}, "text/plain": "grid"}
    if html:
        data["text/html"] = "<table></table>"
    return {"output_type": "display_data", "data": data, "metadata": {}}


def notebook(*outputs, saved=()) -> dict:
    metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}
    if saved:
        metadata["widgets"] = {
            WIDGET_STATE: {"state": {key: {} for key in saved}, "version_major": 2, "version_minor": 0}
        }
    cell = {
        "cell_type": "code",
        "execution_count": 1,
        "id": "a",
        "metadata": {},
        "source": "",
        "outputs": list(outputs),
    }
    return {"cells": [cell], "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def views(nb: dict) -> list[str]:
    return [o["data"][WIDGET_VIEW]["model_id"] for o in nb["cells"][0]["outputs"] if WIDGET_VIEW in o["data"]]


def test_views_without_saved_state_fall_back_to_their_static_form():
    nb = notebook(output("lost"), output("kept"), output("other", html=False), saved=["kept"])
    assert drop_dead_widget_views(nb) == 1
    assert views(nb) == ["kept", "other"]  # a saved view still draws; another library's widget is left alone
    assert nb["cells"][0]["outputs"][0]["data"] == {"text/plain": "grid", "text/html": "<table></table>"}


def test_the_pre_save_hook_cleans_what_the_front_end_saves():
    model = {"type": "notebook", "content": notebook(output("lost"), output("kept"), saved=["kept"])}
    drop_dead_widget_views_before_save(model=model, path="a.ipynb", contents_manager=None)
    assert views(model["content"]) == ["kept"]  # a view whose state is saved still draws when reopened
    assert model["content"]["cells"][0]["outputs"][0]["data"] == {"text/plain": "grid", "text/html": "<table></table>"}
    assert model["content"]["metadata"]["widgets"][WIDGET_STATE]["state"] == {"kept": {}}
    for other in ({"type": "file", "content": "not a notebook"}, {"type": "notebook", "content": None}):
        saved = copy.deepcopy(other)
        drop_dead_widget_views_before_save(model=saved, path="a.txt")
        assert saved == other  # what is not a notebook's content is saved as it came


def test_prepare_removes_every_view_and_the_widget_state_and_sets_the_kernelspec():
    nb = prepare(notebook(output("a"), output("b", html=False), saved=["a", "b"]))
    assert views(nb) == [] and "widgets" not in nb["metadata"]
    assert nb["metadata"]["kernelspec"] == KERNELSPEC
    assert [o["data"] for o in nb["cells"][0]["outputs"]] == [
        {"text/plain": "grid", "text/html": "<table></table>"},
        {"text/plain": "grid"},
    ]


def test_handout_command_writes_in_place_and_check_tells_what_is_not_ready(tmp_path, capsys):
    path = tmp_path / "step.ipynb"
    original = notebook(output("a"), output("b", html=False), saved=["a", "b"])
    original["cells"][0]["source"] = "%%puzzle+\nsatisfy(x[0] == 1)"
    path.write_text(json.dumps(original))
    assert main(["--check", str(path)]) == 1
    assert "kernelext-handout" in capsys.readouterr().err
    assert json.loads(path.read_text()) == original  # --check changes nothing
    assert main([str(path)]) == 0
    text = path.read_text()
    written = nbformat.reads(text, as_version=4)  # multi-line text joined again
    nbformat.validate(written)
    assert text == nbformat.writes(written) + "\n"  # as JupyterLab writes it: opening it there leaves it unmodified
    assert written["metadata"] == {"kernelspec": KERNELSPEC}  # the widget state gone
    [cell] = written["cells"]
    assert (cell["id"], cell["source"], cell["execution_count"]) == ("a", original["cells"][0]["source"], 1)
    assert cell["outputs"] == [  # each output keeps its static forms, in order, and nothing else changes
        {"output_type": "display_data", "data": {"text/plain": "grid", "text/html": "<table></table>"}, "metadata": {}},
        {"output_type": "display_data", "data": {"text/plain": "grid"}, "metadata": {}},
    ]
    before = path.read_text()
    assert main(["--check", str(path)]) == 0 and main([str(path)]) == 0 and path.read_text() == before


def test_another_kernels_notebook_keeps_its_kernelspec(tmp_path):
    path = tmp_path / "other.ipynb"
    other = notebook(output("a"))
    other["metadata"]["kernelspec"] = {"display_name": "Julia 1.10", "language": "julia", "name": "julia-1.10"}
    path.write_text(json.dumps(other))
    assert main([str(path)]) == 0
    assert json.loads(path.read_text())["metadata"] == {"kernelspec": other["metadata"]["kernelspec"]}


def test_execute_runs_the_notebook_then_keeps_only_what_shows_without_a_kernel(tmp_path, monkeypatch):
    path = tmp_path / "pairs.ipynb"
    (tmp_path / "size.txt").write_text("3")  # read from the notebook's folder
    nbformat.write(
        new_notebook(
            cells=[
                new_markdown_cell("Three values, all different."),
                new_code_cell("%load_ext kernelext\nfrom pycsp3 import *\nsize = int(open('size.txt').read())"),
                new_code_cell("print('size', size)"),
                new_code_cell("%%puzzle pairs\nq = VarArray(size=size, dom=range(size))"),
                new_code_cell("%%puzzle+\nsatisfy(AllDifferent(q))"),
            ]
        ),
        path,
    )
    executed, execute = [], handout.execute

    def recorded(*args):
        executed.append(execute(*args))
        return copy.deepcopy(executed[-1])

    monkeypatch.setattr(handout, "execute", recorded)
    assert main(["--execute", "--timeout", "120", str(path)]) == 0
    ran = [o for cell in executed[0]["cells"] for o in cell.get("outputs", ())]
    assert any(WIDGET_VIEW in o.get("data", {}) for o in ran)  # the kernel drew live grids, saved their state...
    assert WIDGET_STATE in executed[0]["metadata"]["widgets"]
    written = nbformat.read(path, as_version=4)
    assert written["metadata"]["kernelspec"] == KERNELSPEC and "widgets" not in written["metadata"]
    markdown, setup, printed, board, step = written["cells"]
    assert markdown["source"] == "Three values, all different." and setup["outputs"] == []
    assert [(o["output_type"], o["text"]) for o in printed["outputs"]] == [("stream", "size 3\n")]
    for cell in (board, step):  # ...the handout keeps their static forms only
        [grid] = [o for o in cell["outputs"] if o["output_type"] == "display_data"]
        assert set(grid["data"]) == {"text/html", "text/plain"} and "<table" in grid["data"]["text/html"]
    assert "status: SAT" in step["outputs"][-1]["data"]["text/plain"]
    assert main(["--check", str(path)]) == 0


def test_stored_notebooks_are_ready_to_hand_out():
    stored = sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("exercises/*/instructor.ipynb"))
    assert len(stored) >= 12
    assert main(["--check", *map(str, stored)]) == 0


@pytest.mark.timeout(180)
def test_execute_leaves_ctrl_c_as_it_found_it_even_ignored(tmp_path):
    path = tmp_path / "one.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell("1 + 1")]), path)
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as `nohup` or a background job starts a process
    try:
        handout.execute(path, 60)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
