"""Grade 30 copies of the picross solution on its 12 instances (6 public, 6 hidden) and print the wall time.

Usage: python benchmarks/grading.py [--submissions N] [--workers N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from kernelext.grading import grade

EXERCISE = Path(__file__).resolve().parent.parent / "exercises" / "picross"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=30)
    parser.add_argument("--workers", type=int, default=None, help="instances at once (default: one per core)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        submissions = Path(work, "submissions")
        submissions.mkdir()
        for number in range(args.submissions):
            shutil.copyfile(EXERCISE / "instructor.ipynb", submissions / f"student{number:02d}.ipynb")
        start = time.perf_counter()
        results = grade(exercise_dir=EXERCISE, submissions_dir=submissions, out_dir=Path(work, "out"),
                        workers=args.workers)
        wall = time.perf_counter() - start
    runs = sum(len(r.results) for r in results)
    full = sum(r.points == r.max_points for r in results)
    print(f"{len(results)} submissions x {runs // len(results)} instances = {runs} runs on {os.cpu_count()} cores: "
          f"{wall:.1f} s wall ({wall / runs:.2f} s per run); {full}/{len(results)} with full marks")


if __name__ == "__main__":
    main()
