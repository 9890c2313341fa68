"""Gantt chart: tasks on a time line, one row per resource.

Resources are read from the posted constraints: each `NoOverlap` over tasks on one line (origins and lengths,
numbers or variables) is a row of tasks that must not overlap; each `Cumulative` a row whose tasks share a
capacity, drawn with its usage profile under them. A task is a bar from its start to its end, named by its
origin variable; a task whose start or length is undecided is drawn faint at its earliest start, in a lane
of its own. `machines` (the data) names the rows: a name per resource, or the machine of each task.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernelext.errors import ViewNotApplicable
from kernelext.views import reading
from kernelext.views.shapes import BAR_FILL, FAINT_FILL, GREY, INK, box, colour, label, line, picture
from kernelext.xcsp.constraints import Cumulative, NoOverlap, Term

SUMMARY = "tasks on a time line, one row per resource (NoOverlap, Cumulative)"
DATA_NAMES = ("machines",)
LEFT, TOP, LANE, BAR, PROFILE = 96, 8, 24, 18, 36  # pixels
WIDTH = 560  # of the time line, at most
PROFILE_FILL, OVER_FILL = "#c7e9c0", "#ffd6d6"


@dataclass(frozen=True)
class Task:
    origin: Term
    length: Term
    height: Term = 1


@dataclass(frozen=True)
class Resource:
    kind: str  # noOverlap or cumulative
    tasks: tuple[Task, ...]
    capacity: int | None = None


def resources(model) -> list[Resource]:
    """The model's resources: one per NoOverlap over 1-D tasks and per Cumulative, in order."""
    found = []
    for constraint in reading.constraints(model, NoOverlap, Cumulative):
        if not constraint.origins:
            continue
        if isinstance(constraint, NoOverlap):
            if all(len(box) == 1 for box in constraint.origins):  # not rectangles (see the packing view)
                tasks = (Task(origin, length) for (origin,), (length,) in zip(constraint.origins, constraint.lengths))
                found.append(Resource("noOverlap", tuple(tasks)))
            continue
        limit = constraint.condition
        capacity = limit.operand if limit.operator in ("le", "lt") and isinstance(limit.operand, int) else None
        capacity = capacity - 1 if capacity is not None and limit.operator == "lt" else capacity
        tasks = map(Task, constraint.origins, constraint.lengths, constraint.heights)
        found.append(Resource("cumulative", tuple(tasks), capacity))
    return found


def might_draw(features: frozenset[str]) -> bool:
    return bool({"noOverlap", "cumulative"} & features)


def recognise(model, data) -> bool:
    return bool(resources(model))


@dataclass(frozen=True)
class _Placed:
    task: Task
    start: int | None
    length: int | None
    height: int | None
    earliest: int
    least_length: int

    @property
    def decided(self) -> bool:
        return self.start is not None and self.length is not None

    @property
    def end(self) -> int:
        return (self.start if self.decided else self.earliest) + (self.length if self.decided else self.least_length)


def describe(model, data, solution, previous) -> dict:
    """The Gantt chart of `solution` (see kernelext.views)."""
    found = resources(model)
    if not found:
        raise ViewNotApplicable(
            "the Gantt chart draws the tasks of NoOverlap(origins=..., lengths=...) or Cumulative(...), "
            "and the model posts neither."
        )
    rows = [[_placed(model, task, solution) for task in resource.tasks] for resource in found]
    horizon = max(1, max(p.end for row in rows for p in row))
    scale = min(24.0, WIDTH / horizon)
    names = _row_names(found, data)
    shapes, lines, y = [], [], TOP
    tasks = {p.task.origin for row in rows for p in row}
    decided = [p for row in rows for p in row if p.decided]
    for resource, row, name in zip(found, rows, names):
        height, drawn, text = _row(resource, row, name, y, scale, solution, previous)
        shapes += drawn
        lines.append(text)
        y += height + 6
    shapes += _axis(horizon, scale, y)
    makespan = max((p.end for p in decided), default=None)
    whole = len(decided) == sum(len(row) for row in rows)
    head = f"Gantt chart: {len(found)} resource{'s' * (len(found) > 1)}, {len(tasks)} task{'s' * (len(tasks) > 1)}"
    head += f", makespan {makespan}" if whole and makespan is not None else f", {len(decided)} placed"
    goal, score = reading.objective(model), reading.objective_value(model, solution)
    tail = [f"objective ({goal[0]} {goal[1]}): {score}"] if goal and score is not None else []
    legend = [["bar", "a task, from its start to its end (of a 2-D array: coloured by its first index, the job)"]]
    legend += [["faint", "start or length undecided (*)"]]
    legend += [["thick outline", "changed by this step"], ["dotted red outline, ✗", "overlaps, or over the capacity"]]
    return picture("gantt", head, [head, *lines, *tail], shapes, legend)


def _placed(model, task: Task, solution) -> _Placed:
    start, length = reading.value(task.origin, solution), reading.value(task.length, solution)
    return _Placed(
        task,
        start,
        length,
        reading.value(task.height, solution),
        reading.bounds(model, task.origin)[0],
        max(0, reading.bounds(model, task.length)[0]),
    )


def _row_names(found: list[Resource], data) -> list[str]:
    """A name per row: the data's (`machines`: a name per resource, or the machine of each task laid out as the
    origins' array), else what the tasks' names share (`s[*][2]`), else `resource k`."""
    given = data.get("machines")
    if isinstance(given, list) and len(given) == len(found) and all(isinstance(n, (str, int)) for n in given):
        return [str(n) for n in given]
    names = []
    for k, resource in enumerate(found, start=1):
        machines = [_at(given, reading.indexes(task.origin)) for task in resource.tasks]
        shared = reading.common_name([t.origin for t in resource.tasks])
        if isinstance(machines[0], (int, str)) and all(m == machines[0] for m in machines):
            names.append(f"machine {machines[0]}")
        elif "[" in shared and "[*]" * shared.count("[") not in shared:
            names.append(shared)
        else:
            names.append(f"resource {k}")
    return names


def _at(nested, index: tuple[int, ...]):
    """`nested[i][j]...` for `index`, None when it is not there."""
    for i in index:
        if not isinstance(nested, list) or not 0 <= i < len(nested):
            return None
        nested = nested[i]
    return nested if index else None


def _lanes(row: list[_Placed], exclusive: bool) -> tuple[list[int], set[int]]:
    """A lane for each task (decided ones first, each in the first lane free at its start; undecided ones in
    lanes of their own below) and the tasks that overlap another on an exclusive resource."""
    order = sorted(
        range(len(row)), key=lambda k: (not row[k].decided, row[k].start if row[k].decided else row[k].earliest, k)
    )
    ends: list[int] = []
    lane = [0] * len(row)
    clashes = set()
    for k in order:
        p = row[k]
        if not p.decided:
            lane[k] = len(ends)
            ends.append(p.end)
            continue
        if exclusive and p.length > 0:
            for other in range(len(row)):
                q = row[other]
                if other != k and q.decided and q.length > 0 and p.start < q.end and q.start < p.end:
                    clashes.add(k)
        free = next((i for i, end in enumerate(ends) if end <= p.start or p.length == 0), None)
        if free is None:
            free = len(ends)
            ends.append(p.end)
        else:
            ends[free] = max(ends[free], p.end)
        lane[k] = free
    return lane, clashes


def _job_colour(origin: Term) -> str:
    """A task of a job: `s[i][j]` (a cell of a 2-D or larger array) takes the colour of its job `i`."""
    found = reading.indexes(origin)
    return colour(found[0]) if len(found) >= 2 else BAR_FILL


def _row(resource: Resource, row: list[_Placed], name: str, y: int, scale: float, solution, previous):
    """The shapes of one resource's row, its height, and its line of text."""
    lanes, clashes = _lanes(row, resource.kind == "noOverlap")
    count = max(lanes, default=0) + 1
    shapes = [label(LEFT - 6, y + count * LANE / 2, name, "end")]
    words = []
    for k, p in enumerate(row):
        task = p.task
        changed = reading.changed((task.origin, task.length, task.height), solution, previous)
        start = p.start if p.decided else p.earliest
        length = p.length if p.decided else p.least_length
        text = f"{task.origin}" if p.decided else f"{task.origin} *"
        top = y + lanes[k] * LANE + (LANE - BAR) / 2
        fill = _job_colour(task.origin) if p.decided else FAINT_FILL
        shapes.append(
            box(
                LEFT + start * scale,
                top,
                max(length * scale, 2),
                BAR,
                fill,
                text,
                faint=not p.decided,
                changed=changed,
                conflict=k in clashes,
            )
        )
        word = f"{task.origin} {p.start}→{p.end}" if p.decided else f"{task.origin} * (length {_or_star(p.length)})"
        if resource.kind == "cumulative":
            word += f" ×{_or_star(p.height)}"
        word += " (overlaps)" * (k in clashes) + " (changed)" * changed
        words.append(word)
    height = count * LANE
    heading = f"{name}" + (f" (capacity {resource.capacity})" if resource.capacity is not None else "")
    if resource.kind == "cumulative":
        profile, peak, over = _profile(row, resource.capacity, y + height + 4, scale)
        shapes += profile
        height += PROFILE + 4
        heading += f", peak {peak}" + (" (over the capacity)" if over else "")
    return height, shapes, f"{heading}: " + ", ".join(words)


def _or_star(value: int | None) -> str:
    return "*" if value is None else str(value)


def _profile(row: list[_Placed], capacity: int | None, y: int, scale: float) -> tuple[list[dict], int, bool]:
    """The usage of the decided tasks over time as bars under the row, the capacity as a dashed line; the peak,
    and whether the usage goes over the capacity."""
    events: dict[int, int] = {}
    for p in row:
        if p.decided and p.height is not None and p.length > 0:
            events[p.start] = events.get(p.start, 0) + p.height
            events[p.end] = events.get(p.end, 0) - p.height
    runs, usage, times = [], 0, sorted(events)
    for t, after in zip(times, times[1:]):
        usage += events[t]
        runs.append((t, after, usage))
    peak = max((u for _, _, u in runs), default=0)
    top = max(peak, capacity or 0, 1)
    shapes, over = [], False
    for start, end, used in runs:
        if used <= 0:
            continue
        high = used > capacity if capacity is not None else False
        over = over or high
        h = PROFILE * used / top
        shapes.append(
            box(
                LEFT + start * scale,
                y + PROFILE - h,
                (end - start) * scale,
                h,
                OVER_FILL if high else PROFILE_FILL,
                conflict=high,
            )
        )
    shapes.append(line(LEFT, y + PROFILE, LEFT + (times[-1] if times else 0) * scale, y + PROFILE, GREY))
    if capacity is not None:
        level = y + PROFILE - PROFILE * capacity / top
        right = LEFT + max(times[-1] if times else 1, 1) * scale
        shapes += [
            line(LEFT, level, right, level, INK, dashed=True),
            label(LEFT - 6, level, f"cap {capacity}", "end", 9),
        ]
    return shapes, peak, over


def _axis(horizon: int, scale: float, y: int) -> list[dict]:
    """The time axis under the rows: a line and ticks every 1, 2 or 5 times a power of ten."""
    step = 1
    while horizon / step > 12:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    shapes = [line(LEFT, y, LEFT + horizon * scale, y, INK)]
    for t in range(0, horizon + 1, step):
        shapes += [
            line(LEFT + t * scale, y, LEFT + t * scale, y + 4, INK),
            label(LEFT + t * scale, y + 12, str(t), "middle", 9),
        ]
    return shapes
