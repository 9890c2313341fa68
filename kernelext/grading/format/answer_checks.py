"""The grader's answer checks: what `exercise.json`'s `checker` names, made into one callable per exercise.

- `"reference"` (the default): the instructor notebook's own model judges the answer (`judging/by_reference.py`);
- `"FILE.py:FUNCTION"`: a plain function in the exercise folder, `(answer, data, expected) -> "" or what is wrong`;
- any other name: a kind's answer check (`ANSWER_CHECKS` in a kind module, built-in or installed).

Every check runs in the grader, never in a student's sandbox. A check is called with the answers a run gave
back, the instance and `sols`, and returns "" when they are right, else one line saying what is wrong.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from pathlib import Path

from kernelext.kinds import answer_checks

REFERENCE = "reference"


class ExerciseFault(Exception):
    """The exercise, not the student, is at fault: its check raised, or its reference model failed."""


class OnlyTheGrader(Exception):
    """The answer cannot be judged here (a released folder without the reference model); the grader can."""


def resolve(checker: str, folder: Path) -> Callable[[object, dict, dict], str] | None:
    """The plain function `checker` names (None for the reference); ValueError naming what to fix."""
    if checker == REFERENCE:
        return None
    if ":" in checker:
        return _folder_function(checker, folder)
    known = answer_checks()
    if checker not in known:
        raise ValueError(
            f'exercise.json: unknown checker {checker!r}: use "reference" (the instructor\'s model), '
            f'"checks.py:FUNCTION" (a function in the exercise folder) or one of {", ".join(known)}.'
        )
    return known[checker]


def _folder_function(checker: str, folder: Path) -> Callable:
    file_name, _, function = checker.partition(":")
    path = folder / file_name
    if not path.is_file() or path.suffix != ".py" or path.parent.resolve() != folder.resolve():
        raise ValueError(f"exercise.json: checker {checker!r}: no file {file_name} in {folder}.")
    space = {"__name__": f"kernelext_exercise_checks_{folder.resolve().name}", "__file__": str(path)}
    try:  # compiled here, not imported: nothing is written into the exercise folder
        exec(compile(path.read_text(), str(path), "exec"), space)
    except Exception as error:
        raise ValueError(f"exercise.json: checker {checker!r}: {file_name} raised {_where(error)}") from None
    found = space.get(function)
    if not callable(found):
        raise ValueError(f"exercise.json: checker {checker!r}: {file_name} has no function {function}.")
    return found


class RulesCheck:
    """Checks answers with a plain function: each answer must pass it; with sols="all", they are counted too."""

    def __init__(self, name: str, function: Callable[[object, dict, dict], str]):
        self.name = name
        self.function = function

    def __call__(self, answers: list, instance, sols) -> str:
        for number, answer in enumerate(answers, start=1):
            try:
                problem = self.function(answer, instance.data, instance.expected)
            except Exception as error:
                raise ExerciseFault(f"the exercise's check {self.name} raised {_where(error)}") from None
            if not isinstance(problem, str):
                raise ExerciseFault(
                    f"the exercise's check {self.name} returned {type(problem).__name__}: "
                    'it must return "" or a line saying what is wrong'
                )
            if problem:
                return f"solution {number}: {problem}" if len(answers) > 1 else problem
        return count_problem(answers, instance.expected.get("n_solutions")) if sols == "all" else ""


def count_problem(answers: list, wanted: int | None) -> str:
    """What is wrong with a list of all solutions: one found twice, or fewer or more than `wanted`."""
    if len({json.dumps(answer) for answer in answers}) < len(answers):
        return "the same solution was found more than once"
    if wanted is not None and len(answers) != wanted:
        return f"found {len(answers)} solutions; there are {wanted}"
    return ""


def _where(error: BaseException) -> str:
    """`error` in one line, with the line of the exercise's file where it was raised."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != __file__]
    where = f" (line {frames[-1].lineno} of {Path(frames[-1].filename).name})" if frames else ""
    return f"{type(error).__name__}: {error}{where}"
