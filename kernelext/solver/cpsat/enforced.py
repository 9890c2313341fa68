"""A model's constraints read once into one CP-SAT model, each behind a literal of its own: a subset of them is
solved by assuming the literals (no file written, nothing read again), and an infeasible one comes back with
CP-SAT's core. What explanations ask many times over (QuickXplain, `why`, `explain`)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from kernelext.solver.cpsat.module import required_cp_model
from kernelext.solver.cpsat.reader import EnforcedReading
from kernelext.solver.cpsat.search import run_search
from kernelext.xcsp.document import parse_text


class EnforcedConstraints:
    """Constraints (XCSP3 elements, as text) over the declarations `variables` (the `<variables>` element, as
    text), each enforced by a literal, in the order added.

    Raises BackendUnsupported (from the reading) for a model CP-SAT does not read, Untranslatable for a text
    that is not XCSP3."""

    def __init__(self, variables: str, holes: frozenset[str]):
        self.reading = EnforcedReading(parse_text(variables), holes)
        self.model = self.reading.model
        self.literals: list = []

    def add(self, constraints: Sequence[str]) -> None:
        """Read `constraints` (XCSP3 elements, as text) after those added before."""
        self.literals += self.reading.read(list(parse_text(f"<constraints>{''.join(constraints)}</constraints>")))

    def unsat(self, ids: Sequence[int], seconds: float) -> bool | None:
        """Whether the constraints `ids` alone have no solution; None when `seconds` ran out first.
        KeyboardInterrupt when Stop ended the search."""
        chosen = set(ids)
        self.model.ClearAssumptions()
        self.model.AddAssumptions([lit if k in chosen else lit.Not() for k, lit in enumerate(self.literals)])
        solver = required_cp_model().CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.catch_sigint_signal = False
        solver.parameters.max_time_in_seconds = max(0.001, seconds)
        solver.parameters.cp_model_presolve = False  # presolving the whole model again for each subset: 4x slower
        solver.parameters.linearization_level = 0  # and its LP relaxation: 4x slower again (Inkala's `why`)
        status, stopped = run_search(solver, self.model, deadline=time.perf_counter() + seconds)
        if stopped == "interrupted":
            raise KeyboardInterrupt
        name = solver.StatusName(status) if status is not None else "UNKNOWN"
        return True if name == "INFEASIBLE" else False if name in ("FEASIBLE", "OPTIMAL") else None
