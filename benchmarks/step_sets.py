"""Does any set of K constraints force something at a state of a walkthrough? Every connected set of K of
the model's constraints is solved exactly there (its exact consequences against the candidates), to see how
small the next step could be.

Run: python benchmarks/step_sets.py K [--puzzle NAME] [--after N] [--part I/P]

The puzzles are those of benchmarks/walkthrough.py (default: Inkala's Sudoku). The state is the candidates
after the walkthrough's first N deductions (default 1: Inkala's singles, after which its largest steps come).
`--part I/P` checks the I-th of P equal slices of the sets (1-based), so that P processes share the work.
Prints the number of sets, each set that forces something with what it removes, and the time.
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
from kernelext.insight.walkthrough.deduction import connected_sets
from kernelext.pycsp3_glue import operators
from kernelext.solver.engine import Solver
from kernelext.steps.session import PuzzleSession


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("size", type=int)
    parser.add_argument("--puzzle", default="inkala sudoku", choices=PUZZLES)
    parser.add_argument("--after", type=int, default=1)
    parser.add_argument("--part", default="1/1")
    args = parser.parse_args()
    part, parts = map(int, args.part.split("/"))
    solver = Solver()
    session = PuzzleSession("puzzle", solver=solver)
    for step in PUZZLES[args.puzzle]:
        session.add_step(step, solve=False)
    try:
        with operators.plain_operators(), subset_solves.SubsetSolves(session, timeout=10**6) as context:
            walk = driver._Walk(context)
            for _ in range(args.after):
                walk._deduction(walk.deducer.next(walk.domains))
            domains, deducer = walk.domains, walk.deducer
            active = [
                i for i, rule in enumerate(deducer.reasoner.rules) if any(len(domains[v]) > 1 for v in rule.scope)
            ]
            sets = list(connected_sets(deducer.reasoner, active, args.size))
            mine = sets[len(sets) * (part - 1) // parts : len(sets) * part // parts]
            print(
                f"{args.puzzle}, after {args.after} deduction(s): {len(active)} constraints still open, "
                f"{len(sets)} connected sets of {args.size}; checking {len(mine)} (part {args.part})",
                flush=True,
            )
            start, forcing = time.perf_counter(), 0
            for ids in mine:
                changed = deducer._set_consequences(ids, domains)
                if changed:
                    forcing += 1
                    removed = {v: sorted(domains[v] - left) for v, left in changed.items()}
                    print(
                        f"forces: {[context.culprit(walk.constraint_of[i]).text for i in ids]}: {removed}", flush=True
                    )
            print(f"{forcing} of {len(mine)} sets force something; {time.perf_counter() - start:.0f} s")
    finally:
        solver.close()


if __name__ == "__main__":
    main()
