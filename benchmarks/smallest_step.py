"""The smallest step at a state of a walkthrough, proven: the fewest constraints that rule out some candidate,
found by OCUS (an optimal constrained unsatisfiable subset, by implicit hitting sets, as in CPMpy's
step-wise explanations), and its time.

Run: python benchmarks/smallest_step.py [--puzzle NAME] [--after N] [--timeout S]

The puzzles are those of benchmarks/walkthrough.py (default: Inkala's Sudoku); the state is the candidates
after the walkthrough's first N deductions (default 1: Inkala's singles, before its largest steps). Each
round, CP-SAT picks the cheapest choice of constraints and of one candidate that hits every correction set
found so far; the walkthrough's own exact search checks whether those constraints rule the candidate out.
When they do not, its solution is grown to a maximal set of constraints it can satisfy, and what that
solution violates or does not take becomes a new correction set. The first choice that rules its
candidate out is a smallest step: no set of fewer constraints rules out any candidate. Prints each round's
cost (a lower bound on the smallest step), the smallest step found and the time, beside the size of the
walkthrough's own step at that state.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from ortools.sat.python import cp_model

sys.path.insert(0, str(Path(__file__).resolve().parent))
from walkthrough import PUZZLES  # noqa: E402

from kernelext.insight import explain  # noqa: E402
from kernelext.pycsp3_glue import operators  # noqa: E402
from kernelext.solver.engine import Solver  # noqa: E402
from kernelext.steps.session import PuzzleSession  # noqa: E402


def smallest_step(reasoner, active: list[int], domains, solution, deadline: float):
    """(rule ids, (variable, value)) of a smallest set of rules ruling out one candidate outside `solution`,
    and the rounds it took; prints each round's lower bound."""
    literals = [(v, x) for v in reasoner.scope(active) for x in sorted(domains[v]) if x not in solution[v]]
    model = cp_model.CpModel()
    use = {i: model.NewBoolVar(f"r{i}") for i in active}
    pick = {lit: model.NewBoolVar(f"{lit}") for lit in literals}
    model.AddExactlyOne(pick.values())
    model.Minimize(sum(use.values()))
    rng, rounds, bound = random.Random(0), 0, -1
    while time.monotonic() < deadline:
        rounds += 1
        hitting = cp_model.CpSolver()
        hitting.parameters.num_workers = 1
        hitting.Solve(model)
        chosen = [i for i in active if hitting.Value(use[i])]
        literal = next(lit for lit in literals if hitting.Value(pick[lit]))
        if len(chosen) > bound:
            bound = len(chosen)
            print(f"  round {rounds}: no step of fewer than {bound} constraints", flush=True)
        assumed = {**domains, literal[0]: frozenset((literal[1],))}
        found = reasoner.solution(chosen, assumed)
        if found is None:
            return chosen, literal, rounds
        grown = list(chosen)
        for i in rng.sample([i for i in active if i not in chosen], len(active) - len(chosen)):
            more = reasoner.solution(grown + [i], {**assumed, **found})
            if more is None:
                more = reasoner.solution(grown + [i], assumed)
            if more is not None:
                grown.append(i)
                found = more
        violated = [use[i] for i in active if i not in grown]
        untaken = [pick[(v, x)] for v, x in literals if found.get(v) != frozenset((x,))]
        model.AddBoolOr(violated + untaken)
    return None, None, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzle", default="inkala sudoku", choices=PUZZLES)
    parser.add_argument("--after", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=3600.0)
    args = parser.parse_args()
    solver = Solver()
    session = PuzzleSession("puzzle", solver=solver)
    for step in PUZZLES[args.puzzle]:
        session.add_step(step, solve=False)
    try:
        with operators.plain_operators(), explain._Context(session, timeout=args.timeout + 600) as context:
            walk = explain._Walk(context)
            for _ in range(args.after):
                walk._deduction(walk.deducer.next(walk.domains))
            domains, reasoner = walk.domains, walk.reasoner
            active = [i for i, rule in enumerate(reasoner.rules) if any(len(domains[v]) > 1 for v in rule.scope)]
            solution = reasoner.solution(active, domains)
            start = time.perf_counter()
            own = walk.deducer.next(domains)
            print(f"{args.puzzle}, after {args.after} deduction(s): the walkthrough's next step has "
                  f"{len(own.ids)} constraints ({time.perf_counter() - start:.1f} s)", flush=True)
            start = time.perf_counter()
            chosen, literal, rounds = smallest_step(reasoner, active, domains, solution,
                                                    time.monotonic() + args.timeout)
            took = time.perf_counter() - start
            if chosen is None:
                print(f"no proof within {args.timeout:g} s ({rounds} rounds)")
                return
            names = [context.culprit(walk.constraint_of[i]).text for i in chosen]
            print(f"smallest step: {len(chosen)} constraints rule out {literal[0]} = {literal[1]}: "
                  f"{'; '.join(names)}\n{rounds} rounds, {took:.1f} s")
    finally:
        solver.close()


if __name__ == "__main__":
    main()
