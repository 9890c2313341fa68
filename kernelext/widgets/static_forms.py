"""Static forms of a grid description, a grid widget's state, explanations and walkthroughs: text and HTML tables.

They carry no scripts, ids or timings, so the same input always gives the same bytes, and their HTML
keeps to what notebook sanitizers keep (see kernelext.widgets.html_grid).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import replace

from kernelext.insight.pencil_marks import PencilGrid
from kernelext.kinds import kind_for
from kernelext.widgets.drawing_forms import drawing_html, drawing_text
from kernelext.widgets.html_grid import bounds_html, grid_html, legend_html
from kernelext.widgets.pencil_forms import pencil_html, pencil_text
from kernelext.widgets.style import FONT

MAX_STATIC_GRIDS = 6
MOST_PAGES = 6  # a walkthrough's static form: at most this many cards after the start


def cell_char(cell: dict) -> str:
    """What a cell shows in text: its text, else `■` (filled) or `·` (empty); a space for a hole."""
    classes = cell.get("classes", ())
    if "hole" in classes:
        return " "
    return cell["text"] or ("■" if "filled" in classes else "·")


def grid_text(description: dict) -> str:
    """The grid as aligned text; `[v]` marks the cells changed by the step."""
    rows = [[cell_char(cell) for cell in row] for row in description["cells"]]
    width = max((len(text) for row in rows for text in row), default=1)
    lines = []
    for texts, cells in zip(rows, description["cells"]):
        parts = [
            f"[{t.rjust(width)}]" if "changed" in cell.get("classes", ()) else f" {t.rjust(width)} "
            for t, cell in zip(texts, cells)
        ]
        lines.append("".join(parts).rstrip())
    return "\n".join(lines)


def state_text(state: dict) -> str:
    """A widget state as text: title, report lines, then the grid or picture (or those of the first solutions)."""
    lines = [state["title"], *state["lines"]]
    grids, total = state["grids"], state["total"]
    if total > 1:
        for k, grid in enumerate(grids[:MAX_STATIC_GRIDS], start=1):
            caption = f"solution {k} of {total}:" if "shapes" in grid else f"{grid['name']}, solution {k} of {total}:"
            lines += [caption, description_text(grid)]
        if total > MAX_STATIC_GRIDS:
            lines.append(f"... {total - MAX_STATIC_GRIDS} more solutions")
    elif grids and "shapes" in grids[0]:
        lines.append(drawing_text(grids[0]))
    elif grids:
        lines += [f"{grids[0]['name']} ({grids[0]['legend']}):", grid_text(grids[0])]
    return "\n".join(lines)


def description_text(description: dict) -> str:
    """A grid description (kernelext.kinds) or a picture description (kernelext.views) as text."""
    return drawing_text(description) if "shapes" in description else grid_text(description)


def picture_text(description: dict) -> str:
    """One grid or picture as text, a grid headed by its name and legend as in the text/plain output: a text
    alternative to its drawing."""
    if "shapes" in description:
        return description_text(description)
    legend = f" ({description['legend']})" if description.get("legend") else ""
    return f"{description['name']}{legend}:\n{description_text(description)}"


def picture_html(description: dict) -> str:
    """One grid with its legend below, or one picture (a Gantt chart, a graph, a route, a packing)."""
    if "shapes" in description:
        return drawing_html(description)
    return grid_html(description) + legend_html(description)


def state_html(state: dict) -> str:
    """A widget state as static HTML: title, report lines, the grids (the first solutions) and the bound.
    The grids' HTML is the state's "pictures" when it has them (a widget's state), else drawn here."""
    esc = html.escape
    parts = [f'<div style="font-family:{FONT};font-size:13px">', f"<div><b>{esc(state['title'])}</b></div>"]
    if state["lines"]:
        parts.append(f'<pre style="margin:2px 0;white-space:pre-wrap">{esc(chr(10).join(state["lines"]))}</pre>')
    grids, total = state["grids"][:MAX_STATIC_GRIDS], state["total"]
    pictures = state.get("pictures") or [picture_html(grid) for grid in grids]
    for k, (grid, picture) in enumerate(zip(grids, pictures), start=1):
        caption = f"{grid['name']}, solution {k} of {total}" if total > 1 else grid["name"]
        parts.append(
            f'<div style="display:inline-block;vertical-align:top;margin:4px 12px 4px 0">'
            f"<div>{esc(caption)}</div>{picture}</div>"
        )
    if total > MAX_STATIC_GRIDS:
        parts.append(f"<div>... {total - MAX_STATIC_GRIDS} more solutions</div>")
    if len(state.get("bounds") or ()) > 1:
        parts.append(bounds_html(state["bounds"]))
    parts.append("</div>")
    return "".join(parts)


def explanation_text(found) -> str:
    """An explanation (kernelext.insight.findings) as text: its words, then the grid (generic view) with the cells
    concerned as [v]."""
    grid, marked = found.picture()
    if grid is None:
        return "\n".join(found.words())
    picture = grid_text(kind_for("generic").describe(grid, {}))
    return "\n".join([*found.words(), f"{grid.name} ([v] = {marked}, * = unknown):", picture])


def explanation_html(found, kind: str = "generic", data: Mapping | None = None) -> str:
    """An explanation as static HTML: its words, then the grid drawn by the view `kind`, the cells concerned marked."""
    grid, _ = found.picture()
    picture = grid_html(kind_for(kind).describe(grid, data or {})) if grid is not None else ""
    return (
        f'<div style="font-family:sans-serif;font-size:13px"><pre style="margin:2px 0;white-space:pre-wrap">'
        f"{html.escape(chr(10).join(found.words()))}</pre>{picture}</div>"
    )


def walkthrough_text(w) -> str:
    """A walkthrough (kernelext.insight.findings.Walkthrough) as text: its words, then the candidates at the end."""
    end = ["candidates at the end:", pencil_text(w.end)] if w.end is not None else []
    return "\n".join([*w.words(), *end])


def walkthrough_captions(w) -> list[str]:
    """One caption per page of a walkthrough: the start, then each deduction's number and line."""
    return ["start: the candidates from the givens"] + [f"{n}. {d.line()}" for n, d in enumerate(w.deductions, 1)]


def walkthrough_pages(w, block: int | None = None) -> list[str]:
    """One pencil-marks table per page of a walkthrough ("" where a step has no grid): the start, then each step."""
    marks = [w.start, *(d.marks for d in w.deductions)]
    return [pencil_html(grid, block) if grid is not None else "" for grid in marks]


def walkthrough_html(w, block: int | None = None) -> str:
    """A walkthrough as static HTML: its header, then cards (a caption over pencil marks) that wrap beside each
    other: the start, then the steps. A long walkthrough gathers its steps into at most MOST_PAGES cards, each
    showing the candidates after its last step and what all of its steps removed (struck through), so that a
    saved notebook stays light. `block` draws thicker lines every `block` cells (3 for a 9x9 Sudoku)."""
    captions = [walkthrough_captions(w)[0]]
    pages = [pencil_html(w.start, block) if w.start is not None else ""]
    for first, last in page_spans(len(w.deductions)):
        steps = w.deductions[first:last]
        captions.append("\n".join(f"{n}. {d.line()}" for n, d in enumerate(steps, first + 1)))
        grid = steps[-1].marks if len(steps) == 1 else _gathered(steps)
        pages.append(pencil_html(grid, block) if grid is not None else "")
    return (
        f'<div style="font-family:{FONT};font-size:13px"><div><b>{html.escape(w.header())}</b></div>'
        f"{''.join(map(_card, captions, pages))}</div>"
    )


def page_spans(steps: int, most: int = MOST_PAGES) -> list[tuple[int, int]]:
    """[first, last) step indexes of each card: one step a card, or as few equal runs as fit in `most` cards."""
    per_page = max(1, -(-steps // most))
    return [(first, min(first + per_page, steps)) for first in range(0, steps, per_page)]


def _gathered(steps) -> PencilGrid | None:
    """The candidates after the last of `steps`, with every value they removed struck through and the links of
    their chains drawn (nothing highlighted: each step's own cells are for the live stepper)."""
    last, first = steps[-1].marks, steps[0].marks
    if last is None or first is None:
        return None
    removed = tuple(
        tuple(tuple(sorted({v for d in steps for v in d.marks.removed[r][c]})) for c in range(len(row)))
        for r, row in enumerate(last.values)
    )
    links = tuple(link for d in steps if d.marks is not None for link in d.marks.links)
    return replace(last, removed=removed, highlighted=frozenset(), links=links)


def _card(caption: str, page: str) -> str:
    """An inline block: `caption` wrapped to the width of the table `page` below it."""
    return (
        '<div style="display:inline-block;vertical-align:top;margin:4px 12px 4px 0">'
        '<table style="border-collapse:collapse"><caption style="caption-side:top;text-align:left">'
        f"{'<br>'.join(map(html.escape, caption.splitlines()))}</caption>"
        f'<tr style="background-color:transparent"><td style="padding:0">{page}</td></tr></table></div>'
    )
