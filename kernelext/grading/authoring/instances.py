"""Fill each instance's `expected` from the instructor's model: `kernelext-grade instances EXERCISE`.

For each instance the reference model is solved: an optimisation gets its `optimum`; with `sols: "all"`, the
number of solutions; with `sols: 1`, the instance must have one solution (unless `"unique": false`), and one
with several is refused, two of them shown. Public instances of an exercise checked by the reference model
also store their solutions and their rules (compiled, see `judging/stored_rules.py`), so that `%puzzle check`
can judge any answer where the instructor notebook is not.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kernelext.grading.format.answer_checks import REFERENCE, ExerciseFault
from kernelext.grading.format.exercise import Instance, load_exercise
from kernelext.grading.judging.by_reference import ReferenceCheck
from kernelext.grading.judging.stored_rules import pack
from kernelext.grading.runs.warm_pool import WarmPool
from kernelext.solver.portfolio import usable_cores


def fill_instances(exercise_dir: str | Path) -> tuple[list[str], list[str]]:
    """Write `expected` into every instance file the reference model settles; (lines written, problems)."""
    exercise = load_exercise(exercise_dir)
    if not (exercise.folder / "instructor.ipynb").is_file():
        raise ValueError(f"No instructor.ipynb in {exercise.folder}: the instructor's model fills the instances.")
    with WarmPool() as runs, ThreadPoolExecutor(max_workers=usable_cores()) as pool:
        reference = ReferenceCheck(exercise, run=runs.run)  # each instance solves in a process of its own
        settled = list(pool.map(lambda instance: _settled(exercise, reference, instance), exercise.instances))
    told, problems = [], []
    for instance, (expected, line) in zip(exercise.instances, settled):
        where = f"{'hidden' if instance.hidden else 'public'}/{instance.name}.json"
        if expected is None:
            problems.append(f"{where}: {line}")
            continue
        path = exercise.folder / where
        content = json.loads(path.read_text())
        content["expected"] = {**content.get("expected", {}), **expected}
        path.write_text(json.dumps(content) + "\n")
        told.append(f"{where}: {line}")
    return told, problems


def _settled(exercise, reference: ReferenceCheck, instance: Instance) -> tuple[dict | None, str]:
    try:
        return expected_facts(exercise, reference, instance)
    except ExerciseFault as fault:
        return None, str(fault)


def expected_facts(exercise, reference: ReferenceCheck, instance: Instance) -> tuple[dict | None, str]:
    """The facts to store for `instance` and a line saying them; (None, why) when the instance is refused."""
    limit = "all" if exercise.sols == "all" else 2
    reply = reference.solutions(instance, limit, rules_only=True)  # every solution the grader accepts
    if reply["objective"] and limit != 1:  # a limit on solutions would stop the search before the optimum
        reply = reference.solutions(instance, 1)
    answers, status = reply["answers"], reply["status"]
    if reply["stopped"]:
        return None, f"the reference model did not finish within {exercise.time_limit:g} s ({status})"
    if status == "UNSAT" or not answers:
        return None, "the reference model finds no solution"
    keep = not instance.hidden and exercise.checker == REFERENCE
    rules = {"rules": pack(reference.rules(instance))} if keep else {}  # `%puzzle check` judges any answer
    if reply["objective"] and status != "OPTIMUM":
        return None, f"the reference model did not prove its optimum within {exercise.time_limit:g} s ({status})"
    if reply["objective"]:
        facts = {"optimum": reply["bound"], **({"solutions": answers[-1:]} if keep else {}), **rules}
        return facts, f"optimum {reply['bound']} ({reply['objective']})"
    if exercise.sols == "all":
        facts = {"n_solutions": len(answers), **({"solutions": answers} if keep else {}), **rules}
        return facts, f"{len(answers)} solution{'s' * (len(answers) > 1)}"
    if len(answers) > 1 and exercise.unique:
        shown = "\n".join(f"  solution {n}: {json.dumps(a)}" for n, a in enumerate(answers[:2], start=1))
        return None, (
            f'has several solutions, where sols: 1 promises one (add clues, or set "unique": false in '
            f"exercise.json):\n{shown}"
        )
    if len(answers) > 1:
        return rules, "several solutions (any one is accepted)"
    return {"n_solutions": 1, **({"solutions": answers} if keep else {}), **rules}, "1 solution (unique)"
