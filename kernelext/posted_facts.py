"""What a view can read off the posted constraints of the drawn array, whatever the data are called:
comparisons between two of its cells (`x[0][1] < x[0][2]`) and cells equal to a number (`x[2][3] == 4`)."""

from __future__ import annotations

import re

_CELL = r"(\w+)\[(\d+)\]\[(\d+)\]"
_FACT = re.compile(rf"^intension\(function:(lt|gt|eq)\({_CELL},(?:{_CELL}|(-?\d+))\)\)$")


def posted_facts(array: str) -> dict:
    """{"posted_less_than": [[(r1, c1), (r2, c2)], ...] for each cell of `array` posted less than another,
    "posted_givens": [[r, c, v], ...] for each cell posted equal to a number}; a key with nothing is left out."""
    from pycsp3.classes.entities import CtrEntities
    from pycsp3.classes.main.constraints import ConstraintIntension

    less, givens = [], []
    for item in CtrEntities.items:
        for constraint in item.flat_constraints():
            if not isinstance(constraint, ConstraintIntension):
                continue  # only a single comparison can be a sign or a given: tables are never printed
            found = _FACT.match(str(constraint))
            if found is None or found.group(2) != array:
                continue
            op, _, r1, c1, other, r2, c2, value = found.groups()
            if value is not None and op == "eq":
                givens.append([int(r1), int(c1), int(value)])
            elif other == array and op != "eq":
                pair = [(int(r1), int(c1)), (int(r2), int(c2))]
                less.append(pair if op == "lt" else pair[::-1])
    return {key: found for key, found in (("posted_less_than", less), ("posted_givens", givens)) if found}
