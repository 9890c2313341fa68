"""The %%puzzle / %%puzzle+ cell magics and the %puzzle line commands: parse, delegate, display."""

from __future__ import annotations

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.display import display
from traitlets import Bool, Float, TraitError, Unicode, validate

from kernelext.errors import KernelextError, PuzzleUsageError
from kernelext.kinds import view_choices
from kernelext.solver.backends import BACKENDS, backends_help

COMMANDS = {
    "steps": "list the steps of the current puzzle",
    "undo": "undo the last change (drop the step just added, or put back the one just edited) and solve again",
    "solve": "solve again, e.g. `%puzzle solve --sols all` or `--timeout 60`",
    "export FILE": "write the model (FILE.xml, XCSP3) or the current solution (FILE.json)",
    "save FILE": "draw the current grid into FILE.png, FILE.svg or FILE.pdf",
    "domains": "the pencil marks: each cell's values left after propagation",
    "tree [--nodes N]": "solve while recording the search tree (failures red, solutions green)",
    "check [DIR]": "run the model on an exercise's public instances (DIR holds exercise.json; default: here)",
    "explain": "after UNSAT: a minimal set of constraints that cannot hold together",
    "why CELL": "why a cell has its value (e.g. `%puzzle why x[3][4]`): the constraints that force it",
    "hint": "the next cell that follows from the fewest constraints",
    "hints [N]": "hints one after the other, up to N (default: until the grid is solved)",
    "help": "show this summary",
}


def _with_commands(func):
    """Append every line command, from COMMANDS, to a magic's docstring (before its options are added)."""
    listed = "\n".join(f"  %puzzle {name:<17} {text}" for name, text in COMMANDS.items())
    func.__doc__ = f"{func.__doc__.rstrip()}\n\nLine commands:\n{listed}\n"
    return func


def _step_options(func):
    """The options every step (and `%puzzle solve`) accepts."""
    for option in reversed([
        argument("--show", metavar="VAR", help="the array to draw (default: the first 2-D array declared)"),
        argument("--timeout", metavar="S", type=float, help="seconds before the search stops (default: %%config PuzzleMagics.timeout)"),
        argument("--sols", metavar="N|all", help="how many solutions to find: a number or `all` (default 1)"),
        argument("--solver", metavar="NAME", help=f"the solver: {backends_help()} "
                 "(default: %%config PuzzleMagics.solver)"),
        argument("--no-solve", action="store_true", help="add the step without solving"),
        argument("--step", metavar="KEY", help="name this step: a cell run again with the same KEY replaces it"),
        argument("--domains", action="store_true", help="also show each cell's domain after propagation (pencil marks)"),
    ]):
        func = option(func)
    return func


@magics_class
class PuzzleMagics(Magics):
    """Build a pycsp3 model one cell at a time, solving and drawing it after each step."""

    timeout = Float(10.0, help="Default time limit of a solve, in seconds.").tag(config=True)
    solver = Unicode("ace", help=f"Default solver, one of {', '.join(BACKENDS)}.").tag(config=True)
    domains = Bool(False, help="Show pencil marks (domains after propagation) after every step.").tag(config=True)

    def __init__(self, shell=None, **kwargs):
        super().__init__(shell=shell, **kwargs)
        self.session = None
        self.view = None
        self._domains = None  # the pencil marks shown last, to mark what the next step removes
        self._solver = None
        self._cell_id = None
        self._failed = None  # the name of a puzzle whose %%puzzle cell failed: no current puzzle until one starts
        self._java_checked = False  # Java is looked for once, at the first %%puzzle cell
        self._java_fallback = None  # "ortools" when there is no Java and the default solver was asked for

    @validate("solver")
    def _known_solver(self, proposal):
        if proposal["value"] not in BACKENDS:
            raise TraitError(f"Unknown solver {proposal['value']!r}: use one of {', '.join(BACKENDS)}.")
        return proposal["value"]

    def remember_cell_id(self, info=None):
        """pre_run_cell hook: keep the id of the cell about to run (front ends that send one)."""
        self._cell_id = getattr(info, "cell_id", None)

    # -- magics ---------------------------------------------------------------------------------

    @magic_arguments()
    @_with_commands
    @argument("words", nargs="*", help="cell form: the puzzle's NAME; line form: a command and its arguments (see below)")
    @argument("--view", metavar="KIND", help=f"how to draw the grid: {view_choices()} (default: guessed from NAME "
              "and the data)")
    @argument("--nodes", metavar="N", type=int, help="with `%%puzzle tree`: how many nodes to record (default 500)")
    @_step_options
    @line_cell_magic
    def puzzle(self, line, cell=None):
        """Start a puzzle (`%%puzzle NAME`, the cell declares its variables) or run a command (`%puzzle steps`).

        Running a `%%puzzle NAME` cell again starts that puzzle afresh.
        """
        args = self._parse(self.puzzle, line)
        if cell is not None:
            return self._guarded(self._start, args, cell)
        return self._guarded(self._command, args)

    @magic_arguments()
    @_with_commands
    @_step_options
    @cell_magic("puzzle+")
    def puzzle_step(self, line, cell):
        """Add the cell as a step of the current puzzle; show what it posted, the status and the grid.

        Running the same cell again (or with the same --step KEY) replaces its earlier version.
        A step that fails is rolled back: the model stays as it was before the cell.
        """
        args = self._parse(self.puzzle_step, line)
        return self._guarded(self._add, args, cell)

    # -- actions --------------------------------------------------------------------------------

    def _start(self, args, cell):
        from kernelext.session import PuzzleSession
        from kernelext.kinds import kind_for

        from kernelext import model_state

        if self.session is not None:
            self.session.close()  # a %%puzzle cell ends the previous puzzle, whether or not the new one starts
        model_state.reset()
        self.session, self.view, self._domains = None, args.view, None
        self._failed = " ".join(args.words) or "NAME"
        if len(args.words) != 1:
            raise PuzzleUsageError("Name the puzzle: %%puzzle NAME [options], e.g. %%puzzle amaze.")
        if args.view:
            kind_for(args.view)
        session = PuzzleSession(args.words[0], self.shell.user_ns, solver=self._shared_solver(),
                                timeout=self.timeout, backend=self._backend_with_java_check())
        try:
            self._show_step(session, args, cell)
        except BaseException:
            session.close()
            raise
        self.session, self._failed = session, None

    def _add(self, args, cell):
        self._show_step(self._require_session(), args, cell)

    def _show_step(self, session, args, cell):
        report = session.add_step(cell, self._step_key(args), solve=not args.no_solve, sols=_sols(args.sols),
                                  timeout=args.timeout, show=args.show, backend=args.solver,
                                  first_line=2)  # the cell's first line is the magic
        output = self._display(session, report)
        if args.domains or self.domains:
            self._show_domains(session, output)

    def _show_domains(self, session, output=None):
        """Display the pencil marks of the drawn array, with what this step removed struck through;
        `output`, the step's ReportOutput, gets them too (its widget's pencil-marks toggle)."""
        from kernelext.pencil import pencil_html, pencil_report, pencil_text

        previous = self._domains if self.session is session else None
        grid, self._domains = pencil_report(session, previous, timeout=self.timeout)
        if grid is None:
            print("No 1-D or 2-D array to show pencil marks on.")
            return
        from kernelext.kinds import block_size

        marks = pencil_html(grid, block=block_size(self._kind(session, None), grid) or None)
        if output is not None:
            output.pencil = marks
        display({"text/plain": pencil_text(grid), "text/html": marks}, raw=True)

    def _kind(self, session, grid):
        from kernelext.kinds import detect_kind

        return self.view or detect_kind(session.name, grid, self.shell.user_ns)

    def _show_tree(self, session, nodes):
        from kernelext.render import in_kernel
        from kernelext.search_tree import record_tree, tree_html
        from kernelext.kinds import view_data
        from kernelext.widgets.tree_widget import TreeWidget

        tree = record_tree(session, nodes=nodes or 500, timeout=self.timeout)
        if not in_kernel():
            display({"text/plain": tree.summary(), "text/html": tree_html(tree)}, raw=True)
            return
        kind = self._kind(session, session.last_grid)
        display(TreeWidget(tree, session.shown_array(), kind, view_data(kind, self.shell.user_ns)))

    def _display(self, session, report):
        """Show a report with the puzzle's view: `--view`, else the kind its name or data suggest.
        Returns the ReportOutput shown."""
        from kernelext.render import ReportOutput
        from kernelext.kinds import detect_kind, view_data

        kind = self.view or detect_kind(session.name, report.grid, self.shell.user_ns)
        steps = tuple(session.steps)
        output = ReportOutput(report, kind=kind, data=view_data(kind, self.shell.user_ns),
                              on_explain=lambda: self._explain_button(session, steps))
        try:
            display(output)
        except KeyboardInterrupt:
            raise PuzzleUsageError("Interrupted while drawing: the step is kept; `%puzzle solve` shows it again.") from None
        return output

    def _explain_button(self, session, steps):
        """The Explanation behind a widget's "Explain" button, if the puzzle has not changed since it was shown."""
        from kernelext.explain import explain

        if self.session is not session or tuple(session.steps) != steps:
            raise PuzzleUsageError("The puzzle has changed since this grid was shown: run `%puzzle explain`.")
        return explain(session, timeout=self.timeout * 3)

    def _explain(self, session, command, rest, timeout):
        from kernelext import explain
        from kernelext.kinds import detect_kind, view_data

        limit = {"timeout": timeout or self.timeout * 3}
        if command == "why":
            if len(rest) != 1:
                raise PuzzleUsageError("Name the cell: %puzzle why x[3][4].")
            result = explain.why(session, rest[0], **limit)
        elif rest and command != "hints":
            raise PuzzleUsageError(f"%puzzle {command} takes no argument.")
        elif command == "explain":
            result = explain.explain(session, **limit)
        elif command == "hint":
            result = explain.hint(session, **limit)
        else:
            if rest and not (len(rest) == 1 and rest[0].isdigit()):
                raise PuzzleUsageError("%puzzle hints [N]: N is how many hints at most.")
            result = explain.hint_sequence(session, int(rest[0]) if rest else None, **limit)
        if result is None:
            print("Every cell of the grid is already known.")
            return
        kind = self.view or detect_kind(session.name, session.last_grid, self.shell.user_ns)
        data = view_data(kind, self.shell.user_ns)
        display({"text/plain": result.text(), "text/html": result.html(kind, data)}, raw=True)

    def _save(self, session, path):
        from kernelext.kinds import detect_kind, view_data, kind_for
        from kernelext.widgets.export import save_grid

        if not path.lower().endswith((".png", ".svg", ".pdf")):
            raise PuzzleUsageError(f"Cannot draw into {path}: use a .png, .svg or .pdf file.")
        grid = session.last_grid
        if grid is None:
            raise PuzzleUsageError("No grid to save yet: add a step that declares a 1-D or 2-D array.")
        kind = self.view or detect_kind(session.name, grid, self.shell.user_ns)
        description = kind_for(kind).describe(grid, view_data(kind, self.shell.user_ns))
        print(f"Wrote {save_grid(description, path).name}")

    def _command(self, args):
        from kernelext.render import help_text

        command, *rest = args.words or ["help"]
        if command == "help":
            print(help_text(COMMANDS, _options(self.puzzle.parser) | _options(self.puzzle_step.parser)))
            return
        session = self._require_session()
        if command == "steps":
            print(session.steps_text())
        elif command == "undo":
            print(session.undo())
            if session.steps:
                self._display(session, session.state_report(sols=_sols(args.sols), timeout=args.timeout))
        elif command == "solve":
            if args.show:
                session.set_show(args.show)
            self._display(session, session.state_report(sols=_sols(args.sols), timeout=args.timeout, backend=args.solver))
        elif command == "export":
            if len(rest) != 1:
                raise PuzzleUsageError("Say where to write: %puzzle export FILE.xml (model) or FILE.json (solution).")
            print(f"Wrote {session.export(rest[0]).name}")
        elif command == "tree":
            self._show_tree(session, args.nodes)
        elif command == "domains":
            self._domains = None
            self._show_domains(session)
        elif command == "check":
            from kernelext.grading import check_public

            if len(rest) > 1:
                raise PuzzleUsageError("%puzzle check [DIR]: DIR is the exercise folder (default: this one).")
            display(check_public(session, rest[0] if rest else "."))
        elif command in ("explain", "why", "hint", "hints"):
            self._explain(session, command, rest, args.timeout)
        elif command == "save":
            if len(rest) != 1:
                raise PuzzleUsageError("Say where to draw the grid: %puzzle save FILE.png (or .svg, .pdf).")
            self._save(session, rest[0])
        else:
            raise PuzzleUsageError(f"Unknown command {command!r}: use one of {', '.join(c.split()[0] for c in COMMANDS)}.")

    # -- helpers --------------------------------------------------------------------------------

    def _parse(self, magic, line):
        try:
            return parse_argstring(magic, line)
        except UsageError as error:
            raise UsageError(f"{error} (see %%puzzle? for the options)") from None

    def _guarded(self, action, *args):
        try:
            return action(*args)
        except KernelextError as error:
            raise UsageError(str(error)) from None

    def _require_session(self):
        if self._failed is not None:
            raise PuzzleUsageError(f"No current puzzle: the `%%puzzle {self._failed}` cell failed. "
                                   "Fix it and run it again.")
        if self.session is None:
            raise PuzzleUsageError("No puzzle started: run a `%%puzzle NAME` cell first (it declares the variables).")
        return self.session

    def _step_key(self, args):
        if args.step:
            return "step:" + args.step
        return "cell:" + self._cell_id if self._cell_id else None

    def _backend_with_java_check(self) -> str:
        """The configured solver; without Java, say so once, and use OR-Tools instead of the default ACE."""
        import importlib.util

        from kernelext.solver.errors import JavaNotFound
        from kernelext.solver.java import find_java

        if self.solver == "ortools" or self._java_checked:
            return self._java_fallback or self.solver
        self._java_checked = True
        try:
            find_java()
            return self.solver
        except JavaNotFound:
            pass
        jvm_free = all(importlib.util.find_spec(name) for name in ("ortools", "cpmpy"))
        get_java = "install Java 11+ (apt install default-jre) or `pip install 'kernelext[java]'`"
        if jvm_free and self.solver in ("ace", "auto"):
            self._java_fallback = "ortools"
            print(f"No Java runtime found: solving with OR-Tools (--solver ortools). For ACE, {get_java}.")
            return "ortools"
        other = "" if jvm_free else " or `pip install 'kernelext[ortools]'` for a solver without Java"
        print(f"No Java runtime found: the {self.solver} solver needs one; {get_java}{other}.")
        return self.solver

    def _shared_solver(self):
        from kernelext.solver.engine import Solver

        if self._solver is None:
            self._solver = Solver(self.solver)
        return self._solver

    def close(self):
        """Release the puzzle's files and the solver's worker."""
        if self.session is not None:
            self.session.close()
        if self._solver is not None:
            self._solver.close()


def _options(parser) -> dict[str, str]:
    """A magic's options as {"--name METAVAR": help}."""
    return {" ".join([action.option_strings[-1], action.metavar or ""]).strip(): action.help or ""
            for action in parser._actions if action.option_strings and action.dest != "help"}


def _sols(text: str | None) -> int | str:
    if text is None:
        return 1
    if text == "all":
        return "all"
    if text.isdigit() and int(text) > 0:
        return int(text)
    raise PuzzleUsageError(f"--sols {text}: give a positive number or `all`.")
