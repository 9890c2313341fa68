"""The grader's answer checks, by checker name: each kind's rules (`kernelext.kinds`), pure Python, no solver.

A check takes the answer array's values (nested lists), the instance's data and its expected facts, and
returns "" when the answer is right, else one line saying what is wrong.
"""

from __future__ import annotations

from kernelext.kinds import answer_checks

CHECKERS = answer_checks()
