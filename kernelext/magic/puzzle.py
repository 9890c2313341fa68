"""NotebookPuzzle: a PuzzleSession as a notebook shows it (its view, its pencil marks, its outputs)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from IPython.display import display

from kernelext.errors import PuzzleUsageError, ViewNotApplicable
from kernelext.insight.pencil_marks import pencil_report
from kernelext.insight.search_tree import record_tree
from kernelext.kinds import KINDS, block_size, detect_kind, kind_for
from kernelext.magic.render import MAX_WIDGET_GRIDS, ReportOutput, in_kernel
from kernelext.plugins import data_for
from kernelext.steps.posted_facts import posted_facts
from kernelext.views import PICTURES, detect_picture, might_draw, picture_for
from kernelext.widgets.drawing_forms import drawing_text
from kernelext.widgets.drawing_svg import drawing_svg
from kernelext.widgets.export import save_grid, text_alternative
from kernelext.widgets.pencil_forms import pencil_html, pencil_text
from kernelext.widgets.static_forms import (
    explanation_html,
    explanation_text,
    walkthrough_html,
    walkthrough_text,
)
from kernelext.widgets.svg_png import can_draw_png, svg_png
from kernelext.widgets.tree_forms import tree_html

if TYPE_CHECKING:
    from kernelext.grid import Grid
    from kernelext.steps.session import PuzzleSession, StepReport

EXPLAIN_TIME_FACTOR = 3  # explanations solve many sub-models: they get this many times a solve's time limit
# A search tree is drawn after its search, at about a fifth of the search's time: the search gets this share of
# the time limit, so that the whole command ends within it.
TREE_SEARCH_SHARE = 0.8


class NotebookPuzzle:
    """The current puzzle of a notebook: its session, the view drawing it and the pencil marks shown last.

    Arguments:
        session: the puzzle's session.
        namespace: the notebook's user namespace (where the views find the puzzle's data).
        view: the grid kind or the picture (kernelext.views) named by `--view`, or None to guess: a picture when
            the posted constraints call for one (and the puzzle's name or data name no grid kind), else a grid.
        timeout: the default time limit of a solve (explanations get EXPLAIN_TIME_FACTOR times it).
    """

    def __init__(self, session: PuzzleSession, namespace: dict, view: str | None, timeout: float):
        self.session, self.namespace, self.view, self.timeout = session, namespace, view, timeout
        self.domains = None  # the pencil marks shown last, to mark what the next step removes
        self._kinds = None  # the kinds' modules, looked up once (installed packages add kinds)
        self._pictures = None  # the pictures' modules, looked up once
        self._drawn = None  # the solution a picture showed last ({} unsolved), to mark what the next step changes

    def kind(self, grid: Grid | None = None) -> str:
        """The view drawing the grid: `--view` (when it names a grid kind), else the kind the puzzle's name or
        data suggest."""
        if self.view and picture_for(self.view) is None:
            return self.view
        if self._kinds is None:
            self._kinds = KINDS.modules()
        return detect_kind(self.session.name, grid or self.session.last_grid, self.namespace, self._kinds)

    def picture(self):
        """The picture drawing the model, as (its module, the model read as XCSP3), or None for a grid: `--view`,
        else the first picture the posted constraints and the data call for, unless the puzzle's name names a grid
        kind (a grid kind the data suggest gives way to a picture the constraints call for)."""
        forced = picture_for(self.view) if self.view else None
        if self.view and forced is None:
            return None
        if self._kinds is None:
            self._kinds = KINDS.modules()
        if forced is None and detect_kind(self.session.name, None, {}, self._kinds) != "generic":
            return None  # a puzzle named after a grid kind stays a grid
        if forced is None:
            if self._pictures is None:
                self._pictures = PICTURES.modules()
            candidates = might_draw(self.session.features(), self._pictures)
            if not candidates:
                return None  # no picture could draw this model: it is not read
        model = self.session.xcsp_model()
        if model is None or (forced is not None and not model.constraints):
            return None  # nothing posted yet: a forced picture waits for its constraints
        if forced is not None:
            return forced, model
        found = detect_picture(model, self.namespace, candidates)
        return (candidates[found], model) if found else None

    def drawings(self, report: StepReport) -> list[dict] | None:
        """The pictures of the report's solutions (its grids' place), or None to draw grids. When the picture
        `--view` forces finds nothing to draw yet, one line says so and the grid is drawn (the step is kept: a
        later step may post what the picture needs); so it is when a picture fails on data it did not expect
        (a picture never costs a step)."""
        try:
            chosen = self.picture() if report.grid is not None else None
            if chosen is None:
                return None
            module, model = chosen
            result = report.result
            several = len(report.all_grids) > 1
            solutions = list(result.solutions[:MAX_WIDGET_GRIDS]) if several else [result.solution if result else None]
            previous = None if report.replaced else self._drawn
            data = data_for(module, self.namespace)
            drawn = [module.describe(model, data, solution, previous) for solution in solutions]
        except ViewNotApplicable as error:
            print(f"--view {self.view}: {error} The grid is drawn until then.")
            return None
        except Exception as error:  # the picture's own fault, not the model's
            print(f"The picture could not be drawn ({type(error).__name__}: {error}); the grid is drawn instead.")
            return None
        self._drawn = dict(solutions[-1] or {})
        return drawn

    def data(self, kind: str) -> dict:
        """The plain data the view `kind` reads from the notebook, and what it reads off the posted model
        (a kind with `READS_POSTED`; see `kernelext.steps.posted_facts`)."""
        found = data_for(kind_for(kind), self.namespace)
        shown = self.session.shown_array() if getattr(kind_for(kind), "READS_POSTED", False) else None
        return {**found, **posted_facts(shown.name)} if shown is not None else found

    def explain_timeout(self, timeout: float | None = None) -> float:
        return timeout or self.timeout * EXPLAIN_TIME_FACTOR

    def show(self, report: StepReport, *, current=lambda: True):
        """Display a report (a grid widget in a kernel, else static HTML and text); returns the ReportOutput.
        `current()` says whether the puzzle is still the notebook's, for the widget's Explain button."""
        kind = self.kind(report.grid)
        steps = tuple(self.session.steps)
        output = ReportOutput(
            report,
            kind=kind,
            data=self.data(kind),
            on_explain=lambda: self._explain_button(steps, current),
            drawings=self.drawings(report),
        )
        try:
            display(output)
        except KeyboardInterrupt:
            raise PuzzleUsageError(
                "Interrupted while drawing: the step is kept; `%puzzle solve` shows it again."
            ) from None
        return output

    def _explain_button(self, steps: tuple, current) -> object:
        """The Explanation behind a widget's Explain button, if the puzzle has not changed since it was shown."""
        from kernelext.insight.explain import (
            explain,  # deferred: the explanations add 0.09 s to %load_ext
        )

        if not current() or tuple(self.session.steps) != steps:
            raise PuzzleUsageError("The puzzle has changed since this grid was shown: run `%puzzle explain`.")
        return explain(self.session, timeout=self.explain_timeout())

    def show_domains(self, output=None, *, fresh: bool = False) -> None:
        """Display the pencil marks of the drawn array, what this step removed struck through (nothing when
        `fresh`); `output`, the step's ReportOutput, gets them too (its widget's pencil-marks toggle)."""
        grid, self.domains = pencil_report(self.session, None if fresh else self.domains, timeout=self.timeout)
        if grid is None:
            print("No 1-D or 2-D array to show pencil marks on.")
            return
        marks = pencil_html(grid, block=block_size(self.kind(), grid) or None)
        if output is not None:
            output.pencil = marks
        display({"text/plain": pencil_text(grid), "text/html": marks}, raw=True)

    def show_tree(self, nodes: int | None, timeout: float | None = None) -> None:
        """Solve while recording the search tree (within `timeout` seconds, the puzzle's by default); a tree
        widget in a kernel, else its outline."""
        from kernelext.widgets.tree_widget import (
            TreeWidget,  # deferred: anywidget adds 0.17 s to %load_ext
        )

        seconds = (timeout or self.timeout) * TREE_SEARCH_SHARE
        tree = record_tree(self.session, nodes=nodes or 500, timeout=seconds)
        if not in_kernel():
            display({"text/plain": tree.summary(), "text/html": tree_html(tree)}, raw=True)
            return
        kind = self.kind()
        display(TreeWidget(tree, self.session.shown_array(), kind, self.data(kind)))

    def show_explanation(self, result) -> None:
        """Display an explanation's text and HTML (its grid drawn by the puzzle's view)."""
        if result is None:
            print("Every cell of the grid is already known.")
            return
        kind = self.kind()
        display(
            {"text/plain": explanation_text(result), "text/html": explanation_html(result, kind, self.data(kind))},
            raw=True,
        )

    def show_walkthrough(self, walkthrough) -> None:
        """Display a walkthrough: a stepper over its steps in a kernel, else every step as static HTML, and text."""
        from kernelext.widgets.stepper_widget import (
            StepperWidget,  # deferred: anywidget adds 0.17 s to %load_ext
        )

        marks = walkthrough.start or walkthrough.end
        block = (block_size(self.kind(), marks) or None) if marks is not None else None
        if in_kernel():
            display(StepperWidget(walkthrough, block))
        else:
            display(
                {"text/plain": walkthrough_text(walkthrough), "text/html": walkthrough_html(walkthrough, block)},
                raw=True,
            )

    def save(self, path: str) -> None:
        """Draw the current grid or picture into a .png, .svg or .pdf file (a picture: .svg, and .png in the
        browser)."""
        if not path.lower().endswith((".png", ".svg", ".pdf")):
            raise PuzzleUsageError(f"Cannot draw into {path}: use a .png, .svg or .pdf file.")
        grid = self.session.last_grid
        if grid is None:
            raise PuzzleUsageError("No grid to save yet: add a step that declares a 1-D or 2-D array.")
        chosen = self.picture()
        if chosen is not None and self._save_picture(*chosen, path):
            return
        kind = self.kind(grid)
        saved = save_grid(kind_for(kind).describe(grid, self.data(kind)), path)
        print(f"Wrote {saved.name}" + ("" if saved.suffix == ".svg" else f" and its text form, {saved.stem}.txt"))

    def _save_picture(self, module, model, path: str) -> bool:
        """Draw the picture into the .svg file `path` (or .png in the browser); False when it finds nothing to
        draw yet (a forced view)."""
        png = path.lower().endswith(".png") and can_draw_png()
        if not path.lower().endswith(".svg") and not png:
            raise PuzzleUsageError(f"A picture is saved as SVG: save {Path(path).with_suffix('.svg').name} instead.")
        result = self.session.last_result
        try:
            drawn = module.describe(model, data_for(module, self.namespace), result.solution if result else None, None)
        except ViewNotApplicable:
            return False
        try:
            if png:
                Path(path).write_bytes(svg_png(drawing_svg(drawn)))
                text_alternative(Path(path), drawing_text(drawn))
            else:
                Path(path).write_text(drawing_svg(drawn), encoding="utf-8")
        except OSError as error:
            raise PuzzleUsageError(f"Cannot write {path}: {error.strerror or error}.") from None
        print(f"Wrote {Path(path).name}" + (f" and its text form, {Path(path).stem}.txt" if png else ""))
        return True

    def close(self) -> None:
        self.session.close()
