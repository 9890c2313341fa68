"""Queens rules: no two queens share a row, a column or a diagonal."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from kernelext.checkers.latin import Cell


def conflicts(queens: Iterable[Cell]) -> set[Cell]:
    """The queens that attack another queen."""
    found: set[Cell] = set()
    for (r1, c1), (r2, c2) in combinations(sorted(set(queens)), 2):
        if r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2):
            found |= {(r1, c1), (r2, c2)}
    return found
