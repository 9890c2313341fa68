"""Grading results as frozen dataclasses: `summary()` for terminals, `_repr_html_` for notebooks."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from enum import Enum

_ERROR_KIND = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Exit|Interrupt))\b")


class Outcome(Enum):
    PASSED = "passed"
    FAILED = "failed"  # no answer, or an answer the checker rejects
    ERROR = "error"  # the student's code raised
    TIMEOUT = "timed out"
    CRASHED = "crashed"  # the process ended without an answer
    NOT_RUN = "not run"  # the notebook holds no model that can run


@dataclass(frozen=True)
class InstanceResult:
    """How one submission did on one instance.

    Attributes:
        instance: the instance's name.
        hidden: a hidden instance (its name, data and details are kept from the student).
        label: what the student sees instead of a hidden instance's name ("hidden 1").
        outcome: passed, failed, error, timed out, crashed or not run.
        points, max_points: earned and possible points.
        message: one line saying why it did not pass ("" when it did).
    """

    instance: str
    hidden: bool
    label: str
    outcome: Outcome
    points: float
    max_points: float
    message: str = ""

    @property
    def student_message(self) -> str:
        """`message`, reduced for hidden instances to what reveals nothing of their contents."""
        if not self.hidden or self.outcome is Outcome.NOT_RUN:
            return self.message
        if self.outcome is Outcome.ERROR:
            kind = _ERROR_KIND.search(self.message)
            return f"your code raised {kind.group(1)}" if kind else "your code raised an error"
        return {Outcome.FAILED: "no answer, or an answer that breaks the puzzle's rules",
                Outcome.TIMEOUT: self.message, Outcome.CRASHED: "the process stopped before giving an answer"
                }.get(self.outcome, "")

    def line(self, *, for_student: bool = False) -> str:
        name = self.label if for_student else self.instance
        message = self.student_message if for_student else self.message
        text = f"{name:<12} {self.outcome.value:<9} {format_points(self.points)}/{format_points(self.max_points)}"
        return f"{text}  {message}" if message else text


@dataclass(frozen=True)
class SubmissionResult:
    """One student's results on every instance, plus notes about their notebook."""

    student: str
    results: tuple[InstanceResult, ...]
    notes: tuple[str, ...] = ()

    @property
    def points(self) -> float:
        return sum(r.points for r in self.results)

    @property
    def max_points(self) -> float:
        return sum(r.max_points for r in self.results)

    def summary(self) -> str:
        """The teacher's view: every instance by name, with full messages."""
        return self._text(for_student=False)

    def feedback(self) -> str:
        """The student's view: hidden instances by label, their details withheld."""
        return self._text(for_student=True)

    def _text(self, *, for_student: bool) -> str:
        lines = [f"{self.student}: {format_points(self.points)}/{format_points(self.max_points)} points"]
        lines += [f"  note: {note}" for note in self.notes]
        lines += ["  " + r.line(for_student=for_student) for r in self.results]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        caption = f"{self.student}: {format_points(self.points)}/{format_points(self.max_points)} points"
        return _table(caption, self.results, self.notes)


@dataclass(frozen=True)
class CheckReport:
    """A model run on an exercise's public instances: one row per instance."""

    exercise: str
    results: tuple[InstanceResult, ...]
    notes: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return bool(self.results) and all(r.outcome is Outcome.PASSED for r in self.results)

    def summary(self) -> str:
        done = sum(r.outcome is Outcome.PASSED for r in self.results)
        lines = [f"{self.exercise}: {done}/{len(self.results)} public instances passed"]
        lines += [f"  note: {note}" for note in self.notes]
        lines += ["  " + r.line() for r in self.results]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        done = sum(r.outcome is Outcome.PASSED for r in self.results)
        return _table(f"{self.exercise}: {done}/{len(self.results)} public instances passed", self.results, self.notes)


def _table(caption: str, results: tuple[InstanceResult, ...], notes: tuple[str, ...]) -> str:
    colour = {Outcome.PASSED: "#1a7f37"}
    rows = "".join(
        f"<tr><td>{html.escape(r.instance)}</td>"
        f"<td style=\"color:{colour.get(r.outcome, '#cf222e')}\">{r.outcome.value}</td>"
        f"<td>{format_points(r.points)}/{format_points(r.max_points)}</td><td>{html.escape(r.message)}</td></tr>"
        for r in results)
    items = "".join(f"<li>{html.escape(note)}</li>" for note in notes)
    return (f"<table><caption>{html.escape(caption)}</caption>"
            f"<tr><th>instance</th><th>outcome</th><th>points</th><th>why</th></tr>{rows}</table>"
            + (f"<ul>{items}</ul>" if items else ""))


def format_points(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
