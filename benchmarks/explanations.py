"""`%puzzle why` and `%puzzle explain` as a notebook user waits for them, in real kernels: why a cell of Inkala's
"hardest" Sudoku has its value, and which constraints clash in a Sudoku given two equal clues in a row.

Run: python benchmarks/explanations.py [--base REV] [--rounds N] [--cells CELL ...] [--idle SECONDS]

The kit of the working tree and, with --base, the kit as it was at the git revision REV (a worktree, first
on PYTHONPATH) answer the same commands in kernels of their own, round after round, side by side. Between the
last step and the command, the kernel is left idle for --idle seconds (1 by default), as a user reads the
step before asking: what a kernel does while it waits counts for neither kit. Printed per command: the median
seconds and the ratio base / now.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernels import ready_kernel, timed_cell, worktree
from walkthrough import PUZZLES, SUDOKU_RULES

CLASHING = (
    *PUZZLES["easy sudoku"][:2],  # the board and its clues
    "satisfy(x[0][2] == 5)",  # a second 5 in the first row
    *SUDOKU_RULES[1:],
)


def built(client, name: str, steps: tuple[str, ...]) -> None:
    """Start puzzle `name` with `steps` in the kernel `client` (not timed)."""
    timed_cell(client, "%load_ext kernelext\nfrom pycsp3 import *")
    timed_cell(client, f"%%puzzle {name} --no-solve\n{steps[0]}")
    for step in steps[1:]:
        timed_cell(client, f"%%puzzle+ --no-solve\n{step}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", metavar="REV", help="also time the kit at this git revision, side by side")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each command (default 3)")
    parser.add_argument("--cells", nargs="*", default=["x[0][1]"], help="cells of Inkala's Sudoku to ask why of")
    parser.add_argument("--idle", type=float, default=1.0, help="seconds between the last step and the command")
    args = parser.parse_args()
    kits = {"now": None}
    with ExitStack() as stack:
        if args.base:
            kits["base"] = str(stack.enter_context(worktree(args.base)))
        commands = [("inkala", PUZZLES["inkala sudoku"], f"%puzzle why {cell} --timeout 300") for cell in args.cells]
        commands.append(("clash", CLASHING, "%puzzle explain --timeout 300"))
        times = {(kit, command): [] for kit in kits for _, _, command in commands}
        for _ in range(args.rounds):
            for name, steps, command in commands:
                for kit, path in kits.items():
                    with ready_kernel(path) as client:
                        built(client, name, steps)
                        time.sleep(args.idle)
                        times[kit, command].append(timed_cell(client, command))
        for _, _, command in commands:
            now = statistics.median(times["now", command])
            line = f"{command:<40} now {now:7.3f} s"
            if args.base:
                base = statistics.median(times["base", command])
                line += f"   base {base:7.3f} s   base / now {base / now:5.2f}x"
            print(line, flush=True)


if __name__ == "__main__":
    main()
