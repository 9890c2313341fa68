"""The kit's own search as a backend: a model's constraints read as rules (kernelext.solver.kit), propagated at
every node of a depth-first search, in pure Python (no Java, no program: the same in a browser, where it answers
small puzzles before MiniZinc's WebAssembly has started). A constraint the kit does not read as a rule is checked
where every variable is fixed, so each leaf it reports is a solution and none is missed. An objective (a sum, a
variable or an expression) is optimised by branch and bound: each solution found adds the rule "better than this
one", until none is left."""

from __future__ import annotations

import functools
import time
from types import MappingProxyType
from typing import ClassVar

from kernelext.errors import ReadingStopped
from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.solver.backends.base import Backend, Stop
from kernelext.solver.choice import in_browser
from kernelext.solver.compiled import CompiledModel, holes_of
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.kit.reading import rule_of
from kernelext.solver.kit.rules import Rule
from kernelext.solver.kit.search import read_rules, search
from kernelext.solver.portfolio import StopAt
from kernelext.solver.result import Cells, SolveResult, Status
from kernelext.xcsp.subsets import XcspModel, objective_constraint

STOPPED = {"time": "timeout", "interrupt": "interrupted"}  # the search's words, as a SolveResult says them
BETTER = {"minimize": "lt", "maximize": "gt"}


def solve_kit(model: CompiledModel, cells: Cells, *, sols: int | str, timeout: float) -> SolveResult:
    """Search `model`'s solutions (its optimum, when it has an objective) within `timeout` seconds of wall time
    from the call (reading counts).

    Raises:
        BackendUnsupported: the model's objective is of a form the kit does not read as a rule.
    """
    called, deadline = time.perf_counter(), time.monotonic() + timeout
    checker = functools.cache(lambda: model.checker(holes_of(cells)))  # built only when the search needs it
    try:
        with plain_operators():  # pycsp3's `in` on sets is slow, and the search needs none of it
            read = model.xcsp()
            progress: list[tuple[float, int]] = []
            better, goal = None, ()
            if model.optimises():
                better, goal = _bound(read, lambda solution: checker().objective_value(solution), progress, called)
            rules = read_rules(read, also=goal, stop=StopAt(called + timeout))
            found = search(
                rules,
                nodes=10**12,  # the deadline bounds the search
                sols=None if sols == "all" else int(sols),
                deadline=deadline,
                broken=checker().broken if rules.left_out else None,
                record=False,
                better=better,
            )
    except KeyboardInterrupt:
        return SolveResult(Status.UNKNOWN, time=time.perf_counter() - called, backend="kit", stopped="interrupted")
    except ReadingStopped:
        return SolveResult(Status.UNKNOWN, time=time.perf_counter() - called, backend="kit", stopped="timeout")
    solutions = tuple(
        MappingProxyType({vid: event[1].get(vid) for array in cells.values() for _, vid in array if vid is not None})
        for event in found.events
    )
    stopped = STOPPED.get(found.stopped, found.stopped)
    status = Status.SAT if solutions else Status.UNKNOWN if stopped else Status.UNSAT
    if better is not None and solutions and not stopped:
        status = Status.OPTIMUM
    stats = {name: str(count) for name, count in found.stats.items()}
    return SolveResult(
        status,
        solutions[-1:] if better is not None else solutions,  # optimising: the best
        progress[-1][1] if better is not None and progress else None,
        tuple(progress),
        time.perf_counter() - called,
        "kit",
        MappingProxyType(stats),
        stopped,
    )


def _bound(read: XcspModel, value, progress: list, called: float):
    """The branch and bound's `better` (given a solution, the rule "objective better than its value", noting the
    value in `progress`) and the objective's variables. Raises BackendUnsupported when the objective is not read
    as a rule."""
    goal = "" if read.objective is None else "minimize" if read.objective.minimize else "maximize"
    probe = objective_constraint(read, 0, BETTER[goal]) if goal else None
    if probe is None or rule_of(probe, read.declarations) is None:
        raise BackendUnsupported(
            "the kit's own search does not read this objective (a sum, a variable or an expression)"
        )

    def better(solution: dict) -> Rule:
        bound = value(solution)
        progress.append((time.perf_counter() - called, bound))
        return rule_of(objective_constraint(read, bound, BETTER[goal]), read.declarations)

    return better, probe.scope


# Seconds the kit's own search gets in a browser before MiniZinc is asked: a 9x9 Sudoku takes a few hundredths.
FIRST_IN_BROWSER = 0.5


class Kit(Backend):
    """The kit's own search, in pure Python: propagation at every node, branch and bound for an objective."""

    name: ClassVar[str] = "kit"
    summary: ClassVar[str] = "the kit's own search in pure Python (no Java; the same in the browser)"

    @classmethod
    def budget(cls) -> float:
        """In a browser, where it is asked first, a short while before MiniZinc is asked."""
        return FIRST_IN_BROWSER if in_browser() else float("inf")

    def solve(
        self, model: CompiledModel, cells: Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        return solve_kit(model, cells, sols=sols, timeout=timeout)
