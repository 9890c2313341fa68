"""Pencil marks drawn: a PencilGrid (see kernelext.insight.pencil_marks) as aligned text and as a static HTML
table that every front end shows (no ids, no scripts). Each state has a cue besides its colour: a removed
candidate is struck through, a value decided by the step is bold in a thick ring, a cell the step reasons on
has a ring, a wiped-out cell shows `∅`, an unknown one `*`."""

from __future__ import annotations

import html

from kernelext.insight.pencil_marks import PencilGrid
from kernelext.widgets.style import CHANGED, CHANGED_LINE, CONFLICT, FREE_TEXT, LINE, TEXT

SMALL = 9  # domains of at most this many values are drawn digit by digit
WIPED_OUT = "∅"
UNKNOWN = "*"
_STYLE = "border-collapse:collapse;font-family:sans-serif;text-align:center;margin:2px 0"
_CELL = (
    f"border:1px solid {LINE};width:{{s}}px;height:{{s}}px;padding:0;vertical-align:middle;text-align:center;"
    f"background-color:#fff;color:{TEXT};{{extra}}"
)
HIGHLIGHT, HIGHLIGHT_RING = "#dbeafe", "#1d4ed8"
STRONG, WEAK = "#1d4ed8", "#b45309"  # a chain's links: dots every 3 px (strong) or 7 px (weak)


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
    texts = [
        [" " if (r, c) in pg.holes else cell_text(v) for c, v in enumerate(row)] for r, row in enumerate(pg.values)
    ]
    widths = [max(len(row[c]) for row in texts) for c in range(pg.shape[1])]
    removed = sum(len(gone) for row in pg.removed for gone in row)
    summary = f"{pg.name}: {pg.remaining} {pg.left}"
    summary += f", {removed} removed by this step" if removed else ""
    summary += f"; {len(pg.wiped_out)} cell(s) wiped out ({WIPED_OUT}): no solution" if pg.wiped_out else ""
    summary += f"; {pg.note}" if pg.note else ""
    lines = ["  ".join(text.rjust(width) for text, width in zip(row, widths)).rstrip() for row in texts]
    return "\n".join([summary, *lines])


def pencil_html(pg: PencilGrid, block: int | None = None) -> str:
    """The pencil marks as a static HTML table (no ids, no scripts).

    Singletons are one big value, small domains small digits, a wiped-out cell is red, values this step
    removed are struck through; 0/1 grids show filled / empty / unknown cells. Highlighted cells are light
    blue, or ringed in blue when their background already means something. `block` draws thicker lines
    every `block` rows and columns (3 for a 9x9 Sudoku).
    """
    largest = max(
        (len(v) + len(g) for row, grow in zip(pg.values, pg.removed) for v, g in zip(row, grow) if v is not None),
        default=1,
    )
    size = 26 if pg.boolean or largest <= 1 else 34 if largest <= 4 else 44
    dots = _link_dots(pg.links, size)
    linked: dict[tuple[int, int], tuple[int, ...]] = {}
    for a, b, digit, _ in pg.links:
        for cell in (a, b):
            linked[cell] = linked.get(cell, ()) + (digit,)
    rows = []
    for r, row in enumerate(pg.values):
        cells = []
        for c, values in enumerate(row):
            extra = _borders(r, c, block)
            if (r, c) in pg.holes:
                cells.append(f'<td style="{_CELL.format(s=size, extra="background:#eee;border-color:#eee")}"></td>')
                continue
            content, colour = _cell_html(values, pg.removed[r][c], pg.boolean, size, linked.get((r, c), ()))
            colour = _highlighted(colour) if (r, c) in pg.highlighted else colour
            if (r, c) in dots:
                content, extra = content + "".join(dots[(r, c)]), extra + "position:relative;"
            cells.append(f'<td style="{_CELL.format(s=size, extra=colour + extra)}">{content}</td>')
        rows.append('<tr style="background-color:transparent">' + "".join(cells) + "</tr>")
    caption = html.escape(pencil_text(pg).splitlines()[0])
    if pg.links:
        caption += (
            f' <span style="color:{STRONG}">&#9679;&#9679;&#9679; strong link</span>'
            f' <span style="color:{WEAK}">&#9679; &#9679; weak link</span>'
        )
    title = f"{html.escape(pg.name)}: {pg.shape[0]} x {pg.shape[1]}"  # the browser tests measure tables by it
    return (
        f'<table style="{_STYLE}" title="{title}"><caption style="caption-side:top;text-align:left;'
        f'font-size:12px">{caption}</caption>{"".join(rows)}</table>'
    )


def _link_dots(links, size: int) -> dict[tuple[int, int], list[str]]:
    """A chain's links drawn as dots from cell centre to cell centre, each dot placed in the cell it falls
    in (a static table cannot hold lines: the sanitizer strips SVG and rotations)."""
    pitch = size + 1  # collapsed borders
    dots: dict[tuple[int, int], list[str]] = {}
    for (r1, c1), (r2, c2), digit, strong in links:
        (x1, y1), (x2, y2) = _anchor(r1, c1, digit, size), _anchor(r2, c2, digit, size)
        length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
        spacing, colour = (3, STRONG) if strong else (7, WEAK)
        margin = 7  # the ends stay clear of the linked digits
        steps = int((length - 2 * margin) // spacing)
        for k in range(steps + 1):
            t = (margin + k * spacing) / length
            x, y = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
            r, c = int(y // pitch), int(x // pitch)
            left, top = x - c * pitch - 1.5, y - r * pitch - 1.5
            dots.setdefault((r, c), []).append(
                f'<span style="position:absolute;left:{left:.0f}px;top:{top:.0f}px;width:3px;height:3px;'
                f'border-radius:2px;background:{colour}"></span>'
            )
    return dots


def _anchor(r: int, c: int, digit: int, size: int) -> tuple[float, float]:
    """Where a link ends in a cell, in pixels from the table's corner: on the digit's slot when digits sit in
    Sudoku slots (see `_cell_html`), else the cell's centre."""
    x, y = (c + 0.5) * (size + 1), (r + 0.5) * (size + 1)
    if size > 34 and 1 <= digit <= SMALL:
        x, y = x + ((digit - 1) % 3 - 1) * 8, y + ((digit - 1) // 3 - 1) * 11.5
    return x, y


def _highlighted(colour: str) -> str:
    """A highlighted cell's style: a blue ring, on a light blue background unless its background means something."""
    ring = "" if "box-shadow" in colour else f"box-shadow:inset 0 0 0 2px {HIGHLIGHT_RING};"
    return colour + ring + ("" if "background" in colour else f"background:{HIGHLIGHT};")


def _borders(r: int, c: int, block: int | None) -> str:
    if not block:
        return ""
    top = "border-top:2px solid #222;" if r % block == 0 else ""
    left = "border-left:2px solid #222;" if c % block == 0 else ""
    return top + left


def _cell_html(
    values: tuple[int, ...] | None, removed: tuple[int, ...], boolean: bool, size: int, linked: tuple[int, ...] = ()
) -> tuple[str, str]:
    """A cell's inner HTML and background style; `linked` candidates (a chain's) are circled."""
    if values is None:
        return f'<span style="color:{FREE_TEXT}">*</span>', ""
    if not values:
        return f'<b style="color:#fff">{WIPED_OUT}</b>', f"background:{CONFLICT};"
    if boolean:
        fill = {(1,): "#333", (0,): "#fff"}.get(values, "#ccc")
        mark = "?" if len(values) > 1 else ""
        ring = f"box-shadow:inset 0 0 0 3px {CHANGED_LINE if values != (1,) else CHANGED};" if removed else ""
        return f'<span style="color:{TEXT};font-size:11px">{mark}</span>', f"background:{fill};{ring}"
    if len(values) == 1:
        changed = f"background:{CHANGED};box-shadow:inset 0 0 0 3px {CHANGED_LINE};" if removed else ""
        return f'<span style="font-size:{size // 2 + 2}px;font-weight:bold">{values[0]}</span>', changed
    marks = sorted({*values, *removed})
    if len(marks) > SMALL:
        text = html.escape(cell_text(values))
        return f'<span style="font-size:10px">{text}</span>', ""
    parts = {v: f'<s style="color:{CONFLICT}">{v}</s>' if v in removed else f"<span>{v}</span>" for v in marks}
    for v in linked:
        if v in parts and v not in removed:
            parts[v] = f'<span style="background:#bfdbfe;border-radius:6px;font-weight:bold">{v}</span>'
    if marks[0] >= 1 and marks[-1] <= SMALL and size > 34:  # Sudoku style: digit v always in slot v
        slots, per_row = [parts.get(v, "&#8199;") for v in range(1, SMALL + 1)], 3
    else:
        slots, per_row = [parts[v] for v in marks], 2 if len(marks) <= 4 else 3
    lines = ["&#8239;".join(slots[i : i + per_row]) for i in range(0, len(slots), per_row)]
    return f'<span style="font-size:10px;line-height:1.15">{"<br>".join(lines)}</span>', ""
