"""Graded exercises: release student notebooks, grade submissions, check a model on public instances."""

from kernelext.grading.format.exercise import load_instance
from kernelext.grading.format.release import release
from kernelext.grading.judging.grade import grade
from kernelext.grading.judging.public_check import check_public
from kernelext.grading.reports.results import (
    CheckReport,
    InstanceResult,
    Outcome,
    SubmissionResult,
)

__all__ = [
    "CheckReport",
    "InstanceResult",
    "Outcome",
    "SubmissionResult",
    "check_public",
    "grade",
    "load_instance",
    "release",
]
