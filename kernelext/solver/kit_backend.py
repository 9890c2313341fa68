"""The kit's own search as a backend: a satisfaction model's constraints read as rules (kernelext.solver.kit),
propagated at every node of a depth-first search, in pure Python (no Java, no program: the same in a browser,
where it answers small puzzles before MiniZinc's WebAssembly has started). A constraint the kit does not read as a
rule is checked where every variable is fixed, so each leaf it reports is a solution and none is missed."""

from __future__ import annotations

import time
from types import MappingProxyType

from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.solver import ace_output
from kernelext.solver.compiled import CompiledModel, holes_of
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.kit.search import read_rules, search
from kernelext.solver.result import SolveResult, Status

STOPPED = {"time": "timeout", "interrupt": "interrupted"}  # the search's words, as a SolveResult says them


def solve_kit(model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float) -> SolveResult:
    """Search `model`'s solutions within `timeout` seconds of wall time from the call (reading counts).

    Raises:
        BackendUnsupported: the model has an objective (the kit's search does not optimise).
    """
    called, deadline = time.perf_counter(), time.monotonic() + timeout
    if model.optimises():
        raise BackendUnsupported("the kit's own search does not optimise (it finds and counts solutions)")
    try:
        with plain_operators():  # pycsp3's `in` on sets is slow, and the search needs none of it
            rules = read_rules(model.xcsp())
            broken = model.checker(holes_of(cells)).broken if rules.left_out else None
            found = search(
                rules,
                nodes=10**12,  # the deadline bounds the search
                sols=None if sols == "all" else int(sols),
                deadline=deadline,
                broken=broken,
                record=False,
            )
    except KeyboardInterrupt:
        return SolveResult(Status.UNKNOWN, time=time.perf_counter() - called, backend="kit", stopped="interrupted")
    solutions = tuple(
        MappingProxyType({vid: event[1].get(vid) for array in cells.values() for _, vid in array if vid is not None})
        for event in found.events
    )
    stopped = STOPPED.get(found.stopped, found.stopped)
    status = Status.SAT if solutions else Status.UNKNOWN if stopped else Status.UNSAT
    stats = {name: str(count) for name, count in found.stats.items()}
    return SolveResult(
        status,
        solutions,
        time=time.perf_counter() - called,
        backend="kit",
        stats=MappingProxyType(stats),
        stopped=stopped,
    )
