"""The walkthrough's rules, each against brute force: a constraint alone, and several together (propagation),
keep exactly the values of some solution."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelext.solver.kit.propagation import Reasoner
from kernelext.solver.kit.reading import rule_of
from kernelext.solver.kit.rules import AllDifferent, AllDifferentList, Regular, Sum
from kernelext.xcsp.declarations import Declarations
from kernelext.xcsp.document import parse_text
from kernelext.xcsp.subsets import constraint_of

FAR = 10**9  # a deadline nobody reaches
domains_strategy = st.lists(st.frozensets(st.integers(1, 6), min_size=1, max_size=4), min_size=1, max_size=5)


def rule_for(xml: str, text: str, scope: tuple[str, ...]):
    """The kit's rule for the constraint `xml` over the variables `scope`, each declared over -99..99."""
    declared = "".join(f'<var id="{v}"> -99..99 </var>' for v in scope)
    declarations = Declarations()
    declarations.declare(parse_text(f"<variables>{declared}</variables>"))
    return rule_of(constraint_of(xml, text, scope), declarations)


def projection(domains, allows):
    """What brute force keeps: each position's values in some allowed tuple (None when there is none)."""
    kept = [set() for _ in domains]
    for values in itertools.product(*(sorted(d) for d in domains)):
        if allows(values):
            for slot, value in zip(kept, values):
                slot.add(value)
    return tuple(map(frozenset, kept)) if kept[0] else None


# -- the rules, each against brute force -------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(domains_strategy)
def test_all_different_keeps_exactly_the_values_of_some_solution(domains):
    rule = AllDifferent(tuple(f"v{i}" for i in range(len(domains))))
    assert rule.filter(tuple(domains)) == projection(domains, lambda t: len(set(t)) == len(t))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.frozensets(st.sampled_from([-7, -1, 0, 2, 3, 10**6]), max_size=4), min_size=1, max_size=7),
        min_size=1,
        max_size=6,
    )
)
def test_one_all_different_filters_candidates_after_candidates_exactly(cases):
    """The values and sets of candidates it remembers from earlier calls (negative, far apart, and empty
    candidates) change none of its answers."""
    rule = AllDifferent(tuple(f"v{i}" for i in range(7)))
    for domains in cases:
        assert rule.filter(tuple(domains)) == projection(domains, lambda t: len(set(t)) == len(t))


@settings(max_examples=300, deadline=None)
@given(
    domains_strategy,
    st.lists(st.sampled_from([1, 2, -1, 3]), min_size=5, max_size=5),
    st.sampled_from(["eq", "le", "ge", "ne", "lt", "gt"]),
    st.integers(-5, 20),
)
def test_sum_keeps_exactly_the_values_of_some_solution(domains, coeffs, op, limit):
    scope = tuple(f"v{i}" for i in range(len(domains)))
    weights = " ".join(map(str, coeffs[: len(domains)]))
    xml = f"<sum><list> {' '.join(scope)} </list><coeffs> {weights} </coeffs><condition> ({op},{limit}) </condition></sum>"
    rule = rule_for(xml, "sum", scope)
    assert isinstance(rule, Sum)
    test = {
        "eq": limit.__eq__,
        "le": limit.__ge__,
        "ge": limit.__le__,
        "ne": limit.__ne__,
        "lt": limit.__gt__,
        "gt": limit.__lt__,
    }[op]
    expected = projection(domains, lambda t: test(sum(c * v for c, v in zip(coeffs, t))))
    assert rule.filter(tuple(domains)) == expected


@settings(max_examples=200, deadline=None)
@given(
    domains_strategy,
    st.lists(st.tuples(st.sampled_from("abc"), st.integers(1, 6), st.sampled_from("abc")), min_size=1, max_size=12),
)
def test_regular_keeps_exactly_the_values_of_some_accepted_word(domains, moves):
    rule = Regular(tuple(f"v{i}" for i in range(len(domains))), "a", frozenset("c"), tuple(moves))

    def accepted(word):
        states = {"a"}
        for value in word:
            states = {b for a, v, b in moves if a in states and v == value}
        return "c" in states

    assert rule.filter(tuple(domains)) == projection(domains, accepted)


@pytest.mark.parametrize(
    "xml, scope, allows",
    [
        ("<intension> lt(add(x,4),y) </intension>", ("x", "y"), lambda t: t[0] + 4 < t[1]),
        (
            "<intension> or(eq(x,y),iff(ne(x,2),gt(y,3))) </intension>",
            ("x", "y"),
            lambda t: t[0] == t[1] or ((t[0] != 2) == (t[1] > 3)),
        ),
        ("<intension> in(dist(x,y),set(1,3)) </intension>", ("x", "y"), lambda t: abs(t[0] - t[1]) in (1, 3)),
        (
            "<intension> eq(div(x,sub(y,2)),1) </intension>",
            ("x", "y"),
            lambda t: t[1] != 2 and int(t[0] / (t[1] - 2)) == 1,
        ),
        (
            "<extension><list> x y z </list><conflicts> (1,1,1)(2,2,2) </conflicts></extension>",
            ("x", "y", "z"),
            lambda t: t not in ((1, 1, 1), (2, 2, 2)),
        ),
        (
            "<sum><list> and(le(x,2),ge(y,2)) z </list><condition> (eq,w) </condition></sum>",
            ("x", "y", "z", "w"),
            lambda t: (t[0] <= 2 and t[1] >= 2) + t[2] == t[3],
        ),
    ],
)
def test_intension_extension_and_sums_of_expressions_filter_exactly(xml, scope, allows):
    rule = rule_for(xml, xml, scope)
    domains = tuple(frozenset(range(1, 5)) for _ in scope)
    assert rule.filter(domains) == projection(domains, allows)


@settings(max_examples=200, deadline=None)
@given(
    domains_strategy,
    st.frozensets(st.integers(1, 6), min_size=1, max_size=3),
    st.integers(0, 4),
    st.sampled_from(["eq", "le", "ge", "ne"]),
)
def test_count_keeps_exactly_the_values_of_some_solution(domains, values, limit, op):
    scope = tuple(f"v{i}" for i in range(len(domains)))
    xml = (
        f"<count><list> {' '.join(scope)} </list><values> {' '.join(map(str, sorted(values)))} </values>"
        f"<condition> ({op},{limit}) </condition></count>"
    )
    test = {"eq": limit.__eq__, "le": limit.__ge__, "ge": limit.__le__, "ne": limit.__ne__}[op]
    expected = projection(domains, lambda t: test(sum(v in values for v in t)))
    assert rule_for(xml, "count", scope).filter(tuple(domains)) == expected


@pytest.mark.parametrize("table", ["supports", "conflicts"])
def test_tables_with_stars_match_any_value(table):
    xml = f"<extension><list> x y z </list><{table}> (0,*,*)(1,2,*)(2,*,3) </{table}></extension>"
    listed = lambda t: t[0] == 0 or (t[0] == 1 and t[1] == 2) or (t[0] == 2 and t[2] == 3)  # noqa: E731
    allows = listed if table == "supports" else (lambda t: not listed(t))
    domains = tuple(frozenset(range(0, 4)) for _ in range(3))
    rule = rule_for(xml, xml, ("x", "y", "z"))
    assert rule.filter(domains) == projection(domains, allows)
    narrow = (frozenset({1, 2}), frozenset({0, 1}), frozenset({0, 1, 2, 3}))
    assert rule.filter(narrow) == projection(narrow, allows)


def test_a_constraint_it_cannot_read_is_none():
    assert rule_for("<binPacking><list> x y </list><sizes> 2 3 </sizes></binPacking>", "", ("x", "y")) is None
    assert rule_for("<allDifferent><list> x y </list><except> 0 </except></allDifferent>", "", ("x", "y")) is None
    assert rule_for("<extension><supports> (1,2) </supports></extension>", "", ("x", "y")) is None


def exact(xml: str, scope: tuple[str, ...], allows, domains) -> None:
    """The rule read from `xml` keeps exactly what brute force keeps (None: no solution)."""
    assert rule_for(xml, xml, scope).filter(tuple(domains)) == projection(domains, allows)


def sound(xml: str, scope: tuple[str, ...], allows, domains) -> None:
    """The rule keeps every value some solution uses, and refuses every placed assignment it forbids."""
    kept = rule_for(xml, xml, scope).filter(tuple(domains))
    wanted = projection(domains, allows)
    if wanted is None:
        assert kept is None or not all(len(d) == 1 for d in kept) or not allows(tuple(min(d) for d in kept))
    else:
        assert kept is not None and all(w <= k for w, k in zip(wanted, kept))
    for values in itertools.product(*(sorted(d) for d in domains)):
        placed = rule_for(xml, xml, scope).filter(tuple(frozenset((v,)) for v in values))
        assert (placed is not None) == allows(values), values


@settings(max_examples=150, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 5), min_size=1, max_size=4), min_size=4, max_size=4))
def test_all_different_over_expressions_of_one_variable_each_filters_exactly(domains):
    xml = "<allDifferent> q[0] sub(q[1],1) add(q[2],2) mul(q[3],2) </allDifferent>"
    scope = ("q[0]", "q[1]", "q[2]", "q[3]")
    exact(xml, scope, lambda v: len({v[0], v[1] - 1, v[2] + 2, v[3] * 2}) == 4, domains)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 1), min_size=1, max_size=2), min_size=6, max_size=6))
def test_all_different_list_keeps_every_solution_s_values_and_refuses_equal_lists(domains):
    xml = "<allDifferent><list> a b </list><list> c d </list><list> e f </list></allDifferent>"
    scope = ("a", "b", "c", "d", "e", "f")
    sound(xml, scope, lambda v: len({v[0:2], v[2:4], v[4:6]}) == 3, domains)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 4), min_size=1, max_size=4), min_size=5, max_size=5))
def test_element_filters_exactly(domains):
    xml = '<element><list startIndex="1"> x y z </list><index> i </index><value> v </value></element>'
    exact(xml, ("x", "y", "z", "i", "v"), lambda t: 1 <= t[3] <= 3 and t[t[3] - 1] == t[4], domains)
    xml = "<element><list> x y z </list><index> i </index><condition> (gt,2) </condition></element>"
    exact(xml, ("x", "y", "z", "i"), lambda t: 0 <= t[3] <= 2 and t[t[3]] > 2, domains[:4])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.frozensets(st.integers(0, 5), min_size=1, max_size=4), min_size=4, max_size=4),
    st.sampled_from(["lt", "le", "ge", "gt"]),
)
def test_ordered_filters_exactly(domains, operator):
    xml = f"<ordered><list> a b c d </list><operator> {operator} </operator></ordered>"
    compare = {"lt": int.__lt__, "le": int.__le__, "ge": int.__ge__, "gt": int.__gt__}[operator]
    exact(xml, ("a", "b", "c", "d"), lambda t: all(compare(x, y) for x, y in zip(t, t[1:])), domains)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 2), min_size=1, max_size=3), min_size=6, max_size=6))
def test_channel_keeps_every_solution_s_values_and_refuses_what_it_forbids(domains):
    xml = "<channel><list> x0 x1 x2 </list><list> y0 y1 y2 </list></channel>"
    sound(
        xml,
        ("x0", "x1", "x2", "y0", "y1", "y2"),
        lambda t: all(t[3 + t[i]] == i for i in range(3)) and all(t[t[3 + j]] == j for j in range(3)),
        domains,
    )


@settings(max_examples=100, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 3), min_size=1, max_size=4), min_size=5, max_size=5))
def test_global_constraints_read_as_tables_filter_exactly(domains):
    exact(
        "<nValues><list> a b c d </list><condition> (eq,e) </condition></nValues>",
        ("a", "b", "c", "d", "e"),
        lambda t: len(set(t[:4])) == t[4],
        domains,
    )
    exact(
        "<lex><list> a b </list><list> c d </list><operator> lt </operator></lex>",
        ("a", "b", "c", "d"),
        lambda t: t[:2] < t[2:],
        domains[:4],
    )
    exact("<circuit> a b c d </circuit>", ("a", "b", "c", "d"), lambda t: one_circuit(t), domains[:4])
    exact(
        "<noOverlap><origins> a b </origins><lengths> 2 c </lengths></noOverlap>",
        ("a", "b", "c"),
        lambda t: t[0] + 2 <= t[1] or t[1] + t[2] <= t[0] or t[2] == 0,
        domains[:3],
    )
    exact(
        '<cardinality><list> a b c d </list><values closed="true"> 1 2 </values><occurs> 1 1..3 </occurs>'
        "</cardinality>",
        ("a", "b", "c", "d"),
        lambda t: t.count(1) == 1 and 1 <= t.count(2) <= 3 and set(t) <= {1, 2},
        domains[:4],
    )


def one_circuit(successors: tuple[int, ...]) -> bool:
    """The nodes that do not point at themselves form one cycle (of two nodes or more)."""
    on = [k for k, s in enumerate(successors) if s != k]
    if len(on) < 2:
        return False
    seen, node = [], on[0]
    while node not in seen:
        seen.append(node)
        node = successors[node]
    return node == on[0] and sorted(seen) == on


@settings(max_examples=100, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 3), min_size=1, max_size=4), min_size=4, max_size=4))
def test_mdds_and_slides_filter_exactly(domains):
    mdd = "<mdd><list> a b </list><transitions> (r,0,n)(r,1,m)(n,2,t)(m,3,t) </transitions></mdd>"
    exact(mdd, ("a", "b"), lambda t: t in ((0, 2), (1, 3)), domains[:2])
    slide = "<slide><list> a b c d </list><intension> lt(%0,%1) </intension></slide>"
    exact(slide, ("a", "b", "c", "d"), lambda t: t[0] < t[1] < t[2] < t[3], domains)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.frozensets(st.integers(1, 4), min_size=1, max_size=4), min_size=5, max_size=5), st.integers(4, 12))
def test_consequences_of_rules_together_are_exact(domains, total):
    names = [f"v{i}" for i in range(5)]
    rules = [
        AllDifferent(tuple(names[:3])),
        AllDifferent(tuple(names[2:])),
        Sum((names[0], names[4]), (1, 1), total.__eq__, total),
    ]
    reasoner = Reasoner(rules, FAR)
    found = reasoner.consequences([0, 1, 2], dict(zip(names, domains)))
    expected = projection(domains, lambda t: len(set(t[:3])) == 3 and len(set(t[2:])) == 3 and t[0] + t[4] == total)
    assert (None if found is None else tuple(found[v] for v in names)) == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 1), min_size=1, max_size=2), min_size=12, max_size=12), st.integers(0, 3))
def test_lists_left_out_of_a_focused_all_different_list_change_no_consequence(domains, total):
    names = [f"v{i}" for i in range(12)]
    rules = [AllDifferentList(tuple(names), 3), Sum(tuple(names[:3]), (1, 1, 1), total.__eq__, total)]
    candidates = dict(zip(names, domains))
    focused, ids = Reasoner(rules, FAR).focused([0, 1], candidates)
    found = focused.consequences(ids, candidates)
    lists = lambda t: [t[k : k + 3] for k in range(0, 12, 3)]  # noqa: E731
    expected = projection(domains, lambda t: len(set(lists(t))) == 4 and sum(t[:3]) == total)
    assert (None if found is None else tuple(found.get(v, candidates[v]) for v in names)) == expected
    assert Reasoner(rules, FAR).unsat([0, 1], candidates) == (expected is None)


def test_a_focused_all_different_list_keeps_touched_lists_and_those_with_few_ways():
    names = [f"v{i}" for i in range(12)]
    candidates = {v: frozenset((0, 1)) for v in names} | {"v3": frozenset((0,)), "v4": frozenset((1,))}
    focused = AllDifferentList(tuple(names), 3).focus(candidates, frozenset(names[:3]))
    assert focused.scope == tuple(names[:6])  # the touched list, and one with 2 ways and 3 lists it may equal


@pytest.mark.parametrize(
    "xml",
    [
        "<element><list> x y </list><index rank='first'> z </index><value> 1 </value></element>",  # a rank
        "<intension reifiedBy='z'> lt(x,y) </intension>",  # reified by a variable
    ],
)
def test_a_form_its_rule_would_misread_has_no_rule(xml):
    assert rule_for(xml, "", ("x", "y", "z")) is None


def test_an_element_s_start_may_be_given_on_the_element():
    on_element = "<element startIndex='1'><list> x y </list><index> z </index><value> 3 </value></element>"
    on_list = "<element><list startIndex='1'> x y </list><index> z </index><value> 3 </value></element>"
    domains = tuple(frozenset(range(0, 4)) for _ in range(3))
    filtered = [rule_for(xml, "", ("x", "y", "z")).filter(domains) for xml in (on_element, on_list)]
    assert filtered[0] == filtered[1] == projection(domains, lambda t: t[2] in (1, 2) and t[t[2] - 1] == 3)
