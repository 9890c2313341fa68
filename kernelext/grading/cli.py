"""`kernelext-grade`: make an exercise, fill and validate its instances, make new ones, release it to students,
grade their submissions, or grade one for a platform."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from kernelext.grading.authoring.author import new_exercise
from kernelext.grading.authoring.generate import PROGRAM, GiveUp, generate
from kernelext.grading.authoring.instances import fill_instances
from kernelext.grading.authoring.nbgrader_course import nbgrader_source
from kernelext.grading.authoring.preflight import validate
from kernelext.grading.format.answer_checks import ExerciseFault
from kernelext.grading.format.release import release
from kernelext.grading.judging.grade import grade
from kernelext.grading.reports.platforms import PLATFORMS, results_json
from kernelext.grading.reports.submissions import roll_call
from kernelext.grading.runs.sandbox import MODES


@dataclass(frozen=True)
class Subcommand:
    """A `kernelext-grade` command: its name and help, the arguments it adds to its parser, and what runs it
    (with the parsed arguments; it returns the exit code)."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def parser() -> argparse.ArgumentParser:
    """`kernelext-grade`'s parser: a subcommand per entry of `SUBCOMMANDS` (the docs' reference is made from it)."""
    top = argparse.ArgumentParser(
        prog="kernelext-grade", description="Release an exercise to students, or grade their submissions."
    )
    subparsers = top.add_subparsers(dest="command", required=True)
    for command in SUBCOMMANDS.values():
        command.arguments(subparsers.add_parser(command.name, help=command.help))
    return top


def main(argv: list[str] | None = None) -> int:
    command_line = parser()
    args = command_line.parse_args(argv)
    try:
        return SUBCOMMANDS[args.command].run(args)
    except (OSError, ValueError) as error:
        command_line.error(str(error))


def _new_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exercise_dir")
    parser.add_argument("--from", dest="notebook", required=True, metavar="NOTEBOOK")
    parser.add_argument("--answer", metavar="ARRAY", help="the array graded (default: the first one declared)")
    parser.add_argument("--sols", choices=["1", "all"], default="1", help="grade one solution, or all of them")
    parser.add_argument("--public", nargs="*", default=[], metavar="JSON", help="more public instance files")
    parser.add_argument("--hidden", nargs="*", default=[], metavar="JSON", help="hidden instance files")
    parser.add_argument(
        "--checker",
        default="reference",
        metavar="CHECK",
        help="reference (the notebook's model, the default), FILE.py:FUNCTION (copied in), or a kind's",
    )


def _new(args) -> int:
    sols = "all" if args.sols == "all" else 1
    return _say(
        new_exercise(
            args.exercise_dir,
            args.notebook,
            answer=args.answer,
            sols=sols,
            public=tuple(args.public),
            hidden=tuple(args.hidden),
            checker=args.checker,
        ),
        [],
    )


def _exercise_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exercise_dir")


def _instances(args) -> int:
    return _say(*fill_instances(args.exercise_dir), done=f"Next: kernelext-grade validate {args.exercise_dir}")


def _generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exercise_dir")
    parser.add_argument(
        "--like",
        required=True,
        metavar="INSTANCE",
        help="an instance file of the exercise (or its name): the new ones are shaped like it",
    )
    parser.add_argument("--count", type=int, required=True, metavar="N", help="how many instances to make")
    parser.add_argument(
        "--rating", metavar="LEVEL", help="the walkthrough's difficulty: easy, medium, hard, unfair or extreme"
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="the same seed makes the same files (default: the first seed whose files do not exist)",
    )
    parser.add_argument("--out", metavar="DIR", help="where to write them (default: the exercise's hidden/)")


def _generate(args) -> int:
    folder = Path(args.exercise_dir)
    try:
        generate(
            exercise_dir=folder,
            like=args.like,
            count=args.count,
            rating=args.rating,
            seed=args.seed,
            out_dir=args.out,
            progress=lambda made: print(made.line(folder), flush=True),
        )
    except (OSError, ValueError, ExerciseFault, GiveUp) as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)
        return 2 if isinstance(error, (OSError, ValueError)) else 1
    print(f"Next: kernelext-grade validate {args.exercise_dir}")
    return 0


def _validate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exercise_dir")
    parser.add_argument("--sandbox", choices=MODES, default="auto")


def _validate(args) -> int:
    return _say(
        *validate(args.exercise_dir, sandbox=args.sandbox),
        done=f"Ready: kernelext-grade release {args.exercise_dir} OUT_DIR",
    )


def _release_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exercise_dir")
    parser.add_argument("out_dir")


def _release(args) -> int:
    print(f"Wrote {release(exercise_dir=args.exercise_dir, out_dir=args.out_dir)}")
    return 0


def _grade_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exercise_dir")
    parser.add_argument("submissions_dir")
    parser.add_argument("out_dir")
    _options(parser)
    parser.add_argument("--scores", metavar="CSV", help="the written questions' points: student,Q1,Q2...")
    parser.add_argument("--assignment", metavar="NAME", help="nbgrader's assignment name (default: the exercise's)")
    parser.add_argument("--dask", metavar="SCHEDULER", help="run on a Dask cluster, e.g. tcp://127.0.0.1:8786")
    parser.add_argument("--quiet", action="store_true", help="no progress line per submission")


def _results_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exercise_dir")
    parser.add_argument("notebook")
    parser.add_argument("results_json")
    parser.add_argument("--platform", choices=PLATFORMS, default="gradescope")
    _options(parser)


def _say(told: list[str], problems: list[str], done: str = "") -> int:
    """Print what was done, then the problems (exit code 1) or the next command (0)."""
    for line in told:
        print(line)
    for line in problems:
        print(f"PROBLEM {line}")
    if problems:
        print(f"{len(problems)} problem(s) to fix.")
        return 1
    if done:
        print(done)
    return 0


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", action="append", metavar="NAME", help="grade just this instance or part (repeatable)")
    parser.add_argument("--time-limit", type=float, metavar="S", help="seconds per run (overrides exercise.json)")
    parser.add_argument("--memory", type=int, metavar="MB", help="memory per run (overrides exercise.json)")
    parser.add_argument(
        "--workers", type=int, metavar="N", help="runs at once (default: one per core this process may use)"
    )
    parser.add_argument(
        "--sandbox",
        choices=MODES,
        default="auto",
        help="where student code runs: bwrap (sealed), process, or auto (bwrap when it works)",
    )
    parser.add_argument(
        "--max-timeouts",
        type=int,
        metavar="N",
        help="stop a notebook's runs after N time-outs (0: never; default from exercise.json, else 2)",
    )
    parser.add_argument("--budget", type=float, metavar="S", help="seconds of runs a notebook may use in all")


def _limits(args) -> dict:
    return dict(
        only=args.only,
        time_limit=args.time_limit,
        memory_mb=args.memory,
        workers=args.workers,
        sandbox=args.sandbox,
        max_timeouts=args.max_timeouts,
        budget=args.budget,
    )


def _grade(args) -> int:
    count = []

    def progress(result) -> None:
        count.append(result)
        print(
            f"[{len(count)}] {result.student}: {result.points:g}/{result.max_points:g} points",
            file=sys.stderr,
            flush=True,
        )

    with _dask(args.dask) as client:
        results = grade(
            exercise_dir=args.exercise_dir,
            submissions_dir=args.submissions_dir,
            out_dir=args.out_dir,
            executor=client,
            scores=args.scores,
            assignment=args.assignment,
            progress=None if args.quiet else progress,
            **_limits(args),
        )
    for result in results:
        print(result.summary())
    print(f"Wrote {args.out_dir}/grades.csv, {args.out_dir}/feedback/")
    for line in roll_call(results):
        print(line)
    return 0


def _results(args) -> int:
    notebook = Path(args.notebook)
    if not notebook.is_file():
        raise FileNotFoundError(f"No notebook {notebook}: give the submitted .ipynb file.")
    with tempfile.TemporaryDirectory(prefix="kernelext-results-") as work:
        (Path(work) / "in").mkdir()
        (Path(work) / "in" / "submission.ipynb").write_bytes(notebook.read_bytes())
        [result] = grade(
            exercise_dir=args.exercise_dir,
            submissions_dir=Path(work) / "in",
            out_dir=Path(work) / "out",
            **_limits(args),
        )
    Path(args.results_json).write_text(json.dumps(results_json(result, args.platform), indent=1) + "\n")
    print(result.feedback())
    return 0


def _nbgrader_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exercise_dir")
    parser.add_argument("course_dir", help="nbgrader's course folder (CourseDirectory.root)")
    parser.add_argument("--assignment", metavar="NAME", help="the assignment's name (default: the exercise's)")


def _nbgrader(args) -> int:
    assignment = args.assignment or Path(args.exercise_dir).resolve().name
    return _say(nbgrader_source(args.exercise_dir, args.course_dir, assignment), [])


@contextlib.contextmanager
def _dask(address: str | None):
    """A Dask client connected to `address` (None: no client)."""
    if address is None:
        yield None
        return
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--dask needs Dask's distributed package: pip install distributed") from None
    with Client(address, timeout=30) as client:
        try:
            client.wait_for_workers(1, timeout=60)
        except TimeoutError:
            raise ValueError(
                f"No Dask worker joined the scheduler at {address} within 60 s: start one with `dask worker {address}`."
            ) from None
        yield client


SUBCOMMANDS = MappingProxyType(
    {
        command.name: command
        for command in (
            Subcommand(
                "new",
                "make an exercise folder from a notebook whose %%%%puzzle cells hold the solution and whose "
                "first cell binds data",
                _new_arguments,
                _new,
            ),
            Subcommand(
                "instances",
                "fill each instance's expected facts from the instructor's model",
                _exercise_argument,
                _instances,
            ),
            Subcommand(
                "validate",
                "grade the instructor and the student notebooks before release",
                _validate_arguments,
                _validate,
            ),
            Subcommand(
                "generate",
                "write new instances shaped like one of the exercise's, each with one solution (and a "
                "walkthrough rating)",
                _generate_arguments,
                _generate,
            ),
            Subcommand(
                "release",
                "write the student notebook (no solutions) and the public instances",
                _release_arguments,
                _release,
            ),
            Subcommand(
                "grade", "grade a folder of submitted notebooks (or nbgrader's submitted/)", _grade_arguments, _grade
            ),
            Subcommand(
                "results", "grade one notebook and write a platform's results.json", _results_arguments, _results
            ),
            Subcommand(
                "nbgrader",
                "write an nbgrader assignment's source (COURSE_DIR/source/NAME/) whose autograder cells grade "
                "the model, the exercise kept beside it for the grader",
                _nbgrader_arguments,
                _nbgrader,
            ),
        )
    }
)


if __name__ == "__main__":
    sys.exit(main())
