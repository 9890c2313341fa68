"""PuzzleSession: a pycsp3 model built step by step, with re-run safety and rollback."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from time import monotonic

from kernelext.errors import ModelRejected, PuzzleUsageError, StepError
from kernelext.grid import ArrayInfo, Grid, build_grid, drawable
from kernelext.pycsp3_glue import model_state, operators
from kernelext.scratch import scratch_folder
from kernelext.solver.backends import check_backend
from kernelext.solver.engine import Solver
from kernelext.solver.result import SolveResult, Status
from kernelext.steps.cell_code import run_source
from kernelext.steps.lint import check_source
from kernelext.steps.not_rule import REASONS
from kernelext.steps.step_model import ModelParts, StepModel
from kernelext.xcsp.document import parse_text
from kernelext.xcsp.subsets import XcspModel

DEFAULT_TIMEOUT = 10.0
# Several solutions are checked and drawn after the search, at most Solver.keep of them (about a second for
# 10,000): the search leaves them this share of the time limit, at most DRAW_RESERVE seconds.
DRAW_SHARE = 0.2
DRAW_RESERVE = 1.0


@dataclass(frozen=True)
class Step:
    """One modelling step: its source, the key that identifies its cell, the line its source starts on in
    the editor (2 below a `%%puzzle+` line), so that messages count lines as the editor does, whether
    it was added with strict indexing (an index past the end refused), which its replays keep, and why it is
    not a rule of the puzzle ("symmetry", "implied", "hint"; "" for a rule: see `kernelext.steps.not_rule`)."""

    key: str
    source: str
    first_line: int = 1
    strict_indexing: bool = False
    not_rule: str = ""

    @property
    def code(self) -> str:
        """The source as run: padded so that its line numbers are the editor's."""
        return "\n" * (self.first_line - 1) + self.source


@dataclass(frozen=True)
class StepReport:
    """What a step did: what it declared and posted, and the model's state after it."""

    puzzle: str
    number: int
    declared: tuple[str, ...] = ()
    posted: tuple[str, ...] = ()
    objective: str | None = None
    replaced: bool = False
    result: SolveResult | None = None
    grid: Grid | None = None
    note: str = ""
    warnings: tuple[str, ...] = ()
    all_grids: tuple[Grid, ...] = field(default=(), repr=False)
    unsat_since: int | None = None  # after UNSAT: the first step whose model, with the steps before, has none
    not_rule: str = ""  # why the step is not a rule of the puzzle (see `kernelext.steps.not_rule`)


class PuzzleSession:
    """A puzzle's model, built one step (cell) at a time.

    Arguments:
        name: the puzzle's name (shown in outputs).
        namespace: where the steps run (a notebook's user namespace); a fresh one with pycsp3 imported by default.
        solver: the Solver to use (shared between sessions to keep the JVM warm); a new one by default.
        show: the array to draw; by default the first 2-D array declared (else the first 1-D one).
        strict_indexing: refuse an index past the end of an array (pycsp3 wraps it round, with a warning).
    """

    def __init__(
        self,
        name: str,
        namespace: dict | None = None,
        *,
        solver: Solver | None = None,
        show: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        backend: str | None = None,
        strict_indexing: bool = False,
    ):
        self.name = name
        self.namespace = namespace if namespace is not None else _pycsp3_namespace()
        self.solver = solver or Solver()
        self.show = show
        self.timeout = timeout
        self.backend = backend
        self.strict_indexing = strict_indexing
        self.steps: list[Step] = []
        self._history: list[list[Step]] = []  # the steps before each change, for `undo`
        self._pycsp3_warnings: dict[str, tuple[str, ...]] = {}  # per step key, as the step last ran
        self.last_result: SolveResult | None = None
        self.last_grid: Grid | None = None
        try:
            self._workdir = scratch_folder("model")
        except OSError as error:
            raise PuzzleUsageError(
                f"Cannot create a temporary folder in {tempfile.gettempdir()} ({error.strerror}): "
                "set TMPDIR to a folder you can write to."
            ) from None
        self._owner = object()  # pycsp3's model is global: this marks it as built by this session's steps
        self._parts = ModelParts()  # what CP-SAT read of the model, kept between solves
        self._tags: dict[int, tuple] = {}  # id of a posted item -> (the item, the names of its constraints)
        self._posted_by: dict[int, tuple] = {}  # id of a posted item -> (the item, the key of the step posting it)
        self._objective_by: str | None = None  # the key of the step that set the objective

    # -- building -------------------------------------------------------------------------------

    def add_step(
        self,
        source: str,
        key: str | None = None,
        *,
        solve: bool = True,
        sols: int | str = 1,
        timeout: float | None = None,
        show: str | None = None,
        backend: str | None = None,
        first_line: int = 1,
        not_rule: str = "",
    ) -> StepReport:
        """Add a step, or replace the step with the same key; then solve (unless `solve` is False).

        `first_line`: the editor's number of the source's first line (messages name lines that way).
        `not_rule`: why the step is not a rule of the puzzle ("symmetry", "implied", "hint"), for the grader.
        Raises StepError (model unchanged) when the source fails.
        """
        step, warnings, guesses = self._checked_step(source, key, first_line, backend, not_rule)
        self._use_model()
        old_steps, last_grid = list(self.steps), self.last_grid
        was_unsat = self.last_result is not None and self.last_result.status is Status.UNSAT
        try:
            report = replace(
                self._post(step, guesses),
                warnings=warnings + self._pycsp3_warnings.get(step.key, ()),
                not_rule=step.not_rule,
            )
            if self.steps != old_steps:
                self._history.append(old_steps)
            if show is not None:
                self.set_show(show)
            return self._solve_step(
                report, solve=solve, sols=sols, timeout=timeout, backend=backend, was_unsat=was_unsat
            )
        except (StepError, PuzzleUsageError, ModelRejected, KeyboardInterrupt) as error:
            # the step is at fault: roll it back (a solver that fails for its own reasons keeps the step)
            self.steps, self.last_grid = old_steps, last_grid
            self.replay(old_steps)
            if isinstance(error, KeyboardInterrupt):
                raise StepError(
                    "Interrupted: the step was not added (the model is as it was before this cell)."
                ) from None
            raise

    def _checked_step(
        self, source: str, key: str | None, first_line: int, backend: str | None, not_rule: str = ""
    ) -> tuple[Step, tuple[str, ...], tuple]:
        """The step to add, its lint warnings and its guesses (which wait for the run to confirm them);
        StepError or PuzzleUsageError, before anything changes, for an empty step, a refused mistake or a
        wrong backend."""
        if not source.strip():
            raise StepError("This step is empty: write variables, constraints or an objective below the magic line.")
        if backend is not None:
            check_backend(backend)  # a wrong option must not leave the step half-added
        if not_rule and not_rule not in REASONS:
            raise PuzzleUsageError(f"--not-rule {not_rule}: say why the step is not a rule: {', '.join(REASONS)}.")
        key = key or "source:" + hashlib.sha1(source.encode()).hexdigest()
        step = Step(key, source, first_line, self.strict_indexing, not_rule)
        findings = check_source(step.code, self.namespace)
        refused = [f for f in findings if f.error and not f.kind]
        if refused:
            raise StepError(_finding_message(step.code, refused[0]))
        return step, tuple(str(f) for f in findings if not f.kind), tuple(f for f in findings if f.kind)

    def _post(self, step: Step, guesses: tuple) -> StepReport:
        """Run a new step after the others, or replay the model with an edited step in its place."""
        position = next((i for i, s in enumerate(self.steps) if s.key == step.key), None)
        if position is None:
            before = model_state.mark()
            self._run(step, echo=True, guesses=guesses)
            self.steps = [*self.steps, step]
            return self._report(len(self.steps), before, replaced=False)
        self.last_grid = None  # an edited step makes another model: nothing to mark as changed since the last
        new_steps = self.steps[:position] + [step] + self.steps[position + 1 :]
        marks = self.replay(new_steps, guesses={step.key: guesses})
        self.steps = new_steps
        return self._report(position + 1, marks[position], replaced=True, end=marks[position + 1])

    def _solve_step(
        self,
        report: StepReport,
        *,
        solve: bool,
        sols: int | str,
        timeout: float | None,
        backend: str | None,
        was_unsat: bool,
    ) -> StepReport:
        """The step's report once solved; for an UNSAT model, with the first step since which it has no solution."""
        if not solve:
            return replace(report, grid=self._remember(self.grid(None)), note="Not solved (--no-solve).")
        if not self.anything_to_solve():
            return replace(report, grid=self._remember(self.grid(None)), note="No constraints yet: nothing to solve.")
        deadline = monotonic() + (timeout or self.timeout)  # for the solve and the search of the UNSAT step
        report = self._solved(report, sols, timeout, backend)
        if report.result.status is Status.UNSAT:
            first = report.number if report.replaced or not was_unsat else 1
            report = replace(report, unsat_since=self._first_unsat_step(first, deadline, backend))
        return report

    def undo(self) -> str:
        """Undo the last change: drop the step just added, or put back the previous version of the step
        just edited; rebuild the model. Returns what was undone, as a sentence."""
        if not self.steps:
            raise PuzzleUsageError("Nothing to undo: this puzzle has no steps.")
        previous = self._history.pop() if self._history else self.steps[:-1]
        changed = next((i for i, (a, b) in enumerate(zip(self.steps, previous)) if a != b), None)
        self.replay(previous)
        current, self.steps = self.steps, previous
        self.last_result = None
        if changed is None or len(previous) < len(current):
            number = len(previous) + 1 if changed is None else changed + 1
            return f"Removed step {number}: {_first_line(current[number - 1])}"
        return f"Put back the previous version of step {changed + 1}: {_first_line(previous[changed])}"

    def _first_unsat_step(self, first: int, deadline: float, backend: str | None) -> int | None:
        """The first step k >= `first` such that steps 1..k have no solution, found by solving those models
        before `deadline` (None when it passes or on Ctrl-C); the model stays whole."""
        steps, found = list(self.steps), None
        try:
            for k in range(first, len(steps)):
                self.replay(steps[:k])
                left = deadline - monotonic()
                if left <= 0:
                    return None
                if self.anything_to_solve():
                    result = self.solver.solve(
                        self.compile(), model_state.solution_cells(), timeout=left, backend=backend or self.backend
                    )
                    if result.status is Status.UNSAT:
                        found = k
                        break
                    if result.status is not Status.SAT and result.status is not Status.OPTIMUM:
                        return None  # not known to have a solution: no step can be named
            return found if found is not None else len(steps)
        except KeyboardInterrupt:
            return None
        finally:
            self.replay(steps)

    def replay(
        self,
        steps: list[Step] | None = None,
        after_each: Callable[[int], None] | None = None,
        guesses: dict | None = None,
    ) -> list[model_state.Mark]:
        """Rebuild pycsp3's model from scratch by running `steps` (this session's by default) again, calling
        `after_each(number)` after each; return the mark before each step and after the last.
        `guesses`: {step key: the findings that word a refusal of that step}."""
        model_state.reset()
        model_state.claim(self._owner)
        self._posted_by, self._objective_by = {}, None
        marks = []
        for number, step in enumerate(self.steps if steps is None else steps, start=1):
            marks.append(model_state.mark())
            try:
                self._run(step, echo=False, guesses=(guesses or {}).get(step.key, ()))
            except StepError as error:
                model_state.reset()
                raise StepError(f"Step {number} fails when the steps are run again in order:\n{error}") from None
            if after_each is not None:
                after_each(number)
        marks.append(model_state.mark())
        return marks

    def _use_model(self) -> None:
        """Make pycsp3's global model this session's, replaying its steps if another session built it since."""
        if not model_state.owned_by(self._owner):
            self.replay(self.steps)

    def _run(self, step: Step, echo: bool, guesses: tuple = ()) -> None:
        had_objective = model_state.has_objective()
        posted = len(model_state.posted_items())
        with operators.counting_objectives() as objectives:
            run = run_source(
                step.code, self.namespace, echo=echo, strict_indexing=step.strict_indexing, guesses=guesses
            )
        self._pycsp3_warnings[step.key] = run.warnings
        if model_state.error_flagged():
            raise StepError("pycsp3 reported an error in this step; the model is as it was before it.")
        if len(objectives) + had_objective > 1:
            where = "an earlier step sets one already" if had_objective else f"this step sets {len(objectives)}"
            raise StepError(f"A model has one objective, and {where}: keep one (edit the step that sets the other).")
        for item in model_state.posted_items()[posted:]:
            self._posted_by[id(item)] = (item, step.key)
        if objectives:
            self._objective_by = step.key

    def _report(
        self, number: int, before: model_state.Mark, *, replaced: bool, end: model_state.Mark | None = None
    ) -> StepReport:
        return StepReport(
            self.name,
            number,
            tuple(model_state.declared_since(before, end)),
            tuple(model_state.posted_since(before, end)),
            model_state.objective_since(before, end),
            replaced,
        )

    # -- solving --------------------------------------------------------------------------------

    def solve(self, *, sols: int | str = 1, timeout: float | None = None, backend: str | None = None) -> SolveResult:
        """Compile the current model and solve it, within `timeout` seconds of wall time (the session's by
        default) from the call; kept as `last_result`."""
        if not self.steps:
            raise PuzzleUsageError("This puzzle has no steps yet: start it with %%puzzle NAME.")
        deadline = monotonic() + (timeout or self.timeout)  # a wall-clock limit: compiling counts
        self._use_model()
        model = StepModel(self._parts, self.compile)
        model.prepare()
        cells = model_state.solution_cells()
        self.last_result = self.solver.solve(
            model, cells, sols=sols, timeout=max(0.01, deadline - monotonic()), backend=backend or self.backend
        )
        return self.last_result

    def compile(self, path: Path | None = None) -> Path:
        """Write the model as it stands as an XCSP3 file (in the session's temporary folder by default).
        Raises StepError when pycsp3 cannot compile it."""
        self._use_model()
        path = path or Path(self._workdir.name) / "model.xml"
        try:
            model_state.compile_to(path)
        except Exception:
            raise StepError("pycsp3 could not compile the model: check this step's constraints.") from None
        return path

    def features(self) -> frozenset[str]:
        """What the model holds, as pictures ask before reading it: the XCSP3 names of its posted constraints
        (`noOverlap`, `circuit`, `intension`...), `objective` when it has one, `1-D`, `2-D`... for its arrays."""
        self._use_model()
        known = {}
        for item in model_state.posted_items():  # each item's names kept while it stands
            kept = self._tags.get(id(item))
            known[id(item)] = kept if kept is not None and kept[0] is item else (item, model_state.posted_tags(item))
        self._tags = known
        dimensions = {f"{len(info.shape)}-D" for info in model_state.arrays() if info.shape}
        tags = frozenset().union(*(tags for _, tags in known.values()))
        return tags | dimensions | ({"objective"} if model_state.has_objective() else set())

    def xcsp_model(self) -> XcspModel | None:
        """The model as it stands, read as XCSP3 from the parts its solves compiled (what pictures are drawn
        from); None when pycsp3 cannot compile it."""
        self._use_model()
        try:
            variables, elements, _, _ = self._parts.current()
            objectives = parse_text(model_state.objectives_text()) if model_state.has_objective() else None
            return self._parts.xcsp.model(variables, elements, objectives)
        except Exception:  # a model pycsp3 cannot compile (the step says why): drawn as a grid
            return None

    def posted_by(self) -> tuple[XcspModel, tuple[int, ...], int | None] | None:
        """The model as `xcsp_model` reads it, for each of its single constraints the number of the step that
        posted it, and the number of the step that set the objective (None without one); None when pycsp3
        cannot compile the model in parts."""
        self._use_model()
        try:
            variables, elements, _, _ = self._parts.current()
            objectives = parse_text(model_state.objectives_text()) if model_state.has_objective() else None
            model, counts = self._parts.xcsp.counted(variables, elements, objectives)
        except Exception:  # a model pycsp3 cannot compile in parts
            return None
        number = {step.key: n for n, step in enumerate(self.steps, start=1)}
        owners: list[int] = []
        for item, count in zip(self._parts.element_items(), counts):
            item_and_key = self._posted_by.get(id(item))
            if item_and_key is None or item_and_key[0] is not item or item_and_key[1] not in number:
                return None
            owners += [number[item_and_key[1]]] * count
        return model, tuple(owners), number.get(self._objective_by) if model_state.has_objective() else None

    def anything_to_solve(self) -> bool:
        """True when the model has a constraint (an objective alone is nothing to solve)."""
        self._use_model()
        return model_state.anything_to_solve()

    def state_report(
        self, *, sols: int | str = 1, timeout: float | None = None, backend: str | None = None
    ) -> StepReport:
        """Solve the model as it stands and report it as of the last step (nothing posted)."""
        if not self.steps:
            raise PuzzleUsageError("This puzzle has no steps yet: start it with %%puzzle NAME.")
        report = StepReport(self.name, len(self.steps))
        if not self.anything_to_solve():
            return replace(report, grid=self._remember(self.grid(None)), note="No constraints yet: nothing to solve.")
        return self._solved(report, sols, timeout, backend)

    def _solved(self, report: StepReport, sols: int | str, timeout: float | None, backend: str | None) -> StepReport:
        seconds = timeout or self.timeout
        if sols != 1:  # each solution kept is checked and drawn after the search: that counts in the time limit
            seconds -= min(DRAW_RESERVE, seconds * DRAW_SHARE)
        result = self.solve(sols=sols, timeout=seconds, backend=backend)
        grids = tuple(self.grid(result, index=i) for i in range(len(result.solutions))) if sols != 1 else ()
        return replace(report, result=result, grid=self._remember(self.grid(result)), all_grids=grids)

    def _remember(self, grid: Grid | None) -> Grid | None:
        if grid is not None:
            self.last_grid = grid
        return grid

    # -- looking at the model -------------------------------------------------------------------

    def shown_array(self) -> ArrayInfo | None:
        """The array drawn as the grid: `show`, else the first 2-D array, else the first 1-D one."""
        self._use_model()
        infos = model_state.arrays()
        if self.show is not None:
            return next((info for info in infos if info.name == self.show), None)
        for dims in (2, 1):
            found = next((info for info in infos if len(info.shape) == dims), None)
            if found:
                return found
        return None

    def array(self, name: str) -> ArrayInfo | None:
        """The declared array (or single variable) `name`, None if there is none."""
        self._use_model()
        return next((info for info in model_state.arrays() if info.name == name), None)

    def grid(self, result: SolveResult | None, index: int = -1) -> Grid | None:
        """The grid of the shown array for solution `index` of `result` (all `*` without a solution)."""
        info = self.shown_array()
        if info is None:
            return None
        if result is not None and not result.solutions:
            return None
        solution = result.solutions[index] if result is not None else None
        return build_grid(info, solution, self.last_grid)

    def set_show(self, name: str) -> None:
        """Draw the array `name` from now on; PuzzleUsageError if it is not a declared 1-D or 2-D array."""
        self._use_model()
        infos = {info.name: info for info in model_state.arrays()}
        if name not in infos:
            names = ", ".join(n for n, i in infos.items() if drawable(i)) or "none yet"
            raise PuzzleUsageError(f"--show {name}: no variable array has that name (arrays you can draw: {names}).")
        if not drawable(infos[name]):
            raise PuzzleUsageError(
                f"--show {name}: {name} has {len(infos[name].shape)} dimensions; only 1-D and 2-D arrays can be drawn."
            )
        self.show = name

    def steps_text(self) -> str:
        """One line per step: its number and first line."""
        if not self.steps:
            return f"{self.name}: no steps."
        lines = [f"{self.name}: {len(self.steps)} step(s)"]
        for number, step in enumerate(self.steps, start=1):
            source_lines = step.source.strip().splitlines()
            more = f"  (+{len(source_lines) - 1} lines)" if len(source_lines) > 1 else ""
            mark = f"  [not a rule: {step.not_rule}]" if step.not_rule else ""
            lines.append(f"  {number}. {source_lines[0]}{more}{mark}")
        return "\n".join(lines)

    def export(self, path: str | Path) -> Path:
        """Write the model (`.xml`, XCSP3) or the last solution (`.json`) to `path`."""
        self._use_model()
        path = Path(path)
        if path.suffix not in (".xml", ".json"):
            raise PuzzleUsageError(f"Cannot export to {path.name}: use a .xml (model) or .json (solution) file.")
        try:
            if path.suffix == ".xml":
                shutil.copyfile(self.compile(Path(self._workdir.name) / "export.xml"), path)
            else:
                if self.last_result is None or self.last_result.solution is None:
                    raise PuzzleUsageError("No solution to export yet: solve the puzzle first.")
                path.write_text(json.dumps(solution_as_arrays(self.last_result.solution), indent=1) + "\n")
        except OSError as error:
            raise PuzzleUsageError(
                f"Cannot write {path}: {error.strerror or error}. Give a path in a folder you can write to."
            ) from None
        return path

    def close(self) -> None:
        self._workdir.cleanup()


def solution_as_arrays(solution) -> dict:
    """A solution as {array name: nested lists of values (None for `*`)}."""
    out = {}
    for info in model_state.arrays():
        grid = build_grid(info, solution) if drawable(info) else None
        if not info.shape:
            out[info.name] = solution.get(info.name)
        elif grid is not None:
            rows = [list(row) for row in grid.values]
            out[info.name] = rows[0] if len(info.shape) == 1 else rows
        else:
            out[info.name] = {vid: solution.get(vid) for _, vid in info.cells}
    return out


def _first_line(step: Step) -> str:
    return step.source.strip().splitlines()[0]


def _finding_message(source: str, finding) -> str:
    line = source.splitlines()[finding.line - 1].strip()
    return f"Line {finding.line}: {finding.message}\n    {line}"


def _pycsp3_namespace() -> dict:
    namespace: dict = {}
    exec("from pycsp3 import *", namespace)
    return namespace
