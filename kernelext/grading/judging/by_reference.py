"""The instructor's model as the checker: an answer is right when the puzzle's rules (the reference model's
steps, less those marked `--not-rule`), on the same instance, accept it, and, when optimising, its objective is
the proven optimum.

The reference runs in processes of its own (the teacher's code, outside any student's sandbox): once per
instance for its solutions (the whole model: its symmetry breaking makes it faster; the rules alone when every
solution is counted), then once per distinct answer that is not one of them, to say which of the rules the
answer breaks. Verdicts are kept for the grading call, so a class's common answers cost one run.
Without the instructor notebook (a released folder, for `%puzzle check`), the rules stored with the public
instances (`expected.rules`, see `stored_rules`) decide, else their stored `expected.solutions`.
"""

from __future__ import annotations

import json
import re
import threading
from functools import partial

from kernelext.grading.format.answer_checks import (
    ExerciseFault,
    OnlyTheGrader,
    RulesCheck,
    count_problem,
    resolve,
)
from kernelext.grading.format.notebook import read_submission
from kernelext.grading.judging.puzzle_words import called, cell_namer
from kernelext.grading.judging.stored_rules import judge_by_rules
from kernelext.grading.runs.answer_values import shape_of
from kernelext.grading.runs.jobs import Job
from kernelext.grading.runs.warm_pool import execute

MAX_CELLS_SHOWN = 8  # the answer's values are shown for a broken constraint on at most this many variables


def answer_check(exercise, *, run=execute):
    """The check that `exercise.json`'s `checker` names, ready to judge answers; `run` runs the reference's jobs
    (a `WarmPool`'s `run`, or one warm process per job)."""
    function = resolve(exercise.checker, exercise.folder)
    if function is not None:
        return RulesCheck(exercise.checker, function)
    return ReferenceCheck(exercise, run=run)


class ReferenceCheck:
    """Judges answers with the instructor notebook's model (see the module's docstring)."""

    def __init__(self, exercise, *, run=execute):
        self.exercise = exercise
        self.run = run
        notebook = exercise.folder / "instructor.ipynb"
        self.model = read_submission(notebook, answer=exercise.answer) if notebook.is_file() else None
        if self.model is not None and self.model.problem:
            raise ValueError(f"{notebook}: {self.model.problem}")
        self.marked = self.model is not None and any(self.model.not_rules)
        self._lock = threading.Lock()
        self._pending: dict[str, threading.Lock] = {}
        self._known: dict[str, object] = {}

    def __call__(self, answers: list, instance, sols) -> str:
        if self.model is None:
            return _against_stored(answers, instance, sols, self.exercise.answer)
        reference = self._remember(("solutions", instance.name), partial(self._solutions, instance))
        if sols == "all":
            problem = count_problem(answers, None)
            if problem:
                return problem
        for number, answer in enumerate(answers, start=1):
            problem = self._judge_one(answer, instance, reference)
            if problem:
                return f"solution {number}: {problem}" if len(answers) > 1 else problem
        if sols == "all" and len(answers) != len(reference["answers"]):
            return f"found {len(answers)} solutions; there are {len(reference['answers'])}"
        return ""

    def solutions(self, instance, sols, *, rules_only: bool = False) -> dict:
        """The reference's run on `instance` asking for `sols` solutions: status, bound, objective, answers;
        `rules_only`: without the steps marked as not rules of the puzzle."""
        return self._run(instance, sols=sols, kind="instance", rules_only=rules_only)

    def rules(self, instance) -> str:
        """The rules (the model less its steps marked `--not-rule`) compiled on `instance`, as XCSP3."""
        return self._run(instance, sols=1, kind="rules", rules_only=True)["rules"]

    def audit(self, instance) -> dict:
        """The steps that alone refuse a right answer on `instance` ("findings": {"step", "answer", "how"} each),
        and those there was no time to audit ("unaudited"): see `kernelext.grading.runs.symmetry_audit`."""
        return self._run(instance, sols=1, kind="audit", audit=True)

    def _judge_one(self, answer, instance, reference: dict) -> str:
        if json.dumps(answer) in reference["known"]:
            return ""
        verdict = self._remember(
            ("verdict", instance.name, json.dumps(answer)), partial(self._verify, answer, instance)
        )
        if "fault" in verdict:
            raise ExerciseFault(verdict["fault"])
        if "problem" in verdict:
            return verdict["problem"]
        if verdict.get("broken"):
            return _broken_text(verdict["broken"], self.exercise.answer, answer, instance.data)
        if verdict["status"] not in ("SAT", "OPTIMUM"):
            raise ExerciseFault(
                f"the reference model could not decide on an answer within "
                f"{self.exercise.time_limit:g} s (status {verdict['status']})"
            )
        return _objective_problem(reference, verdict["bound"], instance, self.exercise.time_limit)

    def _solutions(self, instance) -> dict:
        """The reference's run for grading, with its answers as a set of texts under "known"."""
        every = self.exercise.sols == "all"
        reply = self.solutions(instance, "all" if every else 1, rules_only=every)
        return {**reply, "known": frozenset(json.dumps(a) for a in reply["answers"])}

    def _verify(self, answer, instance) -> dict:
        [verdict] = self._run(instance, sols=1, kind="verify", answers=(answer,), rules_only=True)["verdicts"]
        return verdict

    def _run(
        self, instance, *, sols, kind: str, answers: tuple = (), rules_only: bool = False, audit: bool = False
    ) -> dict:
        exercise = self.exercise
        job = Job(
            "reference",
            instance.name,
            instance,
            self.model.rules if rules_only else self.model.steps,
            self.model.helpers,
            exercise.answer,
            sols,
            exercise.time_limit,
            exercise.memory_mb,
            kind=kind,
            answers=answers,
            warm_ace=True,
            strict_indexing=exercise.strict_indexing,
            data_style=exercise.data_style,
            not_rules=self.model.not_rules if audit else (),
        )
        run = self.run(job)
        why = _failure(run, exercise.answer)
        if why:
            rules = " (its rules alone, without the steps marked --not-rule)" if rules_only and self.marked else ""
            raise ExerciseFault(f"the reference model (instructor.ipynb){rules} failed on {instance.name}: {why}")
        return run.reply

    def _remember(self, key: tuple, compute) -> object:
        """The value kept under `key`, computed once (other threads asking for it meanwhile wait)."""
        name = json.dumps(key)
        with self._lock:
            pending = self._pending.setdefault(name, threading.Lock())
        with pending:
            if name not in self._known:
                self._known[name] = compute()
            return self._known[name]


def _objective_problem(reference: dict, value, instance, time_limit: float) -> str:
    """What is wrong with an answer the rules accept, whose objective is `value`: not the optimum, or ""."""
    sense = reference.get("objective")
    if not sense or value is None:
        return ""
    best = instance.expected.get("optimum", reference["bound"] if reference["status"] == "OPTIMUM" else None)
    better = (lambda a, b: a < b) if sense == "minimize" else (lambda a, b: a > b)
    if best is None:
        found = reference.get("bound")
        if found is not None and better(found, value):
            return f"its objective is {value}, where a better one ({found}) exists (to {sense})"
        raise ExerciseFault(
            f"the reference model did not prove its optimum on {instance.name} within {time_limit:g} s, so an "
            f"answer of objective {value} cannot be judged: raise time_limit, or store expected.optimum"
        )
    if better(value, best):
        raise ExerciseFault(
            f"an answer the rules accept has objective {value}, better than the optimum {best} of {instance.name}: "
            "a step marked --not-rule, or one that should be, cuts off optimal answers"
        )
    return f"its objective is {value}, where the best possible is {best} (to {sense})" if value != best else ""


def _failure(run, answer: str) -> str:
    """Why a reference run gave no usable reply, or "" when it did."""
    reply = run.reply
    if run.code is None:
        return "it did not answer in time"
    if reply is None:
        return "its process stopped"
    if "error" in reply:
        return str(reply["error"])
    if "missing" in reply:
        return f"it declares no array {answer!r}"
    return "it leaves cells of the answer free" if "free" in reply else ""


def _broken_text(broken: list[dict], name: str, answer, data) -> str:
    """`it breaks C, where x[0][0] = 1, ...` for one constraint (a cell the data names followed by its name:
    `c[5] (Switzerland) = 0`), `it breaks these together: C1; C2` for several."""
    if len(broken) > 1:
        return "it breaks these together: " + "; ".join(c["text"] for c in broken)
    named = cell_namer(data, shape_of(answer))
    cells = [
        f"{vid}{called(named, vid)} = {value}"
        for vid in broken[0]["scope"]
        if (value := _value_at(answer, name, vid)) is not None
    ]
    shown = f", where {', '.join(cells)}" if cells and len(broken[0]["scope"]) <= MAX_CELLS_SHOWN else ""
    return f"it breaks {broken[0]['text']}{shown}"


def _value_at(answer, name: str, vid: str):
    """The answer's value of the cell `vid` (`x[2][3]`) of the array `name`, or None."""
    found = re.fullmatch(rf"{re.escape(name)}((?:\[\d+\])*)", vid)
    if found is None:
        return None
    value = answer
    for index in re.findall(r"\d+", found.group(1)):
        if not isinstance(value, list) or int(index) >= len(value):
            return None
        value = value[int(index)]
    return value if isinstance(value, int) else None


def _against_stored(answers: list, instance, sols, answer: str) -> str:
    """Without the reference model: judge by the rules stored in a public instance's `expected`, else compare
    with the solutions stored there."""
    if "rules" in instance.expected:
        return judge_by_rules(answers, instance, sols, answer)
    known = instance.expected.get("solutions")
    if known is None:
        raise OnlyTheGrader(
            f"{instance.name} has several solutions (or stores none): only the grader, with the "
            "instructor's model, can check this answer"
        )
    stored = {json.dumps(a) for a in known}
    if sols == "all":
        return count_problem(answers, None) or (
            ""
            if {json.dumps(a) for a in answers} == stored
            else f"found {len(answers)} solutions; there are {len(known)}"
        )
    if json.dumps(answers[0]) in stored:
        return ""
    if instance.expected.get("n_solutions") == len(known):
        return "it is not a solution of the puzzle"
    raise OnlyTheGrader(f"{instance.name} has more solutions than it stores: only the grader can check this one")
