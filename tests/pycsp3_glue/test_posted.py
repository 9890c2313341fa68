"""A step lists what it posted as pycsp3 prints it; past 8 constraints, the first 4 and a count of each kind
(what pycsp3 prints before a constraint's first "("), without printing the others."""

from __future__ import annotations

from collections import Counter

from kernelext.pycsp3_glue.model_state import Mark, posted_since
from kernelext.steps.session import PuzzleSession

MIXED = """satisfy(
    AllDifferent(x[:3]),
    Sum(x) == 10,
    [x[i] != x[i + 1] for i in range(5)],
    (x[0], x[1]) in {(0, 1), (1, 2), (2, 3)},
    Count(x, value=2) >= 1,
    Maximum(x) <= 4,
    NValues(x, excepting=0) >= 2,
    Cardinality(x[:3], occurrences={0: range(0, 3), 1: 1}),
    NoOverlap(origins=x[:3], lengths=[1, 2, 0], zero_ignored=False),
)
"""


def test_a_long_list_is_summarised_by_the_kinds_pycsp3_prints():
    from pycsp3.classes.entities import CtrEntities

    session = PuzzleSession("posted")
    try:
        exec("from pycsp3 import *", session.namespace)
        session.add_step("x = VarArray(size=6, dom=range(5))\n", solve=False)
        session.add_step(MIXED, solve=False)
        texts = [str(c) for item in CtrEntities.items for c in item.flat_constraints()]
        kinds = Counter(text.split("(", 1)[0] for text in texts)
        summary = ", ".join(f"{count} {kind}" for kind, count in kinds.most_common())
        assert len(texts) > 8 and len(kinds) >= 6 and any("[" in kind for kind in kinds)  # a constraint with attributes
        assert posted_since(Mark(0, 0, 0)) == texts[:4] + [
            f"... {len(texts) - 4} more ({len(texts)} constraints in all: {summary})"
        ]
    finally:
        session.close()
