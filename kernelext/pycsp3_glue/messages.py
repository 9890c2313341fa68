"""pycsp3's own warnings and errors, printed without terminal colours while the kit is loaded.

pycsp3 colours them with terminal escape codes; a notebook turns those into colours of its own choosing
(JupyterLab's yellow for "Warning:" is 3.6:1 on white, below WCAG's 4.5:1). Its `warning` and `error` read the
codes from `pycsp3.tools.utilities` at each call, so emptying them there is enough.
"""

from __future__ import annotations

from pycsp3.tools import utilities

CODES = {
    "PURPLE": "\033[95m",
    "BLUE": "\033[94m",
    "GREEN": "\033[92m",
    "ORANGE": "\033[93m",
    "RED": "\033[91m",
    "WHITE": "\033[0m",
    "WHITE_BOLD": "\033[1m",
    "UNDERLINE": "\033[4m",
}


def terminal_colours(on: bool) -> None:
    """Put pycsp3's colour codes back as it sets them (`on`), or empty them."""
    for name, code in CODES.items():
        setattr(utilities, name, code if on and not utilities.is_windows() else "")
