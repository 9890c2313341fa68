"""Save a grid description as a picture: SVG in plain Python (kernelext.widgets.grid_svg), PNG or PDF with
matplotlib, PNG in the browser with its canvas (kernelext.widgets.svg_png)."""

from __future__ import annotations

from pathlib import Path

from kernelext.errors import PuzzleUsageError
from kernelext.widgets.grid_svg import grid_svg
from kernelext.widgets.static_forms import picture_text
from kernelext.widgets.style import (
    CAGE_LINE,
    CHANGED_LINE,
    CONFLICT,
    CONFLICT_MARK,
    HOLE,
    LINE,
    SIGN_GLYPHS,
    TEXT,
    THICK,
    background,
    text_colour,
)
from kernelext.widgets.svg_png import can_draw_png, svg_png

UNIT = 0.32  # inches per cell


def save_grid(description: dict, path: str | Path) -> Path:
    """Draw the grid `description` (see kernelext.kinds) into `path`; the suffix picks the format.

    Raises:
        PuzzleUsageError: a PDF (or a PNG where no canvas draws one) asked for where matplotlib is missing.
    """
    path = Path(path)
    if path.suffix.lower() == ".svg":  # its <title> and <desc> say what it shows
        path.write_text(grid_svg(description), encoding="utf-8")
        return path
    text_alternative(path, picture_text(description))
    if path.suffix.lower() == ".png" and can_draw_png():  # the browser: its canvas draws the SVG
        path.write_bytes(svg_png(grid_svg(description)))
        return path
    try:
        import matplotlib
    except ImportError:
        raise PuzzleUsageError(
            f"Saving a {path.suffix or 'picture'} needs matplotlib, which the browser's kit does not carry: "
            f"save {path.with_suffix('.svg').name} instead (or `%puzzle export FILE.json`)."
        ) from None
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    cells = description["cells"]
    rows, cols = len(cells), len(cells[0]) if cells else 0
    row_clues, col_clues = description.get("row_clues") or [], description.get("col_clues") or []
    left = max((len(" ".join(map(str, c))) for c in row_clues), default=0) * 0.35
    top = max((len(c) for c in col_clues), default=0) * 0.6
    figure = Figure(figsize=((cols + left + 0.2) * UNIT, (rows + top + 0.2) * UNIT))
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(-left - 0.1, cols + 0.1)
    axes.set_ylim(rows + 0.1, -top - 0.1)
    axes.set_axis_off()
    points = 72 * UNIT
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            _draw_cell(axes, cell, r, c, points)
    for sign in description.get("signs", ()):
        (r1, c1), (r2, c2) = sign["cells"]
        glyph = SIGN_GLYPHS.get(sign["text"], sign["text"])
        axes.text(
            (c1 + c2 + 1) / 2,
            (r1 + r2 + 1) / 2,
            glyph,
            ha="center",
            va="center",
            weight="bold",
            fontsize=points * 0.5,
            bbox={"boxstyle": "round,pad=0.05", "fc": "white", "ec": "none"},
        )
    for r, numbers in enumerate(row_clues):
        axes.text(-0.15, r + 0.5, " ".join(map(str, numbers)), ha="right", va="center", fontsize=points * 0.45)
    for c, numbers in enumerate(col_clues):
        axes.text(
            c + 0.5,
            -0.15,
            "\n".join(map(str, numbers)),
            ha="center",
            va="bottom",
            fontsize=points * 0.45,
            linespacing=1.1,
        )
    with matplotlib.rc_context({"svg.hashsalt": "kernelext", "svg.fonttype": "none"}):
        figure.savefig(path, metadata={"Date": None} if path.suffix in (".svg", ".pdf") else {"Software": None})
    return path


def text_alternative(path: Path, text: str) -> Path:
    """Beside a PNG or PDF picture, a text file of the same name that says what it shows (its alt text)."""
    beside = path.with_suffix(".txt")
    beside.write_text(text + "\n", encoding="utf-8")
    return beside


def _draw_cell(axes, cell: dict, r: int, c: int, points: float) -> None:
    from matplotlib.patches import Circle, Rectangle

    classes = set(cell.get("classes", ()))  # add_artist, not add_patch: the limits are fixed, no updates needed
    if "hole" in classes:
        axes.add_artist(Rectangle((c, r), 1, 1, facecolor=HOLE, edgecolor="none"))
        return
    axes.add_artist(Rectangle((c, r), 1, 1, facecolor=background(cell), edgecolor=LINE, linewidth=0.6))
    for name, colour, width in (("changed", CHANGED_LINE, 2.5), ("conflict", CONFLICT, 1.5)):
        if name in classes and (name == "conflict" or "conflict" not in classes):
            axes.add_artist(
                Rectangle((c + 0.08, r + 0.08), 0.84, 0.84, facecolor="none", edgecolor=colour, linewidth=width)
            )
    if "conflict" in classes:
        axes.text(c + 0.84, r + 0.2, CONFLICT_MARK, ha="center", va="center", color=CONFLICT, fontsize=points * 0.25)
    if "endpoint" in classes:
        axes.add_artist(Circle((c + 0.5, r + 0.5), 0.4, facecolor="none", edgecolor=THICK, linewidth=1.5))
    sides = {
        "t": ((c, c + 1), (r, r)),
        "r": ((c + 1, c + 1), (r, r + 1)),
        "b": ((c, c + 1), (r + 1, r + 1)),
        "l": ((c, c), (r, r + 1)),
    }
    for side in cell.get("borders", ""):
        axes.plot(*sides[side], color=THICK, linewidth=2, solid_capstyle="projecting")
    inset = {
        "t": ((c + 0.1, c + 0.9), (r + 0.1, r + 0.1)),
        "r": ((c + 0.9, c + 0.9), (r + 0.1, r + 0.9)),
        "b": ((c + 0.1, c + 0.9), (r + 0.9, r + 0.9)),
        "l": ((c + 0.1, c + 0.1), (r + 0.1, r + 0.9)),
    }
    for side in cell.get("cage", ""):
        axes.plot(*inset[side], color=CAGE_LINE, linewidth=0.8, linestyle=(0, (2, 2)))
    if cell.get("corner"):
        axes.text(c + 0.06, r + 0.06, str(cell["corner"]), ha="left", va="top", color=TEXT, fontsize=points * 0.25)
    if cell["text"]:
        axes.text(
            c + 0.5,
            r + 0.5,
            cell["text"],
            ha="center",
            va="center",
            color=text_colour(classes),
            fontsize=points * (0.6 if classes & {"queen", "star"} else 0.27 if "clue" in classes else 0.45),
            weight="bold" if classes & {"given", "endpoint"} else "normal",
        )
