"""The colours, marks and sizes every drawing of a grid shares (HTML tables, the widget, saved pictures).

Every colour meets WCAG 2.1 AA where it is used: text at least 4.5:1 against its background, lines and
rings that carry meaning at least 3:1 (tests/widgets/test_contrast.py computes each pair). No state is shown by
colour alone: a given is bold, an undecided cell shows `*`, a changed cell a thick ring, a cell that breaks a
rule a ring and the mark `✗`; each reads the same in grayscale."""

from __future__ import annotations

FONT = "DejaVu Sans, Arial, sans-serif"
WHITE, LINE, THICK, TEXT = "#fff", "#767676", "#333", "#222"
HOLE, FREE_TEXT, SOLVED_TEXT = "#f2f2f2", "#6b6b6b", "#1f5fbf"
CHANGED, CHANGED_LINE = "#fff3b0", "#8a5a00"
CONFLICT, CONFLICT_BG = "#b00020", "#ffd6d6"
CONFLICT_MARK = "✗"  # beside the colour: a cell, box or node that breaks a rule
CAGE_LINE = "#555555"
SHAPE_LINE = "#666666"  # a picture's outlines (bars, nodes)
CLUE_BG, CLUE_TEXT = "#3d3d3d", "#ffffff"  # a black cell showing its clues (kakuro)
SIGN_GLYPHS = {"^": "∧", "v": "∨"}  # how the column signs `^` and `v` are drawn


def cell_size(rows: int, cols: int) -> int:
    """The side of a cell in pixels: smaller cells for bigger grids."""
    side = max(rows, cols)
    return 28 if side <= 12 else 22 if side <= 20 else 16


def text_colour(classes: set[str]) -> str:
    """The colour of a cell's text: red for a broken rule, grey when free, blue when solved (not given: givens
    are also bold), white on a clue cell."""
    return (
        CONFLICT
        if "conflict" in classes
        else CLUE_TEXT
        if "clue" in classes
        else FREE_TEXT
        if "free" in classes
        else SOLVED_TEXT
        if "solved" in classes
        else TEXT
    )


def background(cell: dict) -> str:
    """A cell's background: its own fill, else the colour of a broken rule or of a change, else white
    (a hole's and a clue cell's own colours first)."""
    classes = set(cell.get("classes", ()))
    if "hole" in classes:
        return HOLE
    if "clue" in classes:
        return CLUE_BG
    return cell.get("fill") or (CONFLICT_BG if "conflict" in classes else CHANGED if "changed" in classes else WHITE)


def outline(marks: list) -> tuple[str, int, str]:
    """A shape's outline as (colour, width, style): a broken rule thick, red and dotted; a change thick, dark
    amber and solid; an undecided shape dashed; else thin and solid. Line style and width tell them apart
    without colour."""
    if "conflict" in marks:
        return CONFLICT, 3, "dotted"
    if "changed" in marks:
        return CHANGED_LINE, 3, "solid"
    return SHAPE_LINE, 1, "dashed" if "faint" in marks or "dashed" in marks else "solid"


def marked_text(text: str, marks: list) -> str:
    """A shape's text, with the mark of a broken rule before it."""
    return f"{CONFLICT_MARK} {text}" if "conflict" in marks and text else text
