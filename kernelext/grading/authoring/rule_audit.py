"""Check that the reference model judges answers by the puzzle's rules alone (part of `kernelext-grade validate`).

On every instance: the steps marked `--not-rule` must not change the optimum (or make the model fail without
them), and no unmarked step may refuse, alone, a right answer: an image of the reference's solution (values
swapped, grid mirrored or turned) that the other steps accept.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

from kernelext.grading.format.answer_checks import ExerciseFault
from kernelext.grading.judging.by_reference import ReferenceCheck
from kernelext.grading.runs.warm_pool import WarmPool
from kernelext.solver.portfolio import usable_cores

MAX_ANSWER_TEXT = 200  # characters of an answer shown in a problem
MAX_LINE_TEXT = 80  # characters of a step's first line shown in a problem


def rule_problems(exercise) -> tuple[list[str], list[str]]:
    """(lines saying what was checked, problems naming each step that refuses a right answer)."""
    with WarmPool() as runs, ThreadPoolExecutor(max_workers=usable_cores()) as pool:
        reference = ReferenceCheck(exercise, run=runs.run)
        found = list(pool.map(lambda instance: _instance_problems(reference, instance), exercise.instances))
    problems = [problem for instance_problems, _ in found for problem in instance_problems]
    marked = [n for n, mark in enumerate(reference.model.not_rules, start=1) if mark]
    told = [
        f"rules: {len(exercise.instances)} instances audited for steps that refuse a right answer"
        + (f" (steps {', '.join(map(str, marked))} marked --not-rule)" if marked else "")
    ]
    told += [note for _, notes in found for note in notes]
    return told, problems


def _instance_problems(reference: ReferenceCheck, instance) -> tuple[list[str], list[str]]:
    """(problems, notes) of one instance."""
    where = f"{'hidden' if instance.hidden else 'public'}/{instance.name}"
    try:
        problems = _optimum_problems(reference, instance, where)
        audited = reference.audit(instance)
    except ExerciseFault as fault:
        return [f"{where}: {fault}"], []
    name = reference.exercise.answer
    notes = [
        f"note: {where}: step {step} not audited within the time limit ({reference.exercise.time_limit:g} s)"
        for step in audited["unaudited"]
    ]
    for finding in audited["findings"]:
        step = finding["step"]
        answer = json.dumps(finding["answer"])
        answer = answer if len(answer) <= MAX_ANSWER_TEXT else answer[:MAX_ANSWER_TEXT] + "..."
        problems.append(
            f"{where}: step {step} (`{_first_line(reference.model.steps[step - 1])}`) alone refuses {name} = "
            f"{answer}, a right answer (the whole model accepts it {finding['how']}). If the step breaks a "
            "symmetry, start its cell with `%%puzzle+ --not-rule symmetry` (or implied, hint); if it is a rule "
            'of the puzzle, say so in the exercise\'s text and set "audit_rules": false in exercise.json.'
        )
    return problems, notes


def _first_line(source: str) -> str:
    """The step's first line of code (solution markers and blank lines skipped)."""
    lines = [line.strip() for line in source.splitlines() if line.strip() and not line.strip().startswith("###")]
    first = lines[0] if lines else "(empty)"
    return first if len(first) <= MAX_LINE_TEXT else first[: MAX_LINE_TEXT - 3] + "..."


def _optimum_problems(reference: ReferenceCheck, instance, where: str) -> list[str]:
    """The marked steps must leave the optimum (or the satisfiability) as the whole model has it."""
    if not any(reference.model.not_rules):
        return []
    whole = reference.solutions(instance, 1)
    rules = reference.solutions(instance, 1, rules_only=True)
    if whole["status"] != rules["status"] or whole["bound"] != rules["bound"]:
        what = (
            f"optimum {whole['bound']} with them, {rules['bound']} without"
            if whole["objective"]
            else f"{whole['status']} with them, {rules['status']} without"
        )
        return [
            f"{where}: the steps marked --not-rule change the answer ({what}): they cut off right answers, so they "
            "are rules of the puzzle, or wrong"
        ]
    return []
