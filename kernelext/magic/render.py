"""A step's report in every form: the grid widget's state, deterministic text and static HTML
(no timings, ids or paths outside the live widget), and ReportOutput, which shows them all."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from kernelext.errors import KernelextError
from kernelext.grid import Grid
from kernelext.kinds import kind_for
from kernelext.solver.result import SolveResult, Status
from kernelext.steps.not_rule import marked_text
from kernelext.steps.session import StepReport
from kernelext.widgets import static_forms

if TYPE_CHECKING:
    from kernelext.insight.findings import Explanation

MAX_LINE = 160
MAX_WIDGET_GRIDS = 50


def unsat_advice(report: StepReport) -> str:
    """After UNSAT: which step made the model unsatisfiable, and the command that undoes it."""
    since, number = report.unsat_since, report.number
    if since is None:
        return "no solution. `%puzzle undo` undoes the last change."
    if not report.replaced and since == number:
        return f"no solution since step {number}, just added: `%puzzle undo` removes it, or edit it."
    if not report.replaced:
        return f"no solution since step {since}, before this one: edit step {since} (`%puzzle undo` removes the last step)."
    if since == number:
        return f"no solution since step {number} was edited: `%puzzle undo` puts back its previous version."
    return (
        f"no solution: step {since} cannot hold with step {number} as edited; `%puzzle undo` puts back "
        f"step {number}'s previous version."
    )


def status_text(result: SolveResult | None, note: str = "", counted: bool = False, unsat: str = "") -> str:
    """One line: the status, the bound, the count of solutions (`counted`: several were asked for),
    why the search stopped; `unsat`: what to say after UNSAT."""
    if result is None:
        return note or "not solved"
    text = result.status.value
    if result.bound is not None:
        text += f" (bound {result.bound})"
    if result.more:
        text += (
            f": {len(result.solutions) + result.more:,} solutions found, the first {len(result.solutions):,} kept "
            "and checked (more: %config PuzzleMagics.max_solutions)"
        )
    elif len(result.solutions) > 1:
        text += f": {len(result.solutions)} solutions"
    elif counted and result.solutions and not result.stopped:
        text += ": 1 solution, the only one"
    if result.stopped:
        text += f" [search stopped: {result.stopped}]"
    if result.status is Status.UNSAT:
        text += ": " + (unsat or "no solution.")
    elif result.status is Status.UNKNOWN and not result.stopped and not result.invalid:
        text += ": the solver gave no answer."
    if result.repeats:
        text += f" ({result.repeats} repeated solution{'s' if result.repeats > 1 else ''} dropped)"
    if result.invalid:
        text += f" [answer refused by the kit's check: {result.invalid}]"
    return text


def _clip(line: str) -> str:
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def grid_text(grid: Grid, kind: str = "generic", data: Mapping | None = None) -> str:
    """The grid as aligned text (generic: `*` for free cells, `[v]` around values changed by this step)."""
    return static_forms.grid_text(kind_for(kind).describe(grid, data or {}))


def report_state(
    report: StepReport, kind: str = "generic", data: Mapping | None = None, drawings: list[dict] | None = None
) -> dict:
    """The grid widget's state for `report`, its grids drawn by the view `kind` from `data`, or its `drawings`
    (picture descriptions of its solutions, see kernelext.views) in their place."""
    view = kind_for(kind)
    title = f"{report.puzzle} · step {report.number}" + (" (replaced)" if report.replaced else "")
    lines = [_clip(f"declared: {d}") for d in report.declared]
    if report.posted:
        lines.append("posted:")
        lines += [_clip(f"  {p}") for p in report.posted]
    if report.objective:
        lines.append(_clip(f"objective: {report.objective}"))
    lines += [_clip(f"warning: {w}") for w in report.warnings]
    lines += [marked_text(report.not_rule)] if report.not_rule else []
    status = status_text(report.result, report.note, counted=bool(report.all_grids), unsat=unsat_advice(report))
    lines.append(f"status: {status}")
    grids = report.all_grids if len(report.all_grids) > 1 else (report.grid,) if report.grid else ()
    result = report.result
    bounds = [bound for _, bound in result.progress] if result else []
    if drawings is not None:
        described = drawings[:MAX_WIDGET_GRIDS]
    else:
        described = [view.describe(g, data or {}) for g in grids[:MAX_WIDGET_GRIDS]]
    lines += [described[0]["note"]] if described and described[0].get("note") else []
    return {
        "title": title,
        "lines": lines,
        "grids": described,
        "total": len(grids),
        "bounds": bounds if len(bounds) > 1 else [],
        "timing": f"solved in {result.time:.2f} s ({result.backend})" if result and result.backend else "",
    }


def report_text(
    report: StepReport, kind: str = "generic", data: Mapping | None = None, drawings: list[dict] | None = None
) -> str:
    """The whole report as plain text."""
    return static_forms.state_text(report_state(report, kind, data, drawings))


def report_html(
    report: StepReport, kind: str = "generic", data: Mapping | None = None, drawings: list[dict] | None = None
) -> str:
    """The whole report as static HTML (tables and boxes that notebook sanitizers keep)."""
    return static_forms.state_html(report_state(report, kind, data, drawings))


def in_kernel() -> bool:
    """True inside a Jupyter kernel, where widgets have a comm to their front end."""
    from IPython import get_ipython

    return getattr(get_ipython(), "kernel", None) is not None


class ReportOutput:
    """A step's report as a rich output: the grid widget (in a kernel), static HTML and text.

    Arguments:
        report: the step's report.
        kind: the view drawing the grid (see kernelext.kinds; PuzzleUsageError if unknown).
        data: the puzzle data the view reads (see `kernelext.plugins.data_for`).
        on_explain: returns the Explanation (see kernelext.insight.explain) of an UNSAT step; the widget of such
            a step then has an "Explain" button.
        drawings: the pictures (kernelext.views) drawn in place of the grids, one per solution shown, or None.
    """

    def __init__(
        self,
        report: StepReport,
        kind: str = "generic",
        data: Mapping | None = None,
        *,
        on_explain: Callable[[], Explanation] | None = None,
        drawings: list[dict] | None = None,
    ):
        kind_for(kind)
        self.report, self.kind, self.data, self.drawings = report, kind, dict(data or {}), drawings
        unsat = report.result is not None and report.result.status is Status.UNSAT
        self.on_explain = on_explain if unsat else None
        self.widget = None
        self._pencil = ""

    @property
    def pencil(self) -> str:
        """The pencil marks' HTML the widget can toggle to ("" for none); the static forms ignore it."""
        return self._pencil

    @pencil.setter
    def pencil(self, html: str) -> None:
        self._pencil = html
        if self.widget is not None:
            self.widget.pencil = html

    def explanation(self) -> dict:
        """The widget's `explanation` state: the Explanation's text lines and HTML, or the error's message."""
        try:
            found = self.on_explain()
        except KernelextError as error:
            return {"lines": str(error).splitlines(), "html": ""}
        return {
            "lines": static_forms.explanation_text(found).splitlines(),
            "html": static_forms.explanation_html(found, self.kind, self.data),
        }

    def _repr_mimebundle_(self, include=None, exclude=None):
        state = report_state(self.report, self.kind, self.data, self.drawings)
        if not in_kernel():
            return {"text/plain": static_forms.state_text(state), "text/html": static_forms.state_html(state)}
        if self.widget is None:
            from kernelext.widgets.grid_widget import (
                GridWidget,  # deferred: anywidget adds 0.17 s to %load_ext
            )

            self.widget = GridWidget(
                description=state, pencil=self._pencil, on_explain=self.explanation if self.on_explain else None
            )
        return self.widget._repr_mimebundle_()

    def __repr__(self) -> str:
        return report_text(self.report, self.kind, self.data, self.drawings)
