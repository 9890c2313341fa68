"""Run one model on one instance, in a process of its own (a child the warm process forks: see `fork_server`), or,
in a browser, which has no processes, in the kernel's own (`run_here`).

Reads `job.json` from the working directory and writes `result.json` beside it: the solver's status
and the answer array's values (or, for a job with probes, each probe's status), or the first line of
the error that stopped the model. Checking the answer is left to the grader, outside the sandbox.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import time
from pathlib import Path

from kernelext.errors import KernelextError
from kernelext.grading.format.exercise import bound_data
from kernelext.grading.runs.answer_in_reference import verify_answers
from kernelext.grading.runs.answer_values import add_fixing_step, at, nested_values, shape_of, with_singles
from kernelext.grading.runs.jobs import Job, Run
from kernelext.grading.runs.jvm import JVM_START, jvm_options
from kernelext.grading.runs.symmetry_audit import audit
from kernelext.pycsp3_glue import model_state
from kernelext.solver.engine import Solver
from kernelext.steps.cell_code import run_source
from kernelext.steps.session import PuzzleSession


def main() -> None:
    started = time.monotonic()
    job = json.loads(Path("job.json").read_text())
    limit_memory(int(job["memory_mb"]), job.get("jvm_archive", ""))
    sys.stdout = open(os.devnull, "w")
    try:
        result = run(job, deadline=started + job["time_limit"])
    except BaseException as error:  # whatever the student's code throws (MemoryError, RecursionError...)
        result = {"error": first_line(f"{type(error).__name__}: {error}"), "error_type": type(error).__name__}
    Path("result.json").write_text(json.dumps(result))
    os._exit(0)  # skip exit hooks the model may have registered


def run_here(job: Job, *, solver: Solver | None = None) -> Run:
    """Run `job` in this process, as its own process would, for a browser's kernel or a teacher's trusted model:
    within its time limit (no memory limit and no sandbox). `solver`: one kept warm between runs (a new one by
    default)."""
    started = time.monotonic()
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            reply = run({**job.payload(), "warm_ace": True}, deadline=started + job.time_limit, solver=solver)
        except Exception as error:  # whatever the student's code throws
            reply = {"error": first_line(f"{type(error).__name__}: {error}"), "error_type": type(error).__name__}
    return Run(0, "", json.loads(json.dumps(reply)))  # as the run's result.json reads


def limit_memory(megabytes: int, archive: str = "") -> None:
    """Cap the address space of this process (and of the JVM, which inherits it); set JVM options that fit."""
    import resource  # not in a browser's Python, where runs share the kernel's process (see `run_here`)

    limit = megabytes * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.environ["MALLOC_ARENA_MAX"] = "2"
    os.environ["JAVA_TOOL_OPTIONS"] = jvm_options(megabytes, archive)


def run(job: dict, *, deadline: float, solver: Solver | None = None) -> dict:
    """Run the helpers, bind `data`, add the steps, solve, and read the answer array's values."""
    solver = solver or (Solver("auto") if job.get("warm_ace") else AutoWithColdAce())
    if job.get("kind") == "audit":
        return audit(job, lambda steps: build(steps, solver), deadline=deadline)
    session = build(job, solver)
    if isinstance(session, dict):
        return session
    if job.get("probes"):
        return {"probes": run_probes(session, job["probes"], deadline=deadline)}
    if job.get("kind") == "verify":
        return {"verdicts": verify_answers(session, job["answer"], job["answers"], deadline=deadline)}
    if job.get("kind") == "rules":
        return {"rules": session.compile().read_text()}
    info = session.array(job["answer"])
    if info is None:
        return {"missing": job["answer"]}
    if not session.anything_to_solve():
        return {"free": f"{job['answer']}{''.join(f'[{i}]' for i in info.cells[0][0])}"}
    result = session.solve(sols=job["sols"], timeout=max(1.0, deadline - time.monotonic() - JVM_START))
    solutions = [
        with_singles(solution, info) for solution in (result.solutions[-1:] if job["sols"] == 1 else result.solutions)
    ]
    unset = any(solution.get(name) is None for solution in solutions for _, name in info.cells)  # holes left out
    return {
        "status": result.status.value,
        "stopped": result.stopped,
        "unset": unset,
        "bound": result.bound,
        "objective": objective_sense(),
        "answers": [nested_values(info, solution) for solution in solutions],
    }


def build(job: dict, solver: Solver) -> PuzzleSession | dict:
    """A session with the job's helpers run, `data` bound and its steps added; or, when one of them fails, the
    reply that says so."""
    session = PuzzleSession("grading", solver=solver, strict_indexing=job.get("strict_indexing", False))
    for number, source in enumerate(job["helpers"], start=1):
        try:
            run_source(source, session.namespace, echo=False)
        except KernelextError as error:
            return {"error": f"helper cell {number}: {first_line(error)}", "error_type": type(error).__name__}
    session.namespace["data"] = bound_data(job["data"], job.get("data_style", "json"))  # after the helpers:
    # `from pycsp3 import *` binds `data` too
    for number, source in enumerate(job["steps"], start=1):
        try:
            session.add_step(source, key=f"step-{number}", solve=False, first_line=2)  # line 1: the magic
        except KernelextError as error:
            return {"error": f"step {number}: {first_line(error)}", "error_type": type(error).__name__}
    return session


class AutoWithColdAce(Solver):
    """`auto` (CP-SAT in this process for a satisfaction model it reads, else ACE), with ACE in a new JVM per
    solve rather than in a warm worker: a run solves once, or once per probe, and ends."""

    def __init__(self):
        super().__init__("auto")

    def backend(self, name: str):
        return super().backend("ace-cold" if name == "ace" else name)


def objective_sense() -> str:
    """ "minimize" or "maximize" when the model has an objective, else ""."""
    from pycsp3.classes.entities import ObjEntities

    return str(ObjEntities.items[-1].constraint).split("(", 1)[0] if ObjEntities.items else ""


def run_probes(session, probes: list[dict], *, deadline: float) -> list[str]:
    """For each probe: fix the arrays it names to its values, solve, undo; its status (or why it could not run).

    A status is "SAT", "UNSAT", "UNKNOWN" (no answer in time), or "missing NAME" / "shape NAME" when the
    model has no array NAME, or one of another shape than the values.
    """
    statuses = []
    for number, probe in enumerate(probes):
        infos = {info.name: info for info in model_state.arrays()}
        problem = next((f"missing {name}" for name in probe["fix"] if name not in infos), "") or next(
            (f"shape {name}" for name, values in probe["fix"].items() if shape_of(values) != infos[name].shape), ""
        )
        if problem:
            statuses.append(problem)
            continue
        fixes = [
            (name, index, at(values, index)) for name, values in probe["fix"].items() for index, _ in infos[name].cells
        ]
        try:
            add_fixing_step(session, fixes, key=f"probe-{number}")
        except KernelextError:
            statuses.append("UNSAT")  # pycsp3 refuses the values outright (one is outside its cell's domain)
            continue
        share = (deadline - time.monotonic() - JVM_START * (len(probes) - number)) / (len(probes) - number)
        statuses.append(session.solve(sols=1, timeout=max(1.0, share)).status.value)
        session.undo()
    return statuses


def first_line(error: object) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return (lines[0] if lines else type(error).__name__)[:300]
