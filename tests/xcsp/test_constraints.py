"""The typed model: each constraint element read once, its lists expanded (compact forms, holes left out), its
parameters read (except values, coefficients, conditions), into immutable objects."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import pytest

import kernelext.xcsp.constraints as typed
from kernelext.errors import Untranslatable
from kernelext.xcsp.constraints import (
    AllDifferent,
    AllDifferentLists,
    AllDifferentMatrix,
    AllEqual,
    AllEqualLists,
    ArgExtremum,
    BinPacking,
    Cardinality,
    Channel,
    Circuit,
    Clause,
    Condition,
    Count,
    Element,
    Extremum,
    Flow,
    Instantiation,
    Knapsack,
    Lex,
    MatrixElement,
    NValues,
    Ordered,
    Sum,
    read,
)
from kernelext.xcsp.declarations import Declarations

VARIABLES = """<variables>
  <array id="x" size="[2][3]"> 0..3 </array>
  <var id="y"> 0 2 4..6 </var>
</variables>"""


@pytest.fixture
def declarations() -> Declarations:
    found = Declarations(frozenset({"x[1][2]"}))  # a hole: compact lists leave it out
    found.declare(ET.fromstring(VARIABLES))
    return found


def read_text(declarations: Declarations, text: str):
    return read(ET.fromstring(text), declarations)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<allDifferent> x[0][] </allDifferent>", AllDifferent(("x[0][0]", "x[0][1]", "x[0][2]"))),
        (
            "<allDifferent><list> x[1][] y </list><except> 0 2 </except></allDifferent>",
            AllDifferent(("x[1][0]", "x[1][1]", "y"), frozenset({0, 2})),
        ),
        (
            "<allDifferent><list> x[0][0] y </list><list> x[1][0] 3 </list><except>(0,0)</except></allDifferent>",
            AllDifferentLists((("x[0][0]", "y"), ("x[1][0]", 3)), frozenset({(0, 0)})),
        ),
        (
            "<allDifferent><matrix> (x[0][0],x[0][1])(y,1) </matrix></allDifferent>",
            AllDifferentMatrix((("x[0][0]", "x[0][1]"), ("y", 1)), (("x[0][0]", "y"), ("x[0][1]", 1))),
        ),
        ("<allEqual> 1x2 y </allEqual>", AllEqual((1, 1, "y"))),
        ("<allEqual><list> y </list><except> 0 </except></allEqual>", AllEqual(("y",), frozenset({0}))),
        (
            "<allEqual><list> x[0][0] </list><list> y </list></allEqual>",
            AllEqualLists((("x[0][0]",), ("y",))),
        ),
        (
            "<sum><list> x[0][0] y </list><coeffs> 2 x[0][1] </coeffs><condition> (le,y) </condition></sum>",
            Sum(("x[0][0]", "y"), (2, "x[0][1]"), Condition("le", "y", " (le,y) ")),
        ),
        (
            "<sum><list> x[1][] </list><condition>(in,{1,3..5})</condition></sum>",
            Sum(("x[1][0]", "x[1][1]"), None, Condition("in", ((1, 1), (3, 5)), "(in,{1,3..5})")),
        ),
        (
            "<knapsack><list> x[0][] </list><weights> 1 2 y </weights><profits> 3 2 1 </profits>"
            "<limit> 4 </limit><condition> (ge,y) </condition></knapsack>",
            Knapsack(
                ("x[0][0]", "x[0][1]", "x[0][2]"),
                (1, 2, "y"),
                (3, 2, 1),
                Condition("le", 4, "(le,4)"),
                Condition("ge", "y", " (ge,y) "),
            ),
        ),
        (
            "<knapsack><list> y y </list><weights> 1 1 </weights><condition>(le,1)</condition>"
            "<profits> 2 2 </profits><condition>(eq,2)</condition></knapsack>",
            Knapsack(("y", "y"), (1, 1), (2, 2), Condition("le", 1, "(le,1)"), Condition("eq", 2, "(eq,2)")),
        ),
        (
            "<binPacking><list> x[0][] </list><sizes> 1 2 y </sizes><condition> (le,3) </condition></binPacking>",
            BinPacking(("x[0][0]", "x[0][1]", "x[0][2]"), (1, 2, "y"), Condition("le", 3, " (le,3) ")),
        ),
        (
            "<binPacking><list> y y </list><sizes> 1 2 </sizes><loads> 1 y </loads></binPacking>",
            BinPacking(("y", "y"), (1, 2), None, (1, "y"), True),
        ),
        (
            "<flow><list> x[0][] </list><balance> 1 0 y </balance><arcs> (1,3)(3,4)(1,4) </arcs>"
            "<weights> 1 1 2 </weights><condition> (le,3) </condition></flow>",
            Flow(
                ("x[0][0]", "x[0][1]", "x[0][2]"),
                ((1, 3), (3, 4), (1, 4)),
                (1, 3, 4),
                (1, 0, "y"),
                (1, 1, 2),
                Condition("le", 3, " (le,3) "),
            ),
        ),
        ("<clause> x[0][0] not(y) x[0][2] </clause>", Clause(("x[0][0]", "x[0][2]"), ("y",))),
        (
            "<count><list> x[0][] </list><values> 1 y </values><condition>(ge,2)</condition></count>",
            Count(("x[0][0]", "x[0][1]", "x[0][2]"), (1, "y"), Condition("ge", 2, "(ge,2)")),
        ),
        (
            "<nValues><list> y x[0][0] </list><except> 0 </except><condition>(notin,1..2)</condition></nValues>",
            NValues(("y", "x[0][0]"), frozenset({0}), Condition("notin", ((1, 2),), "(notin,1..2)")),
        ),
        (
            "<cardinality><list> x[0][] </list><values closed='true'> 0 1 </values><occurs> 1..2 y </occurs></cardinality>",
            Cardinality(("x[0][0]", "x[0][1]", "x[0][2]"), (0, 1), (range(1, 3), "y"), True),
        ),
        (
            "<ordered><list> x[0][] </list><lengths> 1x2 </lengths><operator> lt </operator></ordered>",
            Ordered(("x[0][0]", "x[0][1]", "x[0][2]"), "lt", (1, 1)),
        ),
        (
            "<lex><list> x[0][0] y </list><list> x[1][0] 2 </list><operator> ge </operator></lex>",
            Lex(((("x[0][0]", "y"), ("x[1][0]", 2)),), "ge"),
        ),
        (
            "<lex><matrix> (x[0][0],x[0][1])(y,1) </matrix><operator> le </operator></lex>",
            Lex(((("x[0][0]", "x[0][1]"), ("y", 1)), (("x[0][0]", "y"), ("x[0][1]", 1))), "le"),
        ),
        (
            "<instantiation><list> x[1][] </list><values> 3 0 </values></instantiation>",
            Instantiation(("x[1][0]", "x[1][1]"), (3, 0)),
        ),
        (
            "<maximum><list> x[0][] </list><condition> (gt,y) </condition></maximum>",
            Extremum(False, ("x[0][0]", "x[0][1]", "x[0][2]"), Condition("gt", "y", " (gt,y) ")),
        ),
        (
            "<minimum><list startIndex='1'> x[0][] </list><index rank='first'> y </index></minimum>",
            Extremum(True, ("x[0][0]", "x[0][1]", "x[0][2]"), None, "y", "first", 1),
        ),
        (
            "<element><list startIndex='1'> x[0][] </list><index rank='last'> y </index><value> 2 </value></element>",
            Element(("x[0][0]", "x[0][1]", "x[0][2]"), "y", 1, "last", 2, None),
        ),
        (
            "<element reifiedBy='y'><list> x[1][] </list><condition> (ne,0) </condition></element>",
            Element(("x[1][0]", "x[1][1]"), None, 0, "any", None, Condition("ne", 0, " (ne,0) "), "y"),
        ),
        (
            "<element><matrix startRowIndex='1'> (x[0][0],x[0][1])(y,3) </matrix><index> y x[1][0] </index>"
            "<value> x[1][1] </value></element>",
            MatrixElement((("x[0][0]", "x[0][1]"), ("y", 3)), "y", "x[1][0]", 1, 0, "x[1][1]", None),
        ),
        (
            "<maximumArg rank='last'><list startIndex='1'> x[0][] </list><condition> (in,1..2) </condition></maximumArg>",
            ArgExtremum(False, ("x[0][0]", "x[0][1]", "x[0][2]"), 1, "last", Condition("in", ((1, 2),), " (in,1..2) ")),
        ),
        (
            "<precedence covered='true'><list> x[1][] </list></precedence>",
            typed.Precedence(("x[1][0]", "x[1][1]"), (0, 1, 2, 3), True),
        ),
        (
            "<precedence><list> y x[0][0] </list><values> 2 0 </values></precedence>",
            typed.Precedence(("y", "x[0][0]"), (2, 0), False),
        ),
        (
            "<regular><list> x[1][] </list><transitions> (a,0,b)(b,1,b) </transitions><start> a </start>"
            "<final> b </final></regular>",
            typed.Automaton(("x[1][0]", "x[1][1]"), (("a", 0, "b"), ("b", 1, "b")), "a", ("b",)),
        ),
        (
            "<mdd><list> y x[0][0] </list><transitions> (r,0,n)(r,1,m)(n,1,t)(m,0,u) </transitions></mdd>",
            typed.Automaton(
                ("y", "x[0][0]"), (("r", 0, "n"), ("r", 1, "m"), ("n", 1, "t"), ("m", 0, "u")), "r", ("t", "u")
            ),
        ),
        (
            "<noOverlap zeroIgnored='false'><origins> x[0][] </origins><lengths> 2 y 0 </lengths></noOverlap>",
            typed.NoOverlap((("x[0][0]",), ("x[0][1]",), ("x[0][2]",)), ((2,), ("y",), (0,)), zero_ignored=False),
        ),
        (
            "<noOverlap><origins> (x[0][0],x[0][1])(y,x[1][0]) </origins><lengths> (1,2)(2,y) </lengths></noOverlap>",
            typed.NoOverlap((("x[0][0]", "x[0][1]"), ("y", "x[1][0]")), ((1, 2), (2, "y")), zero_ignored=True),
        ),
        (
            "<cumulative><origins> x[1][] </origins><lengths> 1 2 </lengths><heights> y 1 </heights>"
            "<ends> x[0][0] x[0][1] </ends><condition> (le,2) </condition></cumulative>",
            typed.Cumulative(
                ("x[1][0]", "x[1][1]"), (1, 2), ("y", 1), ("x[0][0]", "x[0][1]"), Condition("le", 2, " (le,2) ")
            ),
        ),
        (
            "<intension> ne(x[0][0],add(y,1)) </intension>",
            typed.Intension(("ne", ("x[0][0]", ("add", ("y", 1)))), "ne(x[0][0],add(y,1))"),
        ),
        (
            "<intension><function> eq(y,1) </function></intension>",
            typed.Intension(("eq", ("y", 1)), "eq(y,1)"),
        ),
        (
            "<extension><list> x[1][] </list><supports> (0,1)(2,*) </supports></extension>",
            typed.Extension(("x[1][0]", "x[1][1]"), True, ((0, 1), (2, "*")), None, " (0,1)(2,*) "),
        ),
        (
            "<extension><list> y </list><conflicts> 1 3..5 </conflicts></extension>",
            typed.Extension(("y",), False, (), ((1, 1), (3, 5)), " 1 3..5 "),
        ),
        (
            "<not><intension> eq(y,1) </intension></not>",
            typed.Logic("not", ((typed.Intension(("eq", ("y", 1)), "eq(y,1)"),),)),
        ),
        (
            "<or><allDifferent> x[1][] </allDifferent>"
            "<group><intension> eq(%0,0) </intension><args> x[1][0] </args><args> y </args></group></or>",
            typed.Logic(
                "or",
                (
                    (AllDifferent(("x[1][0]", "x[1][1]")),),
                    (
                        typed.Intension(("eq", ("x[1][0]", 0)), "eq(x[1][0],0)"),
                        typed.Intension(("eq", ("y", 0)), "eq(y,0)"),
                    ),
                ),
            ),
        ),
        ("<channel> x[0][] </channel>", Channel(("x[0][0]", "x[0][1]", "x[0][2]"), 0)),
        (
            "<channel><list startIndex='1'> x[1][] </list><value> y </value></channel>",
            Channel(("x[1][0]", "x[1][1]"), 1, value="y"),
        ),
        (
            "<channel><list> x[1][] </list><list startIndex='2'> x[0][] </list></channel>",
            Channel(("x[1][0]", "x[1][1]"), 0, ("x[0][0]", "x[0][1]", "x[0][2]"), 2),
        ),
        ("<circuit startIndex='1'> x[0][] </circuit>", Circuit(("x[0][0]", "x[0][1]", "x[0][2]"), 1)),
        (
            "<circuit><list startIndex='2'> x[0][] </list><size> y </size></circuit>",
            Circuit(("x[0][0]", "x[0][1]", "x[0][2]"), 2, "y"),
        ),
    ],
)
def test_each_form_reads_into_its_typed_object(declarations, text, expected):
    assert read_text(declarations, text) == expected


def test_a_typed_object_cannot_be_changed(declarations):
    found = read_text(declarations, "<allDifferent> x[0][] </allDifferent>")
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.items = ()


def test_a_condition_says_whether_it_names_values():
    assert Condition("in", ((1, 2),), "(in,1..2)").of_values and not Condition("le", "y", "(le,y)").of_values


def test_a_tag_the_typed_model_does_not_know_is_left_to_its_consumers(declarations):
    assert read_text(declarations, "<stretch><list> x[0][] </list><values> 0 1 </values></stretch>") is None


@pytest.mark.parametrize(
    "text",
    [
        "<sum><list> x[0][] </list></sum>",  # no condition
        "<sum><list> x[0][] </list><condition> le,1 </condition></sum>",  # a malformed condition
        "<count><list> x[0][] </list><condition>(eq,1)</condition></count>",  # no values
        "<allDifferent><list> y </list><list> y </list><except> (0,0) </except></allDifferent>",  # tuples too long
        "<allDifferent> z[] </allDifferent>",  # an array never declared
        "<ordered><list> x[0][] </list><operator> ne </operator></ordered>",  # not an order
        "<ordered><list> x[0][] </list><lengths> 1 </lengths><operator> le </operator></ordered>",  # one length short
        "<lex><list> y </list><list> y </list><limit> 1 </limit><operator> lt </operator></lex>",  # a limit
        "<instantiation><list> x[0][] </list><values> 1 2 </values></instantiation>",  # a value short
        "<cardinality><list> y </list><values> 0 1 </values><occurs> 1 </occurs></cardinality>",  # an occurrence short
        "<minimum><list> y </list></minimum>",  # neither a condition nor an index
        "<element><matrix> (y,1)(1,y) </matrix><index> y </index><value> 1 </value></element>",  # one index
        "<channel><list> y </list><list> y </list><list> y </list></channel>",  # three lists
        "<channel><list> x[0][] </list><list> y </list></channel>",  # the first list the longer
        "<allDifferent reifiedBy='y'> x[0][] </allDifferent>",  # reified by a variable
        "<allDifferent><list> y </list><list> y y </list></allDifferent>",  # lists of different lengths
        "<sum><list> y y </list><coeffs> 1 </coeffs><condition> (eq,1) </condition></sum>",  # a coefficient short
        "<knapsack><list> y y </list><weights> 1 1 </weights><profits> 1 </profits>"
        "<condition> (le,1) </condition><condition> (ge,1) </condition></knapsack>",  # a profit short
        "<binPacking><list> y y </list><sizes> 1 </sizes><limits> 2 2 </limits></binPacking>",  # a size short
        "<binPacking><list> x[0][] </list><sizes> 1 1 1 </sizes></binPacking>",  # no condition, limits nor loads
        "<flow><list> y y </list><balance> 0 0 </balance><arcs> (0,1)(1,2) </arcs></flow>",  # a balance short
        "<clause> y not(add(y,1)) </clause>",  # not a variable
        "<flow><list> y </list><balance> 0 0 </balance><arcs> (0,1) </arcs><weights> 1 </weights></flow>",  # no condition
        "<knapsack><list> y </list><weights> 1 </weights><profits> 1 </profits>"
        "<condition> (le,1) </condition></knapsack>",  # one condition
        "<precedence><list> y add(y,1) </list></precedence>",  # no values, and an expression: no domain to read
        "<noOverlap><origins> (y,y)(y,y) </origins><lengths> (1,1)(1) </lengths></noOverlap>",  # a side short
        "<cumulative><origins> y y </origins><lengths> 1 </lengths><heights> 1 1 </heights>"
        "<condition> (le,1) </condition></cumulative>",  # a length short
        "<cumulative><origins> y </origins><lengths> 1 </lengths><heights> 1 </heights><machines> y </machines>"
        "<condition> (le,1) </condition></cumulative>",  # machines
        "<intension hreifiedBy='y'> lt(y,1) </intension>",  # reified
        "<intension> lt(y, </intension>",  # not an expression
        "<not><intension> eq(y,1) </intension><intension> eq(y,2) </intension></not>",  # two constraints
        "<and><stretch><list> y </list><values> 0 </values></stretch></and>",  # a tag not read, inside
        "<extension><list> y y </list></extension>",  # neither supports nor conflicts
        "<extension><list> y y </list><supports> (1,2)(3) </supports></extension>",  # a tuple short
        "<extension type='hybrid-1'><list> y y </list><supports> (1,lt(%0,2)) </supports></extension>",  # hybrid
        "<extension><list> y 1 </list><supports> (1,1) </supports></extension>",  # not a variable
    ],
)
def test_a_malformed_element_is_refused_by_name(declarations, text):
    with pytest.raises(Untranslatable) as refused:
        read_text(declarations, text)
    assert str(refused.value)


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "<minimize> add(y,x[0][0]) </minimize>",
            typed.Objective(True, "expression", (("add", ("y", "x[0][0]")),), text="add(y,x[0][0])"),
        ),
        (
            "<maximize type='sum'><list> x[1][] </list><coeffs> 2 y </coeffs></maximize>",
            typed.Objective(False, "sum", ("x[1][0]", "x[1][1]"), (2, "y"), "x[1][]"),
        ),
        (
            "<minimize type='maximum'> x[1][] </minimize>",
            typed.Objective(True, "maximum", ("x[1][0]", "x[1][1]"), text="x[1][]"),
        ),
    ],
)
def test_an_objective_reads_into_its_typed_object(declarations, text, expected):
    assert typed.read_objective(ET.fromstring(text), declarations) == expected


@pytest.mark.parametrize(
    "text",
    [
        "<objectives> y </objectives>",  # not an objective
        "<minimize type='sum'><list> x[1][] </list><coeffs> 1 </coeffs></minimize>",  # a coefficient short
    ],
)
def test_a_malformed_objective_is_refused_by_name(declarations, text):
    with pytest.raises(Untranslatable):
        typed.read_objective(ET.fromstring(text), declarations)


GROUPS = {
    "intensions": "<group><intension> ne(add(%0,%1),%2) </intension><args> x[0][0] x[0][1] 3 </args>"
    "<args> y x[1][0] add(y,1) </args></group>",
    "tables": "<group><extension><list> %0 x[0][2] %1 </list><supports> (0,*,1)(2,3,*) </supports></extension>"
    "<args> x[0][0] y </args><args> x[1][1] x[0][1] </args></group>",
    "one-item tables": "<group><extension><list> %0 </list><conflicts> 1 3..5 </conflicts></extension>"
    "<args> x[0][0] </args><args> y </args></group>",
    "a rest of the list": "<group><allDifferent> %0 %... </allDifferent><args> y x[0][] </args><args> x[1][] </args></group>",
    "a sum": "<group><sum><list> %0 %1 </list><condition> (le,%2) </condition></sum><args> x[0][0] y 4 </args><args> y y 2 </args></group>",
    "a slide": "<slide circular='true'><list> x[0][] </list><intension> lt(%0,%1) </intension></slide>",
    "a slide of tables": "<slide><list offset='2'> x[0][] x[1][] </list><extension><list> %0 %1 </list>"
    "<supports> (0,1)(1,2) </supports></extension></slide>",
    "a block": "<block><group><intension> eq(%0,1) </intension><args> y </args></group>"
    "<extension><list> y </list><supports> 2 </supports></extension></block>",
}


def members_of(element, declarations: Declarations) -> list:
    """The member elements a group, slide or block stands for, each filled in as an element of its own."""
    if element.tag == "block":
        return [member for child in element for member in members_of(child, declarations)]
    if element.tag not in ("group", "slide"):
        return [element]
    arguments_of = declarations.group_arguments if element.tag == "group" else declarations.slide_windows
    template, arguments = arguments_of(element)
    return [typed.substitute(template, args) for args in arguments]


@pytest.mark.parametrize("name", GROUPS)
def test_a_group_slide_or_block_reads_as_its_members_one_by_one(declarations, name):
    """What `read_each` gives, with its template read once, is what reading each member element gives."""
    element = ET.fromstring(GROUPS[name])
    expected = [(member.tag, read(member, declarations)) for member in members_of(element, declarations)]
    found = list(typed.read_each(element, declarations))
    assert found == expected and len(found) >= 2


def test_a_group_whose_arguments_are_too_few_for_its_template_is_refused(declarations):
    for template in (
        "<intension> eq(%0,%1) </intension>",
        "<extension><list> %0 %1 </list><supports> (0,1) </supports></extension>",
    ):
        element = ET.fromstring(f"<group>{template}<args> y x[0][0] </args><args> y </args></group>")
        with pytest.raises(Untranslatable, match="arguments do not match its template"):
            list(typed.read_each(element, declarations))
