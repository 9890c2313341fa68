"""The one registry of the views `--view` names: puzzle kinds (grids) and pictures, built-in and installed."""

from __future__ import annotations

import types
import warnings

import pytest

from kernelext import plugins
from kernelext.kinds import KINDS
from kernelext.kinds import sudoku as built_in_sudoku
from kernelext.views import PICTURES


def installed(monkeypatch, family: plugins.Plugins, *entries) -> None:
    """Entry points of installed packages in `family`'s group (none in the other groups)."""
    monkeypatch.setattr(plugins, "entry_points", lambda group: list(entries) if group == family.group else [])


def entry(name: str, module=None, error: Exception | None = None):
    def load():
        if error is not None:
            raise error
        return module

    return types.SimpleNamespace(name=name, value=f"mycourse.{name.lower()}", load=load)


def picture(name: str, aliases: tuple[str, ...] = ()) -> types.ModuleType:
    module = types.ModuleType(name)
    module.SUMMARY, module.DATA_NAMES, module.ALIASES = name, (), aliases
    module.recognise = lambda model, data: False
    module.describe = lambda model, data, solution, previous: {}
    return module


def test_the_helpers_of_a_family_are_not_views():
    assert PICTURES.names() == ["gantt", "packing", "route", "graph"]
    for helper in ("reading", "shapes", "placement"):  # modules of kernelext.views that pictures use
        assert PICTURES.find(helper) is None
    assert KINDS.find("_rules") is None and "_cells" not in KINDS.names()
    assert "sudoku" in KINDS.names() and KINDS.find("SUDOKU") is built_in_sudoku


def test_installed_views_come_after_the_built_in_ones_and_never_replace_them(monkeypatch):
    flow, fake_sudoku = picture("flow", aliases=("network",)), picture("sudoku")
    installed(monkeypatch, KINDS, entry("Sudoku", fake_sudoku))
    assert KINDS.modules()["sudoku"] is built_in_sudoku and KINDS.find("sudoku") is built_in_sudoku
    installed(monkeypatch, PICTURES, entry("Flow", flow))
    assert list(PICTURES.modules()) == ["gantt", "packing", "route", "graph", "flow"]
    assert PICTURES.find("NETWORK") is flow and PICTURES.find("flow") is flow and PICTURES.find("pipes") is None
    assert plugins.choices(PICTURES.modules()).endswith("graph, flow (network)")


def test_a_broken_installed_view_is_named_and_left_out_but_never_loaded_for_its_name(monkeypatch):
    installed(monkeypatch, PICTURES, entry("Ghost", error=ImportError("no module named mycourse")), entry("Bare", 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert PICTURES.names() == ["gantt", "packing", "route", "graph", "bare", "ghost"]
    with pytest.warns(UserWarning) as said:
        assert list(PICTURES.modules()) == ["gantt", "packing", "route", "graph"]
    messages = sorted(str(w.message) for w in said)
    assert "The picture 'bare' (mycourse.bare) is not a picture module with recognise() and describe()" in messages[0]
    assert "The picture 'ghost' of an installed package could not be loaded (mycourse.ghost: ImportError" in messages[1]


def test_a_view_reads_only_the_plain_data_it_names():
    module = types.SimpleNamespace(DATA_NAMES=("rows", "cols", "grid", "missing"))
    namespace = {"rows": ((1, 2), (3,)), "cols": {1: [2]}, "grid": print, "unrelated": [1]}
    assert plugins.data_for(module, namespace) == {"rows": [[1, 2], [3]], "cols": {"1": [2]}}
