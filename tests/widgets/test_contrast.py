"""The kit's colours meet WCAG 2.1 AA where they are used (text 4.5:1, lines and rings that carry meaning 3:1),
and the palette of values drawn as colours stays apart for colour-blind viewers."""

from __future__ import annotations

import itertools

import pytest
from colour_vision import MACHADO, contrast, difference

from kernelext.views.gantt import OVER_FILL, PROFILE_FILL
from kernelext.views.shapes import BAR_FILL, FAINT_FILL, GREY, INK, PALETTE
from kernelext.widgets import pencil_forms, style, tree_forms

TEXT = 4.5  # WCAG 1.4.3, normal text
GRAPHIC = 3.0  # WCAG 1.4.11, lines and rings that carry meaning

# (what, foreground, background, minimum): every pairing the drawings make.
PAIRS = [
    ("a given", style.TEXT, style.WHITE, TEXT),
    ("a solved value", style.SOLVED_TEXT, style.WHITE, TEXT),
    ("a solved value just changed", style.SOLVED_TEXT, style.CHANGED, TEXT),
    ("an undecided cell's *", style.FREE_TEXT, style.WHITE, TEXT),
    ("a legend", style.FREE_TEXT, style.WHITE, TEXT),
    ("a value that breaks a rule", style.CONFLICT, style.CONFLICT_BG, TEXT),
    ("a clue cell's sums", style.CLUE_TEXT, style.CLUE_BG, TEXT),
    ("a cell's lines", style.LINE, style.WHITE, GRAPHIC),
    ("a changed cell's ring", style.CHANGED_LINE, style.CHANGED, GRAPHIC),
    ("a broken rule's ring", style.CONFLICT, style.CONFLICT_BG, GRAPHIC),
    ("a cage's line", style.CAGE_LINE, style.WHITE, GRAPHIC),
    ("a picture's outlines", style.SHAPE_LINE, style.WHITE, GRAPHIC),
    ("a changed shape's outline", style.CHANGED_LINE, style.WHITE, GRAPHIC),
    ("a broken shape's outline", style.CONFLICT, style.WHITE, GRAPHIC),
    ("a picture's edges", GREY, style.WHITE, GRAPHIC),
    ("an undecided bar's text", style.FREE_TEXT, FAINT_FILL, TEXT),
    ("a bar's text", INK, BAR_FILL, TEXT),
    ("the capacity profile", INK, PROFILE_FILL, TEXT),
    ("the profile over capacity", INK, OVER_FILL, TEXT),
    ("a wiped-out cell's ∅", "#fff", style.CONFLICT, TEXT),
    ("a struck-out candidate", style.CONFLICT, style.WHITE, TEXT),
    ("a candidate in a highlighted cell", style.TEXT, pencil_forms.HIGHLIGHT, TEXT),
    ("a highlighted cell's ring", pencil_forms.HIGHLIGHT_RING, pencil_forms.HIGHLIGHT, GRAPHIC),
    ("a chain's strong link", pencil_forms.STRONG, style.WHITE, TEXT),
    ("a chain's weak link", pencil_forms.WEAK, style.WHITE, TEXT),
    ("an unknown boolean's ?", style.TEXT, "#ccc", TEXT),
    ("a failure in the tree's outline", tree_forms.COLOURS["failure"], style.WHITE, TEXT),
    ("a solution in the tree's outline", tree_forms.COLOURS["solution"], style.WHITE, TEXT),
    ("the tree's branches", tree_forms.EDGE, style.WHITE, TEXT),
    ("a decision node", tree_forms.COLOURS["decision"], style.WHITE, GRAPHIC),
    ("the path to the selected node", tree_forms.HIGHLIGHT, style.WHITE, GRAPHIC),
] + [(f"a value drawn as {fill}", INK, fill, TEXT) for fill in PALETTE]


@pytest.mark.parametrize("what, foreground, background, least", PAIRS, ids=[p[0] for p in PAIRS])
def test_each_colour_pair_meets_wcag_aa(what, foreground, background, least):
    assert contrast(foreground, background) >= least, (
        f"{what}: {foreground} on {background} has {contrast(foreground, background):.2f}:1, below {least}:1"
    )


def test_the_contrast_formula_is_wcag_s():
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#767676", "#fff") == pytest.approx(4.54, abs=0.01)  # the lightest grey that passes


@pytest.mark.parametrize("vision", [None, *MACHADO])
def test_any_two_palette_colours_stay_apart_for_colour_blind_viewers(vision):
    """CIE76 delta E of at least 10 between any two colours of the palette, as simulated for each vision."""
    closest = min(itertools.combinations(PALETTE, 2), key=lambda pair: difference(*pair, vision))
    assert difference(*closest, vision) >= 10, f"{closest} look alike to {vision or 'typical vision'}"


def test_the_old_pastel_palette_would_fail_for_deuteranopia():
    """The check can fail: two colours of the kit's former palette nearly merge for a deuteranope."""
    assert difference("#fdb462", "#b3de69", "deuteranopia") < 5 < difference("#fdb462", "#b3de69")
