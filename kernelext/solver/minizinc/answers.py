"""MiniZinc's answers, as the program streams them (`--json-stream`) or its WebAssembly reports them, read into a
SolveResult: the solutions on the kit's grid cells, the optimisation progress, the status and statistics."""

from __future__ import annotations

import re
from types import MappingProxyType

from kernelext.solver.errors import SolverError
from kernelext.solver.result import Cells, SolveResult, Status
from kernelext.xcsp.to_minizinc import MiniZincModel

_STATUS = {"OPTIMAL_SOLUTION": Status.OPTIMUM, "ALL_SOLUTIONS": Status.SAT, "UNSATISFIABLE": Status.UNSAT}


def read_answers(
    messages: list[tuple[float, dict]],
    translated: MiniZincModel,
    cells: Cells,
    *,
    sols: int | str,
    stopped: str,
    elapsed: float,
    failure: str = "",
) -> SolveResult:
    """The SolveResult of MiniZinc's `messages` ((seconds, message) pairs, messages as MiniZinc's JSON stream
    writes them); `failure` is what to say when the run ended on an error with no status and no solution."""
    found, progress, status, stats = [], [], None, {}
    for seconds, message in messages:
        kind = message.get("type")
        if kind == "error":
            raise SolverError(f"MiniZinc refused the translated model ({message.get('message', '')[:200]}).")
        if kind == "solution":
            values, objective = _solution_values(message["output"]["default"])
            found.append(_solution(values, translated.variables, cells))
            if translated.objective:
                progress.append((seconds, objective))
        elif kind == "status":
            status = message["status"]
        elif kind == "statistics":
            stats.update(
                {
                    key: str(value)
                    for key, value in message["statistics"].items()
                    if key in ("nodes", "failures", "solveTime")
                }
            )
    if failure and status is None and not found:
        raise SolverError(failure)
    result_status = _STATUS.get(status, Status.SAT if found else Status.UNKNOWN)
    if result_status is Status.OPTIMUM and not translated.objective:
        result_status = Status.SAT
    complete = status in _STATUS or (not translated.objective and sols != "all" and len(found) >= int(sols))
    stats["solutions"] = str(len(found))
    return SolveResult(
        result_status,
        tuple(found[-1:] if translated.objective else found),
        progress[-1][1] if progress else None,
        tuple(progress),
        elapsed,
        "minizinc",
        MappingProxyType(stats),
        stopped or ("" if complete else "timeout"),
    )


def _solution_values(text: str) -> tuple[list[int], int | None]:
    """`[1, 2, 3]\\n7\\n` -> ([1, 2, 3], 7): the variables' values, then the objective's when there is one."""
    lines = [line for line in text.splitlines() if line.strip()]
    values = [int(v) for v in re.findall(r"-?\d+", lines[0])] if lines else []
    return values, int(lines[1]) if len(lines) > 1 else None


def _solution(values: list[int], variables: tuple[str, ...], cells: Cells):
    by_id = dict(zip(variables, values))
    return MappingProxyType({vid: by_id.get(vid) for array in cells.values() for _, vid in array if vid is not None})
