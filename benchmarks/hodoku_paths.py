"""The walkthrough against HoDoKu's solution paths: on the 26 puzzles of
tests/insight/walkthrough/hodoku_steps.json, the techniques each path names and the level of its hardest.

Run: python benchmarks/hodoku_paths.py [--timeout S] [--limit N]

Each puzzle is built as a session's steps and walked through (one kernel-free process, one solver). Printed
per puzzle: HoDoKu's level and techniques past singles, the walkthrough's rating and named techniques, and
which of HoDoKu's it does not name; then how many puzzles have the same level, and how many name every
technique HoDoKu's path uses. `--limit N` walks the first N puzzles only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from walkthrough import sudoku

from kernelext.insight.walkthrough.driver import walkthrough
from kernelext.insight.walkthrough.techniques import LEVELS, TECHNIQUE_LEVEL
from kernelext.solver.engine import Solver
from kernelext.steps.session import PuzzleSession

ROOT = Path(__file__).resolve().parents[1]
NAMES = {
    "XY-Wing": "XY-wing",
    "XYZ-Wing": "XYZ-wing",
    "W-Wing": "W-wing",
    "Skyscraper": "skyscraper",
    "2-String Kite": "2-string kite",
    "Turbot Fish": "turbot fish",
    "X-Chain": "X-chain",
    "Simple Colors Trap": "simple colouring (trap)",
    "Simple Colors Wrap": "simple colouring (wrap)",
    "X-Wing": "X-wing",
    "Swordfish": "swordfish",
    "Naked Pair": "naked pair",
    "Naked Triple": "naked triple",
    "Hidden Pair": "hidden pair",
    "Hidden Triple": "hidden triple",
    "Remote Pair": "remote pair",
    "Locked Candidates Type 1 (Pointing)": "locked candidates (pointing)",
    "Locked Candidates Type 2 (Claiming)": "locked candidates (claiming)",
}
HODOKU_LEVEL = {**TECHNIQUE_LEVEL, "remote pair": 2}  # HoDoKu's default levels (the walkthrough has no remote pair)
UNNAMED = ("", "singles", "hidden single", "naked single")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per walkthrough (default: 120)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N puzzles (default: all)")
    args = parser.parse_args()
    stored = json.loads((ROOT / "tests" / "insight" / "walkthrough" / "hodoku_steps.json").read_text())
    paths = dict(list(stored.items())[: args.limit])
    solver = Solver()
    same_level = named_all = 0
    try:
        for n, (puzzle, steps) in enumerate(paths.items(), 1):
            session = PuzzleSession(f"hodoku{n}", solver=solver)
            for step in sudoku([puzzle[i : i + 9] for i in range(0, 81, 9)]):
                session.add_step(step, solve=False)
            found = walkthrough(session, timeout=args.timeout)
            ours = {d.technique for d in found.deductions if d.technique not in UNNAMED}
            theirs = {NAMES[step["technique"]] for step in steps}
            level = LEVELS[max((HODOKU_LEVEL[name] for name in theirs), default=0)]
            same_level += found.rating.startswith(level + " ")
            named_all += theirs <= ours
            missing = sorted(theirs - ours)
            print(
                f"{n}. {puzzle}\n   HoDoKu: {level}; {', '.join(sorted(theirs))}\n   walkthrough: {found.rating}; "
                f"{', '.join(sorted(ours))}" + (f"\n   not named: {', '.join(missing)}" if missing else ""),
                flush=True,
            )
    finally:
        solver.close()
    print(
        f"same level: {same_level} of {len(paths)}; every technique of HoDoKu's path named: {named_all} of {len(paths)}"
    )


if __name__ == "__main__":
    main()
