"""Handing notebooks out: widget views that cannot be drawn go, static forms stay, and the stored
notebooks are ready as they are."""

from __future__ import annotations

import copy
import json

from conftest import ROOT

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
        metadata["widgets"] = {WIDGET_STATE: {"state": {key: {} for key in saved}, "version_major": 2,
                                              "version_minor": 0}}
    cell = {"cell_type": "code", "execution_count": 1, "id": "a", "metadata": {}, "source": "", "outputs": list(outputs)}
    return {"cells": [cell], "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def views(nb: dict) -> list[str]:
    return [o["data"][WIDGET_VIEW]["model_id"] for o in nb["cells"][0]["outputs"] if WIDGET_VIEW in o["data"]]


def test_views_without_saved_state_fall_back_to_their_static_form():
    nb = notebook(output("lost"), output("kept"), output("other", html=False), saved=["kept"])
    assert drop_dead_widget_views(nb) == 1
    assert views(nb) == ["kept", "other"]  # a saved view still draws; another library's widget is left alone
    assert nb["cells"][0]["outputs"][0]["data"] == {"text/plain": "grid", "text/html": "<table></table>"}


def test_the_pre_save_hook_cleans_what_the_front_end_saves():
    model = {"type": "notebook", "content": notebook(output("lost"))}
    drop_dead_widget_views_before_save(model=model, path="a.ipynb", contents_manager=None)
    assert views(model["content"]) == []
    text = {"type": "file", "content": "not a notebook"}
    drop_dead_widget_views_before_save(model=copy.deepcopy(text), path="a.txt")


def test_prepare_removes_every_view_and_the_widget_state_and_sets_the_kernelspec():
    nb = prepare(notebook(output("a"), output("b", html=False), saved=["a", "b"]))
    assert views(nb) == [] and "widgets" not in nb["metadata"]
    assert nb["metadata"]["kernelspec"] == KERNELSPEC
    assert [o["data"] for o in nb["cells"][0]["outputs"]] == [{"text/plain": "grid", "text/html": "<table></table>"},
                                                              {"text/plain": "grid"}]


def test_handout_command_writes_in_place_and_check_tells_what_is_not_ready(tmp_path, capsys):
    path = tmp_path / "step.ipynb"
    path.write_text(json.dumps(notebook(output("a"), saved=["a"])))
    assert main(["--check", str(path)]) == 1
    assert "kernelext-handout" in capsys.readouterr().err
    assert main([str(path)]) == 0
    assert views(json.loads(path.read_text())) == []
    before = path.read_text()
    assert main(["--check", str(path)]) == 0 and main([str(path)]) == 0 and path.read_text() == before


def test_stored_notebooks_are_ready_to_hand_out():
    stored = sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("exercises/*/instructor.ipynb"))
    assert len(stored) >= 12
    assert main(["--check", *map(str, stored)]) == 0
