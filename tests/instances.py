"""Small puzzle and optimisation instances, each a list of step sources, with the answer they must give."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Instance:
    name: str
    steps: tuple[str, ...]
    status: str  # SAT, UNSAT or OPTIMUM
    bound: int | None = None
    count: int | None = None  # number of solutions, where all are asked for


def queens(n: int) -> tuple[str, ...]:
    return (
        f"n = {n}\nq = VarArray(size=n, dom=range(n))\n",
        "satisfy(AllDifferent(q), AllDifferent(q[i] + i for i in range(n)), AllDifferent(q[i] - i for i in range(n)))\n",
    )


def latin(n: int, clues: dict) -> tuple[str, ...]:
    return (
        f"n = {n}\nclues = {clues!r}\nL = VarArray(size=[n, n], dom=range(1, n + 1))\n",
        "satisfy(L[i][j] == v for (i, j), v in clues.items())\n",
        "satisfy([AllDifferent(row) for row in L], [AllDifferent(col) for col in columns(L)])\n",
    )


def sudoku(rows: list[str]) -> tuple[str, ...]:
    return (
        f"clues = {rows!r}\nn = len(clues)\nb = int(n ** 0.5)\nS = VarArray(size=[n, n], dom=range(1, n + 1))\n",
        "satisfy(S[i][j] == int(clues[i][j]) for i in range(n) for j in range(n) if clues[i][j] != '0')\n",
        "satisfy([AllDifferent(row) for row in S], [AllDifferent(col) for col in columns(S)],\n"
        "        [AllDifferent(S[i][j] for i in range(r, r + b) for j in range(c, c + b))\n"
        "         for r in range(0, n, b) for c in range(0, n, b)])\n",
    )


def pigeons(p: int) -> tuple[str, ...]:
    return (f"p = {p}\nh = VarArray(size=p, dom=range(p - 1))\n", "satisfy(AllDifferent(h))\n")


def golomb(m: int) -> tuple[str, ...]:
    return (
        f"m = {m}\nmark = VarArray(size=m, dom=range(m * m))\n",
        "satisfy(mark[0] == 0, Increasing(mark, strict=True),\n"
        "        AllDifferent(mark[j] - mark[i] for i in range(m) for j in range(i + 1, m)))\n",
        "minimize(mark[-1])\n",
    )


def magic(n: int) -> tuple[str, ...]:
    return (
        f"n = {n}\ns = n * (n * n + 1) // 2\nM = VarArray(size=[n, n], dom=range(1, n * n + 1))\n",
        "satisfy(AllDifferent(M), [Sum(row) == s for row in M], [Sum(col) == s for col in columns(M)],\n"
        "        Sum(M[i][i] for i in range(n)) == s, Sum(M[i][n - 1 - i] for i in range(n)) == s)\n",
    )


def knapsack(weights: list[int], values: list[int], capacity: int) -> tuple[str, ...]:
    return (
        f"w, v, cap = {weights!r}, {values!r}, {capacity}\ntake = VarArray(size=len(w), dom={{0, 1}})\n",
        "satisfy(Sum(take[i] * w[i] for i in range(len(w))) <= cap)\n",
        "maximize(Sum(take[i] * v[i] for i in range(len(v))))\n",
    )


def colouring(n: int, edges: list[tuple[int, int]]) -> tuple[str, ...]:
    return (
        f"n, edges = {n}, {edges!r}\ncol = VarArray(size=n, dom=range(n))\n",
        "satisfy(col[a] != col[b] for a, b in edges)\n",
        "minimize(Maximum(col))\n",
    )


def amaze(n: int, m: int, points: list) -> tuple[str, ...]:
    """Numberlink on an n x m board with a border of 0: link each pair of `points`, fewest cells."""
    return (
        f"n, m = {n}, {m}\npoints = {points!r}\n"
        "x = VarArray(size=[n + 2, m + 2], dom=lambda i, j: {0} if i in {0, n + 1} or j in {0, m + 1} else range(len(points) + 1))\n",
        "satisfy(x[i][j] == v + 1 for v in range(len(points)) for i, j in points[v])\n",
        "satisfy(Count(x[i - 1][j], x[i + 1][j], x[i][j - 1], x[i][j + 1], value=v + 1) == 1\n"
        "        for v in range(len(points)) for i, j in points[v])\n",
        "ends = {p for pair in points for p in pair}\n"
        "T = {(0, ANY, ANY, ANY, ANY)} | {tuple([v] + [v if d in (a, b) else ne(v) for d in range(4)])\n"
        "     for v in range(1, len(points) + 1) for a, b in combinations(range(4), 2)}\n"
        "satisfy((x[i][j], x[i - 1][j], x[i + 1][j], x[i][j - 1], x[i][j + 1]) in T\n"
        "        for i in range(1, n + 1) for j in range(1, m + 1) if (i, j) not in ends)\n",
        "minimize(Sum(x))\n",
    )


AMAZE = amaze(5, 5, [[(3, 4), (5, 1)], [(2, 2), (5, 5)]])

FUTOSHIKI = (
    "n = 4\nF = VarArray(size=[n, n], dom=range(1, n + 1))\n",
    "satisfy(F[0][0] == 2, F[1][1] == 2)\n",
    "satisfy([AllDifferent(row) for row in F], [AllDifferent(col) for col in columns(F)])\n",
    "satisfy(F[0][0] < F[1][0], F[3][1] < F[2][1], F[2][2] < F[2][3], F[2][3] < F[3][3])\n",
)

SEND_MORE = (
    "s, e, n, d, m, o, r, y = letters = VarArray(size=8, dom=range(10))\n",
    "satisfy(AllDifferent(letters), s > 0, m > 0,\n"
    "        Sum([1000, 100, 10, 1] * cp_array([s, e, n, d])) + Sum([1000, 100, 10, 1] * cp_array([m, o, r, e]))\n"
    "        == Sum([10000, 1000, 100, 10, 1] * cp_array([m, o, n, e, y])))\n",
)

HARD_SUDOKU = [
    "800000000",
    "003600000",
    "070090200",
    "050007000",
    "000045700",
    "000100030",
    "001000068",
    "008500010",
    "090000400",
]
PETERSEN = [
    (0, 1),
    (1, 2),
    (2, 3),
    (3, 4),
    (4, 0),
    (0, 5),
    (1, 6),
    (2, 7),
    (3, 8),
    (4, 9),
    (5, 7),
    (7, 9),
    (9, 6),
    (6, 8),
    (8, 5),
]

INSTANCES = (
    [Instance(f"queens-{n}", queens(n), "SAT") for n in range(4, 11)]
    + [Instance(f"queens-{n}", queens(n), "UNSAT") for n in (2, 3)]
    + [Instance("queens-6-all", queens(6), "SAT", count=4)]
    + [Instance(f"pigeons-{p}", pigeons(p), "UNSAT") for p in (4, 5, 6)]
    + [
        Instance("latin-4", latin(4, {(0, 0): 1, (1, 1): 3}), "SAT"),
        Instance("latin-5", latin(5, {(0, 0): 5, (4, 4): 1, (2, 2): 3}), "SAT"),
        Instance("latin-4-clash", latin(4, {(0, 0): 1, (0, 3): 1}), "UNSAT"),
    ]
    + [
        Instance("sudoku-4", sudoku(["1000", "0020", "0300", "0004"]), "SAT"),
        Instance("sudoku-9-hard", sudoku(HARD_SUDOKU), "SAT"),
        Instance("sudoku-4-all", sudoku(["1200", "3400", "0000", "0000"]), "SAT", count=12),
    ]
    + [Instance(f"magic-{n}", magic(n), "SAT") for n in (3, 4)]
    + [Instance(f"golomb-{m}", golomb(m), "OPTIMUM", bound) for m, bound in ((4, 6), (5, 11), (6, 17))]
    + [
        Instance("knapsack-a", knapsack([3, 4, 5, 9], [4, 5, 7, 12], 12), "OPTIMUM", 16),
        Instance("knapsack-b", knapsack([2, 3, 4, 5, 6], [3, 4, 5, 6, 8], 10), "OPTIMUM", 13),
        Instance("knapsack-c", knapsack([5, 5, 5], [1, 1, 1], 4), "OPTIMUM", 0),
    ]
    + [
        Instance("colour-c5", colouring(5, [(i, (i + 1) % 5) for i in range(5)]), "OPTIMUM", 2),
        Instance("colour-petersen", colouring(10, PETERSEN), "OPTIMUM", 2),
        Instance("colour-k4", colouring(4, [(a, b) for a in range(4) for b in range(a + 1, 4)]), "OPTIMUM", 3),
    ]
    + [
        Instance("amaze", AMAZE, "OPTIMUM", 20),
        Instance("futoshiki-4", FUTOSHIKI, "SAT", count=1),
        Instance("send-more-money", SEND_MORE, "SAT", count=1),
    ]
)
