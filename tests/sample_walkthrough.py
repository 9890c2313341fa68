"""A made-up walkthrough of a 4x4 Sudoku, two deductions long, for the tests of its display (here and in a browser)."""

from __future__ import annotations

from kernelext.insight.findings import Culprit, Deduction, Walkthrough
from kernelext.insight.pencil_marks import PencilGrid

ALL = (1, 2, 3, 4)
ROW_0 = frozenset((0, c) for c in range(4))


def marks(changes: dict, removed: dict | None = None, highlighted=frozenset(), before=None) -> PencilGrid:
    """A 4x4 Sudoku's candidates: those of `before` (else every value everywhere) with `changes`."""
    values = [list(row) for row in before.values] if before else [[ALL] * 4 for _ in range(4)]
    for (r, c), cell in changes.items():
        values[r][c] = cell
    gone = tuple(tuple((removed or {}).get((r, c), ()) for c in range(4)) for r in range(4))
    return PencilGrid("x", tuple(map(tuple, values)), gone, highlighted=highlighted)


def walkthrough() -> Walkthrough:
    start = marks({(0, 0): (1,), (0, 3): (4,), (0, 1): (2, 3), (0, 2): (2, 3)})
    first = marks({(0, 1): (2,)}, {(0, 1): (3,)}, ROW_0 | {(1, 1)}, start)
    second = marks({(0, 2): (3,)}, {(0, 2): (2,)}, ROW_0, first)
    row = Culprit("allDifferent(x[0][0..3])", 2, tuple(f"x[0][{c}]" for c in range(4)), tuple(sorted(ROW_0)))
    column = Culprit("allDifferent(x[0..3][1])", 2, tuple(f"x[{r}][1]" for r in range(4)), ((1, 1),))
    deductions = (
        Deduction((("x[0][1]", 2),), (("x[0][1]", (3,)),), (row, column), (("x[1][1]", 3),), "", False, first),
        Deduction((("x[0][2]", 3),), (("x[0][2]", (2,)),), (row,), (), "naked single", True, second),
    )
    return Walkthrough("sudoku", deductions, False, "easy (naked single)", "time ran out", start, second)
