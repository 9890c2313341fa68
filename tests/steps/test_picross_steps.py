"""The picross walkthrough (notebooks/picross.ipynb), driven through the Python API with the notebook's own steps.

For each of the six puzzles: either viewpoint alone leaves the picture undetermined or unfinished, and the
full model (both viewpoints and the channelling constraint) draws the one picture that fits the clues.
"""

from __future__ import annotations

import json
import re

import nbformat
import pytest
from conftest import ROOT

from kernelext.steps.session import PuzzleSession

NOTEBOOKS = ROOT / "notebooks"
PUZZLES = json.loads((NOTEBOOKS / "data" / "picross.json").read_text())


def _notebook_steps() -> tuple[dict[str, str], dict[str, str]]:
    """The notebook's step sources: {step key: source} for the walkthrough, {puzzle: board source} for every puzzle."""
    notebook = nbformat.read(NOTEBOOKS / "picross.ipynb", as_version=4)
    steps, boards = {}, {}
    for cell in notebook.cells:
        if cell.cell_type != "code" or not cell.source.startswith("%%puzzle"):
            continue
        magic, _, source = cell.source.partition("\n")
        key = re.search(r"--step\s+(\S+)", magic)
        assert key, f"every picross step has a --step key: {magic}"
        steps.setdefault(key.group(1), source)
        if key.group(1) == "board":
            boards[re.search(r'name = "(\w+)"', source).group(1)] = source
    return steps, boards


STEPS, BOARDS = _notebook_steps()


def runs(line) -> list[int]:
    """The lengths of the blocks of 1s in a line, left to right."""
    return [len(block) for block in "".join("1" if v else "0" for v in line).split("0") if block]


def fits_clues(values, clues) -> bool:
    """Pure Python: does a complete 0/1 picture match the row and column clues?"""
    if any(v is None for row in values for v in row):
        return False
    columns = list(zip(*values))
    return [runs(row) for row in values] == [list(c) for c in clues["rows"]] and [runs(col) for col in columns] == [
        list(c) for c in clues["columns"]
    ]


@pytest.fixture(scope="module")
def solver():
    from kernelext.solver.engine import Solver

    shared = Solver()
    yield shared
    shared.close()


def pictures(solver, name: str, keys: list[str], sols: int = 1):
    """Run the notebook's steps `keys` on puzzle `name`; return the drawings of `x` (one per solution found,
    up to `sols`; the empty drawing when there is none) and the last result."""
    session = PuzzleSession("picross", solver=solver)
    session.namespace["puzzles"] = PUZZLES
    try:
        for key in keys:  # solve once, after the last step
            report = session.add_step(BOARDS[name] if key == "board" else STEPS[key], solve=key == keys[-1], sols=sols)
        session.set_show("x")
        drawn = [session.grid(report.result, k).values for k in range(len(report.result.solutions))]
        return drawn or [session.grid(report.result).values], report.result
    finally:
        session.close()


def picture(solver, name: str, keys: list[str], sols: int = 1):
    """The drawing of `x` for the last solution found, and the last result."""
    drawn, result = pictures(solver, name, keys, sols)
    return drawn[-1], result


def test_notebook_walks_through_every_puzzle():
    assert set(BOARDS) == set(PUZZLES)
    assert list(STEPS) == ["board", "blocks", "cells", "link"]


@pytest.mark.parametrize("name", list(PUZZLES))
def test_cells_viewpoint_alone_does_not_pin_the_picture_down(solver, name):
    drawn, _ = pictures(solver, name, ["board", "cells"], sols=2)
    assert len(drawn) == 2 and all(v is not None for values in drawn for row in values for v in row)
    assert not all(fits_clues(values, PUZZLES[name]) for values in drawn)  # the sums let a wrong picture through


@pytest.mark.parametrize("name", list(PUZZLES))
def test_blocks_viewpoint_alone_leaves_the_picture_unfinished(solver, name):
    values, _ = picture(solver, name, ["board", "blocks"])
    assert all(v is None for row in values for v in row)


@pytest.mark.parametrize("name", list(PUZZLES))
def test_both_viewpoints_without_channelling_still_let_a_wrong_picture_through(solver, name):
    drawn, _ = pictures(solver, name, ["board", "blocks", "cells"], sols=2)
    assert len(drawn) == 2 and not all(fits_clues(values, PUZZLES[name]) for values in drawn)


@pytest.mark.parametrize("name", list(PUZZLES))
def test_channelling_draws_the_unique_picture(solver, name):
    values, result = picture(solver, name, ["board", "blocks", "cells", "link"], sols=2)
    assert len(result.solutions) == 1, "the clues have exactly one picture"
    assert fits_clues(values, PUZZLES[name])


def test_clue_checker_knows_a_picture():
    moon = PUZZLES["moon"]
    picture_ = [[0, 0, 1, 1, 0], [0, 0, 0, 1, 1], [1, 0, 0, 1, 1], [1, 1, 1, 1, 1], [0, 1, 1, 1, 0]]
    assert fits_clues(picture_, moon)
    assert not fits_clues([row[::-1] for row in picture_], moon)
