"""Puzzles as a session's steps (a 9x9 Sudoku, a 4x4 Futoshiki), and a Sudoku's houses as a walkthrough's
rules, shared by the tests of explanations and walkthroughs."""

from __future__ import annotations

from kernelext.solver.engine import Solver
from kernelext.solver.kit.rules import AllDifferent
from kernelext.steps.session import PuzzleSession

LATIN = "satisfy(AllDifferent(x[i]) for i in range(n))\nsatisfy(AllDifferent(x[:, j]) for j in range(n))\n"

SUDOKU_BOARD = """clues = [[int(d) for d in row] for row in [
    "530070000", "600195000", "098000060", "800060003", "400803001",
    "700020006", "060000280", "000419005", "000080079"]]
x = VarArray(size=[9, 9], dom=range(1, 10))
"""
SUDOKU_STEPS = (
    "satisfy(x[i][j] == clues[i][j] for i in range(9) for j in range(9) if clues[i][j] > 0)",
    "satisfy(AllDifferent(x[i]) for i in range(9))",
    "satisfy(AllDifferent(x[:, j]) for j in range(9))",
    "satisfy(AllDifferent(x[3 * p:3 * p + 3, 3 * q:3 * q + 3]) for p in range(3) for q in range(3))",
)

FUTOSHIKI_PUZZLE = """n = 4
givens = [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
less_than = [((0, 0), (1, 0)), ((3, 1), (2, 1)), ((2, 2), (2, 3)), ((2, 3), (3, 3))]
x = VarArray(size=[n, n], dom=range(1, n + 1))
"""
FUTOSHIKI_RULES = (
    "satisfy(x[i][j] == givens[i][j] for i in range(n) for j in range(n) if givens[i][j])",
    LATIN,
    "satisfy(x[a] < x[b] for a, b in less_than)",
)


def session_with(solver: Solver, name: str, *steps: str) -> PuzzleSession:
    session = PuzzleSession(name, solver=solver)
    for step in steps:
        session.add_step(step, solve=False)
    return session


def sudoku_rules() -> tuple[list[AllDifferent], dict[str, tuple[int, int]]]:
    """A 9x9 Sudoku's 27 houses as rules (rows, columns, blocks) and each cell's position."""
    positions = {f"x[{r}][{c}]": (r, c) for r in range(9) for c in range(9)}
    rules = [AllDifferent(tuple(f"x[{r}][{c}]" for c in range(9))) for r in range(9)]
    rules += [AllDifferent(tuple(f"x[{r}][{c}]" for r in range(9))) for c in range(9)]
    rules += [
        AllDifferent(tuple(f"x[{3 * p + i}][{3 * q + j}]" for i in range(3) for j in range(3)))
        for p in range(3)
        for q in range(3)
    ]
    return rules, positions
