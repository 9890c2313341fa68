"""Inside a reference run: fix a student's answer in the instructor's model, solve, and say what it breaks.

Runs in a reference run (see `instance_run`): the teacher's code, never the student's.
"""

from __future__ import annotations

import time

from kernelext.errors import KernelextError
from kernelext.grading.runs.answer_values import add_fixing_step, at, shape_of
from kernelext.grading.runs.jvm import JVM_START
from kernelext.insight.explain import conflict
from kernelext.pycsp3_glue import model_state

MAX_DOMAIN_TEXT = 8  # values listed in a domain before it is shortened


def verify_answers(session, name: str, answers: list, *, deadline: float) -> list[dict]:
    """One verdict per answer: {"status", "bound"} and, when the reference rejects it, "broken" (a minimal
    set of its constraints that the answer breaks: their text and variables) or "problem" (shape, domain)."""
    verdicts = []
    for number, answer in enumerate(answers):
        share = (deadline - time.monotonic()) / (len(answers) - number)
        verdicts.append(_verify(session, name, answer, time.monotonic() + share))
    return verdicts


def _verify(session, name: str, answer, deadline: float) -> dict:
    info = session.array(name)
    if info is None:
        return {"fault": f"the reference model declares no array named {name!r}"}
    if shape_of(answer) != info.shape:
        shape = "x".join(map(str, shape_of(answer))) or "a single value"
        return {"problem": f"the answer's {name} is {shape} where the puzzle's is {'x'.join(map(str, info.shape))}"}
    fixes = [(name, index, at(answer, index)) for index, _ in info.cells if at(answer, index) is not None]
    by_index = dict(info.cells)
    outside = [why for _, index, value in fixes if (why := _outside(by_index[index], value))]
    if outside:
        return {"problem": outside[0]}
    try:
        add_fixing_step(session, fixes, key="answer")
    except KernelextError as error:
        return {"problem": f"its values cannot be posted: {error}"}
    try:
        return _solved(session, deadline)
    finally:
        session.undo()


def _solved(session, deadline: float) -> dict:
    """The verdict on the model with the answer's step last: its status and bound, and what it breaks."""
    given = len(session.steps)
    if not model_state.has_objective():  # one search: the constraints the answer breaks, or none
        found = conflict(session, timeout=max(1.0, deadline - time.monotonic()), given_step=given, backend="auto")
        if found is None:
            return {"status": "SAT", "bound": None}
    else:
        result = session.solve(sols=1, timeout=max(1.0, deadline - time.monotonic() - JVM_START))
        if result.status.value != "UNSAT":
            return {"status": result.status.value, "bound": result.bound}
        found = conflict(session, timeout=max(1.0, deadline - time.monotonic()), given_step=given, backend="auto")
    return {
        "status": "UNSAT",
        "bound": None,
        "broken": [{"text": c.text, "scope": list(c.scope)} for c in found.constraints],
        "minimal": found.minimal,
    }


def _outside(vid: str, value) -> str:
    """Why `value` cannot be `vid`'s (not an integer, or not in its domain), or ""."""
    from pycsp3.classes.main.variables import Variable

    values = Variable.name2obj[vid].dom.all_values()
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{vid} is {value!r}, not a whole number"
    if value in values:
        return ""
    shown = (
        f"{values[0]}..{values[-1]}"
        if list(values) == list(range(values[0], values[-1] + 1))
        else ", ".join(map(str, values[:MAX_DOMAIN_TEXT])) + (", ..." if len(values) > MAX_DOMAIN_TEXT else "")
    )
    return f"{vid} is {value}, which the puzzle does not allow there (it allows {shown})"
