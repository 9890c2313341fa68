"""The %%puzzle / %%puzzle+ cell magics and the %puzzle line commands: parse, delegate, display."""

from __future__ import annotations

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.display import display
from traitlets import Bool, Float, Int, TraitError, Unicode, observe, validate

from kernelext.errors import KernelextError, PuzzleUsageError
from kernelext.kinds import kind_choices, kind_for
from kernelext.magic.commands import (
    GRADER_COMMANDS,
    commands_text,
    count,
    refuse_options,
    run_command,
    seconds,
    sols,
)
from kernelext.magic.puzzle import NotebookPuzzle
from kernelext.pycsp3_glue import model_state
from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.solver.backends import BACKENDS, backends_help
from kernelext.solver.backends.minizinc import MINIZINC_SOLVERS
from kernelext.solver.engine import KEEP, Solver
from kernelext.steps.not_rule import REASONS
from kernelext.steps.session import PuzzleSession
from kernelext.views import picture_for, picture_names


def _with_commands(func):
    """Append every line command (from kernelext.magic.commands) to a magic's docstring, before its options."""
    func.__doc__ = f"{func.__doc__.rstrip()}\n\nLine commands:\n{commands_text()}\n"
    return func


def _step_options(func):
    """The options every step (and `%puzzle solve`) accepts."""
    for option in reversed(
        [
            argument("--show", metavar="VAR", help="the array to draw (default: the first 2-D array declared)"),
            argument(
                "--timeout",
                metavar="S",
                type=seconds,
                help="seconds before the search stops (default: %%config PuzzleMagics.timeout)",
            ),
            argument("--sols", metavar="N|all", help="how many solutions to find: a number or `all` (default 1)"),
            argument(
                "--solver",
                metavar="NAME",
                help=f"the solver: {backends_help()} (default: %%config PuzzleMagics.solver)",
            ),
            argument("--no-solve", action="store_true", help="add the step without solving"),
            argument("--step", metavar="KEY", help="name this step: a cell run again with the same KEY replaces it"),
            argument(
                "--domains", action="store_true", help="also show each cell's domain after propagation (pencil marks)"
            ),
        ]
    ):
        func = option(func)
    return func


@magics_class
class PuzzleMagics(Magics):
    """Build a pycsp3 model one cell at a time, solving and drawing it after each step."""

    timeout = Float(10.0, help="Default time limit of a solve, in seconds.").tag(config=True)
    solver = Unicode("auto", help=f"Default solver, one of {', '.join(BACKENDS)}.").tag(config=True)
    minizinc_solver = Unicode(
        "gecode",
        help=f"The solver MiniZinc runs, one of {', '.join(MINIZINC_SOLVERS)} (the "
        "last three in the browser, or with MiniZinc's own bundle).",
    ).tag(config=True)
    max_solutions = Int(
        KEEP, help="The most solutions `--sols all` keeps for the stepper (the others are counted)."
    ).tag(config=True)
    domains = Bool(False, help="Show pencil marks (domains after propagation) after every step.").tag(config=True)
    strict_indexing = Bool(
        False, help="Refuse an index past the end of an array (pycsp3 wraps it round to the start, and the kit warns)."
    ).tag(config=True)

    def __init__(self, shell=None, **kwargs):
        self._solver = None  # before the traits are set from the configuration: their observers look at it
        super().__init__(shell=shell, **kwargs)
        self.current = None  # the NotebookPuzzle being built
        self._cell_id = None
        self._failed = None  # the name of a puzzle whose %%puzzle cell failed: no current puzzle until one starts
        self.grading = None  # under nbgrader's autograde (`%puzzle grading`): the model is recorded, not run

    @property
    def session(self):
        """The PuzzleSession of the current puzzle, or None."""
        return self.current.session if self.current is not None else None

    @validate("solver")
    def _known_solver(self, proposal):
        if proposal["value"] not in BACKENDS:
            raise TraitError(f"Unknown solver {proposal['value']!r}: use one of {', '.join(BACKENDS)}.")
        return proposal["value"]

    @validate("minizinc_solver")
    def _known_minizinc_solver(self, proposal):
        if proposal["value"] not in MINIZINC_SOLVERS:
            raise TraitError(
                f"Unknown MiniZinc solver {proposal['value']!r}: use one of {', '.join(MINIZINC_SOLVERS)}."
            )
        return proposal["value"]

    @observe("minizinc_solver")
    def _minizinc_solver_changed(self, change):
        if self._solver is not None:
            self._solver.minizinc_solver = change["new"]

    @validate("timeout")
    def _positive_timeout(self, proposal):
        if not 0 < proposal["value"] < float("inf"):
            raise TraitError(f"timeout must be a number of seconds above 0, not {proposal['value']}.")
        return proposal["value"]

    @validate("max_solutions")
    def _positive_max_solutions(self, proposal):
        if proposal["value"] < 1:
            raise TraitError(f"max_solutions must be 1 or more, not {proposal['value']}.")
        return proposal["value"]

    @observe("max_solutions")
    def _max_solutions_changed(self, change):
        if self._solver is not None:
            self._solver.keep = change["new"]

    def remember_cell_id(self, info=None):
        """pre_run_cell hook: keep the id of the cell about to run (front ends that send one)."""
        self._cell_id = getattr(info, "cell_id", None)

    # -- magics ---------------------------------------------------------------------------------

    @magic_arguments()
    @_with_commands
    @argument(
        "words", nargs="*", help="cell form: the puzzle's NAME; line form: a command and its arguments (see below)"
    )
    @argument(
        "--view",
        metavar="KIND",
        help=f"how to draw the model: a grid ({kind_choices()}) or a picture ({', '.join(picture_names())}) "
        "(default: a picture when the posted constraints call for one, else a grid guessed from NAME and the data)",
    )
    @argument("--nodes", metavar="N", type=count, help="with `%%puzzle tree`: how many nodes to record (default 500)")
    @argument("--prove", action="store_true", help="with `%%puzzle walkthrough`: prove every step smallest (slower)")
    @_step_options
    @line_cell_magic
    def puzzle(self, line, cell=None):
        """Start a puzzle (`%%puzzle NAME`, the cell declares its variables) or run a command (`%puzzle steps`).

        Running a `%%puzzle NAME` cell again starts that puzzle afresh.
        """
        args = self._parse(self.puzzle, line)
        if cell is not None:
            self._refuse(refuse_options, "%%puzzle NAME", given_options(self.puzzle, args), start_options())
        if cell is not None and self.grading is not None:
            return print(self.grading.record(f"%%puzzle {line}", cell))
        if cell is not None:
            return self._guarded(self._start, args, cell)
        return self._guarded(self._command, args)

    @magic_arguments()
    @_with_commands
    @argument(
        "--not-rule",
        metavar="WHY",
        choices=list(REASONS),
        help=f"mark the step as not a rule of the puzzle ({', '.join(REASONS)}): it runs here, and the grader "
        "leaves it out when it judges answers",
    )
    @_step_options
    @cell_magic("puzzle+")
    def puzzle_step(self, line, cell):
        """Add the cell as a step of the current puzzle; show what it posted, the status and the grid.

        Running the same cell again (or with the same --step KEY) replaces its earlier version.
        A step that fails is rolled back: the model stays as it was before the cell.
        """
        args = self._parse(self.puzzle_step, line)
        if self.grading is not None:
            return print(self.grading.record(f"%%puzzle+ {line}", cell))
        return self._guarded(self._add, args, cell)

    # -- actions --------------------------------------------------------------------------------

    def _start(self, args, cell):
        if self.current is not None:
            self.current.close()  # a %%puzzle cell ends the previous puzzle, whether or not the new one starts
        model_state.reset()
        self.current, self._failed = None, " ".join(args.words) or "NAME"
        if len(args.words) != 1:
            raise PuzzleUsageError("Name the puzzle: %%puzzle NAME [options], e.g. %%puzzle amaze.")
        if args.view and picture_for(args.view) is None:
            try:
                kind_for(args.view)
            except PuzzleUsageError:
                raise PuzzleUsageError(
                    f"--view {args.view}: no such view (grids: {kind_choices()}; pictures: {', '.join(picture_names())})."
                ) from None
        session = PuzzleSession(
            args.words[0], self.shell.user_ns, solver=self._shared_solver(), timeout=self.timeout, backend=self.solver
        )
        puzzle = NotebookPuzzle(session, self.shell.user_ns, args.view, self.timeout)
        try:
            self._show_step(puzzle, args, cell)
        except BaseException:
            puzzle.close()
            raise
        self.current, self._failed = puzzle, None

    def _add(self, args, cell):
        self._show_step(self._require_puzzle(), args, cell)

    def _show_step(self, puzzle, args, cell):
        puzzle.session.strict_indexing = self.strict_indexing
        report = puzzle.session.add_step(
            cell,
            self._step_key(args),
            solve=not args.no_solve,
            sols=sols(args.sols),
            timeout=args.timeout,
            show=args.show,
            backend=args.solver,
            first_line=2,
            not_rule=getattr(args, "not_rule", None) or "",
        )  # the cell's first line is the magic
        output = puzzle.show(report, current=lambda: self.current is puzzle)
        if args.domains or self.domains:
            puzzle.show_domains(output)

    def _command(self, args):
        name, *rest = args.words or ["help"]
        if name in GRADER_COMMANDS:
            refuse_options(f"%puzzle {name}", given_options(self.puzzle, args), ())
            if len(rest) != 1:
                raise PuzzleUsageError(f"Say which: %puzzle {GRADER_COMMANDS[name][0]}.")
            return self._grader_command(name, rest[0])
        if self.grading is not None:
            return print(f"%puzzle {name}: not run while the grader records the model.")
        run_command(args.words, args, given_options(self.puzzle, args), self._require_puzzle, magic_options)

    def _grader_command(self, name: str, word: str):
        """`%puzzle grading NAME` (nbgrader's autograde: record the model from now on) or `%puzzle points
        GROUP` (the group's points, the cell's value; in a student's own notebook, a check of the public ones)."""
        from kernelext.grading.judging.course_cells import (  # deferred: only graded notebooks need them
            CourseGrading,
            own_points,
        )

        try:
            if name == "grading":
                self.grading = CourseGrading(word, self.shell.user_ns)
                self.shell.input_transformers_cleanup.append(self._recorded_while_grading)
                return print("Grading: the code cells below are recorded, then graded in the grader's sandbox.")
            if self.grading is not None:
                report, points = self.grading.points(word)
            else:
                report, points = own_points(self._require_puzzle().session, word)
        except (OSError, ValueError) as error:
            raise PuzzleUsageError(str(error)) from None
        display(report)
        return points

    def _recorded_while_grading(self, lines: list[str]) -> list[str]:
        """Input transformer while grading: a code cell other than the kit's own is recorded, not run."""
        from kernelext.grading.judging.course_cells import runs_while_grading  # deferred, as in _grader_command

        source = "".join(lines)
        if self.grading is None or not source.strip() or runs_while_grading(source):
            return lines
        return [f"print({self.grading.record_cell(source)!r})\n"]

    # -- helpers --------------------------------------------------------------------------------

    def _parse(self, magic, line):
        try:
            return parse_argstring(magic, line)
        except UsageError as error:
            raise UsageError(f"{error} (see %%puzzle? for the options)") from None

    def _refuse(self, check, *args):
        """`check(*args)`, its PuzzleUsageError shown as IPython's one-line usage error (before any action)."""
        try:
            check(*args)
        except PuzzleUsageError as error:
            raise UsageError(str(error)) from None

    def _guarded(self, action, *args):
        """Run `action` with Python's plain operators (faster; a step's own code gets pycsp3's back), its
        errors (and Stop) shown as one-line messages."""
        try:
            with plain_operators():
                return action(*args)
        except KernelextError as error:
            raise UsageError(str(error)) from None
        except KeyboardInterrupt:
            raise UsageError("Stopped before the end: the puzzle is as it was.") from None

    def _require_puzzle(self):
        if self._failed is not None:
            raise PuzzleUsageError(
                f"No current puzzle: the `%%puzzle {self._failed}` cell failed. Fix it and run it again."
            )
        if self.current is None:
            raise PuzzleUsageError("No puzzle started: run a `%%puzzle NAME` cell first (it declares the variables).")
        return self.current

    def _step_key(self, args):
        if args.step:
            return "step:" + args.step
        return "cell:" + self._cell_id if self._cell_id else None

    def _shared_solver(self):
        if self._solver is None:
            self._solver = Solver(self.solver, self.minizinc_solver, self.max_solutions)
        return self._solver

    def close(self):
        """Release the puzzle's files and the solver's worker."""
        if self.current is not None:
            self.current.close()
        if self._solver is not None:
            self._solver.close()
        if self._recorded_while_grading in self.shell.input_transformers_cleanup:
            self.shell.input_transformers_cleanup.remove(self._recorded_while_grading)


def given_options(magic, args) -> list[str]:
    """The options of `magic` given in `args` (those whose value is not the default), as "--name"."""
    return [
        action.option_strings[-1]
        for action in magic.parser._actions
        if action.option_strings and getattr(args, action.dest) != action.default
    ]


def start_options() -> tuple[str, ...]:
    """The options a `%%puzzle NAME` cell takes: a step's (but --not-rule, a step's own) and --view."""
    step = [action.option_strings[-1] for action in PuzzleMagics.puzzle_step.parser._actions if action.option_strings]
    return ("--view", *(option for option in step if option != "--not-rule"))


def magic_options() -> dict[str, str]:
    """Every option of %%puzzle and %%puzzle+, as {"--name METAVAR": help}."""
    found = {}
    for magic in (PuzzleMagics.puzzle, PuzzleMagics.puzzle_step):
        found.update(
            {
                " ".join([action.option_strings[-1], action.metavar or ""]).strip(): action.help or ""
                for action in magic.parser._actions
                if action.option_strings and action.dest != "help"
            }
        )
    return found
