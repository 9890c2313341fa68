"""A proven smallest step: the fewest rules that rule out some candidate, by OCUS (an optimal constrained
unsatisfiable subset found with implicit hitting sets, as CPMpy's step-wise explanations do).

Each round, CP-SAT picks the fewest rules, with one candidate, that hit every correction set found so far;
the walkthrough's exact search checks whether those rules rule the candidate out. When they do not, the
solution it finds is grown to a maximal set of rules it can satisfy, and the rules it violates with the
candidates it does not take become a new correction set. Every round's cost is a lower bound on the
smallest step, so the first pick that rules its candidate out is a smallest step.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from kernelext.solver.browser_stop import passed
from kernelext.solver.kit.propagation import Candidates, Reasoner, TimeUp

Witness = tuple[frozenset[int], dict[str, int]]  # rules an assignment satisfies, and the assignment
MOST_WITNESSES = 2000  # kept for later proofs, at most


def smallest_refutation(
    reasoner: Reasoner,
    active: Sequence[int],
    domains: Candidates,
    literals: Sequence[tuple[str, int]],
    at_least: int,
    below: int,
    witnesses: list[Witness] | None = None,
    on_bound: Callable[[int], None] = lambda bound: None,
) -> tuple[tuple[int, ...], tuple[str, int]] | None:
    """The fewest rules among `active` (at least `at_least`: fewer are known to force nothing) that rule out
    one of `literals` (variable, value), with that literal, when fewer than `below`; None when no set of fewer
    than `below` rules rules any of them out. Raises TimeUp past the reasoner's deadline.

    `witnesses` are assignments of earlier proofs: those still within `domains` give their correction sets
    at once, and this proof's own are added to the list. `on_bound` hears each new lower bound: no set of
    fewer rules rules out any of the literals."""
    from ortools.sat.python import (
        cp_model,  # deferred: OR-Tools is not in the browser's build, and only this proof needs it
    )

    model = cp_model.CpModel()
    use = {i: model.NewBoolVar(f"rule {i}") for i in active}
    pick = {literal: model.NewBoolVar(f"{literal}") for literal in literals}
    model.AddExactlyOne(pick.values())
    model.Add(sum(use.values()) >= at_least)
    model.Minimize(sum(use.values()))
    shuffle = random.Random(0)  # each round grows in an order of its own: varied correction sets
    bound = at_least - 1
    witnesses = [] if witnesses is None else witnesses

    def correct(satisfied: frozenset[int], assignment: dict[str, int]) -> None:
        """Every step must use a rule the assignment violates, or a candidate it does not take."""
        violated = [use[i] for i in active if i not in satisfied]
        untaken = [pick[(v, x)] for v, x in literals if assignment.get(v) != x]
        model.AddBoolOr(violated + untaken)

    for satisfied, assignment in witnesses:
        if all(x in domains.get(v, ()) for v, x in assignment.items()):
            correct(satisfied, assignment)
    while True:
        if passed(reasoner.deadline):
            raise TimeUp
        hitting = cp_model.CpSolver()
        hitting.parameters.num_workers = 1
        if hitting.Solve(model) != cp_model.OPTIMAL:
            return None
        chosen = [i for i in active if hitting.Value(use[i])]
        if len(chosen) >= below:
            return None
        if len(chosen) > bound:
            bound = len(chosen)
            on_bound(bound)
        literal = next(lit for lit in literals if hitting.Value(pick[lit]))
        assumed = {**domains, literal[0]: frozenset((literal[1],))}
        found = reasoner.solution(chosen, assumed)
        if found is None:
            return tuple(chosen), literal
        grown = dict.fromkeys(chosen)
        for index in shuffle.sample(list(active), len(active)):
            if index not in grown:
                wider = list(grown) + [index]
                more = reasoner.solution(wider, found) or reasoner.solution(wider, assumed)
                if more is not None:
                    grown[index], found = None, more
        assignment = {v: next(iter(d)) for v, d in found.items() if len(d) == 1}  # the candidate's own included
        correct(frozenset(grown), assignment)
        if len(witnesses) < MOST_WITNESSES:
            witnesses.append((frozenset(grown), assignment))
