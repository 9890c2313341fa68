"""A job (a submission on an instance, a part's probes, a reference check) and what its run gave back."""

from __future__ import annotations

from dataclasses import dataclass

from kernelext.grading.format.exercise import Instance

GRACE = 3.0  # seconds a run gets beyond its time limit before its process is killed
OUTPUT_CAP = 64 * 1024  # bytes of a run's output kept (the rest is read and dropped)


@dataclass(frozen=True)
class Job:
    """One submission on one instance, or one graded part: everything a run needs (picklable, for remote executors).

    Attributes:
        label: what the student sees ("moon", "hidden 1", a part's title).
        kind: "instance" (solve and check the answer), "part" (run `probes` and compare their statuses),
            "verify" (a reference run: fix each of `answers` in the model and say what it breaks), "audit" (a
            reference run: the steps that refuse a right answer, see `symmetry_audit`) or "rules" (a reference
            run: the model compiled on the instance, as XCSP3).
        probes: for a part, `{"fix": {array: values}, "expect": "sat"|"unsat", "why": text}` each.
        sandbox: "bwrap" or "process" (see `kernelext.grading.runs.sandbox`).
        strict_indexing: an index past the end of an array fails the run (see `Exercise`).
        warm_ace: where CP-SAT does not read the model, ACE runs in one worker JVM kept for the run's solves
            (a reference run's explanations solve many small models) rather than in a new JVM per solve.
        data_style: how `data` is bound: "json" or "pycsp3" (see `Exercise`).
        not_rules: for an audit, why each step is not a rule of the puzzle ("" for a rule).
    """

    student: str
    label: str
    instance: Instance
    steps: tuple[str, ...]
    helpers: tuple[str, ...]
    answer: str
    sols: int | str
    time_limit: float
    memory_mb: int
    jvm_archive: str = ""
    kind: str = "instance"
    probes: tuple = ()
    sandbox: str = "process"
    strict_indexing: bool = False
    answers: tuple = ()
    warm_ace: bool = False
    data_style: str = "json"
    not_rules: tuple = ()

    def payload(self) -> dict:
        """The run's `job.json`: what the model needs, never the instance's `expected` facts."""
        return {
            "data": self.instance.data,
            "steps": self.steps,
            "helpers": self.helpers,
            "answer": self.answer,
            "sols": self.sols,
            "time_limit": self.time_limit,
            "memory_mb": self.memory_mb,
            "jvm_archive": self.jvm_archive,
            "probes": [{"fix": p["fix"]} for p in self.probes],
            "strict_indexing": self.strict_indexing,
            "kind": self.kind,
            "answers": list(self.answers),
            "warm_ace": self.warm_ace,
            "data_style": self.data_style,
            "not_rules": list(self.not_rules),
        }


@dataclass(frozen=True)
class Run:
    """What one run gave back: its exit code (None when killed at the time limit), its output, its reply."""

    code: int | None
    output: str
    reply: dict | None
