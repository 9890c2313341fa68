"""Inside a reference run: find the steps that refuse a right answer, the audit `kernelext-grade validate` runs.

A step that breaks a symmetry refuses answers the other steps accept, each of them a right answer moved by a
symmetry (its values swapped or reversed, its grid mirrored or turned). A rule refuses answers that are no
image of a right one (a Sudoku's givens refuse every other filled grid). So, for each step: the model without
it is solved for a few answers (at the optimum, when it optimises); when every one that the whole model refuses
is an image of an answer the whole model accepts, the step refuses right answers, and is named with one of them.
Steps already marked `--not-rule` are left out of every model, as the grader leaves them.

Runs in a reference run (see `instance_run`): the teacher's code, never the student's.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable

from kernelext.errors import KernelextError, Untranslatable
from kernelext.grading.runs.answer_in_reference import verify_answers
from kernelext.grading.runs.answer_values import at, nested_values, with_singles
from kernelext.pycsp3_glue import model_state
from kernelext.xcsp.check import Checker
from kernelext.xcsp.subsets import objective_constraint, read_model

MARGIN = 2.0  # seconds kept before the run's deadline (the run is killed soon after it)
SAMPLES = 20  # answers of the model without a step that are looked at
MAX_SWAPPED_VALUES = 12  # values whose pairs are swapped (the most used ones, when the domains hold more)
MAX_SOLVED_IMAGES = 24  # images checked by solving, when the model has variables outside the answer
_OBJECTIVE = re.compile(r"\b(minimize|maximize)\s*\(")
_AGGREGATES = ("maximum", "minimum", "nValues")


def audit(job: dict, build: Callable[[dict], object], *, deadline: float) -> dict:
    """{"findings": [{"step", "answer", "how"}...], "unaudited": [step numbers]}: per step that refuses right
    answers, one of them and the symmetry that makes it right; the steps there was no time for (or that the
    solver could not decide on); or {"error": ...} when the model cannot be built."""
    deadline -= MARGIN
    marks = job["not_rules"] or [""] * len(job["steps"])
    numbers = [n for n, mark in enumerate(marks, start=1) if not mark]
    rules = [job["steps"][n - 1] for n in numbers]
    whole = build({**job, "steps": rules})
    if isinstance(whole, dict):
        return whole
    name = job["answer"]
    info = whole.array(name)
    if info is None or not whole.anything_to_solve():
        return {"findings": [], "unaudited": []}
    result = whole.solve(sols=1, timeout=max(1.0, (deadline - time.monotonic()) / 4))
    if not result.solutions or (model_state.has_objective() and result.status.value != "OPTIMUM"):
        return {"findings": [], "unaudited": numbers[1:]}  # nothing proven to compare with
    best = result.bound if model_state.has_objective() else None
    values = sorted({v for vid in dict(info.cells).values() for v in _domain(vid)})
    accepts = _judge(whole, info, best, deadline)
    findings, unaudited = [], []
    for position, step in enumerate(rules):
        if position == 0 or _OBJECTIVE.search(step):
            continue  # the declarations, and the objective, are the puzzle itself
        if time.monotonic() > deadline:
            unaudited.append(numbers[position])
            continue
        without = build({**job, "steps": rules[:position] + rules[position + 1 :]})
        if isinstance(without, dict) or without.array(name) is None:
            continue  # later steps need what it declares
        refused = [answer for answer in _samples(without, name, best, deadline) if not accepts(answer)]
        moved = []
        for answer in refused:  # each must be a right answer moved, else the step is a rule
            how = next((how for how, image in images(answer, values, info) if accepts(image)), None)
            if how is None:
                break
            moved.append(how)
        if refused and len(moved) == len(refused):
            findings.append({"step": numbers[position], "answer": refused[0], "how": moved[0]})
    return {"findings": findings, "unaudited": unaudited}


def _samples(session, name: str, best, deadline: float) -> list:
    """Up to SAMPLES answers (values of the array `name`) the session's model accepts, at the optimum `best`
    when it optimises (none when its objective cannot be held at a value)."""
    path = session.compile()
    cells, info = model_state.solution_cells(), session.array(name)
    if model_state.has_objective():
        model = read_model(path)
        held = _held(model, best)
        if held is None:
            return []
        path = model.write(path.with_name("held.xml"), [c.xml for c in model.constraints] + [held])
    left = max(1.0, (deadline - time.monotonic()) / 4)
    found = session.solver.solve(path, cells, sols=SAMPLES, timeout=left)
    return [nested_values(info, with_singles(solution, info)) for solution in found.solutions]


def _held(model, best) -> str | None:
    """The model's objective held at `best`, as a constraint element's XML."""
    held = objective_constraint(model, best)
    if held is not None:
        return held.xml
    goal = model.objective
    if goal is None or goal.kind not in _AGGREGATES:
        return None
    return f"<{goal.kind}><list> {goal.text} </list><condition> (eq,{best}) </condition></{goal.kind}>"


def images(answer, values: list[int], info) -> list[tuple[str, object]]:
    """The answer moved by each candidate symmetry, as (how, image), without repeats, the answer itself or an
    image that moves a hole of the array."""
    moves: list[tuple[str, Callable]] = []
    used = sorted({v for _, v in _cells(answer)}, key=lambda v: -sum(1 for _, w in _cells(answer) if w == v))
    kept = sorted(values if len(values) <= MAX_SWAPPED_VALUES else used[:MAX_SWAPPED_VALUES])
    for a, b in itertools.combinations(kept, 2):
        moves.append((f"with the values {a} and {b} swapped", _mapped({a: b, b: a})))
    if len(values) > 1:
        low, high = values[0], values[-1]
        moves.append((f"with each value v replaced by {low + high} - v", _mapped({v: low + high - v for v in values})))
    moves += _shapes(answer)
    seen, found = {repr(answer)}, []
    holes = {index for index, _ in _cells(answer, holes=True)} - {index for index, _ in info.cells}
    for how, move in moves:
        image = move(answer)
        if repr(image) in seen or any(at(image, index) is None for index, _ in info.cells):
            continue
        if any(_get(image, index) is not None for index in holes):
            continue
        seen.add(repr(image))
        found.append((how, image))
    return found


def _shapes(answer) -> list[tuple[str, Callable]]:
    """Mirrors and turns of a 1-D or 2-D answer."""
    if not isinstance(answer, list) or not answer:
        return []
    if not isinstance(answer[0], list):
        return [("read backwards", lambda a: a[::-1])]
    flips = [
        ("mirrored left to right", lambda a: [row[::-1] for row in a]),
        ("mirrored top to bottom", lambda a: a[::-1]),
        ("turned half a turn", lambda a: [row[::-1] for row in a[::-1]]),
    ]
    if len(answer) == len(answer[0]) and all(len(row) == len(answer) for row in answer):
        flips += [
            ("mirrored on its diagonal", lambda a: [list(col) for col in zip(*a)]),
            ("turned a quarter turn", lambda a: [list(col) for col in zip(*a[::-1])]),
            ("turned three quarters", lambda a: [list(col) for col in zip(*a)][::-1]),
            ("mirrored on its other diagonal", lambda a: [list(col)[::-1] for col in zip(*a)][::-1]),
        ]
    return flips


def _judge(session, info, best, deadline: float) -> Callable[[object], bool]:
    """Whether the session's model accepts an answer (with the objective at `best`): its constraints evaluated
    when every variable is a cell of the answer, else a solve with the answer fixed."""
    cells = dict(info.cells)
    try:
        checker = Checker.of_file(session.compile())
        pure = all(vid in set(cells.values()) for _, scope in checker.constraints_read for vid in scope)
    except Untranslatable:
        pure = False
    if pure:

        def evaluated(image) -> bool:
            assignment = {vid: at(image, index) for index, vid in cells.items()}
            return checker.broken(assignment) is None and checker.objective_value(assignment) == best

        return evaluated
    budget = [MAX_SOLVED_IMAGES]

    def solved(image) -> bool:
        budget[0] -= 1
        if budget[0] < 0 or time.monotonic() > deadline:
            return False
        share = min(deadline, time.monotonic() + max(1.0, (deadline - time.monotonic()) / 8))
        try:
            [verdict] = verify_answers(session, info.name, [image], deadline=share)
        except KernelextError:  # undecided in its time: not shown to be right
            return False
        return verdict.get("status") in ("SAT", "OPTIMUM") and verdict.get("bound") == best

    return solved


def _mapped(mapping: dict) -> Callable:
    def move(value):
        if isinstance(value, list):
            return [move(v) for v in value]
        return mapping.get(value, value)

    return move


def _cells(values, index: tuple = (), *, holes: bool = False):
    """(index, value) of every cell of nested lists (None cells only with `holes`)."""
    if isinstance(values, list):
        for i, value in enumerate(values):
            yield from _cells(value, (*index, i), holes=holes)
    elif values is not None or holes:
        yield index, values


def _get(values, index: tuple):
    for i in index:
        if not isinstance(values, list) or i >= len(values):
            return None
        values = values[i]
    return values


def _domain(vid: str) -> list[int]:
    from pycsp3.classes.main.variables import Variable

    return list(Variable.name2obj[vid].dom.all_values())
