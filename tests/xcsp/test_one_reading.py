"""Every reader of a compiled model sees the same model: on each classroom notebook's model, the declarations,
the cut into single constraints (explanations, walkthroughs), the walkthrough's rules, the check every answer
passes and the CP-SAT reading find the same variables and the same constraints."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import nbformat
import pytest

from kernelext.pycsp3_glue import model_state
from kernelext.solver.compiled import holes_of
from kernelext.solver.cpsat.reader import read
from kernelext.solver.kit.reading import rule_of
from kernelext.solver.kit.search import read_rules
from kernelext.xcsp.check import Checker
from kernelext.xcsp.declarations import Declarations
from kernelext.xcsp.document import parse_file
from kernelext.xcsp.subsets import read_model

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

pytestmark = [pytest.mark.notebook, pytest.mark.timeout(600)]


def built_model(shell, notebook: Path, folder: Path) -> Path:
    """The notebook's model after its last step, built without solving (line commands left out)."""
    shell.ok(f"%cd {notebook.parent}")
    for cell in nbformat.read(notebook, as_version=4).cells:
        source = cell.source.strip()
        if cell.cell_type != "code" or (source.startswith("%puzzle") and not source.startswith("%%")):
            continue
        if source.startswith("%%puzzle"):
            first, _, rest = source.partition("\n")
            source = f"{first} --no-solve\n{rest}"
        shell.ok(source)
    session = shell.ip.magics_manager.registry["PuzzleMagics"].session
    return session.compile(folder / "model.xml")


def units(declarations: Declarations, element) -> list[frozenset[str]]:
    """The variables of each single constraint `element` stands for (an instantiation counts once per
    variable, as the cut into single constraints counts it)."""
    if element.tag in ("group", "slide", "block"):
        members = {
            "group": declarations.group_members,
            "slide": declarations.slide_members,
            "block": list,
        }[element.tag](element)
        return [unit for member in members for unit in units(declarations, member)]
    scope = declarations.scope(" ".join(part.text or "" for part in element.iter()))
    return [frozenset((v,)) for v in scope] if element.tag == "instantiation" else [frozenset(scope)]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.stem)
def test_every_reader_sees_the_same_variables_and_constraints(shell, notebook, tmp_path):
    path = built_model(shell, notebook, tmp_path)
    holes = holes_of(model_state.solution_cells())
    root = parse_file(path)
    declarations = Declarations(holes)
    declarations.declare(root.find("variables"))
    constraints = root.find("constraints")
    expected = Counter(
        unit for element in (constraints if constraints is not None else ()) for unit in units(declarations, element)
    )
    assert expected, f"{notebook.name} built no constraint"
    variables = set(declarations.domains) - holes

    cut = read_model(path)
    cut_units = Counter(unit for constraint in cut.constraints for unit in units(cut.declarations, constraint.element))
    assert cut_units == expected
    assert set(cut.declarations.domains) - holes == variables

    checker = Checker.of_file(path, holes)
    assert (
        Counter(
            unit
            for tag, scope in checker.constraints_read
            for unit in ([frozenset((v,)) for v in scope] if tag == "instantiation" else [frozenset(scope)])
        )
        == expected
    )
    assert set(read(path, holes).variables) == variables

    for constraint in cut.constraints:
        rule = rule_of(constraint, cut.declarations)
        assert rule is None or set(rule.scope) == set(constraint.scope), constraint.text
    assert set(read_rules(cut).start) <= variables
