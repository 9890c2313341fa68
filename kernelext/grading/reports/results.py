"""Grading results as frozen dataclasses: `summary()` for terminals, `_repr_html_` for notebooks."""

from __future__ import annotations

import html
from dataclasses import dataclass
from enum import Enum


class Outcome(Enum):
    PASSED = "passed"
    FAILED = "failed"  # no answer, or an answer the checker rejects
    ERROR = "error"  # the student's code raised
    TIMEOUT = "timed out"
    CRASHED = "crashed"  # the process ended without an answer
    NOT_RUN = "not run"  # the notebook holds no model that can run, or grading stopped early
    UNCHECKED = "unchecked"  # an answer that only the grader can check (a released folder has no reference)
    GRADED = "graded"  # a written question, with the points the teacher gave
    TO_GRADE = "to grade"  # a written question the teacher has not marked yet


@dataclass(frozen=True)
class InstanceResult:
    """How one submission did on one graded item: an instance, a part of the model, or a written question.

    Attributes:
        instance: the item's name (an instance's, a part's, "Q1"...).
        hidden: a hidden instance (its name, data and details are kept from the student).
        label: what the student sees instead of the name ("hidden 1", a part's title).
        outcome: passed, failed, error, timed out, crashed, not run; graded or to grade for questions.
        points, max_points: earned and possible points.
        message: one line for the teacher saying why it did not pass ("" when it did).
        kind: "instance", "part" or "question".
        shown: the student's version of `message` (None: the same), with nothing of hidden instances.
        answer: a wrong answer on a public instance, as nested lists (drawn in the HTML feedback), else None.
        marked: the ids of the answer's cells in the constraint it breaks (`c[2]`), marked in that drawing.
        labels: the names the instance's data gives a 1-D answer's cells (regions, towns), over that drawing.
    """

    instance: str
    hidden: bool
    label: str
    outcome: Outcome
    points: float
    max_points: float
    message: str = ""
    kind: str = "instance"
    shown: str | None = None
    answer: object = None
    marked: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()

    @property
    def student_message(self) -> str:
        """What the student is told about this item."""
        return self.message if self.shown is None else self.shown

    def line(self, *, for_student: bool = False, width: int = 12) -> str:
        name = self.label if for_student or self.kind == "part" else self.instance
        message = self.student_message if for_student else self.message
        text = f"{name:<{width}} {self.outcome.value:<9} {format_points(self.points)}/{format_points(self.max_points)}"
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
        sections = any(r.kind != "instance" for r in self.results)
        width = max([12] + [len(r.label) for r in self.results if r.kind == "part"])
        for title, kind in _SECTIONS:
            items = [r for r in self.results if r.kind == kind]
            if items and sections:
                lines.append(f"  {title}:")
            lines += [("    " if sections else "  ") + r.line(for_student=for_student, width=width) for r in items]
        return "\n".join(lines)

    def feedback_html(self) -> str:
        """The student's view as a standalone HTML page."""
        caption = f"{self.student}: {format_points(self.points)}/{format_points(self.max_points)} points"
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>'
            + html.escape(caption)
            + "</title></head><body>"
            + _table(caption, self.results, self.notes, for_student=True)
            + "</body></html>\n"
        )

    def __repr__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        caption = f"{self.student}: {format_points(self.points)}/{format_points(self.max_points)} points"
        return _table(caption, self.results, self.notes)


@dataclass(frozen=True)
class StudentFeedback:
    """A submission's results as its student sees them (hidden instances by label), for a notebook's output."""

    result: SubmissionResult

    def __repr__(self) -> str:
        return self.result.feedback()

    def _repr_html_(self) -> str:
        result = self.result
        caption = f"{result.student}: {format_points(result.points)}/{format_points(result.max_points)} points"
        return _table(caption, result.results, result.notes, for_student=True)


@dataclass(frozen=True)
class CheckReport:
    """A model run on an exercise's public instances: one row per instance."""

    exercise: str
    results: tuple[InstanceResult, ...]
    notes: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return bool(self.results) and all(r.outcome is Outcome.PASSED for r in self.results)

    @property
    def caption(self) -> str:
        done = sum(r.outcome is Outcome.PASSED for r in self.results)
        open_ = sum(r.outcome is Outcome.UNCHECKED for r in self.results)
        return f"{self.exercise}: {done}/{len(self.results)} public instances passed" + (
            f", {open_} answered but only the grader can check {'it' if open_ == 1 else 'them'}" if open_ else ""
        )

    def summary(self) -> str:
        lines = [self.caption]
        lines += [f"  note: {note}" for note in self.notes]
        lines += ["  " + r.line() for r in self.results]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        return _table(self.caption, self.results, self.notes)


_SECTIONS = (("instances", "instance"), ("parts of the model", "part"), ("written questions", "question"))


def _table(
    caption: str, results: tuple[InstanceResult, ...], notes: tuple[str, ...], *, for_student: bool = False
) -> str:
    colour = {
        Outcome.PASSED: "#1a7f37",
        Outcome.GRADED: "#1a7f37",
        Outcome.TO_GRADE: "#9a6700",
        Outcome.UNCHECKED: "#9a6700",
    }
    rows = "".join(
        f"<tr><td>{html.escape(r.label if for_student or r.kind == 'part' else r.instance)}</td>"
        f'<td style="color:{colour.get(r.outcome, "#cf222e")}">{r.outcome.value}</td>'
        f"<td>{format_points(r.points)}/{format_points(r.max_points)}</td>"
        f"<td>{html.escape(r.student_message if for_student else r.message)}{answer_table(r)}</td></tr>"
        for r in results
    )
    items = "".join(f"<li>{html.escape(note)}</li>" for note in notes)
    return (
        f'<table cellpadding="4"><caption>{html.escape(caption)}</caption>'
        f"<tr><th>instance</th><th>outcome</th><th>points</th><th>why</th></tr>{rows}</table>"
        + (f"<ul>{items}</ul>" if items else "")
    )


def answer_table(result: InstanceResult) -> str:
    """A wrong public answer as an HTML table (one row per row of a 2-D answer), the cells of the broken
    constraint marked in three ways: a thick border, bold text and a ✗ (readable in grayscale and aloud)."""
    if result.answer is None or result.hidden or not isinstance(result.answer, list):
        return ""
    rows = result.answer if result.answer and isinstance(result.answer[0], list) else [result.answer]
    name = result.marked[0].split("[", 1)[0] if result.marked else ""
    two_d = rows is result.answer
    body = "<tr>" + "".join(f'<th scope="col">{html.escape(label)}</th>' for label in result.labels) + "</tr>"
    body = body if result.labels and not two_d else ""
    for i, row in enumerate(rows):
        cells = ""
        for j, value in enumerate(row):
            vid = f"{name}[{i}][{j}]" if two_d else f"{name}[{j}]"
            shown = "" if value is None else html.escape(str(value))
            if vid in result.marked:
                cells += f'<td style="{_CELL}border:3px solid #cf222e;font-weight:bold">{shown} ✗</td>'
            else:
                cells += f'<td style="{_CELL}border:1px solid #57606a">{shown}</td>'
        body += f"<tr>{cells}</tr>"
    caption = "the answer; ✗ marks the cells of the constraint it breaks" if result.marked else "the answer"
    return f'<table style="border-collapse:collapse;margin-top:4px"><caption>{caption}</caption>{body}</table>'


_CELL = "min-width:1.6em;padding:2px 4px;text-align:center;"


def format_points(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
