"""The instructor's model run in this process, with one solver kept warm: the teacher's own code, so no sandbox.

It answers as `kernelext-grade instances` does (the same runs, `runs.instance_run.run`, without a process each), on
data made up as it goes, and gives sessions with that data bound, for walkthroughs.
"""

from __future__ import annotations

from functools import partial

from kernelext.grading.format.answer_checks import ExerciseFault
from kernelext.grading.format.exercise import Instance
from kernelext.grading.judging.by_reference import ReferenceCheck
from kernelext.grading.runs.instance_run import build, run_here
from kernelext.grading.runs.jobs import Job
from kernelext.solver.engine import Solver


class ReferenceHere:
    """The reference model of `exercise` in this process. A context manager: its solver stops at the end."""

    def __init__(self, exercise, *, hidden: bool = True):
        if not (exercise.folder / "instructor.ipynb").is_file():
            raise ValueError(f"No instructor.ipynb in {exercise.folder}: the instructor's model makes the instances.")
        self.exercise = exercise
        self.hidden = hidden
        self.solver = Solver("auto")
        self.check = ReferenceCheck(exercise, run=partial(run_here, solver=self.solver))

    def __enter__(self) -> ReferenceHere:
        return self

    def __exit__(self, *exc_info) -> None:
        self.solver.close()

    def instance(self, name: str, data) -> Instance:
        """An instance of the exercise with `data`, to judge or to write (hidden unless made public)."""
        return Instance(name, self.hidden, data, {}, 0.0)

    def solutions(self, name: str, data, limit: int = 2) -> dict:
        """The reference's reply on `data` asking for `limit` solutions (see `ReferenceCheck.solutions`); an
        ExerciseFault when the model fails on it or does not decide in the exercise's time limit."""
        reply = self.check.solutions(self.instance(name, data), limit, rules_only=True)  # as the grader counts
        if reply["stopped"] and len(reply["answers"]) < limit:
            raise ExerciseFault(
                f"the reference model did not decide within {self.exercise.time_limit:g} s how many "
                f"solutions {name} has ({reply['status']})"
            )
        return reply

    def session(self, name: str, data):
        """A session of the reference model with `data` bound (an ExerciseFault when the model fails on it)."""
        exercise, model = self.exercise, self.check.model
        job = Job(
            "reference",
            name,
            self.instance(name, data),
            model.steps,
            model.helpers,
            exercise.answer,
            1,
            exercise.time_limit,
            exercise.memory_mb,
            warm_ace=True,
            strict_indexing=exercise.strict_indexing,
            data_style=exercise.data_style,
        )
        session = build(job.payload(), self.solver)
        if isinstance(session, dict):
            raise ExerciseFault(f"the reference model (instructor.ipynb) failed on {name}: {session['error']}")
        session.name = name
        return session

    def domains(self, name: str, data) -> dict[tuple[int, ...], tuple[int, ...]]:
        """The values each cell of the answer array may take in the model on `data`, by the cell's index."""
        from pycsp3.classes.main.variables import Variable

        session = self.session(name, data)
        try:
            info = session.array(self.exercise.answer)
            if info is None:
                raise ExerciseFault(f"the reference model declares no array {self.exercise.answer!r}")
            return {index: tuple(Variable.name2obj[vid].dom.all_values()) for index, vid in info.cells}
        finally:
            session.close()
