"""Pencil marks: each cell's values left after the solver's propagation at the root, as text and HTML.

`pencil_grid`, `pencil_text`, `pencil_html` and `compare_domains` are pure; `pencil_report` compiles a
session's model and asks the solver for the domains.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from kernelext.pycsp3_glue.model_state import ArrayInfo

Domains = Mapping[str, tuple[int, ...]]
SMALL = 9  # domains of at most this many values are drawn digit by digit
WIPED_OUT = "∅"
UNKNOWN = "*"


@dataclass(frozen=True)
class PencilGrid:
    """The pencil marks of one array laid out as rows (a 1-D array is one row).

    Attributes:
        name: the array's name.
        values: per cell, the values left (sorted); None where the domains say nothing (a hole, or a variable
            the solver left out).
        removed: per cell, the values left in `previous` but not any more (empty without `previous`).
        holes: (row, col) positions with no variable at all.
        boolean: every cell's values are within {0, 1} (drawn as filled / empty / unknown).
        highlighted: (row, col) cells to draw highlighted (the cells of a deduction's constraints).
        left: what the values are, in the summary line ("values left after propagation", "candidates left").
    """

    name: str
    values: tuple[tuple[tuple[int, ...] | None, ...], ...]
    removed: tuple[tuple[tuple[int, ...], ...], ...]
    holes: frozenset[tuple[int, int]] = frozenset()
    boolean: bool = False
    highlighted: frozenset[tuple[int, int]] = frozenset()
    left: str = "values left after propagation"

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.values), len(self.values[0]) if self.values else 0

    @property
    def wiped_out(self) -> frozenset[tuple[int, int]]:
        """Cells with no value left (the model has no solution)."""
        return frozenset((r, c) for r, row in enumerate(self.values) for c, v in enumerate(row) if v == ())

    @property
    def remaining(self) -> int:
        """How many values are left over all cells."""
        return sum(len(v) for row in self.values for v in row if v is not None)


def pencil_grid(info: ArrayInfo, domains: Domains, previous: Domains | None = None) -> PencilGrid:
    """Lay the `domains` (variable id -> values) of `info`'s variables out as rows; note what `previous` had more."""
    rows, cols = info.grid_shape
    values: list[list] = [[None] * cols for _ in range(rows)]
    removed: list[list] = [[()] * cols for _ in range(rows)]
    for variable, (r, c) in info.positions().items():
        if variable in domains:
            values[r][c] = tuple(sorted(domains[variable]))
            if previous is not None and variable in previous:
                removed[r][c] = tuple(sorted(set(previous[variable]) - set(values[r][c])))
    holes = info.holes()
    known = [set(v) | set(gone) for row, gone_row in zip(values, removed) for v, gone in zip(row, gone_row)
             if v is not None]
    boolean = bool(known) and all(s <= {0, 1} for s in known)
    return PencilGrid(info.name, tuple(map(tuple, values)), tuple(map(tuple, removed)), holes, boolean)


def cell_text(values: tuple[int, ...] | None) -> str:
    """One cell's marks as text: `7`, `{1,3}`, `∅`, or `*` when unknown."""
    if values is None:
        return UNKNOWN
    if not values:
        return WIPED_OUT
    if len(values) == 1:
        return str(values[0])
    if len(values) > SMALL and values == tuple(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return "{" + ",".join(map(str, values)) + "}"


def pencil_text(pg: PencilGrid) -> str:
    """The pencil marks as aligned text, one line per row, with a summary line first."""
    texts = [[" " if (r, c) in pg.holes else cell_text(v) for c, v in enumerate(row)]
             for r, row in enumerate(pg.values)]
    widths = [max(len(row[c]) for row in texts) for c in range(pg.shape[1])]
    removed = sum(len(gone) for row in pg.removed for gone in row)
    summary = f"{pg.name}: {pg.remaining} {pg.left}"
    summary += f", {removed} removed by this step" if removed else ""
    summary += f"; {len(pg.wiped_out)} cell(s) wiped out ({WIPED_OUT}): no solution" if pg.wiped_out else ""
    lines = ["  ".join(text.rjust(width) for text, width in zip(row, widths)).rstrip() for row in texts]
    return "\n".join([summary, *lines])


_STYLE = "border-collapse:collapse;font-family:sans-serif;text-align:center;margin:2px 0"
_CELL = ("border:1px solid #888;width:{s}px;height:{s}px;padding:0;vertical-align:middle;text-align:center;"
         "background-color:#fff;color:#222;{extra}")
HIGHLIGHT, HIGHLIGHT_RING = "#dbeafe", "#3b82f6"


def pencil_html(pg: PencilGrid, block: int | None = None) -> str:
    """The pencil marks as a static HTML table (no ids, no scripts).

    Singletons are one big value, small domains small digits, a wiped-out cell is red, values this step
    removed are struck through; 0/1 grids show filled / empty / unknown cells. Highlighted cells are light
    blue, or ringed in blue when their background already means something. `block` draws thicker lines
    every `block` rows and columns (3 for a 9x9 Sudoku).
    """
    largest = max((len(v) + len(g) for row, grow in zip(pg.values, pg.removed) for v, g in zip(row, grow)
                   if v is not None), default=1)
    size = 26 if pg.boolean or largest <= 1 else 34 if largest <= 4 else 44
    rows = []
    for r, row in enumerate(pg.values):
        cells = []
        for c, values in enumerate(row):
            extra = _borders(r, c, block)
            if (r, c) in pg.holes:
                cells.append(f'<td style="{_CELL.format(s=size, extra="background:#eee;border-color:#eee")}"></td>')
                continue
            content, colour = _cell_html(values, pg.removed[r][c], pg.boolean, size)
            colour = _highlighted(colour) if (r, c) in pg.highlighted else colour
            cells.append(f'<td style="{_CELL.format(s=size, extra=colour + extra)}">{content}</td>')
        rows.append('<tr style="background-color:transparent">' + "".join(cells) + "</tr>")
    caption = html.escape(pencil_text(pg).splitlines()[0])
    title = f"{html.escape(pg.name)}: {pg.shape[0]} x {pg.shape[1]}"  # the browser tests measure tables by it
    return (f'<table style="{_STYLE}" title="{title}"><caption style="caption-side:top;text-align:left;'
            f'font-size:12px">{caption}</caption>{"".join(rows)}</table>')


def _highlighted(colour: str) -> str:
    """A highlighted cell's style: a light blue background, else (its background means something) a blue ring."""
    if "background" not in colour:
        return colour + f"background:{HIGHLIGHT};"
    return colour if "box-shadow" in colour else colour + f"box-shadow:inset 0 0 0 2px {HIGHLIGHT_RING};"


def _borders(r: int, c: int, block: int | None) -> str:
    if not block:
        return ""
    top = "border-top:2px solid #222;" if r % block == 0 else ""
    left = "border-left:2px solid #222;" if c % block == 0 else ""
    return top + left


def _cell_html(values: tuple[int, ...] | None, removed: tuple[int, ...], boolean: bool, size: int) -> tuple[str, str]:
    """A cell's inner HTML and background style."""
    if values is None:
        return '<span style="color:#999">*</span>', ""
    if not values:
        return f'<b style="color:#fff">{WIPED_OUT}</b>', "background:#d62728;"
    if boolean:
        fill = {(1,): "#333", (0,): "#fff"}.get(values, "#ccc")
        mark = "?" if len(values) > 1 else ""
        ring = "box-shadow:inset 0 0 0 2px #e6550d;" if removed else ""
        return f'<span style="color:#555;font-size:11px">{mark}</span>', f"background:{fill};{ring}"
    if len(values) == 1:
        changed = "background:#fff3b0;" if removed else ""
        return f'<span style="font-size:{size // 2 + 2}px;font-weight:bold">{values[0]}</span>', changed
    marks = sorted({*values, *removed})
    if len(marks) > SMALL:
        text = html.escape(cell_text(values))
        return f'<span style="font-size:10px">{text}</span>', ""
    parts = {v: f'<s style="color:#d62728">{v}</s>' if v in removed else f"<span>{v}</span>" for v in marks}
    if marks[0] >= 1 and marks[-1] <= SMALL and size > 34:  # Sudoku style: digit v always in slot v
        slots, per_row = [parts.get(v, "&#8199;") for v in range(1, SMALL + 1)], 3
    else:
        slots, per_row = [parts[v] for v in marks], 2 if len(marks) <= 4 else 3
    lines = ["&#8239;".join(slots[i:i + per_row]) for i in range(0, len(slots), per_row)]
    return f'<span style="font-size:10px;line-height:1.15">{"<br>".join(lines)}</span>', ""


def compare_domains(a: Domains, b: Domains, names: tuple[str, str] = ("a", "b")) -> str:
    """Two models' pencil marks side by side as a text table: values left, fixed and wiped-out cells,
    and in how many cells each is strictly tighter than the other."""
    shared = a.keys() & b.keys()
    rows = [("values left", sum(map(len, a.values())), sum(map(len, b.values()))),
            ("fixed cells", sum(len(v) == 1 for v in a.values()), sum(len(v) == 1 for v in b.values())),
            ("wiped out", sum(not v for v in a.values()), sum(not v for v in b.values())),
            ("tighter cells", sum(set(a[k]) < set(b[k]) for k in shared), sum(set(b[k]) < set(a[k]) for k in shared))]
    return side_by_side(rows, names)


def side_by_side(rows: list[tuple[str, object, object]], names: tuple[str, str]) -> str:
    """A text table of (label, first, second) rows under the two `names`, right-aligned."""
    width = max(len(label) for label, _, _ in rows)
    cols = [max(len(names[0]), 6), max(len(names[1]), 6)]
    lines = [" " * width + "  " + names[0].rjust(cols[0]) + "  " + names[1].rjust(cols[1])]
    lines += [f"{label.ljust(width)}  {str(x).rjust(cols[0])}  {str(y).rjust(cols[1])}" for label, x, y in rows]
    return "\n".join(lines)


def pencil_report(session, previous_domains: Domains | None = None, *, timeout: float | None = None,
                  array: str | None = None, model: Path | None = None
                  ) -> tuple[PencilGrid | None, dict[str, tuple[int, ...]]]:
    """The pencil marks of `session`'s model as it stands: (the shown array's PencilGrid, every variable's domain).

    Variables the solver leaves out (in no constraint) keep their declared domain. Pass the domains returned
    by the previous call as `previous_domains` to mark what this step removed, and `model` when the model as it
    stands is already compiled (compiling takes most of the time). The grid is None without a drawable array.
    """
    to_solve = session.anything_to_solve()  # first: it makes pycsp3's model the session's
    domains = declared_domains()
    if model is None and to_solve:
        model = session.compile()
    if model is not None:
        domains.update(session.solver.domains(model, timeout=timeout or session.timeout))
    info = session.array(array) if array is not None else session.shown_array()
    grid = pencil_grid(info, domains, previous_domains) if info is not None and len(info.shape) <= 2 else None
    return grid, domains


def declared_domains() -> dict[str, tuple[int, ...]]:
    """Every declared variable's domain, as pycsp3 holds it (variable id -> values)."""
    from pycsp3.classes.entities import EVar, VarEntities

    domains = {}
    for item in VarEntities.items:
        for variable in [item.variable] if isinstance(item, EVar) else item.flatVars:
            if variable is not None:
                domains[variable.id] = tuple(sorted(variable.dom.all_values()))
    return domains
