"""Deterministic text and HTML forms of a step's report and of grids (no timings, ids or paths)."""

from __future__ import annotations

import html

from kernelext.grid import Grid
from kernelext.session import StepReport
from kernelext.solver.result import SolveResult, Status

MAX_LINE = 160
MAX_TEXT_GRIDS = 6
CHANGED_BG = "#fff3b0"


def status_text(result: SolveResult | None, note: str = "") -> str:
    """One line: the status, the bound, the count of solutions, why the search stopped."""
    if result is None:
        return note or "not solved"
    text = result.status.value
    if result.bound is not None:
        text += f" (bound {result.bound})"
    if len(result.solutions) > 1:
        text += f": {len(result.solutions)} solutions"
    if result.stopped:
        text += f" [search stopped: {result.stopped}]"
    if result.status is Status.UNSAT:
        text += ": no solution. Undo the step (%puzzle undo) or edit it."
    elif result.status is Status.UNKNOWN and not result.stopped:
        text += ": the solver gave no answer."
    return text


def _clip(line: str) -> str:
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def cell_text(grid: Grid, r: int, c: int) -> str:
    if (r, c) in grid.holes:
        return " "
    value = grid.values[r][c]
    return "*" if value is None else str(value)


def grid_text(grid: Grid) -> str:
    """The grid as aligned text: `*` for free cells, `[v]` around values changed by this step."""
    rows, cols = grid.shape
    width = max(len(cell_text(grid, r, c)) for r in range(rows) for c in range(cols)) if rows and cols else 1
    lines = []
    for r in range(rows):
        cells = []
        for c in range(cols):
            text = cell_text(grid, r, c).rjust(width)
            cells.append(f"[{text}]" if (r, c) in grid.changed else f" {text} ")
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)


def report_text(report: StepReport) -> str:
    """The whole report as plain text."""
    title = f"{report.puzzle} · step {report.number}" + (" (replaced)" if report.replaced else "")
    lines = [title]
    lines += [_clip(f"declared: {d}") for d in report.declared]
    if report.posted:
        lines.append("posted:")
        lines += [_clip(f"  {p}") for p in report.posted]
    if report.objective:
        lines.append(_clip(f"objective: {report.objective}"))
    lines.append(f"status: {status_text(report.result, report.note)}")
    lines += grids_text(report.grid, report.all_grids)
    return "\n".join(lines)


def grids_text(grid: Grid | None, all_grids: tuple[Grid, ...]) -> list[str]:
    if len(all_grids) > 1:
        lines = []
        for k, each in enumerate(all_grids[:MAX_TEXT_GRIDS], start=1):
            lines += [f"{each.name}, solution {k} of {len(all_grids)}:", grid_text(each)]
        if len(all_grids) > MAX_TEXT_GRIDS:
            lines.append(f"... {len(all_grids) - MAX_TEXT_GRIDS} more solutions")
        return lines
    if grid is None:
        return []
    legend = " (* = no constraint on it yet, [v] = changed by this step)"
    return [f"{grid.name}{legend}:", grid_text(grid)]


def grid_html(grid: Grid, caption: str = "") -> str:
    """A static, inline-styled HTML table of the grid (no scripts)."""
    rows, cols = grid.shape
    out = ['<table style="border-collapse:collapse;font-family:monospace;margin:4px 12px 4px 0;display:inline-table">']
    if caption:
        out.append(f'<caption style="caption-side:top;text-align:left">{html.escape(caption)}</caption>')
    for r in range(rows):
        out.append("<tr>")
        for c in range(cols):
            style = "border:1px solid #999;width:1.8em;height:1.8em;text-align:center;padding:0"
            if (r, c) in grid.holes:
                style += ";background:#ddd;border-color:#ddd"
            elif (r, c) in grid.changed:
                style += f";background:{CHANGED_BG};font-weight:bold"
            elif grid.values[r][c] is None:
                style += ";color:#aaa"
            out.append(f'<td style="{style}">{html.escape(cell_text(grid, r, c).strip())}</td>')
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def report_html(report: StepReport) -> str:
    """The whole report as static HTML."""
    title = f"{report.puzzle} · step {report.number}" + (" (replaced)" if report.replaced else "")
    parts = [f"<div><b>{html.escape(title)}</b>"]
    if report.declared:
        parts.append("<div>declared: " + "; ".join(html.escape(d) for d in report.declared) + "</div>")
    if report.posted:
        items = "".join(f"<li><code>{html.escape(_clip(p))}</code></li>" for p in report.posted)
        parts.append(f"<div>posted:<ul style='margin:2px 0'>{items}</ul></div>")
    if report.objective:
        parts.append(f"<div>objective: <code>{html.escape(_clip(report.objective))}</code></div>")
    parts.append(f"<div>status: <b>{html.escape(status_text(report.result, report.note))}</b></div>")
    if len(report.all_grids) > 1:
        parts += [grid_html(g, f"solution {k} of {len(report.all_grids)}") for k, g in enumerate(report.all_grids, 1)]
    elif report.grid is not None:
        parts.append(grid_html(report.grid, report.grid.name))
    parts.append("</div>")
    return "".join(parts)


def help_text(commands: dict[str, str]) -> str:
    """The summary `%puzzle help` prints."""
    lines = ["%%puzzle NAME [options]   start a puzzle; the cell declares its variables",
             "%%puzzle+ [options]       add the cell as a step (run again: replaces it)",
             "Options: --show VAR, --timeout S, --sols N|all, --solver NAME, --no-solve, --step KEY (%%puzzle? for details)",
             "Line commands:"]
    lines += [f"  %puzzle {name:<12} {text}" for name, text in commands.items()]
    return "\n".join(lines)


class ReportOutput:
    """A step's report as a rich output: text/plain and text/html."""

    def __init__(self, report: StepReport):
        self.report = report

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": report_text(self.report), "text/html": report_html(self.report)}

    def __repr__(self) -> str:
        return report_text(self.report)
