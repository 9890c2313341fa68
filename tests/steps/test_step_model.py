"""CP-SAT reads a notebook's model from its parts, each posted item compiled once: the CP-SAT model is the
very one a reading of the whole XCSP3 file builds, step after step, after an edit and after an undo."""

from __future__ import annotations

import nbformat
import pytest
from conftest import ROOT

from kernelext.errors import StepError
from kernelext.pycsp3_glue import model_state
from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.solver.cpsat.reader import LARGE, read
from kernelext.solver.errors import BackendUnsupported
from kernelext.steps.session import PuzzleSession
from kernelext.steps.step_model import StepModel

NOTEBOOKS = ROOT / "notebooks"

SLIDES_AND_GROUPS = [
    "x = VarArray(size=[4, 4], dom=range(1, 5))\ny = VarArray(size=6, dom={0, 1})\n",
    "satisfy(AllDifferent(x[i]) for i in range(4))\n",
    "satisfy(x[i][j] != x[k][j] for j in range(4) for i in range(4) for k in range(i + 1, 4))\n",
    "satisfy(Slide(y[i] + y[i + 1] <= 1 for i in range(5)))\n",
    "satisfy(Slide(y[i] != y[(i + 1) % 6] for i in range(6)))\n",
    "satisfy(Sum(x[0]) == Sum(x[1]), (x[0][0], x[1][1]) in {(1, 2), (2, 1), (3, 4)})\n",
    "satisfy(y[0] == 1, x[3][3] >= 2)\n",
]


def holes() -> frozenset[str]:
    return frozenset(
        name + "".join(f"[{i}]" for i in index)
        for name, array in model_state.solution_cells().items()
        for index, vid in array
        if vid is None
    )


def reading(read_it) -> str:
    """The CP-SAT model `read_it()` gives, as text with its variables in order, or why it was refused."""
    try:
        with plain_operators():
            translated = read_it()
    except BackendUnsupported as refusal:
        return f"refused: {refusal}"
    return f"{list(translated.variables)}\n{translated.model.Proto()}"


def both_readings(session: PuzzleSession) -> tuple[str, str]:
    """The model read from the parts and read from the whole file."""
    return (
        reading(lambda: StepModel(session._parts, session.compile).cp_sat(holes())),
        reading(lambda: read(session.compile(), holes())),
    )


def test_parts_give_the_models_the_whole_file_gives_step_after_step_and_after_an_edit_and_an_undo():
    session = PuzzleSession("parts")
    for number, source in enumerate(SLIDES_AND_GROUPS):
        session.add_step(source, solve=False)
        if number:
            parts, whole = both_readings(session)
            assert parts == whole, source
            assert not parts.startswith("refused") or "1x4" in parts  # Sum(x[0]) == Sum(x[1]): coefficients 1x4
    session.add_step("satisfy(x[0][0] == 1)\n", key="edited", solve=False)
    session.add_step("satisfy(x[0][0] == 2)\n", key="edited", solve=False)  # replaces a step: read afresh
    assert both_readings(session)[0] == both_readings(session)[1]
    session.undo()
    parts, whole = both_readings(session)
    assert parts == whole
    session.close()


@pytest.mark.parametrize("name", ["futoshiki", "picross", "sudoku"])
def test_the_notebooks_models_read_from_parts_as_from_the_file(name, shell, monkeypatch):
    monkeypatch.chdir(NOTEBOOKS)
    compared = 0
    for cell in nbformat.read(NOTEBOOKS / f"{name}.ipynb", 4).cells:
        if cell.cell_type != "code":
            continue
        shell.run(cell.source)  # the notebook's own steps, edits and mistakes included
        session = shell.ip.magics_manager.registry["PuzzleMagics"].session
        if (
            cell.source.startswith("%%puzzle")
            and session is not None
            and session.anything_to_solve()
            and not model_state.has_objective()
        ):
            parts, whole = both_readings(session)
            assert parts == whole, cell.source
            compared += 1
    assert compared >= 3


def test_a_model_is_large_exactly_when_its_file_is(tmp_path):
    session = PuzzleSession("tables")
    session.add_step("x = VarArray(size=6, dom=range(1000))\n", solve=False)
    rows = 4_000  # about 100 kB a table
    for k in range(6):
        session.add_step(
            f"satisfy(x in [(i % 1000, i // 1000 + {k}, i * 7 % 1000, i * 13 % 1000, i * 17 % 1000, "
            f"i * 19 % 1000) for i in range({rows})])\n",
            solve=False,
        )
        size = session.compile().stat().st_size
        model = StepModel(session._parts, session.compile)
        with plain_operators():
            assert model.large() == (size > LARGE)
            assert model.cp_sat(frozenset()).variables
    assert size > LARGE  # the last model is over the limit
    session.close()


def test_each_constraint_is_owned_by_the_step_a_replay_finds_it_posted_by(tmp_path):
    """The session keeps the step that posted each item; the steps it gives each constraint are those a replay
    of the steps one by one finds: after each step, an objective, an edit, an undo, a failed step, and after
    another session built its own model. An item posted outside the steps is owned by none: no answer."""
    from kernelext.insight.subset_solves import rebuild

    def agree(session: PuzzleSession) -> None:
        kept = session.posted_by()
        replayed = rebuild(session, tmp_path / "step.xml")
        assert kept is not None
        assert kept[0].constraints == replayed[0].constraints
        assert kept[1:] == replayed[1:]

    session = PuzzleSession("owners")
    for source in SLIDES_AND_GROUPS:
        session.add_step(source, solve=False)
        if source.startswith("satisfy"):
            agree(session)
    session.add_step("maximize(Sum(y))\n", solve=False)
    session.add_step("satisfy(x[0][0] == 1)\n", key="edited", solve=False)
    agree(session)
    assert session.posted_by()[2] == len(SLIDES_AND_GROUPS) + 1  # the step of the objective
    session.add_step("satisfy(x[0][0] == 2, x[1][1] == 2)\n", key="edited", solve=False)  # replaced in place
    agree(session)
    session.undo()
    agree(session)
    with pytest.raises(StepError):
        session.add_step("satisfy(x[0][0] == 3)\nsatisfy(w[0] == 1)\n", solve=False)  # rolled back
    agree(session)
    other = PuzzleSession("other")
    other.add_step("z = VarArray(size=3, dom={0, 1})\nsatisfy(z[0] != z[1])\n", solve=False)
    agree(session)
    satisfy_outside = session.namespace["satisfy"]
    satisfy_outside(session.namespace["x"][2][2] == 3)  # pycsp3 used outside the session's steps
    assert session.posted_by() is None
    other.close()
    session.close()
