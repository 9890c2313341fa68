"""The kit's propagation told which variable changed since a fixpoint: it reaches the fixpoint a full propagation
reaches, and its searches find a solution exactly when brute force does, over seeded random candidates."""

from __future__ import annotations

import itertools
import random

import pytest

from kernelext.solver.kit.propagation import Reasoner
from kernelext.solver.kit.rules import AllDifferent, AllDifferentList, Sum, Table

pytestmark = pytest.mark.timeout(120)

CELLS = tuple(f"x[{k}]" for k in range(6))
RULES = (  # each one filters to its own fixpoint in one call
    AllDifferent(CELLS[:4]),
    Sum(CELLS[2:], (1, 2, 1, 1), lambda total: total == 9, 9),
    Table((CELLS[0], CELLS[4], CELLS[5]), lambda t: t[0] + t[1] != t[2]),
    AllDifferent((CELLS[1], CELLS[4], CELLS[5])),
)
LISTS = AllDifferentList(CELLS, 2)  # x[0..1], x[2..3], x[4..5] pairwise different: it may need a second call


def holds(rules, values: dict[str, int]) -> bool:
    """Whether the full assignment `values` breaks none of `rules`."""
    for rule in rules:
        after = rule.filter(tuple(frozenset((values[v],)) for v in rule.scope))
        if after is None or not all(after):
            return False
    return True


def candidates(seed: int) -> dict[str, frozenset[int]]:
    pick = random.Random(seed)
    return {v: frozenset(pick.sample(range(4), pick.randint(2, 4))) for v in CELLS}


@pytest.mark.parametrize("seed", range(12))
def test_a_change_from_a_fixpoint_reaches_the_full_propagation_s_fixpoint(seed):
    reasoner = Reasoner(RULES, float("inf"))
    ids = range(len(RULES))
    fixpoint = reasoner.propagate(ids, candidates(seed))
    if fixpoint is None:
        return
    for variable, value in ((v, x) for v in CELLS for x in sorted(fixpoint[v])):
        assumed = {**fixpoint, variable: frozenset((value,))}
        assert reasoner.propagate(ids, assumed, changed=variable) == reasoner.propagate(ids, assumed)


@pytest.mark.parametrize("rules", [RULES, (*RULES[:2], LISTS)], ids=["exact rules", "with a list rule"])
def test_searches_from_a_fixpoint_find_a_solution_exactly_when_brute_force_does(rules):
    reasoner = Reasoner(rules, float("inf"))
    ids = range(len(rules))
    answers = []
    for seed in range(12):
        fixpoint = reasoner.propagate(ids, candidates(seed))
        if fixpoint is None:
            continue
        for variable, value in ((v, x) for v in CELLS for x in sorted(fixpoint[v])):
            assumed = {**fixpoint, variable: frozenset((value,))}
            exists = any(
                holds(rules, dict(zip(CELLS, values)))
                for values in itertools.product(*(sorted(assumed[v]) for v in CELLS))
            )
            found = reasoner.solution(ids, assumed, changed=variable)
            assert (found is not None) == exists and reasoner.unsat(ids, assumed, changed=variable) == (not exists)
            if found is not None:
                assert holds(rules, {v: next(iter(found[v])) for v in CELLS})
            answers.append(exists)
    assert len(answers) > 100 and True in answers and False in answers


def brute_consequences(rules, domains: dict[str, frozenset[int]]) -> dict[str, frozenset[int]] | None:
    """The values some full assignment within `domains` that breaks none of `rules` uses, by brute force."""
    used: dict[str, set[int]] = {v: set() for v in CELLS}
    for values in itertools.product(*(sorted(domains[v]) for v in CELLS)):
        assignment = dict(zip(CELLS, values))
        if holds(rules, assignment):
            for v, x in assignment.items():
                used[v].add(x)
    return {v: frozenset(x) for v, x in used.items()} if all(used.values()) else None


@pytest.mark.parametrize("rules", [RULES, (*RULES[:2], LISTS)], ids=["exact rules", "with a list rule"])
def test_consequences_from_solutions_found_before_are_exact_as_candidates_shrink(rules):
    """Solutions found at wider candidates support values only while they are still within the candidates:
    the consequences are brute force's, however many solutions were kept, and each one kept is a solution."""
    reasoner = Reasoner(rules, float("inf"))
    ids = range(len(rules))
    compared = kept_and_used = 0
    for seed in range(12):
        examples: list = []
        domains = candidates(seed)
        for variable in CELLS:  # the candidates shrink, one cell at a time
            found = reasoner.consequences(ids, domains, examples=examples)
            assert found == brute_consequences(rules, domains)
            assert all(holds(rules, {v: next(iter(e[v])) for v in CELLS}) for e in examples)
            kept_and_used += sum(all(e[v] <= domains[v] for v in CELLS) for e in examples)
            compared += 1
            if len(domains[variable]) > 1:
                domains = {**domains, variable: frozenset(sorted(domains[variable])[1:])}
    assert compared == 72 and kept_and_used > 20
