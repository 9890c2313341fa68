"""Reading XCSP3 text, as every reader of compiled models shares it: expressions, value lists and tables,
declarations with compact lists and holes, groups and slides filled in, a model cut into single constraints."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelext.errors import KernelextError, Untranslatable
from kernelext.xcsp.constraints import read_each
from kernelext.xcsp.declarations import Declarations
from kernelext.xcsp.expressions import parse_expression
from kernelext.xcsp.subsets import read_model
from kernelext.xcsp.values import condition, expand_rows, intervals, tuples, values

MODEL = """<instance format="XCSP3" type="CSP">
  <variables>
    <array id="x" size="[2][3]"> 1..3 </array>
    <var id="y"> 0 2 4..6 </var>
  </variables>
  <constraints>
    <allDifferent> x[0][] </allDifferent>
    <group>
      <intension> eq(%0,%1) </intension>
      <args> x[0][0] x[1][0] </args>
      <args> x[0][1] x[1][1] </args>
    </group>
    <slide>
      <list> x[1][] </list>
      <intension> lt(%0,%1) </intension>
    </slide>
    <extension>
      <list> x[1][2] y </list>
      <supports> (3,*)(1,4) </supports>
    </extension>
  </constraints>
</instance>"""


def test_expressions_read_as_nested_tuples_with_numbers_as_ints():
    assert parse_expression("eq(x[0],add(y,1))") == ("eq", ("x[0]", ("add", ("y", 1))))
    assert parse_expression("ne(a,-3)") == ("ne", ("a", -3))


def test_value_lists_tables_and_conditions():
    assert intervals("1 3 5..9 4") == ((1, 1), (3, 9))  # sorted and merged
    assert values("0x3 2 5") == [0, 0, 0, 2, 5]  # XCSP3's compact repetition
    assert tuples("(1,2)(3,*)", 2) == [(1, 2), (3, "*")]
    assert expand_rows([(3, "*")], [((3, 3),), ((1, 2),)]) == [(3, 1), (3, 2)]
    assert condition("(le,5)") == ("le", "5")


SPACES = st.sampled_from(["", " ", "\n", "  \t"])


@st.composite
def written_tables(draw) -> tuple[str, int, list[tuple]]:
    """A table's text as a file may space it, its width and its tuples."""
    width = draw(st.integers(1, 4))
    value = st.one_of(st.integers(-(10**12), 10**12), st.just("*"))
    rows = draw(st.lists(st.tuples(*[value] * width), max_size=6))
    text = "".join(
        draw(SPACES) + "(" + ",".join(draw(SPACES) + str(v) + draw(SPACES) for v in row) + ")" for row in rows
    )
    return text + draw(SPACES), width, rows


@settings(max_examples=300, deadline=None)
@given(written_tables())
def test_a_table_reads_as_its_tuples_however_it_is_spaced(table):
    text, width, rows = table
    assert tuples(text, width) == rows


@pytest.mark.parametrize(
    "text, message",
    [
        ("(1,2)(3)", "a tuple of the wrong length"),
        ("(1,2)(3,4)(5,6,7,8)", "a tuple of the wrong length"),
        ("(1,-)(2,3)", "the tuple (1,-)"),
        ("(1,2)(3, 4-5)", "the tuple (3, 4-5)"),
        ("(1,2)(a,b)", "the tuple (a,b)"),
        ("((1,2)(3,4))", "the tuple ((1,2)"),
    ],
)
def test_a_table_with_a_wrong_tuple_is_refused_naming_it(text, message):
    with pytest.raises(Untranslatable, match=re.escape(message)):
        tuples(text, 2)


def test_declarations_expand_compact_lists_and_skip_holes():
    declared = Declarations(holes=frozenset({"x[1][1]"}))
    declared.declare(ET.fromstring(MODEL).find("variables"))
    assert declared.shapes["x"] == (2, 3)
    assert declared.domains["y"] == ((0, 0), (2, 2), (4, 6))
    assert declared.expand("x[1][]") == ["x[1][0]", "x[1][2]"]
    assert declared.tokens("x[0][] 3 0x2") == ["x[0][0]", "x[0][1]", "x[0][2]", "3", "0", "0"]


def test_groups_and_slides_stand_for_their_members():
    declared = Declarations()
    root = ET.fromstring(MODEL)
    declared.declare(root.find("variables"))
    group, slide = root.find("constraints").findall("group")[0], root.find("constraints").find("slide")
    assert [(tag, m.text) for tag, m in read_each(group, declared)] == [
        ("intension", "eq(x[0][0],x[1][0])"),
        ("intension", "eq(x[0][1],x[1][1])"),
    ]
    assert [m.tree for _, m in read_each(slide, declared)] == [
        ("lt", ("x[1][0]", "x[1][1]")),
        ("lt", ("x[1][1]", "x[1][2]")),
    ]


def test_an_unknown_declaration_is_refused_by_name():
    with pytest.raises(KernelextError, match="<set>"):
        Declarations().declare(ET.fromstring('<variables><set id="s"/></variables>'))


def test_a_model_is_cut_into_single_constraints_with_their_variables(tmp_path):
    path = tmp_path / "model.xml"
    path.write_text(MODEL)
    model = read_model(path)
    texts = [constraint.text for constraint in model.constraints]
    assert texts[:3] == ["allDifferent(x[0][0], x[0][1], x[0][2])", "eq(x[0][0],x[1][0])", "eq(x[0][1],x[1][1])"]
    assert len(texts) == 5 and texts[3].startswith("slide(")  # a group's members one by one; a slide stays whole
    assert model.constraints[3].scope == ("x[1][0]", "x[1][1]", "x[1][2]")
    assert model.constraints[4].scope == ("x[1][2]", "y")
