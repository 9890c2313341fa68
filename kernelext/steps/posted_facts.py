"""What a view can read off the posted constraints of the drawn array, whatever the data are called:
comparisons between two of its cells (`x[0][1] < x[0][2]`), cells equal to a number (`x[2][3] == 4`) and
sums of its cells equal to a number (`Sum(x[0][0], x[1][0]) == 7`)."""

from __future__ import annotations

import re

_CELL = r"(\w+)\[(\d+)\]\[(\d+)\]"
_FACT = re.compile(rf"^intension\(function:(lt|gt|eq)\({_CELL},(?:{_CELL}|(-?\d+))\)\)$")
_SUM = re.compile(r"^sum\(list:\[(.*)\], condition:\(eq,(-?\d+)\)\)$")  # no coefficients


def posted_facts(array: str) -> dict:
    """{"posted_less_than": [[(r1, c1), (r2, c2)], ...] for each cell of `array` posted less than another,
    "posted_givens": [[r, c, v], ...] for each cell posted equal to a number, "posted_sums": [[total,
    [(r, c), ...]], ...] for each sum of its cells posted equal to a number}; a key with nothing is left out."""
    from pycsp3.classes.entities import CtrEntities
    from pycsp3.classes.main.constraints import ConstraintIntension, ConstraintSum

    less, givens, sums = [], [], []
    for item in CtrEntities.items:
        for constraint in item.flat_constraints():
            if isinstance(constraint, ConstraintIntension):
                _read_comparison(str(constraint), array, less, givens)
            elif isinstance(constraint, ConstraintSum):
                _read_sum(str(constraint), array, sums)
    found = (("posted_less_than", less), ("posted_givens", givens), ("posted_sums", sums))
    return {key: facts for key, facts in found if facts}


def _read_comparison(text: str, array: str, less: list, givens: list) -> None:
    found = _FACT.match(text)
    if found is None or found.group(2) != array:
        return
    op, _, r1, c1, other, r2, c2, value = found.groups()
    if value is not None and op == "eq":
        givens.append([int(r1), int(c1), int(value)])
    elif other == array and op != "eq":
        pair = [(int(r1), int(c1)), (int(r2), int(c2))]
        less.append(pair if op == "lt" else pair[::-1])


def _read_sum(text: str, array: str, sums: list) -> None:
    found = _SUM.match(text)
    if found is None:
        return
    terms = [re.fullmatch(_CELL, term.strip()) for term in found.group(1).split(",")]
    if terms and all(term is not None and term.group(1) == array for term in terms):
        sums.append([int(found.group(2)), [(int(t.group(2)), int(t.group(3))) for t in terms]])
