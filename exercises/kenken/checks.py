"""The KenKen exercise's answer check: a Latin square whose cages give their targets."""

import math


def check_kenken(answer, data, expected):
    """ "" when `answer` solves the puzzle in `data`, else what is wrong, in one line."""
    n = data["n"]
    if len(answer) != n or any(len(row) != n for row in answer):
        return f"the grid should be {n}x{n}"
    for i in range(n):
        if sorted(answer[i]) != list(range(1, n + 1)):
            return f"row {i} should hold 1..{n} once each"
        if sorted(row[i] for row in answer) != list(range(1, n + 1)):
            return f"column {i} should hold 1..{n} once each"
    for cage in data["cages"]:
        values = [answer[i][j] for i, j in cage["cells"]]
        if _result(cage["op"], values) != cage["target"]:
            cells = ", ".join(f"({i}, {j})" for i, j in cage["cells"])
            return f"the cage {cage['op']}{cage['target']} on {cells} holds {values}"
    return ""


def _result(op, values):
    if op == "=":
        return values[0]
    if op == "+":
        return sum(values)
    if op == "*":
        return math.prod(values)
    if op == "-":
        return abs(values[0] - values[1])
    big, small = max(values), min(values)
    return big // small if big % small == 0 else None
