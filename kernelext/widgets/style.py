"""The colours and sizes every drawing of a grid shares (HTML tables, the widget, saved pictures)."""

from __future__ import annotations

FONT = "DejaVu Sans, Arial, sans-serif"
WHITE, LINE, THICK, TEXT = "#fff", "#999", "#333", "#222"
HOLE, FREE_TEXT, SOLVED_TEXT = "#f2f2f2", "#aaaaaa", "#1f5fbf"
CHANGED, CHANGED_LINE = "#fff3b0", "#f0a000"
CONFLICT, CONFLICT_BG = "#d62728", "#ffd6d6"
CAGE_LINE = "#555555"
CLUE_BG, CLUE_TEXT = "#3d3d3d", "#ffffff"  # a black cell showing its clues (kakuro)
SIGN_GLYPHS = {"^": "∧", "v": "∨"}  # how the column signs `^` and `v` are drawn


def cell_size(rows: int, cols: int) -> int:
    """The side of a cell in pixels: smaller cells for bigger grids."""
    side = max(rows, cols)
    return 28 if side <= 12 else 22 if side <= 20 else 16


def text_colour(classes: set[str]) -> str:
    """The colour of a cell's text: red for a broken rule, grey when free, blue when solved (not given),
    white on a clue cell."""
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
