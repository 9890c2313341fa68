"""`kernelext-grade`: release an exercise to students, or grade their submissions."""

from __future__ import annotations

import argparse
import sys

from kernelext.grading.grade import grade
from kernelext.grading.notebook import release


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kernelext-grade",
                                     description="Release an exercise to students, or grade their submissions.")
    commands = parser.add_subparsers(dest="command", required=True)
    out = commands.add_parser("release", help="write the student notebook (no solutions) and the public instances")
    out.add_argument("exercise_dir")
    out.add_argument("out_dir")
    marks = commands.add_parser("grade", help="grade a folder of submitted notebooks (*.ipynb)")
    marks.add_argument("exercise_dir")
    marks.add_argument("submissions_dir")
    marks.add_argument("out_dir")
    marks.add_argument("--only", action="append", metavar="INSTANCE", help="grade just this instance (repeatable)")
    marks.add_argument("--time-limit", type=float, metavar="S", help="seconds per instance (overrides exercise.json)")
    marks.add_argument("--memory", type=int, metavar="MB", help="memory per instance (overrides exercise.json)")
    marks.add_argument("--workers", type=int, metavar="N", help="instances run at once (default: one per core)")
    args = parser.parse_args(argv)
    try:
        if args.command == "release":
            print(f"Wrote {release(exercise_dir=args.exercise_dir, out_dir=args.out_dir)}")
            return 0
        results = grade(exercise_dir=args.exercise_dir, submissions_dir=args.submissions_dir, out_dir=args.out_dir,
                        only=args.only, time_limit=args.time_limit, memory_mb=args.memory, workers=args.workers)
    except (OSError, ValueError) as error:
        parser.error(str(error))
    for result in results:
        print(result.summary())
    print(f"Graded {len(results)} submission(s): {args.out_dir}/grades.csv, {args.out_dir}/feedback/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
