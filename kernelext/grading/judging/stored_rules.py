"""The rules of a public instance, stored with it, so that a released folder can judge any answer.

`kernelext-grade instances` compiles the reference model's rules (its steps less those marked `--not-rule`) on
each public instance, as XCSP3 packed into `expected.rules` (zlib, base64: the grounded constraints of that
instance, not the model's code). `%puzzle check` in a released folder evaluates an answer on them: it is right
when it breaks none (and, optimising, reaches `expected.optimum`); a wrong one is told the constraint it breaks.
Where the rules have variables outside the answer, the answer is fixed and the rules are solved.
"""

from __future__ import annotations

import base64
import re
import tempfile
import zlib
from pathlib import Path

from kernelext.errors import Untranslatable
from kernelext.grading.format.answer_checks import OnlyTheGrader, count_problem
from kernelext.grading.judging.puzzle_words import called, cell_namer
from kernelext.grading.runs.answer_values import shape_of
from kernelext.xcsp.check import Checker
from kernelext.xcsp.document import written
from kernelext.xcsp.subsets import read_model


def pack(xml: str) -> str:
    """The XCSP3 text as stored in `expected.rules`."""
    return base64.b64encode(zlib.compress(xml.encode(), 9)).decode()


def unpack(packed: str) -> str:
    return zlib.decompress(base64.b64decode(packed)).decode()


def judge_by_rules(answers: list, instance, sols, answer: str) -> str:
    """ "" when every answer keeps the stored rules (and reaches the optimum; with sols "all", every solution
    once), else what is wrong with the first that does not."""
    expected = instance.expected
    with tempfile.TemporaryDirectory(prefix="kernelext-rules-") as work:
        path = Path(work) / "rules.xml"
        path.write_text(unpack(expected["rules"]))
        named = cell_namer(instance.data, shape_of(answers[0]) if answers else ())
        for number, values in enumerate(answers, start=1):
            problem = _problem(path, answer, values, expected.get("optimum"), named)
            if problem:
                return f"solution {number}: {problem}" if len(answers) > 1 else problem
    return count_problem(answers, expected.get("n_solutions")) if sols == "all" else ""


def _problem(path: Path, answer: str, values, optimum, named) -> str:
    assignment = dict(_cells(answer, values))
    try:
        checker = Checker.of_file(path)
    except Untranslatable as error:
        raise OnlyTheGrader(f"the stored rules hold what the check here cannot read ({error})") from None
    used = {vid for _, scope in checker.constraints_read for vid in scope}
    if used <= assignment.keys():
        broken = checker.broken(assignment)
        if broken:
            return f"it breaks {broken}{_where(broken, assignment, named)}"
        value = checker.objective_value(assignment)
    else:
        value, broken = _solved(path, assignment)
        if broken:
            return broken
    if optimum is not None and value is not None and value != optimum:
        return f"its objective is {value}, where the best possible is {optimum} (to {checker.optimises})"
    return ""


def _solved(path: Path, assignment: dict) -> tuple[int | None, str]:
    """The rules solved with the answer fixed: (its best objective, "") or (None, what is wrong)."""
    from kernelext.solver.engine import Solver  # deferred: only rules with variables outside the answer need it

    model = read_model(path)
    fixed = [f"<intension> eq({vid},{value}) </intension>" for vid, value in assignment.items()]
    objectives = model.objectives
    body = "\n".join([c.xml for c in model.constraints] + fixed)
    goal = "" if objectives is None else f"\n{written(objectives)}"
    kind = "COP" if objectives is not None else "CSP"
    path = path.with_name("fixed.xml")
    path.write_text(
        f'<instance format="XCSP3" type="{kind}">\n{model.variables}\n<constraints>\n{body}\n</constraints>{goal}\n</instance>\n'
    )
    result = Solver("auto").solve(path, {}, timeout=10.0)
    if result.status.value in ("SAT", "OPTIMUM"):
        return result.bound, ""
    if result.status.value == "UNSAT":
        return None, "it breaks the puzzle's rules"
    raise OnlyTheGrader("the stored rules could not be decided in time here: the grader will judge this answer")


def _cells(name: str, values, index: tuple = ()):
    """(variable id, value) of each cell of the answer's nested lists (None cells left out)."""
    if isinstance(values, list):
        for i, value in enumerate(values):
            yield from _cells(name, value, (*index, i))
    elif values is not None:
        yield name + "".join(f"[{i}]" for i in index), values


def _where(broken: str, assignment: dict, named) -> str:
    """`, where c[2] (Germany) = 1, c[5] (Switzerland) = 1` for the answer's cells the broken constraint names
    (at most 8)."""
    cells = [vid for vid in dict.fromkeys(re.findall(r"\w+(?:\[\d+\])+", broken)) if vid in assignment]
    if not cells or len(cells) > 8:
        return ""
    return ", where " + ", ".join(f"{vid}{called(named, vid)} = {assignment[vid]}" for vid in cells)
