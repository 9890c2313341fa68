"""The walkthrough's rules, each against brute force: a constraint alone, and several together (propagation),
keep exactly the values of some solution."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelext.insight.walkthrough.propagation import Reasoner
from kernelext.insight.walkthrough.rules import AllDifferent, Regular, Sum, rule_of
from kernelext.xcsp.subsets import XmlConstraint

FAR = 10 ** 9  # a deadline nobody reaches
domains_strategy = st.lists(st.frozensets(st.integers(1, 6), min_size=1, max_size=4), min_size=1, max_size=5)


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


@settings(max_examples=300, deadline=None)
@given(domains_strategy, st.lists(st.sampled_from([1, 2, -1, 3]), min_size=5, max_size=5),
       st.sampled_from(["eq", "le", "ge", "ne", "lt", "gt"]), st.integers(-5, 20))
def test_sum_keeps_exactly_the_values_of_some_solution(domains, coeffs, op, limit):
    scope = tuple(f"v{i}" for i in range(len(domains)))
    weights = " ".join(map(str, coeffs[:len(domains)]))
    xml = f"<sum><list> {' '.join(scope)} </list><coeffs> {weights} </coeffs><condition> ({op},{limit}) </condition></sum>"
    rule = rule_of(XmlConstraint(xml, "sum", scope))
    assert isinstance(rule, Sum)
    test = {"eq": limit.__eq__, "le": limit.__ge__, "ge": limit.__le__, "ne": limit.__ne__, "lt": limit.__gt__,
            "gt": limit.__lt__}[op]
    expected = projection(domains, lambda t: test(sum(c * v for c, v in zip(coeffs, t))))
    assert rule.filter(tuple(domains)) == expected


@settings(max_examples=200, deadline=None)
@given(domains_strategy, st.lists(st.tuples(st.sampled_from("abc"), st.integers(1, 6), st.sampled_from("abc")),
                                  min_size=1, max_size=12))
def test_regular_keeps_exactly_the_values_of_some_accepted_word(domains, moves):
    rule = Regular(tuple(f"v{i}" for i in range(len(domains))), "a", frozenset("c"), tuple(moves))

    def accepted(word):
        states = {"a"}
        for value in word:
            states = {b for a, v, b in moves if a in states and v == value}
        return "c" in states

    assert rule.filter(tuple(domains)) == projection(domains, accepted)


@pytest.mark.parametrize("xml, scope, allows", [
    ("<intension> lt(add(x,4),y) </intension>", ("x", "y"), lambda t: t[0] + 4 < t[1]),
    ("<intension> or(eq(x,y),iff(ne(x,2),gt(y,3))) </intension>", ("x", "y"),
     lambda t: t[0] == t[1] or ((t[0] != 2) == (t[1] > 3))),
    ("<intension> in(dist(x,y),set(1,3)) </intension>", ("x", "y"), lambda t: abs(t[0] - t[1]) in (1, 3)),
    ("<intension> eq(div(x,sub(y,2)),1) </intension>", ("x", "y"), lambda t: t[1] != 2 and int(t[0] / (t[1] - 2)) == 1),
    ("<extension><list> x y z </list><conflicts> (1,1,1)(2,2,2) </conflicts></extension>", ("x", "y", "z"),
     lambda t: t not in ((1, 1, 1), (2, 2, 2))),
    ("<sum><list> and(le(x,2),ge(y,2)) z </list><condition> (eq,w) </condition></sum>", ("x", "y", "z", "w"),
     lambda t: (t[0] <= 2 and t[1] >= 2) + t[2] == t[3]),
])
def test_intension_extension_and_sums_of_expressions_filter_exactly(xml, scope, allows):
    rule = rule_of(XmlConstraint(xml, xml, scope))
    domains = tuple(frozenset(range(1, 5)) for _ in scope)
    assert rule.filter(domains) == projection(domains, allows)


@settings(max_examples=200, deadline=None)
@given(domains_strategy, st.frozensets(st.integers(1, 6), min_size=1, max_size=3), st.integers(0, 4),
       st.sampled_from(["eq", "le", "ge", "ne"]))
def test_count_keeps_exactly_the_values_of_some_solution(domains, values, limit, op):
    scope = tuple(f"v{i}" for i in range(len(domains)))
    xml = (f"<count><list> {' '.join(scope)} </list><values> {' '.join(map(str, sorted(values)))} </values>"
           f"<condition> ({op},{limit}) </condition></count>")
    test = {"eq": limit.__eq__, "le": limit.__ge__, "ge": limit.__le__, "ne": limit.__ne__}[op]
    expected = projection(domains, lambda t: test(sum(v in values for v in t)))
    assert rule_of(XmlConstraint(xml, "count", scope)).filter(tuple(domains)) == expected


@pytest.mark.parametrize("table", ["supports", "conflicts"])
def test_tables_with_stars_match_any_value(table):
    xml = f"<extension><list> x y z </list><{table}> (0,*,*)(1,2,*)(2,*,3) </{table}></extension>"
    listed = lambda t: t[0] == 0 or (t[0] == 1 and t[1] == 2) or (t[0] == 2 and t[2] == 3)  # noqa: E731
    allows = listed if table == "supports" else (lambda t: not listed(t))
    domains = tuple(frozenset(range(0, 4)) for _ in range(3))
    rule = rule_of(XmlConstraint(xml, xml, ("x", "y", "z")))
    assert rule.filter(domains) == projection(domains, allows)
    narrow = (frozenset({1, 2}), frozenset({0, 1}), frozenset({0, 1, 2, 3}))
    assert rule.filter(narrow) == projection(narrow, allows)


def test_a_constraint_it_cannot_read_is_none():
    assert rule_of(XmlConstraint("<allDifferent> sub(q[1],1) q[0] </allDifferent>", "", ("q[1]", "q[0]"))) is None
    assert rule_of(XmlConstraint("<circuit> x y z </circuit>", "", ("x", "y", "z"))) is None
    assert rule_of(XmlConstraint("<extension><supports> (1,2) </supports></extension>", "", ("x", "y"))) is None


@settings(max_examples=100, deadline=None)
@given(st.lists(st.frozensets(st.integers(1, 4), min_size=1, max_size=4), min_size=5, max_size=5),
       st.integers(4, 12))
def test_consequences_of_rules_together_are_exact(domains, total):
    names = [f"v{i}" for i in range(5)]
    rules = [AllDifferent(tuple(names[:3])), AllDifferent(tuple(names[2:])),
             Sum((names[0], names[4]), (1, 1), total.__eq__, total)]
    reasoner = Reasoner(rules, FAR)
    found = reasoner.consequences([0, 1, 2], dict(zip(names, domains)))
    expected = projection(domains, lambda t: len(set(t[:3])) == 3 and len(set(t[2:])) == 3 and t[0] + t[4] == total)
    assert (None if found is None else tuple(found[v] for v in names)) == expected
