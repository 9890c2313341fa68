"""What a solve returns: a status and the solutions, as plain frozen data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

Solution = Mapping[str, "int | None"]  # variable id -> value; None for a variable no constraint involves
Cells = dict[str, tuple[tuple[tuple[int, ...], "str | None"], ...]]  # array -> ((index, variable id or None), ...)


class Status(Enum):
    SAT = "SAT"
    UNSAT = "UNSAT"
    OPTIMUM = "OPTIMUM"
    UNKNOWN = "UNKNOWN"


@dataclass(frozen=True)
class SolveResult:
    """The outcome of one solve.

    Attributes:
        status: SAT, UNSAT, OPTIMUM or UNKNOWN.
        solutions: the solutions found, in order (the last is the best when optimising).
        bound: the objective value of the best solution, when optimising.
        progress: (seconds, bound) for each improving solution, when optimising.
        time: wall-clock seconds of the solve.
        backend: which solver answered ("ace-warm", "ace-cold", "choco", "ortools").
        stats: the solver's own figures (decisions, failures...), as text.
        stopped: why the search stopped early ("timeout", "interrupted"), or "".
        invalid: which solver returned an answer the kit's check refused, and the constraint it breaks, or "".
        repeats: how many repeated solutions were dropped.
        more: how many solutions were found past the most a solve keeps (Solver.keep): counted, not kept, so
            neither checked nor shown.
    """

    status: Status
    solutions: tuple[Solution, ...] = ()
    bound: int | None = None
    progress: tuple[tuple[float, int], ...] = ()
    time: float = 0.0
    backend: str = ""
    stats: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    stopped: str = ""
    invalid: str = ""
    repeats: int = 0
    more: int = 0

    @property
    def solution(self) -> Solution | None:
        """The last (best) solution, or None."""
        return self.solutions[-1] if self.solutions else None
