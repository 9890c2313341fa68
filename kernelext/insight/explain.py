"""Explanations, the algorithms: why a model has no solution, and why a cell has its value.

They work on the compiled XCSP3 model, cut into single constraints (`kernelext.xcsp.subsets`): a minimal conflict
comes from CP-SAT's unsat cores in memory, else from QuickXplain over subsets solved by the session's solver
(`kernelext.insight.subset_solves`). Each call has a time
limit; a set found when time ran out is reported as not minimal.
"""

from __future__ import annotations

from collections import defaultdict

from kernelext.errors import PuzzleUsageError
from kernelext.insight.findings import (
    Explanation,
    WhyAnswer,
)
from kernelext.insight.subset_solves import DEFAULT_TIMEOUT, SubsetSolves, require
from kernelext.solver.result import Status

# -- the three questions ----------------------------------------------------------------------------


def explain(session, *, timeout: float = DEFAULT_TIMEOUT) -> Explanation:
    """A minimal set of conflicting steps, then a minimal set of conflicting constraints within them.

    Raises PuzzleUsageError when the model has a solution (or none was decided in `timeout` seconds).
    """
    found = conflict(session, timeout=timeout)
    if found is None:
        raise PuzzleUsageError(
            "explain looks for a conflict, but the model has solutions: use %puzzle why CELL to "
            "ask why a cell has its value."
        )
    return found


def conflict(
    session, *, timeout: float = DEFAULT_TIMEOUT, given_step: int | None = None, backend: str = "auto"
) -> Explanation | None:
    """As `explain`, but None when the model has a solution.

    Arguments:
        given_step: the number of a step whose constraints are facts (values fixed in the cells): they are
            part of every set tried, and never named.
        backend: the solver of the subsets (the kit's default, CP-SAT).
    Raises PuzzleUsageError when nothing was decided in `timeout` seconds.
    """
    with SubsetSolves(session, timeout, backend) as context:
        everything = tuple(range(len(context.model.constraints)))
        first = context.checked_solve(everything)
        if first is not None and first.status in (Status.SAT, Status.OPTIMUM):
            return None
        require(first, Status.UNSAT, "")
        given = tuple(i for i, step in enumerate(context.owners) if step == given_step)
        by_step = defaultdict(list)
        for index, step in enumerate(context.owners):
            if step != given_step:
                by_step[step].append(index)
        steps = context.minimal_conflict(given, [tuple(ids) for _, ids in sorted(by_step.items())])
        core = context.minimal_conflict(given, [(i,) for ids in steps for i in ids])
        culprits = tuple(context.culprit(i) for (i,) in sorted(core))
        return Explanation(
            session.name,
            tuple(sorted({c.step for c in culprits})),
            culprits,
            not context.expired,
            context.grid(None, culprits),
        )


def why(session, cell: str, *, timeout: float = DEFAULT_TIMEOUT) -> WhyAnswer:
    """Why `cell` (a variable id such as `x[3][4]`) has its value: a minimal set of constraints forcing it,
    or, when it is not forced, a solution where it differs."""
    with SubsetSolves(session, timeout) as context:
        variable = context.variable(cell)
        everything = tuple(range(len(context.model.constraints)))
        first = require(
            context.checked_solve(everything), Status.SAT, "The model has no solution: use %puzzle explain to see why."
        )
        value = first.solution.get(variable)
        if value is None:
            return WhyAnswer(session.name, variable, None, False, grid=context.grid(first.solution))
        other = context.add(f"<intension> ne({variable},{value}) </intension>")
        second = context.checked_solve(everything + (other,))
        if second is not None and second.status is Status.SAT:
            alternative = context.grid(second.solution, previous=context.grid(first.solution))
            return WhyAnswer(
                session.name, variable, value, False, grid=context.grid(first.solution), alternative=alternative
            )
        if second is None or second.status is not Status.UNSAT:
            raise PuzzleUsageError(
                f"Could not decide within {timeout:g} s whether {variable} is forced: give more time (--timeout)."
            )
        core = context.minimal_conflict((other,), [(i,) for i in everything])
        culprits = tuple(context.culprit(i) for (i,) in sorted(core))
        return WhyAnswer(
            session.name, variable, value, True, culprits, not context.expired, context.grid(first.solution, culprits)
        )
