"""Every answer checked before anyone sees it: a solver's solutions evaluated on the compiled model's
constraints (kernelext.xcsp.check), repeats dropped, and an optimum's value checked against the objective."""

from __future__ import annotations

from dataclasses import replace

from kernelext.solver.result import SolveResult, Status


def checked(result: SolveResult, checker) -> SolveResult:
    """`result` with only the solutions that satisfy every constraint, each once.

    A solution that breaks a constraint, or a bound that is not the objective's value on the best solution, is
    dropped and named in `invalid`; a status that rested on it becomes UNKNOWN. `repeats` counts the repeated
    solutions dropped.
    """
    kept, seen, invalid = [], set(), ""
    for solution in result.solutions:
        key = tuple(sorted(solution.items()))
        if key in seen:
            continue
        seen.add(key)
        broken = checker.broken(solution)
        if broken is None:
            kept.append(solution)
        elif not invalid:
            invalid = f"{_solver_name(result.backend)} returned a solution that breaks {broken}"
    repeats = len(result.solutions) - len(seen)
    bound = result.bound
    if checker.optimises and kept:
        value = checker.objective_value(kept[-1])
        if bound is not None and value != bound:
            invalid = invalid or (
                f"{_solver_name(result.backend)} gave the objective {bound} for a solution whose objective is {value}"
            )
        bound = value
    status = result.status
    if status in (Status.SAT, Status.OPTIMUM) and not result.solutions:
        invalid = f"{_solver_name(result.backend)} said {status.value} but gave no solution"
    if invalid and (not kept or status is Status.OPTIMUM):
        status = Status.UNKNOWN
    if not invalid and not repeats:
        return result
    return replace(
        result, status=status, solutions=tuple(kept), bound=bound if kept else None, invalid=invalid, repeats=repeats
    )


def kept(result: SolveResult, keep: int) -> SolveResult:
    """`result` with at most its first `keep` solutions (the best, when optimising: the last), the rest counted in
    `more`."""
    extra = len(result.solutions) - keep
    if extra <= 0:
        return result
    solutions = result.solutions[-keep:] if result.bound is not None else result.solutions[:keep]
    return replace(result, solutions=solutions, more=result.more + extra)


def _solver_name(backend: str) -> str:
    return {
        "ace-warm": "ACE",
        "ace-cold": "ACE",
        "choco": "Choco",
        "cp-sat": "CP-SAT",
        "ortools": "OR-Tools",
        "minizinc": "MiniZinc",
    }.get(backend, backend or "the solver")
