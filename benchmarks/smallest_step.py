"""The smallest step at a state of a walkthrough, proven: the fewest constraints that rule out some candidate,
found by OCUS (an optimal constrained unsatisfiable subset, by implicit hitting sets, as in CPMpy's
step-wise explanations), and its time.

Run: python benchmarks/smallest_step.py [--puzzle NAME] [--after N] [--timeout S]

The puzzles are those of benchmarks/walkthrough.py (default: Inkala's Sudoku); the state is the candidates
after the walkthrough's first N deductions (default 1: Inkala's singles, before its largest steps). The
proof is `kernelext.insight.walkthrough.smallest` (what `%puzzle walkthrough --prove` runs for each step
not proven smallest), started from no lower bound. Prints the size of the walkthrough's own step at that
state and its time, then each lower bound as it rises, the smallest step and the time to find and prove it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from walkthrough import PUZZLES

from kernelext.insight import subset_solves
from kernelext.insight.walkthrough import driver
from kernelext.insight.walkthrough.smallest import smallest_refutation
from kernelext.pycsp3_glue import operators
from kernelext.solver.engine import Solver
from kernelext.solver.kit.propagation import TimeUp
from kernelext.steps.session import PuzzleSession


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
        with operators.plain_operators(), subset_solves.SubsetSolves(session, timeout=args.timeout + 600) as context:
            walk = driver._Walk(context)
            for _ in range(args.after):
                walk._deduction(walk.deducer.next(walk.domains))
            domains, reasoner = walk.domains, walk.reasoner
            active = [i for i, rule in enumerate(reasoner.rules) if any(len(domains[v]) > 1 for v in rule.scope)]
            solution = reasoner.solution(active, domains)
            start = time.perf_counter()
            own = walk.deducer.next(domains)
            print(
                f"{args.puzzle}, after {args.after} deduction(s): the walkthrough's next step has "
                f"{len(own.ids)} constraints ({time.perf_counter() - start:.1f} s)",
                flush=True,
            )
            literals = [(v, x) for v in reasoner.scope(active) for x in sorted(domains[v]) if x not in solution[v]]
            reasoner.deadline = time.monotonic() + args.timeout
            start = time.perf_counter()
            try:
                chosen, literal = smallest_refutation(
                    reasoner,
                    active,
                    domains,
                    literals,
                    1,
                    len(active) + 1,
                    on_bound=lambda k: print(
                        f"  {time.perf_counter() - start:.0f} s: no step of fewer than {k} constraints", flush=True
                    ),
                )
            except TimeUp:
                print(f"no proof within {args.timeout:g} s")
                return
            names = [context.culprit(walk.constraint_of[i]).text for i in chosen]
            print(
                f"smallest step: {len(chosen)} constraints rule out {literal[0]} = {literal[1]}: "
                f"{'; '.join(names)}\n{time.perf_counter() - start:.1f} s"
            )
    finally:
        solver.close()


if __name__ == "__main__":
    main()
