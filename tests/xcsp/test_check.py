"""The pure-Python checker of solutions: for each construct, every assignment of a tiny model's variables is
checked, and the verdict compared with a predicate written here in plain Python (the checker's code is not
used to compute what is expected)."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelext.errors import Untranslatable
from kernelext.xcsp.check import Checker

pytestmark = pytest.mark.timeout(120)


def model(variables: str, constraints: str = "", objective: str = "", holes=frozenset()) -> Checker:
    root = ET.fromstring(
        f"<instance><variables>{variables}</variables><constraints>{constraints}</constraints>{objective}</instance>"
    )
    objectives = root.find("objectives")
    return Checker(
        root.find("variables"), root.find("constraints"), objectives[0] if objectives is not None else None, holes
    )


def cells(name: str, n: int, values: range) -> dict[str, range]:
    return {f"{name}[{i}]": values for i in range(n)}


def assignments(domains: dict[str, range]):
    names = list(domains)
    for chosen in itertools.product(*domains.values()):
        yield dict(zip(names, chosen))


def vector(s: dict, name: str, n: int) -> list[int]:
    return [s[f"{name}[{i}]"] for i in range(n)]


def agrees(checker: Checker, domains: dict[str, range], predicate) -> int:
    """Every assignment is accepted exactly when `predicate` holds; returns how many are (asserted to be some,
    but not all, so that each test tells something)."""
    accepted = total = 0
    for s in assignments(domains):
        expected = bool(predicate(s))
        assert (checker.broken(s) is None) == expected, (s, checker.broken(s))
        accepted, total = accepted + expected, total + 1
    assert 0 < accepted < total
    return accepted


# intension

XYZ = (
    '<var id="x"> -2..2 </var><var id="y"> -2..2 </var><var id="z"> -2..2 </var><var id="b"> 0 1 </var>'
    '<var id="c"> 0 1 </var>'
)
XYZ_DOMAINS = {"x": range(-2, 3), "y": range(-2, 3), "z": range(-2, 3), "b": range(2), "c": range(2)}


def trunc_div(a, b):
    return math.trunc(a / b)


EXPRESSIONS = [
    ("eq(div(x,y),z)", lambda x, y, z, b, c: y != 0 and trunc_div(x, y) == z),
    ("eq(mod(x,y),z)", lambda x, y, z, b, c: y != 0 and math.fmod(x, y) == z),
    ("or(eq(y,0),gt(div(x,y),0))", lambda x, y, z, b, c: y != 0 and trunc_div(x, y) > 0),  # no tuple divides by 0
    ("eq(if(b,div(x,y),z),1)", lambda x, y, z, b, c: y != 0 and (trunc_div(x, y) if b else z) == 1),
    ("eq(add(x,y,z),1)", lambda x, y, z, b, c: x + y + z == 1),
    ("eq(mul(x,y,z),2)", lambda x, y, z, b, c: x * y * z == 2),
    ("lt(sub(x,y),neg(z))", lambda x, y, z, b, c: x - y < -z),
    ("eq(x,y,z)", lambda x, y, z, b, c: x == y == z),
    ("ne(dist(x,y),sqr(z))", lambda x, y, z, b, c: abs(x - y) != z * z),
    ("ge(pow(x,y),z)", lambda x, y, z, b, c: y >= 0 and x**y >= z),  # a negative power is undefined
    ("le(min(x,y,z),sub(max(y,z),2))", lambda x, y, z, b, c: min(x, y, z) <= max(y, z) - 2),
    ("eq(abs(x),add(y,1))", lambda x, y, z, b, c: abs(x) == y + 1),
    ("in(x,set(0,2,-2))", lambda x, y, z, b, c: x in (0, 2, -2)),
    ("notin(add(x,y),set(0,1))", lambda x, y, z, b, c: x + y not in (0, 1)),
    ("in(x,set(y,add(z,1)))", lambda x, y, z, b, c: x in (y, z + 1)),
    ("imp(eq(x,0),eq(y,0))", lambda x, y, z, b, c: x != 0 or y == 0),
    ("iff(b,c,eq(x,y))", lambda x, y, z, b, c: bool(b) == bool(c) == (x == y)),
    ("xor(b,c,eq(x,0))", lambda x, y, z, b, c: (b + c + (x == 0)) % 2 == 1),
    ("not(and(b,c))", lambda x, y, z, b, c: not (b and c)),
    ("or(b,lt(x,0),1)", lambda x, y, z, b, c: True),
    ("or(b,lt(x,0))", lambda x, y, z, b, c: b or x < 0),
    ("and(c,ge(x,y))", lambda x, y, z, b, c: c and x >= y),
    ("eq(add(b,c,lt(x,y)),2)", lambda x, y, z, b, c: b + c + (x < y) == 2),
    ("eq(if(gt(x,y),x,y),max(x,y))", lambda x, y, z, b, c: True),
    ("b", lambda x, y, z, b, c: b == 1),
]


@pytest.mark.parametrize("expression, predicate", EXPRESSIONS, ids=[e for e, _ in EXPRESSIONS])
def test_intension_evaluates_every_operator_as_xcsp3_defines_it(expression, predicate):
    checker = model(XYZ, f"<intension> {expression} </intension>")
    expected = [predicate(**s) for s in assignments(XYZ_DOMAINS)]
    found = [checker.broken(s) is None for s in assignments(XYZ_DOMAINS)]
    assert found == expected


def test_intension_in_a_function_element_and_in_a_group_and_a_slide():
    constraints = """<intension><function> lt(x[0],x[1]) </function></intension>
      <group><intension> ne(add(%0,%1),%2) </intension><args> x[1] x[2] 3 </args><args> x[2] x[3] x[0] </args></group>
      <slide circular="true"><list> x[] </list><intension> ne(%0,%1) </intension></slide>"""
    checker = model('<array id="x" size="[4]"> 0..2 </array>', constraints)
    agrees(
        checker,
        cells("x", 4, range(3)),
        lambda s: (
            (v := vector(s, "x", 4))[0] < v[1]
            and v[1] + v[2] != 3
            and v[2] + v[3] != v[0]
            and all(v[i] != v[(i + 1) % 4] for i in range(4))
        ),
    )


INT_LEAF = st.sampled_from(["x", "y", "z"]) | st.integers(-2, 2)
INT_EXPRESSION = st.recursive(
    INT_LEAF,
    lambda inner: (
        st.tuples(st.sampled_from(["add", "sub", "mul", "div", "mod", "dist", "min", "max"]), inner, inner)
        | st.tuples(st.sampled_from(["neg", "abs", "sqr"]), inner)
    ),
    max_leaves=5,
)
BOOL_EXPRESSION = st.recursive(
    st.tuples(st.sampled_from(["lt", "le", "gt", "ge", "eq", "ne"]), INT_EXPRESSION, INT_EXPRESSION),
    lambda inner: (
        st.tuples(st.sampled_from(["and", "or", "imp", "iff", "xor"]), inner, inner) | st.tuples(st.just("not"), inner)
    ),
    max_leaves=3,
)


def written(tree) -> str:
    if not isinstance(tree, tuple):
        return str(tree)
    return f"{tree[0]}({','.join(written(a) for a in tree[1:])})"


def evaluated(tree, s: dict):
    """The expression's value in plain Python, every argument evaluated (a division by zero anywhere raises)."""
    if isinstance(tree, int):
        return tree
    if isinstance(tree, str):
        return s[tree]
    op, *args = tree
    v = [evaluated(a, s) for a in args]
    if op in ("div", "mod") and v[1] == 0:
        raise ZeroDivisionError
    return {
        "add": lambda: v[0] + v[1],
        "sub": lambda: v[0] - v[1],
        "mul": lambda: v[0] * v[1],
        "div": lambda: math.trunc(v[0] / v[1]),
        "mod": lambda: int(math.fmod(v[0], v[1])),
        "dist": lambda: abs(v[0] - v[1]),
        "min": lambda: min(v),
        "max": lambda: max(v),
        "neg": lambda: -v[0],
        "abs": lambda: abs(v[0]),
        "sqr": lambda: v[0] ** 2,
        "lt": lambda: v[0] < v[1],
        "le": lambda: v[0] <= v[1],
        "gt": lambda: v[0] > v[1],
        "ge": lambda: v[0] >= v[1],
        "eq": lambda: v[0] == v[1],
        "ne": lambda: v[0] != v[1],
        "and": lambda: v[0] and v[1],
        "or": lambda: v[0] or v[1],
        "imp": lambda: not v[0] or v[1],
        "iff": lambda: v[0] == v[1],
        "xor": lambda: v[0] != v[1],
        "not": lambda: not v[0],
    }[op]()


@settings(max_examples=60, deadline=None)
@given(BOOL_EXPRESSION)
def test_random_expressions_agree_with_a_plain_python_evaluation(tree):
    checker = model(XYZ, f"<intension> {written(tree)} </intension>")
    for s in assignments({"x": range(-2, 3), "y": range(-2, 3), "z": range(-2, 3)}):
        try:
            expected = bool(evaluated(tree, s))
        except ZeroDivisionError:
            expected = False
        assert (checker.broken({**s, "b": 0, "c": 0}) is None) == expected, (written(tree), s)


# tables


def test_supports_and_conflicts_with_stars_and_unary_lists():
    variables = '<array id="x" size="[3]"> 0..2 </array><var id="y"> 0..6 </var>'
    domains = {**cells("x", 3, range(3)), "y": range(7)}

    def supported(v):
        return (v[0] == 0 and v[2] == 1) or (v[0] == 2 and v[1] == 2) or v == [1, 0, 0]

    rows = "(0,*,1)(2,2,*)(1,0,0)"
    agrees(
        model(
            variables,
            f"<extension><list> x[] </list><supports> {rows} </supports></extension>"
            "<extension><list> y </list><supports> 1 3..5 </supports></extension>",
        ),
        domains,
        lambda s: supported(vector(s, "x", 3)) and s["y"] in (1, 3, 4, 5),
    )
    agrees(
        model(
            variables,
            f"<extension><list> x[] </list><conflicts> {rows} </conflicts></extension>"
            "<extension><list> y </list><conflicts> 1 3..5 </conflicts></extension>",
        ),
        domains,
        lambda s: not supported(vector(s, "x", 3)) and s["y"] not in (1, 3, 4, 5),
    )


def test_a_group_of_tables_and_a_table_of_only_stars():
    constraints = """<group><extension><list> %0 %1 y </list><conflicts> (0,0,0)(1,1,*) </conflicts></extension>
        <args> x[0] x[1] </args><args> x[1..2] </args></group>
        <extension><list> x[0] y </list><supports> (*,*) </supports></extension>
        <extension><list> x[2] </list><supports> (0)(1) </supports></extension>"""
    checker = model('<array id="x" size="[3]"> 0..2 </array><var id="y"> 0..1 </var>', constraints)

    def allowed(a, b, y):
        return (a, b, y) != (0, 0, 0) and (a, b) != (1, 1)

    agrees(
        checker,
        {**cells("x", 3, range(3)), "y": range(2)},
        lambda s: (
            allowed(s["x[0]"], s["x[1]"], s["y"]) and allowed(s["x[1]"], s["x[2]"], s["y"]) and s["x[2]"] in (0, 1)
        ),
    )


def test_an_empty_table_allows_nothing_and_forbids_nothing():
    variables = '<array id="x" size="[2]"> 0..1 </array>'
    for s in assignments(cells("x", 2, range(2))):
        assert model(variables, "<extension><list> x[] </list><supports> </supports></extension>").broken(s)
        assert model(variables, "<extension><list> x[] </list><conflicts> </conflicts></extension>").broken(s) is None


# comparison


def test_all_different_forms():
    variables = '<array id="x" size="[4]"> 0..2 </array>'
    domains = cells("x", 4, range(3))
    agrees(
        model(variables, "<allDifferent> x[0..2] </allDifferent>"),
        domains,
        lambda s: len({s["x[0]"], s["x[1]"], s["x[2]"]}) == 3,
    )
    agrees(
        model(variables, "<allDifferent><list> x[] </list><except> 0 </except></allDifferent>"),
        domains,
        lambda s: len([v for v in vector(s, "x", 4) if v]) == len({v for v in vector(s, "x", 4) if v}),
    )
    agrees(
        model(variables, "<allDifferent> x[0] add(x[1],1) mul(x[2],2) </allDifferent>"),
        domains,
        lambda s: len({s["x[0]"], s["x[1]"] + 1, 2 * s["x[2]"]}) == 3,
    )
    agrees(
        model(variables, "<allDifferent><list> x[0..1] </list><list> x[2..3] </list></allDifferent>"),
        domains,
        lambda s: vector(s, "x", 4)[:2] != vector(s, "x", 4)[2:],
    )
    agrees(
        model(
            variables,
            "<allDifferent><list> x[0..1] </list><list> x[2..3] </list><except> (0,0)(1,1) </except></allDifferent>",
        ),
        domains,
        lambda s: (v := vector(s, "x", 4))[:2] != v[2:] or v[:2] in ([0, 0], [1, 1]),
    )


def test_all_different_over_a_matrix_takes_its_rows_and_columns():
    checker = model(
        '<array id="m" size="[2][3]"> 0..2 </array>', "<allDifferent><matrix> m[][] </matrix></allDifferent>"
    )
    domains = {f"m[{i}][{j}]": range(3) for i in range(2) for j in range(3)}

    def latin(s):
        rows = [[s[f"m[{i}][{j}]"] for j in range(3)] for i in range(2)]
        return all(len(set(r)) == 3 for r in rows) and all(rows[0][j] != rows[1][j] for j in range(3))

    assert agrees(checker, domains, latin) == 12


def test_all_equal_with_except_and_of_lists():
    variables = '<array id="x" size="[4]"> 0..2 </array>'
    domains = cells("x", 4, range(3))
    agrees(model(variables, "<allEqual> x[] </allEqual>"), domains, lambda s: len(set(vector(s, "x", 4))) == 1)
    agrees(
        model(variables, "<allEqual><list> x[] </list><except> 0 </except></allEqual>"),
        domains,
        lambda s: len({v for v in vector(s, "x", 4) if v != 0}) <= 1,
    )
    agrees(
        model(variables, "<allEqual><list> x[0..1] </list><list> x[2..3] </list></allEqual>"),
        domains,
        lambda s: vector(s, "x", 4)[:2] == vector(s, "x", 4)[2:],
    )


def test_ordered_with_lengths_and_lex_of_lists_and_of_a_matrix():
    variables = '<array id="x" size="[3]"> 0..3 </array><var id="y"> 0..2 </var>'
    domains = {**cells("x", 3, range(4)), "y": range(3)}
    agrees(
        model(variables, "<ordered><list> x[] </list><lengths> 1 y </lengths><operator> le </operator></ordered>"),
        domains,
        lambda s: s["x[0]"] + 1 <= s["x[1]"] and s["x[1]"] + s["y"] <= s["x[2]"],
    )
    agrees(
        model(variables, "<ordered><list> x[] </list><operator> gt </operator></ordered>"),
        domains,
        lambda s: s["x[0]"] > s["x[1]"] > s["x[2]"],
    )
    lists = '<array id="x" size="[6]"> 0..1 </array>'
    agrees(
        model(
            lists,
            "<lex><list> x[0..1] </list><list> x[2..3] </list><list> x[4..5] </list><operator> lt </operator></lex>",
        ),
        cells("x", 6, range(2)),
        lambda s: (v := vector(s, "x", 6))[0:2] < v[2:4] < v[4:6],
    )
    matrix = '<array id="m" size="[2][3]"> 0..1 </array>'
    domains = {f"m[{i}][{j}]": range(2) for i in range(2) for j in range(3)}

    def lex_matrix(s):
        rows = [[s[f"m[{i}][{j}]"] for j in range(3)] for i in range(2)]
        columns = [list(c) for c in zip(*rows)]
        return rows[0] >= rows[1] and columns[0] >= columns[1] >= columns[2]

    agrees(model(matrix, "<lex><matrix> m[][] </matrix><operator> ge </operator></lex>"), domains, lex_matrix)


def test_precedence_with_values_covered_and_without_values():
    variables = '<array id="x" size="[4]"> 0..3 </array>'
    domains = cells("x", 4, range(4))

    def precedes(v, chain, covered):
        first = {value: v.index(value) for value in set(v)}
        ordered = all(b not in first or (a in first and first[a] < first[b]) for a, b in zip(chain, chain[1:]))
        return ordered and (not covered or all(value in first for value in chain))

    agrees(
        model(variables, '<precedence><list> x[] </list><values covered="true"> 1 2 3 </values></precedence>'),
        domains,
        lambda s: precedes(vector(s, "x", 4), [1, 2, 3], True),
    )
    agrees(
        model(variables, "<precedence> x[] </precedence>"),
        domains,
        lambda s: precedes(vector(s, "x", 4), [0, 1, 2, 3], False),
    )


# counting


def test_sum_with_coefficients_numbers_or_variables_and_every_condition():
    variables = '<array id="x" size="[3]"> -1..2 </array><var id="y"> 0..2 </var>'
    domains = {**cells("x", 3, range(-1, 3)), "y": range(3)}
    cases = [
        ("<coeffs> 2 -1 1 </coeffs><condition> (in,1..3) </condition>", lambda v, y: 1 <= 2 * v[0] - v[1] + v[2] <= 3),
        (
            "<coeffs> y 1 1 </coeffs><condition> (notin,{0,2}) </condition>",
            lambda v, y: y * v[0] + v[1] + v[2] not in (0, 2),
        ),
        ("<condition> (le,y) </condition>", lambda v, y: sum(v) <= y),
        ("<condition> (ne,0) </condition>", lambda v, y: sum(v) != 0),
        ("<condition> (in,{-1,4}) </condition>", lambda v, y: sum(v) in (-1, 4)),
    ]
    for tail, predicate in cases:
        agrees(
            model(variables, f"<sum><list> x[] </list>{tail}</sum>"),
            domains,
            lambda s, p=predicate: p(vector(s, "x", 3), s["y"]),
        )
    agrees(
        model(
            variables,
            "<sum><list> mul(x[0],x[1]) x[2] </list><coeffs> 1x2 </coeffs><condition> (gt,1) </condition></sum>",
        ),
        domains,
        lambda s: s["x[0]"] * s["x[1]"] + s["x[2]"] > 1,
    )


def test_count_with_variable_values_and_nvalues_with_except():
    variables = '<array id="x" size="[4]"> 0..2 </array><var id="y"> 0..2 </var>'
    domains = {**cells("x", 4, range(3)), "y": range(3)}
    agrees(
        model(variables, "<count><list> x[] </list><values> y 2 </values><condition> (ge,2) </condition></count>"),
        domains,
        lambda s: sum(v in (s["y"], 2) for v in vector(s, "x", 4)) >= 2,
    )
    agrees(
        model(variables, "<nValues><list> x[] </list><except> 0 </except><condition> (eq,y) </condition></nValues>"),
        domains,
        lambda s: len(set(vector(s, "x", 4)) - {0}) == s["y"],
    )
    agrees(
        model(variables, "<nValues><list> x[] </list><condition> (gt,2) </condition></nValues>"),
        domains,
        lambda s: len(set(vector(s, "x", 4))) > 2,
    )


def test_cardinality_with_variable_occurrences_ranges_and_closed_values():
    variables = '<array id="x" size="[4]"> 0..3 </array><var id="y"> 0..2 </var><var id="z"> 1..3 </var>'
    domains = {**cells("x", 4, range(4)), "y": range(3), "z": range(1, 4)}
    agrees(
        model(
            variables,
            '<cardinality><list> x[] </list><values closed="true"> 0 1 2 </values>'
            "<occurs> y 1..2 1 </occurs></cardinality>",
        ),
        domains,
        lambda s: (
            (v := vector(s, "x", 4)).count(0) == s["y"] and 1 <= v.count(1) <= 2 and v.count(2) == 1 and 3 not in v
        ),
    )
    agrees(
        model(variables, "<cardinality><list> x[] </list><values> y z </values><occurs> 1 2 </occurs></cardinality>"),
        domains,
        lambda s: (v := vector(s, "x", 4)).count(s["y"]) == 1 and v.count(s["z"]) == 2,
    )


# connection


def test_minimum_maximum_and_their_arguments_with_ranks():
    variables = '<array id="x" size="[3]"> 0..2 </array><var id="i"> 0..3 </var>'
    domains = {**cells("x", 3, range(3)), "i": range(4)}
    agrees(
        model(variables, "<minimum><list> x[] </list><condition> (eq,i) </condition></minimum>"),
        domains,
        lambda s: min(vector(s, "x", 3)) == s["i"],
    )
    agrees(
        model(variables, "<maximum><list> x[0] add(x[1],1) </list><condition> (ge,i) </condition></maximum>"),
        domains,
        lambda s: max(s["x[0]"], s["x[1]"] + 1) >= s["i"],
    )
    for rank in ("first", "last", "any"):

        def arg(s, rank=rank, pick=max):
            v = vector(s, "x", 3)
            at = [k for k in range(3) if v[k] == pick(v)]
            return {"first": at[0] == s["i"], "last": at[-1] == s["i"], "any": s["i"] in at}[rank]

        agrees(
            model(
                variables, f'<maximumArg rank="{rank}"><list> x[] </list><condition> (eq,i) </condition></maximumArg>'
            ),
            domains,
            arg,
        )
        agrees(
            model(
                variables, f'<minimumArg rank="{rank}"><list> x[] </list><condition> (eq,i) </condition></minimumArg>'
            ),
            domains,
            lambda s, f=arg: f(s, pick=min),
        )
    # minimum with an index (XCSP3's older form): the index of the least value, of that rank, starting at 1
    agrees(
        model(
            variables,
            '<minimum><list startIndex="1"> x[] </list><index rank="last"> i </index>'
            "<condition> (le,1) </condition></minimum>",
        ),
        domains,
        lambda s: (
            1 <= s["i"] <= 3
            and (v := vector(s, "x", 3))[s["i"] - 1] == min(v)
            and min(v) <= 1
            and min(v) not in v[s["i"] :]
        ),
    )


def test_element_over_a_list_with_start_index_rank_condition_and_reification():
    variables = (
        '<array id="x" size="[3]"> 0..2 </array><var id="i"> 0..4 </var><var id="v"> 0..2 </var><var id="b"> 0 1 </var>'
    )
    domains = {**cells("x", 3, range(3)), "i": range(5), "v": range(3)}
    agrees(
        model(variables, '<element><list startIndex="1"> x[] </list><index> i </index><value> v </value></element>'),
        domains,
        lambda s: 1 <= s["i"] <= 3 and vector(s, "x", 3)[s["i"] - 1] == s["v"],
    )
    agrees(
        model(
            variables,
            '<element><list> x[] </list><index rank="first"> i </index><condition> (gt,v) </condition></element>',
        ),
        domains,
        lambda s: s["i"] < 3 and (x := vector(s, "x", 3))[s["i"]] > s["v"] and not any(a > s["v"] for a in x[: s["i"]]),
    )
    agrees(
        model(
            variables, "<element><list> 3 1 4 </list><index> i </index><condition> (ge,add(v,2)) </condition></element>"
        ),
        domains,
        lambda s: s["i"] < 3 and [3, 1, 4][s["i"]] >= s["v"] + 2,
    )
    agrees(
        model(variables, "<element><list> x[] </list><value> v </value></element>"),
        domains,
        lambda s: s["v"] in vector(s, "x", 3),
    )
    agrees(
        model(variables, '<element reifiedBy="b"><list> x[] </list><value> 2 </value></element>'),
        {**cells("x", 3, range(3)), "b": range(2)},
        lambda s: (2 in vector(s, "x", 3)) == (s["b"] == 1),
    )


def test_element_over_a_matrix_with_start_indexes():
    variables = (
        '<array id="m" size="[2][2]"> 0..2 </array><var id="r"> 0..3 </var><var id="c"> 1..4 </var>'
        '<var id="v"> 0..2 </var>'
    )
    domains = {
        **{f"m[{i}][{j}]": range(3) for i in range(2) for j in range(2)},
        "r": range(4),
        "c": range(1, 5),
        "v": range(3),
    }
    agrees(
        model(
            variables,
            '<element><matrix startRowIndex="1" startColIndex="2"> m[][] </matrix>'
            "<index> r c </index><value> v </value></element>",
        ),
        domains,
        lambda s: 1 <= s["r"] <= 2 and 2 <= s["c"] <= 3 and s[f"m[{s['r'] - 1}][{s['c'] - 2}]"] == s["v"],
    )
    agrees(
        model(
            variables,
            "<element><matrix> (1,2,0)(2,0,1) </matrix><index> r c </index><condition> (eq,v) </condition></element>",
        ),
        {"r": range(4), "c": range(1, 5), "v": range(3)},
        lambda s: s["r"] < 2 and s["c"] < 3 and [[1, 2, 0], [2, 0, 1]][s["r"]][s["c"]] == s["v"],
    )


def test_channel_of_one_list_two_lists_and_a_01_list_with_a_value():
    variables = '<array id="x" size="[3]"> 0..3 </array>'
    agrees(
        model(variables, "<channel> x[] </channel>"),
        cells("x", 3, range(4)),
        lambda s: all(0 <= (v := vector(s, "x", 3))[i] < 3 and v[v[i]] == i for i in range(3)),
    )
    variables = '<array id="x" size="[2]"> 0..3 </array><array id="y" size="[3]"> 0..2 </array>'
    agrees(
        model(variables, '<channel><list startIndex="1"> x[] </list><list startIndex="1"> y[] </list></channel>'),
        {**cells("x", 2, range(4)), **cells("y", 3, range(3))},
        lambda s: all(1 <= s[f"x[{i}]"] <= 3 and s[f"y[{s[f'x[{i}]'] - 1}]"] == i + 1 for i in range(2)),
    )
    variables = '<array id="x" size="[3]"> 0..3 </array><array id="y" size="[3]"> 0..3 </array>'
    agrees(
        model(variables, "<channel><list> x[] </list><list> y[] </list></channel>"),
        {**cells("x", 3, range(4)), **cells("y", 3, range(4))},
        lambda s: (
            all(s[f"x[{i}]"] < 3 and s[f"y[{s[f'x[{i}]']}]"] == i for i in range(3))
            and all(s[f"y[{j}]"] < 3 and s[f"x[{s[f'y[{j}]']}]"] == j for j in range(3))
        ),
    )
    variables = '<array id="b" size="[3]"> 0 1 </array><var id="v"> 0..4 </var>'
    agrees(
        model(variables, '<channel><list startIndex="1"> b[] </list><value> v </value></channel>'),
        {**cells("b", 3, range(2)), "v": range(5)},
        lambda s: all((s[f"b[{k}]"] == 1) == (s["v"] == k + 1) for k in range(3)) and 1 in vector(s, "b", 3),
    )


# graphs


def one_circuit(successors: list[int]) -> bool:
    """Nodes pointing to themselves are left out; the others form a single cycle of at least two nodes."""
    n = len(successors)
    if sorted(successors) != list(range(n)):
        return False
    moving = [i for i in range(n) if successors[i] != i]
    if len(moving) < 2:
        return False
    seen, node = set(), moving[0]
    while node not in seen:
        seen.add(node)
        node = successors[node]
    return seen == set(moving)


def test_circuit_leaves_out_self_loops_and_has_at_least_two_nodes():
    variables = '<array id="x" size="[4]"> 0..4 </array><var id="k"> 0..4 </var>'
    domains = cells("x", 4, range(5))
    count = agrees(model(variables, "<circuit> x[] </circuit>"), domains, lambda s: one_circuit(vector(s, "x", 4)))
    assert count == 6 + 8 + 6  # cycles of 4 nodes, of 3 (and a loop), of 2 (and two loops); never all loops
    agrees(
        model(variables, '<circuit startIndex="1"> x[] </circuit>'),
        cells("x", 4, range(1, 5)),
        lambda s: one_circuit([v - 1 for v in vector(s, "x", 4)]),
    )
    agrees(
        model(variables, '<circuit><list startIndex="1"> x[] </list></circuit>'),
        cells("x", 4, range(1, 5)),
        lambda s: one_circuit([v - 1 for v in vector(s, "x", 4)]),
    )
    agrees(
        model(variables, "<circuit><list> x[] </list><size> k </size></circuit>"),
        {**cells("x", 4, range(4)), "k": range(5)},
        lambda s: one_circuit(v := vector(s, "x", 4)) and sum(v[i] != i for i in range(4)) == s["k"],
    )


def test_flow_balances_each_node_and_weighs_the_flow():
    variables = '<array id="f" size="[3]"> 0..2 </array>'
    agrees(
        model(
            variables,
            "<flow><list> f[] </list><balance> 1 0 -1 </balance><arcs> (0,1)(1,2)(0,2) </arcs>"
            "<weights> 1 1 3 </weights><condition> (le,3) </condition></flow>",
        ),
        cells("f", 3, range(3)),
        lambda s: (
            (f := vector(s, "f", 3))[0] + f[2] == 1
            and f[1] - f[0] == 0
            and -f[1] - f[2] == -1
            and f[0] + f[1] + 3 * f[2] <= 3
        ),
    )


# scheduling and packing


def test_no_overlap_on_a_line_with_zero_lengths_ignored_or_not():
    variables = '<array id="x" size="[3]"> 0..3 </array><var id="y"> 0..2 </var>'
    domains = {**cells("x", 3, range(4)), "y": range(3)}

    def apart(s, ignore_zero):
        tasks = list(zip(vector(s, "x", 3), [2, s["y"], 0]))
        if ignore_zero:
            tasks = [t for t in tasks if t[1] != 0]
        return all(a + la <= b or b + lb <= a for (a, la), (b, lb) in itertools.combinations(tasks, 2))

    agrees(
        model(variables, "<noOverlap><origins> x[] </origins><lengths> 2 y 0 </lengths></noOverlap>"),
        domains,
        lambda s: apart(s, True),
    )
    agrees(
        model(
            variables, '<noOverlap zeroIgnored="false"><origins> x[] </origins><lengths> 2 y 0 </lengths></noOverlap>'
        ),
        domains,
        lambda s: apart(s, False),
    )


def test_no_overlap_of_boxes_with_zero_lengths_ignored_or_not():
    variables = '<array id="x" size="[3]"> 0..2 </array><array id="y" size="[3]"> 0..1 </array><var id="w"> 0..2 </var>'
    domains = {**cells("x", 3, range(3)), **cells("y", 3, range(2)), "w": range(3)}
    boxes = "<origins> (x[0],y[0])(x[1],y[1])(x[2],y[2]) </origins><lengths> (2,1)(w,1)(1,0) </lengths>"

    def apart(s, ignore_zero):
        placed = [((s[f"x[{i}]"], s[f"y[{i}]"]), size) for i, size in enumerate([(2, 1), (s["w"], 1), (1, 0)])]
        if ignore_zero:
            placed = [b for b in placed if 0 not in b[1]]
        return all(
            any(a[d] + la[d] <= b[d] or b[d] + lb[d] <= a[d] for d in range(2))
            for (a, la), (b, lb) in itertools.combinations(placed, 2)
        )

    agrees(model(variables, f"<noOverlap>{boxes}</noOverlap>"), domains, lambda s: apart(s, True))
    agrees(model(variables, f'<noOverlap zeroIgnored="false">{boxes}</noOverlap>'), domains, lambda s: apart(s, False))


def test_cumulative_with_ends_and_strict_or_loose_limits():
    variables = '<array id="o" size="[3]"> 0..3 </array><var id="l"> 0..2 </var><array id="e" size="[3]"> 0..5 </array>'
    domains = {**cells("o", 3, range(4)), "l": range(3)}

    def load(s, t):
        return sum(h for o, d, h in zip(vector(s, "o", 3), [2, 1, s["l"]], [1, 2, 1]) if o <= t < o + d)

    agrees(
        model(
            variables,
            "<cumulative><origins> o[] </origins><lengths> 2 1 l </lengths><heights> 1 2 1 </heights>"
            "<condition> (le,2) </condition></cumulative>",
        ),
        domains,
        lambda s: all(load(s, t) <= 2 for t in range(8)),
    )
    agrees(
        model(
            variables,
            "<cumulative><origins> o[] </origins><lengths> 2 1 l </lengths><heights> 1 2 1 </heights>"
            "<condition> (lt,3) </condition></cumulative>",
        ),
        domains,
        lambda s: all(load(s, t) < 3 for t in range(8)),
    )
    domains = {**cells("o", 3, range(2)), "l": range(3), **cells("e", 3, range(4))}
    agrees(
        model(
            variables,
            "<cumulative><origins> o[] </origins><lengths> 2 1 l </lengths><ends> e[] </ends>"
            "<heights> 1 2 1 </heights><condition> (le,3) </condition></cumulative>",
        ),
        domains,
        lambda s: (
            all(load(s, t) <= 3 for t in range(8))
            and vector(s, "e", 3) == [a + d for a, d in zip(vector(s, "o", 3), [2, 1, s["l"]])]
        ),
    )


def test_bin_packing_with_a_condition_limits_or_loads():
    variables = '<array id="x" size="[3]"> 0..2 </array><array id="c" size="[3]"> 0..4 </array>'
    domains = cells("x", 3, range(3))

    def loads(s):
        return [sum(w for b, w in zip(vector(s, "x", 3), [2, 1, 2]) if b == k) for k in range(3)]

    agrees(
        model(
            variables,
            "<binPacking><list> x[] </list><sizes> 2 1 2 </sizes><condition> (le,3) </condition></binPacking>",
        ),
        domains,
        lambda s: max(loads(s)) <= 3,
    )
    agrees(
        model(
            variables,
            "<binPacking><list> x[] </list><sizes> 2 1 2 </sizes><condition> (ge,1) </condition></binPacking>",
        ),
        domains,
        lambda s: min(loads(s)) >= 1,
    )  # each bin, empty ones too
    agrees(
        model(variables, "<binPacking><list> x[] </list><sizes> 2 1 2 </sizes><limits> 2 3 2 </limits></binPacking>"),
        domains,
        lambda s: all(a <= b for a, b in zip(loads(s), [2, 3, 2])),
    )
    agrees(
        model(variables, "<binPacking><list> x[] </list><sizes> 2 1 2 </sizes><loads> c[] </loads></binPacking>"),
        {**domains, **cells("c", 3, range(4))},
        lambda s: loads(s) == vector(s, "c", 3),
    )


def test_knapsack_weighs_and_values_the_items():
    variables = '<array id="x" size="[3]"> 0..2 </array>'
    agrees(
        model(
            variables,
            "<knapsack><list> x[] </list><weights> 2 3 4 </weights><condition> (le,7) </condition>"
            "<profits> 3 4 5 </profits><condition> (ge,8) </condition></knapsack>",
        ),
        cells("x", 3, range(3)),
        lambda s: (
            (v := vector(s, "x", 3)) and 2 * v[0] + 3 * v[1] + 4 * v[2] <= 7 and 3 * v[0] + 4 * v[1] + 5 * v[2] >= 8
        ),
    )


# automata


def test_regular_reads_with_a_non_deterministic_automaton():
    variables = '<array id="x" size="[5]"> 0..1 </array>'
    automaton = "<transitions> (a,0,a)(a,1,a)(a,1,b)(b,0,c)(c,0,c)(c,1,c) </transitions><start> a </start>"
    agrees(
        model(variables, f"<regular><list> x[] </list>{automaton}<final> c </final></regular>"),
        cells("x", 5, range(2)),
        lambda s: "10" in "".join(map(str, vector(s, "x", 5))),
    )
    deterministic = "<transitions> (p,0,p)(p,1,q)(q,0,q)(q,1,p) </transitions><start> p </start><final> q </final>"
    agrees(
        model(variables, f"<regular><list> x[] </list>{deterministic}</regular>"),
        cells("x", 5, range(2)),
        lambda s: sum(vector(s, "x", 5)) % 2 == 1,
    )


def test_mdd_accepts_its_paths_from_the_root_to_the_terminal():
    variables = '<array id="x" size="[3]"> 0..3 </array>'
    arcs = "(r,0,n1)(r,1,n2)(n1,2,n3)(n1,3,n4)(n2,2,n4)(n3,0,t)(n4,1,t)(n4,3,t)"
    paths = {(0, 2, 0), (0, 3, 1), (0, 3, 3), (1, 2, 1), (1, 2, 3)}
    agrees(
        model(variables, f"<mdd><list> x[] </list><transitions> {arcs} </transitions></mdd>"),
        cells("x", 3, range(4)),
        lambda s: tuple(vector(s, "x", 3)) in paths,
    )


# others


def test_instantiation_clause_and_meta_constraints():
    variables = '<array id="x" size="[3]"> 0..2 </array><array id="b" size="[3]"> 0 1 </array>'
    domains = {**cells("x", 3, range(3)), **cells("b", 3, range(2))}
    agrees(
        model(variables, "<instantiation><list> x[0] b[] </list><values> 2 1 0x2 </values></instantiation>"),
        domains,
        lambda s: s["x[0]"] == 2 and vector(s, "b", 3) == [1, 0, 0],
    )
    agrees(
        model(variables, "<clause> b[0] not(b[1]) b[2] </clause>"),
        domains,
        lambda s: s["b[0]"] == 1 or s["b[1]"] == 0 or s["b[2]"] == 1,
    )
    cases = [
        (
            "<and><intension> eq(x[0],1) </intension><allDifferent> x[] </allDifferent></and>",
            lambda v, b: v[0] == 1 and len(set(v)) == 3,
        ),
        (
            "<or><intension> eq(x[0],1) </intension><allDifferent> x[] </allDifferent></or>",
            lambda v, b: v[0] == 1 or len(set(v)) == 3,
        ),
        ("<not><sum><list> x[] </list><condition> (le,2) </condition></sum></not>", lambda v, b: sum(v) > 2),
        (
            "<ifThen><intension> eq(b[0],1) </intension><allEqual> x[] </allEqual></ifThen>",
            lambda v, b: b[0] == 0 or len(set(v)) == 1,
        ),
        (
            "<ifThenElse><intension> b[1] </intension><intension> lt(x[0],x[1]) </intension>"
            "<intension> gt(x[0],x[1]) </intension></ifThenElse>",
            lambda v, b: v[0] < v[1] if b[1] else v[0] > v[1],
        ),
        (
            "<iff><intension> b[2] </intension><count><list> x[] </list><values> 0 </values>"
            "<condition> (ge,1) </condition></count></iff>",
            lambda v, b: (b[2] == 1) == (0 in v),
        ),
        (
            "<xor><intension> b[0] </intension><intension> b[1] </intension><intension> eq(x[2],0) </intension></xor>",
            lambda v, b: (b[0] + b[1] + (v[2] == 0)) % 2 == 1,
        ),
    ]
    for constraint, predicate in cases:
        agrees(model(variables, constraint), domains, lambda s, p=predicate: p(vector(s, "x", 3), vector(s, "b", 3)))


def test_groups_slides_and_blocks_stand_for_their_members():
    variables = '<array id="x" size="[6]"> 0..2 </array>'
    constraints = """<block>
        <group><sum><list> %... </list><condition> (le,%0) </condition></sum>
          <args> x[0] x[1] x[2] </args><args> x[3] x[4..5] </args></group>
        <slide><list offset="2" collect="2"> x[] </list><intension> ne(%0,%1) </intension></slide>
      </block>
      <slide circular="true"><list> x[0..2] </list><extension><list> %0 %1 </list><conflicts> (2,2) </conflicts>
      </extension></slide>
      <group><allDifferent> %... </allDifferent><args> x[1] x[3] x[5] </args></group>"""
    agrees(
        model(variables, constraints),
        cells("x", 6, range(3)),
        lambda s: (
            (v := vector(s, "x", 6))[1] + v[2] <= v[0]
            and v[4] + v[5] <= v[3]
            and v[0] != v[1]
            and v[2] != v[3]
            and v[4] != v[5]
            and all((v[i], v[(i + 1) % 3]) != (2, 2) for i in range(3))
            and len({v[1], v[3], v[5]}) == 3
        ),
    )


def test_holes_are_left_out_of_compact_lists():
    variables = '<array id="x" size="[2][2]"> 0..2 </array>'
    checker = model(variables, "<allDifferent> x[][] </allDifferent>", holes=frozenset({"x[1][1]"}))
    domains = {"x[0][0]": range(3), "x[0][1]": range(3), "x[1][0]": range(3)}
    agrees(checker, domains, lambda s: len(set(s.values())) == 3)


# objectives

OBJECTIVE_VARIABLES = '<array id="x" size="[3]"> -1..2 </array>'
OBJECTIVES = [
    ("<minimize> add(mul(x[0],x[1]),x[2]) </minimize>", lambda v: v[0] * v[1] + v[2]),
    ("<maximize> x[1] </maximize>", lambda v: v[1]),
    ('<minimize type="sum"> x[] </minimize>', sum),
    (
        '<maximize type="sum"><list> x[] </list><coeffs> 2 -1 3 </coeffs></maximize>',
        lambda v: 2 * v[0] - v[1] + 3 * v[2],
    ),
    (
        '<minimize type="product"><list> x[] </list><coeffs> 1 2 1 </coeffs></minimize>',
        lambda v: v[0] * 2 * v[1] * v[2],
    ),
    ('<minimize type="minimum"> x[0] add(x[1],1) x[2] </minimize>', lambda v: min(v[0], v[1] + 1, v[2])),
    ('<maximize type="maximum"> x[] </maximize>', max),
    ('<minimize type="nValues"> x[] </minimize>', lambda v: len(set(v))),
]


@pytest.mark.parametrize("objective, value", OBJECTIVES, ids=[o.split(">")[0][1:] for o, _ in OBJECTIVES])
def test_objective_values(objective, value):
    checker = model(OBJECTIVE_VARIABLES, "", f"<objectives>{objective}</objectives>")
    assert checker.optimises == objective[1:9]
    for s in assignments(cells("x", 3, range(-1, 3))):
        assert checker.objective_value(s) == value(vector(s, "x", 3))
    assert model(OBJECTIVE_VARIABLES).objective_value({}) is None and model(OBJECTIVE_VARIABLES).optimises == ""


def test_objectives_not_evaluated_exactly_are_refused(tmp_path):
    with pytest.raises(Untranslatable, match="several objectives"):
        path = tmp_path / "two.xml"
        path.write_text(
            f"<instance><variables>{OBJECTIVE_VARIABLES}</variables><constraints/><objectives>"
            "<minimize> x[0] </minimize><maximize> x[1] </maximize></objectives></instance>"
        )
        Checker.of_file(path)
    with pytest.raises(Untranslatable, match="lex"):
        model(OBJECTIVE_VARIABLES, "", '<objectives><minimize type="lex"> x[] </minimize></objectives>')


# what `broken` says


def test_a_value_outside_its_domain_is_broken():
    checker = model('<array id="x" size="[2]"> 1..3 5 </array>', "<allDifferent> x[] </allDifferent>")
    assert checker.broken({"x[0]": 1, "x[1]": 5}) is None
    assert checker.broken({"x[0]": 1, "x[1]": 4}) == "x[1] = 4, outside its domain 1..3 5"
    assert "outside its domain" in checker.broken({"x[0]": 0, "x[1]": 2})


def test_a_missing_value_breaks_the_first_constraint_that_needs_it():
    checker = model(
        '<array id="x" size="[3]"> 0..3 </array>',
        "<intension> lt(x[0],x[1]) </intension><sum><list> x[] </list><condition> (le,5) </condition></sum>",
    )
    assert checker.broken({"x[0]": 0, "x[1]": 1, "x[2]": None}) == "sum(x[0] x[1] x[2]) (no value for x[2])"
    assert checker.broken({"x[0]": 0, "x[2]": 1}) == "lt(x[0],x[1]) (no value for x[1])"
    assert checker.broken({"x[0]": 0, "x[1]": 1, "x[2]": 3}) is None


def test_the_message_names_the_first_constraint_broken_in_a_short_text():
    variables = '<array id="x" size="[3][4]"> 0..11 </array><var id="y"> 0..9 </var>'
    checker = model(variables, "<intension> eq(x[1][0],add(y,1)) </intension><allDifferent> x[][] </allDifferent>")
    solution = {f"x[{i}][{j}]": 4 * i + j for i in range(3) for j in range(4)} | {"y": 0}
    assert checker.broken(solution) == "eq(x[1][0],add(y,1))"
    solution["y"] = 3
    solution["x[1][0]"], solution["x[2][3]"] = 4, 4
    text = checker.broken(solution)
    assert text.startswith("allDifferent(x[0][0] x[0][1] x[0][2] ") and text.endswith(" ...)")
    assert len(text) <= 80


def test_a_division_by_zero_in_a_sum_list_breaks_it():
    checker = model(
        '<var id="x"> 0..2 </var><var id="y"> 0..2 </var>',
        "<sum><list> div(x,y) y </list><condition> (ge,0) </condition></sum>",
    )
    assert checker.broken({"x": 1, "y": 0}) == "sum(x y)"
    assert checker.broken({"x": 1, "y": 1}) is None


def test_what_cannot_be_evaluated_exactly_is_refused_by_name():
    variables = '<array id="x" size="[3]"> 0..3 </array>'
    with pytest.raises(Untranslatable, match="<stretch>"):
        model(variables, "<stretch><list> x[] </list><values> 1 2 </values><widths> 1..2 1..2 </widths></stretch>")
    with pytest.raises(Untranslatable, match="x\\[0\\] used as a condition"):
        model(variables, "<intension> and(x[0],x[1]) </intension>")
    with pytest.raises(Untranslatable, match="undeclared variable z"):
        model(variables, "<intension> lt(x[0],z) </intension>")
    with pytest.raises(Untranslatable, match="slide"):
        model(variables, '<slide><list collect="3"> x[] </list><intension> lt(%0,%1) </intension></slide>')
    with pytest.raises(Untranslatable, match="machines"):
        model(
            variables,
            "<cumulative><origins> x[] </origins><lengths> 1 1 1 </lengths><heights> 1 1 1 </heights>"
            "<machines> x[] </machines><condition> (le,1) </condition></cumulative>",
        )
    with pytest.raises(Untranslatable, match="<intension> with reifiedBy"):  # a reified constraint, alone
        model(variables + '<var id="b"> 0 1 </var>', '<intension reifiedBy="b"> lt(x[0],x[1]) </intension>')
    with pytest.raises(Untranslatable, match="<intension> with hreifiedBy"):  # or as a group's template
        model(
            variables + '<var id="b"> 0 1 </var>',
            '<group><intension hreifiedBy="b"> lt(%0,%1) </intension><args> x[0] x[1] </args></group>',
        )
    with pytest.raises(Untranslatable, match="<element> with reifiedBy"):  # an element with an index
        model(
            variables + '<var id="b"> 0 1 </var>',
            '<element reifiedBy="b"><list> x[] </list><index> x[0] </index><value> 1 </value></element>',
        )


# the models pycsp3 writes


def compiled(declaration: str, constraints: str) -> Checker:
    from kernelext.pycsp3_glue import model_state
    from kernelext.steps.session import PuzzleSession

    model_state.reset()
    session = PuzzleSession("check")
    try:
        session.add_step(declaration, solve=False)
        session.add_step(constraints, solve=False)
        return Checker.of_file(session.compile())
    finally:
        session.close()


def test_a_model_pycsp3_compiles_is_checked_as_pycsp3_means_it():
    checker = compiled(
        "from pycsp3.classes.auxiliary.enums import TypeRank\n"
        "x = VarArray(size=4, dom=range(4))\ny = Var(dom=range(4))",
        "satisfy(AllDifferent(x[:3]), Sum(x) >= 5, Count(x, value=0) <= 1, x[y] != 2,\n"
        "        NoOverlap(origins=x[:3], lengths=[1, 2, 0]), MinimumArg(x, rank=TypeRank.FIRST) == y,\n"
        "        x[0] // 2 == x[3] % 2)",
    )

    def holds(s):
        v = vector(s, "x", 4)
        tasks = [(v[0], 1), (v[1], 2)]  # the task of length 0 is ignored
        return (
            len(set(v[:3])) == 3
            and sum(v) >= 5
            and v.count(0) <= 1
            and v[s["y"]] != 2
            and all(a + la <= b or b + lb <= a for (a, la), (b, lb) in itertools.combinations(tasks, 2))
            and v.index(min(v)) == s["y"]
            and v[0] // 2 == v[3] % 2
        )

    agrees(checker, {**cells("x", 4, range(4)), "y": range(4)}, holds)


def test_a_circuit_and_a_cardinality_pycsp3_compiles_are_checked_as_pycsp3_means_them():
    checker = compiled(
        "x = VarArray(size=4, dom=range(4))\nk = Var(dom=range(3))",
        "satisfy(Circuit(x), Cardinality(x, occurrences={0: k, 1: range(0, 2)}), x[0] != 3)",
    )
    agrees(
        checker,
        {**cells("x", 4, range(4)), "k": range(3)},
        lambda s: one_circuit(v := vector(s, "x", 4)) and v.count(0) == s["k"] and v.count(1) <= 1 and v[0] != 3,
    )


# building


def test_extended_reuses_what_was_compiled_for_the_same_elements():
    root = ET.fromstring(
        "<instance><variables><array id='x' size='[3]'> 0..2 </array></variables><constraints>"
        "<allDifferent> x[] </allDifferent><intension> lt(x[0],x[1]) </intension>"
        "<intension> lt(x[1],x[2]) </intension></constraints></instance>"
    )
    variables, elements = root.find("variables"), list(root.find("constraints"))
    first = Checker(variables, elements[:2])
    second = first.extended(variables, elements)
    assert second._parts[:2] == first._parts and all(a is b for a, b in zip(second._parts, first._parts))
    assert first.broken({"x[0]": 0, "x[1]": 2, "x[2]": 1}) is None
    assert second.broken({"x[0]": 0, "x[1]": 2, "x[2]": 1}) == "lt(x[1],x[2])"
    other = first.extended(ET.fromstring(ET.tostring(variables)), elements)  # other variables: all compiled again
    assert all(a is not b for a, b in zip(other._parts, first._parts))
    assert other.broken({"x[0]": 0, "x[1]": 1, "x[2]": 2}) is None
