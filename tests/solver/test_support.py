"""The support table the solvers' page shows: a row for every object of the typed model, each cell from the
reader itself, and no form a solver reads that the check every answer passes cannot read."""

from __future__ import annotations

import typing

import pytest

from kernelext.errors import Untranslatable
from kernelext.solver.support import FORMS, READERS, VARIABLES, support_rows
from kernelext.xcsp import constraints
from kernelext.xcsp.declarations import Declarations
from kernelext.xcsp.document import parse_text

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def rows():
    return {name: dict(zip(READERS, cells)) for name, *cells, _ in support_rows()}


def test_every_object_of_the_typed_model_has_a_row():
    declarations = Declarations()
    declarations.declare(parse_text(f"<variables>{VARIABLES}</variables>"))
    read = set()
    for _, form in FORMS:
        try:
            found = constraints.read(parse_text(form), declarations)
        except Untranslatable:  # a form refused by every reader
            continue
        read.add(type(found))
    assert read - {type(None)} == set(typing.get_args(constraints.Constraint))


def test_the_check_reads_every_form_a_solver_reads(rows):
    for name, found in rows.items():
        solved = [reader for reader in ("cp-sat", "minizinc") if found[reader] == "yes"]
        if found["kit"] == "yes":
            solved.append("kit")
        assert not solved or found["checker"] == "yes", (name, found)


def test_each_cell_says_yes_or_gives_its_reason_in_one_line(rows):
    assert len(rows) == len(FORMS)
    for name, found in rows.items():
        for reader, verdict in found.items():
            assert verdict and "\n" not in verdict and len(verdict) < 120, (name, reader, verdict)
    assert rows["allDifferent"] == dict.fromkeys(READERS, "yes")
    assert rows["minimum with an index"]["cp-sat"] == "<minimum> with an index"
    assert rows["a constraint reified by a variable"]["checker"] == "<intension> with reifiedBy"


def test_the_solvers_known_wrong_on_a_form_are_named_in_its_rows():
    wrong = {name: known for name, *_, known in support_rows()}
    assert wrong["nValues"] == "ace, ace-cold" and wrong["circuit"] == "ortools" and wrong["binPacking"] == "choco"
    assert wrong["allDifferent of a matrix with except"] == "choco"
    assert wrong["allDifferent"] == wrong["allDifferent of a matrix"] == wrong["allDifferent with except"] == ""
