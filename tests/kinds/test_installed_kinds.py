"""A kind from another package: a wheel installed with pip adds it through the `kernelext.kinds` entry points,
and `--view`, detection, the registry and the grader take it like a built-in kind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

KIND = '''"""Tiles: each cell shows its value as a coloured tile."""

DATA_NAMES = ("tiles", "tile_rows")
ALIASES = ("mosaic",)


def describe(grid, data):
    rows = [[{"text": "*" if v is None else "#" * v} for v in row] for row in grid.values]
    return {"kind": "tiles", "name": grid.name, "legend": "tiles: # per unit", "cells": rows}


def recognise(grid, data):
    return "tiles" in data


def check_tiles(answer, data, expected):
    return "" if all(sum(row) == data["tiles"] for row in answer) else "a row has the wrong number of tiles"


ANSWER_CHECKS = {"tiles": check_tiles}
'''
RUN = r"""
import json, sys, warnings
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from kernelext.kinds import answer_checks, detect_kind, kind_for, kinds, kind_choices
from kernelext.grading.format.exercise import load_exercise

import tiles_kind
assert "tiles" in kinds() and kind_for("Mosaic") is tiles_kind is kind_for("tiles"), kinds()
assert "tiles (mosaic)" in kind_choices()
assert detect_kind("my puzzle", None, {"tiles": 2}) == "tiles"
assert detect_kind("a mosaic") == "tiles" and detect_kind("sudoku 4") == "sudoku"
assert answer_checks()["tiles"]([[1, 1], [2, 0]], {"tiles": 2}, {}) == ""
from types import SimpleNamespace
from kernelext.grading.judging.by_reference import answer_check
check = answer_check(load_exercise(sys.argv[1]))
instance = SimpleNamespace(data={"tiles": 2}, expected={})
assert check([[[1, 1], [2, 0]]], instance, 1) == "" and "wrong number" in check([[[1, 0], [2, 0]]], instance, 1)
ip = InteractiveShell.instance()
ip.run_cell("%load_ext kernelext")
ip.run_cell("from pycsp3 import *")
with capture_output() as shown:
    result = ip.run_cell("%%puzzle floor --view mosaic\ntiles = 2\nx = VarArray(size=[2, 2], dom=range(3))\n"
                         "satisfy(Sum(x[i]) == tiles for i in range(2))")
assert result.error_in_exec is None, shown.stdout
print(json.dumps([o.data.get("text/plain", "") for o in shown.outputs]))
"""


def wheel(folder: Path, entry_points: str = "tiles = tiles_kind\n") -> Path:
    """A wheel of the package `tiles_kind`, declaring `entry_points` in the `kernelext.kinds` group."""
    path = folder / "tiles_kind-0.1-py3-none-any.whl"
    files = {
        "tiles_kind/__init__.py": KIND,
        "tiles_kind-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: tiles-kind\nVersion: 0.1\n",
        "tiles_kind-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
        "tiles_kind-0.1.dist-info/entry_points.txt": f"[kernelext.kinds]\n{entry_points}",
    }
    files["tiles_kind-0.1.dist-info/RECORD"] = "".join(
        f"{name},,\n" for name in [*files, "tiles_kind-0.1.dist-info/RECORD"]
    )
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return path


def test_an_installed_package_adds_a_kind_that_views_detection_and_grading_use(tmp_path):
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-index",
            "--no-deps",
            "--target",
            str(target),
            str(wheel(tmp_path)),
        ],
        check=True,
        timeout=300,
    )
    exercise = tmp_path / "tiles"
    exercise.mkdir()
    (exercise / "exercise.json").write_text(json.dumps({"answer": "x", "checker": "tiles"}))
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(exercise)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    shown = "\n".join(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "tiles: # per unit" in shown and "##" in shown, shown


def test_a_broken_installed_kind_is_left_out_with_a_warning(tmp_path):
    target = tmp_path / "site"
    broken = tmp_path / "broken"
    broken.mkdir()
    path = wheel(broken, "tiles = tiles_kind\nghost = tiles_kind.ghost\n")  # a module that is not there
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--target", str(target), str(path)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    code = (
        "import warnings\nwarnings.simplefilter('always')\nfrom kernelext.kinds import kinds, kind_for\n"
        "print(sorted(kinds()))\nprint(kind_for('sudoku').__name__)\nprint(kind_for('tiles').__name__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(target)},
    )
    assert done.returncode == 0, done.stderr
    assert "kernelext.kinds.sudoku\ntiles_kind" in done.stdout
    assert "The puzzle kind 'ghost' of an installed package could not be loaded" in done.stderr
