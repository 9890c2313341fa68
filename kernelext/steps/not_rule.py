"""Steps that are not rules of the puzzle: symmetry breaking, implied constraints, search hints.

A teacher marks such a step `%%puzzle+ --not-rule symmetry`. It runs in class as any other step, but the
grader leaves it out when it judges an answer: an answer the mark alone would refuse (the colours swapped,
the square mirrored) is still right.
"""

from __future__ import annotations

import shlex
from types import MappingProxyType

OPTION = "--not-rule"
REASONS = MappingProxyType(
    {"symmetry": "it breaks a symmetry", "implied": "it is implied by the rules", "hint": "it is a search hint"}
)


def not_rule_in(magic_line: str) -> str:
    """The reason a `%%puzzle+` line marks its step with ("symmetry", "implied", "hint"), or "" for a rule."""
    try:
        words = shlex.split(magic_line)
    except ValueError:
        words = magic_line.split()
    for position, word in enumerate(words):
        value = word.partition("=")[2] if word.startswith(OPTION + "=") else ""
        if word == OPTION and position + 1 < len(words):
            value = words[position + 1]
        if value in REASONS:
            return value
    return ""


def marked_text(reason: str) -> str:
    """The line a marked step's report shows."""
    return f"not a rule of the puzzle: {REASONS[reason]}, so the grader leaves this step out"
