"""Subsets of a model's constraints solved by CP-SAT in memory (what explanations ask): every subset's answer
agrees with brute force, read afresh or past the subset before it, through constraints that share CP-SAT's
literals (`x == v`) and a variable of one value, and through constraints added afterwards. A minimal conflict found
through CP-SAT's unsat cores is one, by brute force, for every subset that has no solution."""

from __future__ import annotations

import itertools
import signal
import threading
import time
from pathlib import Path

import pytest

import kernelext.solver.cpsat.subsets
from kernelext.solver.cpsat.subsets import ConstraintSubsets, _at_once
from kernelext.solver.errors import BackendUnsupported
from kernelext.xcsp.check import Checker

VARIABLES = '<variables><array id="x" size="[3]"> 0..3 </array><var id="b"> 1 </var></variables>'
CONSTRAINTS = (
    "<allDifferent> x[] </allDifferent>",
    "<sum><list> x[] </list><condition> (le,4) </condition></sum>",
    "<extension><list> x[] </list><conflicts> (0,1,2)(0,1,3)(1,0,2) </conflicts></extension>",  # x == v literals
    "<extension><list> x[] </list><supports> (0,*,1)(1,*,*)(*,2,3)(2,1,*) </supports></extension>",
    "<intension> eq(b,eq(x[0],1)) </intension>",  # b holds only the value 1
    "<intension> eq(add(b,x[1]),1) </intension>",  # unsat alone, b being 1
    "<extension><list> x[1] x[2] </list><conflicts> (1,2)(0,0)(0,3)(1,3) </conflicts></extension>",  # shares x == v
    "<element><list> 3 2 1 0 </list><index> x[0] </index><value> x[2] </value></element>",
    "<intension> ne(mul(x[1],x[2]),0) </intension>",
)
ADDED = "<intension> ne(x[1],x[2]) </intension>"


def brute_force_unsat(path: Path, ids: tuple[int, ...]) -> bool:
    """Whether no assignment of x and b satisfies the constraints `ids`, by enumeration."""
    text = "".join(([*CONSTRAINTS, ADDED])[i] for i in ids)
    path.write_text(f'<instance format="XCSP3" type="CSP">{VARIABLES}<constraints>{text}</constraints></instance>')
    checker = Checker.of_file(path)
    return not any(
        checker.broken({"x[0]": a, "x[1]": b, "x[2]": c, "b": 1}) is None
        for a, b, c in itertools.product(range(4), repeat=3)
    )


@pytest.fixture(scope="module")
def subsets():
    constraints = ConstraintSubsets(VARIABLES, frozenset())
    constraints.add(CONSTRAINTS)
    return constraints


def test_every_subset_is_unsat_exactly_when_brute_force_finds_no_solution(subsets, tmp_path):
    answers = {}
    for size in range(len(CONSTRAINTS) + 1):  # in this order, many a subset begins with the one before
        for ids in itertools.combinations(range(len(CONSTRAINTS)), size):
            answers[ids] = subsets.unsat(ids, 10)
            assert answers[ids] == brute_force_unsat(tmp_path / "subset.xml", ids), ids
    assert True in answers.values() and False in answers.values()  # both answers were checked


def test_a_constraint_added_later_joins_the_subsets(subsets, tmp_path):
    subsets.add([ADDED])
    added = len(CONSTRAINTS)
    for size in range(3):
        for ids in itertools.combinations(range(len(CONSTRAINTS)), size):
            subset = (*ids, added)
            assert subsets.unsat(subset, 10) == brute_force_unsat(tmp_path / "subset.xml", subset), subset


@pytest.mark.parametrize("cores", [1, 2], ids=["one item at a time", "two items at once"])
def test_every_unsat_subset_yields_a_minimal_conflict_and_every_other_none(tmp_path, monkeypatch, cores):
    monkeypatch.setattr(kernelext.solver.cpsat.subsets, "usable_cores", lambda: cores)
    subsets = ConstraintSubsets(VARIABLES, frozenset())
    subsets.add(CONSTRAINTS)
    known: dict = {}

    def unsat(ids) -> bool:
        ids = tuple(sorted(ids))
        if ids not in known:
            known[ids] = brute_force_unsat(tmp_path / "subset.xml", ids)
        return known[ids]

    conflicts = 0
    for size in range(1, len(CONSTRAINTS) + 1):
        for ids in itertools.combinations(range(len(CONSTRAINTS)), size):
            found = subsets.minimal_conflict((), [(i,) for i in ids], 10)
            if not unsat(ids):
                assert found is None, ids
                continue
            conflicts += 1
            kept = [i for (i,) in found]
            assert set(kept) <= set(ids) and unsat(kept), (ids, kept)
            assert all(not unsat([k for k in kept if k != i]) for i in kept), (ids, kept)  # none can go
    assert conflicts > 50


def test_a_minimal_conflict_keeps_its_background_and_its_groups_whole(tmp_path):
    subsets = ConstraintSubsets(VARIABLES, frozenset())
    subsets.add(CONSTRAINTS)
    groups = [(0, 1), (2, 3), (4, 7), (5, 8)]  # with 6, (5, 8) clash, and so do the first three together
    for items in (groups, groups[:3]):
        found = subsets.minimal_conflict((6,), items, 10)
        assert found and set(found) <= set(items), found

        def unsat(kept) -> bool:
            return brute_force_unsat(tmp_path / "subset.xml", (6, *(i for group in kept for i in group)))

        assert unsat(found) and all(not unsat([g for g in found if g != group]) for group in found), found
    assert subsets.minimal_conflict((6,), groups[:2], 10) is None  # they have a solution, with 6


def brute_force_solutions(path: Path, ids: tuple[int, ...], domains: dict) -> list[dict]:
    """The assignments of x within `domains` (b is 1) that satisfy the constraints `ids`, by enumeration."""
    text = "".join(CONSTRAINTS[i] for i in ids)
    path.write_text(f'<instance format="XCSP3" type="CSP">{VARIABLES}<constraints>{text}</constraints></instance>')
    checker = Checker.of_file(path)
    cells = [f"x[{k}]" for k in range(3)]
    assignments = (
        {**dict(zip(cells, values)), "b": 1}
        for values in itertools.product(*(domains.get(cell, range(4)) for cell in cells))
    )
    return [a for a in assignments if checker.broken(a) is None]


WITHIN = ({}, {"x[0]": {0}}, {"x[0]": {1, 2}, "x[2]": {3}}, {"x[1]": {0, 2}, "x[2]": {1, 3}}, {"x[1]": {1}, "b": {1}})


@pytest.mark.parametrize("cores", [1, 2], ids=["one item at a time", "two items at once"])
def test_within_candidates_solutions_and_minimal_conflicts_agree_with_brute_force(tmp_path, monkeypatch, cores):
    """Asked of one model read once, the candidates held as domains between questions and let go after."""
    monkeypatch.setattr(kernelext.solver.cpsat.subsets, "usable_cores", lambda: cores)
    subsets = ConstraintSubsets(VARIABLES, frozenset())
    subsets.add(CONSTRAINTS)
    solutions = conflicts = 0
    for domains in (*WITHIN, WITHIN[0]):  # the last with none held: those held before were let go
        for size in range(1, 4):
            for ids in itertools.combinations(range(len(CONSTRAINTS)), size):
                known = brute_force_solutions(tmp_path / "subset.xml", ids, domains)
                found = subsets.solution_within(ids, domains, 10)
                assert (found in known) if known else found is False, (ids, domains, found)
                conflict = subsets.conflict_within(ids, domains, 10)
                if known:
                    assert conflict is None, (ids, domains)
                    solutions += 1
                    continue
                conflicts += 1
                assert set(conflict) <= set(ids) and not brute_force_solutions(tmp_path / "c.xml", conflict, domains)
                for k in conflict:  # none can go
                    fewer = tuple(i for i in conflict if i != k)
                    assert brute_force_solutions(tmp_path / "c.xml", fewer, domains), (ids, domains, conflict, k)
                cut_short = subsets.conflict_within(ids, domains, 10, below=2)  # without a solution still
                assert cut_short == conflict or (len(cut_short) > 2 and set(cut_short) <= set(ids))
                assert not brute_force_solutions(tmp_path / "c.xml", cut_short, domains)
    assert solutions > 50 and conflicts > 50


def test_a_constraint_cp_sat_does_not_read_is_named():
    subsets = ConstraintSubsets(VARIABLES, frozenset())
    subsets.add(["<stretch><list> x[] </list><values> 0 1 </values><widths> 1..2 1..2 </widths></stretch>"])
    with pytest.raises(BackendUnsupported, match="the constraint <stretch>"):
        subsets.unsat((0,), 10)


def test_stop_ends_a_conflict_search_and_leaves_no_search_running(ctrl_c_interrupts):
    pigeons = 13  # in 12 holes, one `ne` a pair: long to prove for CP-SAT, which has no global view of it
    subsets = ConstraintSubsets(
        f'<variables><array id="p" size="[{pigeons}]"> 0..{pigeons - 2} </array></variables>', frozenset()
    )
    pairs = list(itertools.combinations(range(pigeons), 2))
    subsets.add([f"<intension> ne(p[{i}],p[{j}]) </intension>" for i, j in pairs])
    before = set(threading.enumerate())  # a thread of its own ending meanwhile is no matter
    timer = threading.Timer(1.0, signal.pthread_kill, (threading.main_thread().ident, signal.SIGINT))
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        subsets.minimal_conflict((), [(k,) for k in range(len(pairs))], 600)
    timer.join()
    assert time.monotonic() - started < 60  # a search that ignored Stop would run for its 600 s
    assert not set(threading.enumerate()) - before, "a search left running on its thread"


def test_stop_during_one_of_two_searches_at_once_ends_the_other():
    told = threading.Event()

    def first():
        time.sleep(0.2)
        raise KeyboardInterrupt  # Stop, in the kernel's thread

    def second(stop: threading.Event):
        if stop.wait(60):
            told.set()

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        _at_once(first, second)
    assert told.is_set() and time.monotonic() - started < 30
    assert _at_once(lambda: "first", lambda stop: "second") == ("first", "second")
