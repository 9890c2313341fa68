"""The `%puzzle COMMAND` line commands: one small handler each, in one table that the router, `%puzzle help`
and the magics' `%%puzzle?` help are all built from."""

from __future__ import annotations

import math
from argparse import ArgumentTypeError, Namespace
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from IPython.display import display

from kernelext.errors import PuzzleUsageError

if TYPE_CHECKING:
    from kernelext.magic.puzzle import NotebookPuzzle

WALK_TIME_FACTOR = 12  # a walkthrough asks many questions: it gets this many times a solve's time limit
WALK_OPTIONS = ("--prove", "--timeout")


@dataclass(frozen=True)
class Command:
    """A line command: `usage` (its name and arguments), what it does, its handler (called with the current
    puzzle, the parsed options and the words after the name) and the options it takes."""

    usage: str
    summary: str
    run: Callable[[NotebookPuzzle, Namespace, list[str]], None]
    options: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.usage.split()[0]


def sols(text: str | None) -> int | str:
    """The `--sols` option: a positive number or "all" (1 when not given)."""
    if text is None:
        return 1
    if text == "all":
        return "all"
    if text.isdigit() and int(text) > 0:
        return int(text)
    raise PuzzleUsageError(f"--sols {text}: give a positive number or `all`.")


def seconds(text: str) -> float:
    """The `--timeout` option: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise ArgumentTypeError(f"give a number of seconds, not {text!r}") from None
    if not 0 < value < math.inf:
        raise ArgumentTypeError(f"give a number of seconds above 0, not {text}")
    return value


def count(text: str) -> int:
    """The `--nodes` option: a whole number above 0."""
    if not text.isdigit() or int(text) == 0:
        raise ArgumentTypeError(f"give a whole number above 0, not {text}")
    return int(text)


def refuse_options(what: str, given: list[str], takes: tuple[str, ...]) -> None:
    """PuzzleUsageError when an option of `given` is not one `what` takes, naming those it takes."""
    extra = [option for option in given if option not in takes]
    if not extra:
        return
    if not takes:
        raise PuzzleUsageError(f"{what} takes no option: drop {', '.join(extra)}.")
    raise PuzzleUsageError(f"{what} does not take {', '.join(extra)}: its options are {', '.join(takes)}.")


def _no_arguments(command: str, rest: list[str]) -> None:
    if rest:
        raise PuzzleUsageError(f"%puzzle {command} takes no argument.")


def _steps(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    _no_arguments("steps", rest)
    print(puzzle.session.steps_text())


def _undo(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    _no_arguments("undo", rest)
    print(puzzle.session.undo())
    if puzzle.session.steps:
        puzzle.show(puzzle.session.state_report(sols=sols(args.sols), timeout=args.timeout))


def _solve(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    _no_arguments("solve", rest)
    if args.show:
        puzzle.session.set_show(args.show)
    puzzle.show(puzzle.session.state_report(sols=sols(args.sols), timeout=args.timeout, backend=args.solver))


def _export(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    if len(rest) != 1:
        raise PuzzleUsageError("Say where to write: %puzzle export FILE.xml (model) or FILE.json (solution).")
    print(f"Wrote {puzzle.session.export(rest[0]).name}")


def _save(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    if len(rest) != 1:
        raise PuzzleUsageError("Say where to draw the grid: %puzzle save FILE.png (or .svg, .pdf).")
    puzzle.save(rest[0])


def _domains(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    _no_arguments("domains", rest)
    puzzle.show_domains(fresh=True)


def _tree(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    _no_arguments("tree", rest)
    puzzle.show_tree(args.nodes, args.timeout)


def _check(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    from kernelext.grading import (
        check_public,  # deferred: the grader's modules add 0.15 s to %load_ext
    )

    if len(rest) > 1:
        raise PuzzleUsageError("%puzzle check [DIR]: DIR is the exercise folder (default: this one).")
    display(check_public(puzzle.session, rest[0] if rest else ".", timeout=args.timeout))


def _explain(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    from kernelext.insight.explain import (
        explain,  # deferred: the explanations add 0.09 s to %load_ext
    )

    _no_arguments("explain", rest)
    puzzle.show_explanation(explain(puzzle.session, timeout=puzzle.explain_timeout(args.timeout)))


def _why(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    from kernelext.insight.explain import (
        why,  # deferred: the explanations add 0.09 s to %load_ext
    )

    if len(rest) != 1:
        raise PuzzleUsageError("Name the cell: %puzzle why x[3][4].")
    puzzle.show_explanation(why(puzzle.session, rest[0], timeout=puzzle.explain_timeout(args.timeout)))


def _hint(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    _no_arguments("hint", rest)
    _walk(puzzle, args, 1)


def _hints(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    if rest and not (len(rest) == 1 and rest[0].isdigit() and int(rest[0]) > 0):
        raise PuzzleUsageError("%puzzle hints [N]: N is how many deductions at most (1 or more).")
    _walk(puzzle, args, int(rest[0]) if rest else None)


def _walkthrough(puzzle: NotebookPuzzle, args: Namespace, rest: list[str]) -> None:
    _no_arguments("walkthrough", rest)
    _walk(puzzle, args, None)


def _walk(puzzle: NotebookPuzzle, args: Namespace, limit: int | None) -> None:
    from kernelext.insight.walkthrough.driver import (
        walkthrough,  # deferred: the explanations add 0.09 s to %load_ext
    )

    timeout = args.timeout or puzzle.timeout * WALK_TIME_FACTOR
    puzzle.show_walkthrough(walkthrough(puzzle.session, timeout=timeout, limit=limit, prove=args.prove))


COMMANDS = MappingProxyType(
    {
        command.name: command
        for command in (
            Command("steps", "list the steps of the current puzzle", _steps),
            Command(
                "undo",
                "undo the last change (drop the step just added, or put back the one just edited) and solve again",
                _undo,
                ("--sols", "--timeout"),
            ),
            Command(
                "solve",
                "solve again, e.g. `%puzzle solve --sols all` or `--timeout 60`",
                _solve,
                ("--sols", "--timeout", "--solver", "--show"),
            ),
            Command("export FILE", "write the model (FILE.xml, XCSP3) or the current solution (FILE.json)", _export),
            Command(
                "save FILE",
                "draw the current grid into FILE.svg, FILE.png (both also in the browser) or FILE.pdf; "
                "a PNG or PDF gets its text form beside it (FILE.txt, its alt text)",
                _save,
            ),
            Command("domains", "the pencil marks: each cell's values left after propagation", _domains),
            Command(
                "tree [--nodes N]",
                "solve while recording the search tree (failures: red squares ✗, solutions: green diamonds ✓)",
                _tree,
                ("--nodes", "--timeout"),
            ),
            Command(
                "check [DIR]",
                "run the model on an exercise's public instances (DIR holds exercise.json; default: here)",
                _check,
                ("--timeout",),
            ),
            Command(
                "explain",
                "after UNSAT: a minimal set of constraints that cannot hold together",
                _explain,
                ("--timeout",),
            ),
            Command(
                "why CELL",
                "why a cell has its value (e.g. `%puzzle why x[3][4]`): the constraints that force it",
                _why,
                ("--timeout",),
            ),
            Command(
                "hint",
                "the walkthrough's first step: new facts from the fewest constraints (--prove: proven the fewest)",
                _hint,
                WALK_OPTIONS,
            ),
            Command("hints [N]", "the walkthrough's first N steps", _hints, WALK_OPTIONS),
            Command(
                "walkthrough [--prove]",
                "the whole solve from the givens, deduction by deduction, as a puzzle book "
                "explains it; --prove proves each step smallest (slower)",
                _walkthrough,
                WALK_OPTIONS,
            ),
        )
    }
)
HELP = "help", "show this summary"  # the one command that needs no puzzle: run_command answers it
GRADER_COMMANDS = MappingProxyType(  # answered by the magics, which hold the grader's state
    {
        "grading": ("grading NAME", "(in nbgrader's autograde) record the %%puzzle cells below for the grader"),
        "points": ("points GROUP", "a graded group's points (public, hidden or a part): nbgrader's test cells"),
    }
)


def commands_text() -> str:
    """Every line command, one per line."""
    usages = [(command.usage, command.summary) for command in COMMANDS.values()] + [*GRADER_COMMANDS.values(), HELP]
    return "\n".join(f"  %puzzle {usage:<17} {summary}" for usage, summary in usages)


def help_text(options: dict[str, str]) -> str:
    """The summary `%puzzle help` prints: the magics, every line command and every option."""
    lines = [
        "%%puzzle NAME [options]   start a puzzle; the cell declares its variables",
        "%%puzzle+ [options]       add the cell as a step (run again: replaces it)",
        "Line commands:",
        commands_text(),
        "Options (%%puzzle? and %%puzzle+? say which magic takes which):",
    ]
    lines += [f"  {name:<24} {text}" for name, text in options.items()]
    return "\n".join(lines)


def run_command(
    words: list[str],
    args: Namespace,
    given: list[str],
    current: Callable[[], NotebookPuzzle],
    options: Callable[[], dict[str, str]],
) -> None:
    """Route `%puzzle WORDS...` to its handler, with the options `given` refused unless the command takes them;
    `current()` gives the current puzzle (or says there is none), `options()` every option of the magics (for
    `%puzzle help`)."""
    name, *rest = words or ["help"]
    if name == "help":
        refuse_options("%puzzle help", given, ())
        _no_arguments("help", rest)
        print(help_text(options()))
        return
    command = COMMANDS.get(name)
    if command is None:
        raise PuzzleUsageError(f"Unknown command {name!r}: use one of {', '.join([*COMMANDS, 'help'])}.")
    refuse_options(f"%puzzle {name}", given, command.options)
    command.run(current(), args, rest)
