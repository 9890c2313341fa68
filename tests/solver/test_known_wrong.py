"""A solver is never given a form of constraint it is known to answer wrongly on, and only that form."""

import pytest

from kernelext.solver.backends import BACKENDS
from kernelext.solver.backends.base import Form, known_wrong
from kernelext.solver.errors import BackendUnsupported
from kernelext.steps.session import PuzzleSession

pytestmark = pytest.mark.timeout(120)

MATRIX = '<array id="m" size="[2][2]"> 0..2 </array>'


def _model(tmp_path, constraints: str):
    path = tmp_path / "model.xml"
    path.write_text(
        f'<instance format="XCSP3" type="CSP"><variables>{MATRIX}</variables>'
        f"<constraints>{constraints}</constraints></instance>\n"
    )
    return path


@pytest.mark.parametrize(
    "constraints",
    [
        "<allDifferent><matrix> m[][] </matrix><except> 0 </except></allDifferent>",
        "<block><allDifferent><matrix> m[][] </matrix><except> 0 </except></allDifferent></block>",
        "<group><allDifferent><matrix> %0 </matrix><except> 0 </except></allDifferent><args> m[][] </args></group>",
    ],
    ids=["alone", "in a block", "a group's template"],
)
def test_a_form_is_found_wherever_the_model_holds_it(tmp_path, constraints):
    form = known_wrong(_model(tmp_path, constraints), BACKENDS["choco"].known_wrong)
    assert form == Form("allDifferent", ("matrix", "except"))
    assert str(form) == "<allDifferent> with <matrix> and <except>"


@pytest.mark.parametrize(
    "constraints",
    [
        "<allDifferent><matrix> m[][] </matrix></allDifferent>",
        "<allDifferent><list> m[][] </list><except> 0 </except></allDifferent>",
        "<allDifferent> m[][] </allDifferent>",
    ],
    ids=["matrix", "except", "plain"],
)
def test_the_other_forms_of_the_tag_are_not_refused(tmp_path, constraints):
    assert known_wrong(_model(tmp_path, constraints), BACKENDS["choco"].known_wrong) is None


def test_a_tag_known_wrong_in_every_form_is_found_by_its_name(tmp_path):
    path = _model(tmp_path, "<circuit> m[0][0] m[0][1] m[1][0] m[1][1] </circuit>")
    assert str(known_wrong(path, BACKENDS["ortools"].known_wrong)) == "<circuit>"
    assert known_wrong(path, BACKENDS["choco"].known_wrong) is None
    assert known_wrong(path, BACKENDS["cp-sat"].known_wrong) is None


def test_choco_refuses_a_matrix_all_different_with_except_in_one_line_naming_it(solver):
    session = PuzzleSession("known wrong", solver=solver)
    try:
        session.add_step("x = VarArray(size=[2, 2], dom=range(3))", solve=False)
        session.add_step("satisfy(AllDifferent(x, matrix=True, excepting=0))", solve=False)
        with pytest.raises(BackendUnsupported) as refused:
            session.solve(backend="choco", timeout=30)
    finally:
        session.close()
    assert str(refused.value) == (
        "choco is known to answer wrong on <allDifferent> with <matrix> and <except>: use --solver cp-sat or minizinc"
    )


def test_each_backend_says_whether_it_runs_here_and_how_long_auto_waits_for_it():
    assert BACKENDS["ace"].runs_here(lambda: False) is False and BACKENDS["ace"].runs_here(lambda: True)
    assert BACKENDS["cp-sat"].runs_here(lambda: False) and BACKENDS["kit"].runs_here(lambda: False)
    assert BACKENDS["minizinc"].runs_here(lambda: False)  # Debian's minizinc is installed here
    assert all(backend.budget() == float("inf") for backend in BACKENDS.values())  # outside a browser
    assert BACKENDS["ace"].known_wrong == BACKENDS["ace-cold"].known_wrong  # one ACE, two ways to run it
