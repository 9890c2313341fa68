"""The model the pictures read: the constraints a step compiled, read as XCSP3 without a file, the same as a
reading of the whole file, step after step; what earlier steps gave is kept, not read again."""

from __future__ import annotations

import pytest

from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.steps.session import PuzzleSession
from kernelext.xcsp.subsets import read_model

pytestmark = pytest.mark.timeout(120)

STEPS = [
    "s = VarArray(size=[2, 3], dom=range(20))\nc = VarArray(size=4, dom=range(3))\n",
    "satisfy(NoOverlap(origins=[s[j][k] for j in range(2)], lengths=[2, 3]) for k in range(3))\n",
    "satisfy(c[i] != c[j] for i, j in [(0, 1), (1, 2), (2, 3)])\nsatisfy(Circuit(c))\n",
    "minimize(Maximum(s[j][2] + 2 for j in range(2)))\n",
]


def test_the_model_read_from_a_steps_parts_is_the_files_and_keeps_what_it_read():
    session = PuzzleSession("read", timeout=5)
    try:
        earlier = ()
        for step in STEPS:
            session.add_step(step, solve=False)
            with plain_operators():
                model = session.xcsp_model()
                whole = read_model(session.compile())
            assert [c.text for c in model.constraints] == [c.text for c in whole.constraints]
            assert [c.scope for c in model.constraints] == [c.scope for c in whole.constraints]
            assert (model.objectives is None) == (whole.objectives is None)
            assert all(a is b for a, b in zip(earlier, model.constraints)), "a constraint read before was read again"
            earlier = model.constraints
        assert model.objectives[0].tag == "minimize" and len(earlier) == 7
    finally:
        session.close()
