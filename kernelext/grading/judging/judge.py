"""Judge what a run gave back: check the answer here (never trusting the run), and word what the student is shown.

Text the student's code controls (an exception's message, the last line printed before a crash) reaches
the teacher whole; the student sees it capped for public instances and never for hidden ones.
"""

from __future__ import annotations

import builtins
import re
import signal
from dataclasses import replace

from kernelext.grading.format.answer_checks import ExerciseFault, OnlyTheGrader
from kernelext.grading.judging.puzzle_words import broken_cells, cell_namer, hidden_wording
from kernelext.grading.reports.results import InstanceResult, Outcome

SHOWN_CAP = 160  # characters of student-controlled text shown back for a public instance
_NAMED_ERRORS = frozenset(
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
) | {"ModelRejected", "SolverError"}
_ERROR_KIND = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Exit|Interrupt))\b")
_HIDDEN = {
    Outcome.FAILED: "wrong answer: it breaks the puzzle's rules",
    Outcome.TIMEOUT: "no answer within the time limit",
    Outcome.CRASHED: "the process stopped before giving an answer",
}


def result_for(job, outcome: Outcome, message: str = "", *, shown: str | None = None) -> InstanceResult:
    """The result of `job`: full points when passed; `shown` is the student's line (defaults per outcome)."""
    points = job.instance.points if outcome is Outcome.PASSED else 0
    if shown is None:
        shown = _HIDDEN.get(outcome, message) if job.instance.hidden else cap(message)
    return InstanceResult(
        job.instance.name,
        job.instance.hidden,
        job.label,
        outcome,
        points,
        job.instance.points,
        message,
        kind=job.kind,
        shown=shown,
    )


def judge_run(job, run, check) -> InstanceResult:
    """The result of `run` (a `runs.jobs.Run` of `job`); `check(answers, instance, sols)` says what is wrong."""
    if run.code is None:
        return result_for(job, Outcome.TIMEOUT, f"no answer within the time limit ({job.time_limit:g} s)")
    if run.reply is None:
        return result_for(job, Outcome.CRASHED, _crash_message(run.code, run.output))
    try:
        return judge_reply(job, run.reply, check)
    except OnlyTheGrader as reason:
        return result_for(job, Outcome.UNCHECKED, str(reason), shown=str(reason))
    except ExerciseFault as fault:
        return result_for(
            job,
            Outcome.ERROR,
            f"the exercise is at fault: {fault}",
            shown="the exercise's own check failed on this answer (not your model's fault: your teacher sees why)",
        )
    except Exception as error:  # a result file the model itself wrote or damaged
        return result_for(job, Outcome.FAILED, f"the run gave back an unreadable answer ({type(error).__name__})")


def judge_reply(job, reply: dict, check) -> InstanceResult:
    """The result for `reply`, the run's `result.json`."""
    if "error" in reply:
        return _error(job, str(reply["error"]), str(reply.get("error_type", "")))
    if "missing" in reply:
        text = f"wrong answer: the model declares no array named {job.answer!r} (the answer asked for)"
        return result_for(job, Outcome.FAILED, text, shown=text)
    if "free" in reply:
        text = f"wrong answer: the model leaves cells free (no constraint on {job.answer})"
        return result_for(job, Outcome.FAILED, f"{text}: {reply['free']} first", shown=text)
    if job.kind == "part":
        return _judge_probes(job, reply["probes"])
    answers = reply["answers"]
    if not answers:
        if reply["stopped"] == "timeout":
            return result_for(
                job,
                Outcome.TIMEOUT,
                f"the solver found no solution within {job.time_limit:g} s",
                shown=f"the solver found no solution within {job.time_limit:g} s",
            )
        why = "the constraints exclude every solution" if reply["status"] == "UNSAT" else "the solver gave up"
        text = f"no solution ({reply['status']}): {why}"
        return result_for(job, Outcome.FAILED, text, shown=text)
    if reply.get("unset"):
        text = "wrong answer: the model leaves cells free (some cells of the answer have no constraint)"
        return result_for(job, Outcome.FAILED, text, shown=text)
    problem = check(answers, job.instance, job.sols)
    if not problem:
        return result_for(job, Outcome.PASSED)
    if job.instance.hidden:
        return result_for(job, Outcome.FAILED, f"wrong answer: {problem}", shown=hidden_wording(problem))
    failed = result_for(job, Outcome.FAILED, f"wrong answer: {problem}")
    if len(answers) != 1:
        return failed
    return replace(failed, answer=answers[0], marked=broken_cells(problem), labels=_labels(job.instance, answers[0]))


def _labels(instance, answer) -> tuple[str, ...]:
    """The names the instance's data gives a 1-D answer's cells (all of them, or none)."""
    if not isinstance(answer, list) or not answer or isinstance(answer[0], list):
        return ()
    named = cell_namer(instance.data, (len(answer),))
    labels = tuple(named((j,)) for j in range(len(answer)))
    return labels if all(labels) else ()


def _error(job, message: str, kind: str) -> InstanceResult:
    hint = f" (the memory limit is {job.memory_mb} MB)" if kind == "MemoryError" else ""
    if job.instance.hidden:
        named = next((k for k in [kind, *_ERROR_KIND.findall(message)] if k in _NAMED_ERRORS), "an error")
        return result_for(job, Outcome.ERROR, message + hint, shown=f"your code raised {named}{hint}")
    return result_for(job, Outcome.ERROR, message + hint, shown=cap(message) + hint)


def cap(text: str, limit: int = SHOWN_CAP) -> str:
    """`text` cut to `limit` characters, saying so."""
    return text if len(text) <= limit else text[:limit] + " [...]"


def _judge_probes(job, statuses: list) -> InstanceResult:
    """A part passes when every probe's status is the one expected; else the first failing probe's `why`."""
    for probe, status in zip(job.probes, statuses):
        if status.startswith("missing "):
            return result_for(
                job, Outcome.FAILED, f"the model declares no array named {status[8:]!r}, which this part grades"
            )
        if status.startswith("shape "):
            return result_for(
                job, Outcome.FAILED, f"the array {status[6:]!r} does not have the shape this part expects"
            )
        if status == "UNKNOWN":
            return result_for(job, Outcome.TIMEOUT, "the solver found no answer in time for this part")
        if (status != "UNSAT") != (probe["expect"] == "sat"):
            return result_for(job, Outcome.FAILED, probe["why"])
    if len(statuses) != len(job.probes):
        return result_for(job, Outcome.FAILED, "the run gave back too few probe results")
    return result_for(job, Outcome.PASSED)


def _crash_message(code: int, output: str) -> str:
    how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
    lines = [
        line.strip()
        for line in output.splitlines()
        if line.strip() and "JAVA_TOOL_OPTIONS" not in line and not line.startswith("bwrap:")
    ]
    last = f": {lines[-1]}" if lines else ""
    return f"the process stopped ({how}) before giving an answer{last}"
