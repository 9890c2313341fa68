"""`auto`: on the desktop a race of the solvers that run here (kernelext.solver.portfolio), else the solvers in
turn; in a browser, the kit's own search then MiniZinc."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import ClassVar

from kernelext.errors import Untranslatable
from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.solver.backends.base import Backend, Stop
from kernelext.solver.backends.cpsat import solve_cpsat
from kernelext.solver.choice import auto_order, in_browser, race_order
from kernelext.solver.compiled import CompiledModel, holes_of
from kernelext.solver.errors import BackendUnsupported, SolverError
from kernelext.solver.portfolio import FIRST_SLICE, SLICE_WALL, Race, usable_cores
from kernelext.solver.result import Cells, SolveResult, Status

CANONICAL = 0.5  # CP-SAT's deterministic seconds (work, not wall time) to find its solution at an optimum another
# solver proved: the same outcome on a busy machine


class Auto(Backend):
    """On the desktop, CP-SAT alone for a first slice, then a race of CP-SAT, warm ACE and MiniZinc on the
    kernel's cores (kernelext.solver.portfolio): the first checked, complete answer wins. An optimum another
    solver proved is shown as CP-SAT's solution for that value, the same in every run. Several solutions, or a
    model none of the racers takes, go to the solvers in turn: CP-SAT, MiniZinc, warm ACE, the kit's own search,
    never to a solver known to be wrong on it. A large model (large tables: ACE reads them far faster than
    Python) goes to warm ACE first where Java runs. In a browser, the kit's own search for a short while, then
    MiniZinc (and the kit's search again, for the time left, when MiniZinc does not take the model)."""

    name: ClassVar[str] = "auto"
    first_slice: ClassVar[float] = FIRST_SLICE  # seconds CP-SAT has alone
    summary: ClassVar[str] = (
        "CP-SAT in this process, raced by warm ACE and MiniZinc when it does not answer at once; in the browser, "
        "the kit's own search then MiniZinc (the default)"
    )

    def solve(
        self, model: CompiledModel, cells: Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        racers = self._racers(model, sols)
        if len(racers) < 2:
            large = not in_browser() and model.large()
            return self._in_turn(model, cells, sols, timeout, auto_order(large, self.solver.available))
        started = time.monotonic()
        with plain_operators():  # once for all the racers' threads: pycsp3's operators are one global state
            race = Race(
                lambda name, seconds, stop: self.solver.solve(
                    model, cells, sols=sols, timeout=seconds, backend=name, stop=stop
                ),
                racers,
                timeout,
                usable_cores(),
                lambda: _sense(model, cells),
                self.first_slice,
                clock=time.process_time if racers[0] == "cp-sat" else time.monotonic,  # CP-SAT runs in this process
            )
            result = race.run()
        left = timeout - (time.monotonic() - started)
        if result is None and race.failure() is not None:
            raise race.failure()
        if result is None:  # every racer refused the model: the others, in turn
            rest = tuple(name for name in auto_order(False, self.solver.available) if name not in racers)
            return self._in_turn(model, cells, sols, max(0.01, left), rest, race.refusals(), race.notes())
        result = self._canonical(model, cells, result, left)
        notes = race.notes()
        return replace(result, invalid=f"{'; '.join(notes)}; solved again with {result.backend}") if notes else result

    def _racers(self, model: CompiledModel, sols: int | str) -> tuple[str, ...]:
        """The solvers raced for one solution (or the optimum) on the desktop; none in a browser."""
        if in_browser() or sols != 1:
            return ()
        order = race_order(model.large(), self.solver.available)
        return tuple(name for name in order if self.solver.backend(name).stoppable)

    def _canonical(self, model: CompiledModel, cells: Cells, result: SolveResult, seconds: float):
        """`result`, an optimum another solver proved shown as CP-SAT's solution with the objective held at its
        value (the same solution in every run, whichever solver won), when CP-SAT finds it within `seconds` and
        CANONICAL (else the winner's own solution, the same in every run that solver wins)."""
        if result.status is not Status.OPTIMUM or result.backend == "cp-sat" or seconds <= 0:
            return result
        try:
            with self.solver.exclusive("cp-sat", min(seconds, CANONICAL * SLICE_WALL)) as left:
                if left is None:
                    return result
                again = solve_cpsat(model, cells, sols=1, timeout=left, objective_at=result.bound, work=CANONICAL)
        except BackendUnsupported:
            return result
        again = self.solver.check(model, cells, again)
        if again.status is not Status.SAT or again.invalid:
            return result
        if model.checker(holes_of(cells)).objective_value(again.solution) != result.bound:
            return result
        return replace(result, solutions=again.solutions)

    def _in_turn(
        self,
        model: CompiledModel,
        cells: Cells,
        sols: int | str,
        timeout: float,
        order: tuple[str, ...],
        refusals: list[str] | None = None,
        notes: list[str] | None = None,
    ) -> SolveResult:
        """Ask the solvers of `order` one after the other, each for the time left."""
        started, refusals, notes, cut = time.monotonic(), list(refusals or ()), list(notes or ()), None
        for name in order:
            left = max(0.01, timeout - (time.monotonic() - started))  # reading the model counts
            allowed = min(left, self.solver.backend(name).budget()) if name != order[-1] else left
            try:
                result = self.solver.solve(model, cells, sols=sols, timeout=allowed, backend=name)
            except BackendUnsupported as refused:
                refusals.append(str(refused))
                continue
            if result.invalid:
                notes.append(result.invalid)
                continue
            if result.stopped == "timeout" and allowed < left:  # its short while is up: the next solver's turn
                cut = cut or name
                continue
            return replace(result, invalid=f"{'; '.join(notes)}; solved again with {name}") if notes else result
        if cut is not None:  # every solver after it refused the model: the one cut short gets the time left
            left = max(0.01, timeout - (time.monotonic() - started))
            result = self.solver.solve(model, cells, sols=sols, timeout=left, backend=cut)
            return replace(result, invalid=f"{'; '.join(notes)}; solved again with {cut}") if notes else result
        if notes:
            raise SolverError(f"No solver gave an answer the kit could check: {notes[0]}.")
        raise BackendUnsupported(f"no solver of the kit takes this model ({refusals[0]})")


def _sense(model: CompiledModel, cells: Cells) -> str:
    """ "minimize", "maximize" or "" (a satisfaction model, or one the kit's checker does not read)."""
    try:
        return model.checker(holes_of(cells)).optimises
    except Untranslatable:
        return ""
