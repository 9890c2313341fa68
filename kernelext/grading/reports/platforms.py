"""One submission's result in the `results.json` formats of Gradescope and PrairieLearn.

Only the automatic items go in (instances and parts); written questions are marked on the platform itself.
Hidden instances appear by their label, with the student's version of the message only.
"""

from __future__ import annotations

from kernelext.grading.reports.results import Outcome, SubmissionResult

PLATFORMS = ("gradescope", "prairielearn")


def results_json(result: SubmissionResult, platform: str) -> dict:
    """The `results.json` content for `platform` ("gradescope" or "prairielearn")."""
    items = [r for r in result.results if r.kind != "question"]
    score = sum(r.points for r in items)
    top = sum(r.max_points for r in items)
    notes = "\n".join(f"note: {note}" for note in result.notes)
    if platform == "gradescope":
        return {
            "score": score,
            "max_score": top,
            "output": notes,
            "visibility": "visible",
            "tests": [
                {
                    "name": r.label,
                    "score": r.points,
                    "max_score": r.max_points,
                    "status": "passed" if r.outcome is Outcome.PASSED else "failed",
                    "output": f"{r.outcome.value}: {r.student_message}" if r.student_message else r.outcome.value,
                    "visibility": "after_due_date" if r.hidden else "visible",
                }
                for r in items
            ],
        }
    if platform == "prairielearn":
        return {
            "gradable": True,
            "score": score / top if top else 0.0,
            "output": notes,
            "tests": [
                {
                    "name": r.label,
                    "points": r.points,
                    "max_points": r.max_points,
                    "message": r.student_message,
                    "output": r.outcome.value,
                }
                for r in items
            ],
        }
    raise ValueError(f"Unknown platform {platform!r}: use {' or '.join(PLATFORMS)}.")
