"""Graded exercises: release student notebooks, grade submissions, check a model on public instances."""

from kernelext.grading.exercise import load_instance
from kernelext.grading.grade import grade
from kernelext.grading.notebook import release
from kernelext.grading.public_check import check_public
from kernelext.grading.results import (
           CheckReport,
           InstanceResult,
           Outcome,
           SubmissionResult,
)

__all__ = ["CheckReport", "InstanceResult", "Outcome", "SubmissionResult", "check_public", "grade", "load_instance",
           "release"]
