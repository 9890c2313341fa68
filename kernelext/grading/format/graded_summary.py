"""What is graded, in a few lines for the student: the text `release` puts at the top of the student notebook."""

from __future__ import annotations

import json

from kernelext.grading.format.exercise import Exercise

TAG = "graded-summary"  # the released notebook's cell holding the text; a release replaces it


def graded_summary(exercise: Exercise) -> str:
    """Markdown saying what the grader reads and checks, on which instances, for how many points, within which limits.

    Only the public instances are read (from `exercise`); the hidden ones are counted in the folder, never named.
    """
    public = sorted(exercise.public, key=lambda i: i.name)
    hidden = len(list((exercise.folder / "hidden").glob("*.json")))
    points = []
    if public:
        each = public[0].points
        points.append((f"{_count(len(public), 'public instance')}, {_points(each)} each", len(public) * each))
    if hidden:
        each = json.loads((exercise.folder / "exercise.json").read_text())["points"]["hidden"]
        points.append((f"{_count(hidden, 'hidden instance')}, {_points(each)} each", hidden * each))
    points += [(f'graded part "{p.title}", checked on `{p.instance.name}`', p.points) for p in exercise.parts]
    points += [(f"written question {q.name}, marked by the teacher", q.points) for q in exercise.questions]
    public_names = ", ".join(f"`{i.name}`" for i in public) or "none"
    lines = [
        "## What is graded",
        "",
        f"- **Your answer:** {_answer(exercise, public)}",
        f"- **What is checked:** {_checked(exercise, public)}",
        f"- **Instances:** the public ones, which you have in `public/`: {public_names}; "
        + (f"and {_count(hidden, 'hidden instance')}, which only the grader has." if hidden else "no hidden ones."),
        f"- **Points: {_number(sum(p for _, p in points))} in all**",
        *(f"  - {what}: {_points(p)}" for what, p in points),
        f"- **Limits:** {_limits(exercise)}",
    ]
    return "\n".join(lines) + "\n"


def _answer(exercise: Exercise, public) -> str:
    name = exercise.answer
    said = (
        f"the grader reads the array of variables named `{name}` (`{name} = VarArray(...)` in your `%%puzzle` "
        f"cells) and nothing else: an answer under another name scores 0."
    )
    shapes = [
        f"{_shape(i.expected['solutions'][0])} on `{i.name}`"
        for i in public
        if i.expected.get("solutions") and isinstance(i.expected["solutions"][0], list)
    ]
    return f"{said} Its shape: {', '.join(shapes)}." if shapes else said


def _checked(exercise: Exercise, public) -> str:
    if exercise.sols == "all":
        return (
            "every solution: your model must find all the solutions of each instance, each keeping the "
            "puzzle's rules and none twice; their number is checked too."
        )
    if any("optimum" in i.expected for i in public):
        return "one solution per instance, and it must be optimal: any optimal solution gets full marks."
    if any(i.expected for i in public):
        return "one solution per instance: any solution that keeps the puzzle's rules gets full marks."
    return "one solution per instance: any right solution gets full marks, not only the teacher's."


def _limits(exercise: Exercise) -> str:
    runs = "one per instance, one per graded part" if exercise.parts else "one per instance"
    said = (
        f"each run ({runs}) has {_number(exercise.time_limit)} s (starting, modelling and solving) "
        f"and {exercise.memory_mb} MB of memory."
    )
    if exercise.max_timeouts:
        said += f" After {_count(exercise.max_timeouts, 'run')} out of time, your remaining runs are not made."
    if exercise.budget is not None:
        said += f" All your runs together have {_number(exercise.budget)} s."
    return said


def _shape(value) -> str:
    """`5 x 5` for a 5 by 5 nested list, `3` for a flat one; rows of different sizes are listed."""
    rows = [item for item in value if isinstance(item, list)]
    if not rows:
        return str(len(value))
    inner = {_shape(row) for row in rows}
    if len(rows) == len(value) and len(inner) == 1:
        return f"{len(value)} x {inner.pop()}"
    return f"{len(value)} rows ({', '.join(_shape(row) if isinstance(row, list) else '1' for row in value)})"


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'s' * (number != 1)}"


def _points(points: float) -> str:
    return f"{_number(points)} point{'s' * (points != 1)}"


def _number(value: float) -> str:
    return f"{value:g}"
