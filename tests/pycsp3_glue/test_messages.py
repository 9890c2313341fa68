"""pycsp3's own warnings reach the notebook without terminal colours while the kit is loaded, and get them back
when it is unloaded (a notebook shows escape codes in colours that fail WCAG's contrast)."""

from __future__ import annotations

from pycsp3.tools import utilities

from kernelext.pycsp3_glue.messages import CODES


def test_pycsp3_s_warning_in_a_plain_cell_has_no_escape_codes(shell):
    shell.ok("%%puzzle pair\nk = VarArray(size=2, dom={0, 1})")
    text = shell.ok("wrong = (k[0] == 0 and k[1] == 0)")
    assert "Warning:" in text and "A node is evaluated as a Boolean" in text
    assert "\x1b" not in text


def test_unloading_the_kit_gives_pycsp3_its_colours_back(shell):
    assert utilities.ORANGE == ""
    shell.ok("%unload_ext kernelext")
    assert {name: getattr(utilities, name) for name in CODES} == CODES
    shell.ok("%load_ext kernelext")
    assert utilities.ORANGE == ""
