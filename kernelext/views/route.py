"""Route: the tour a successor array under `Circuit` makes (a stop that is its own successor is left out, as in
a subcircuit), or the order a position array under `AllDifferent` gives when the objective reads it (a
distance to minimise).

Stops sit on the data's coordinates (`coords`, `points`, `positions`, or `x` and `y`), else round a circle.
The tour's length is shown when the objective is a sum (of distances): its value for the solution. A stop
whose successor is undecided is drawn faint, with no leg out of it; two legs into one stop are marked.
"""

from __future__ import annotations

from kernelext.errors import ViewNotApplicable
from kernelext.views import placement, reading
from kernelext.views.shapes import FAINT_FILL, INK, NODE_FILL, dot, line, picture
from kernelext.xcsp.constraints import AllDifferent, Circuit

SUMMARY = "a tour over stops (Circuit, or positions under AllDifferent with a distance objective)"
DATA_NAMES = ("coords", "points", "positions", "x", "y", "names", "cities")


def tour_array(model) -> tuple[str, list[str], int] | None:
    """("successors" or "positions", the variables, the first index) of the route, None when there is none."""
    for circuit in reading.constraints(model, Circuit):
        if circuit.items and all(reading.is_variable(i) for i in circuit.items):
            return "successors", list(circuit.items), circuit.start
    goal = _objective_reads(model)
    for different in reading.constraints(model, AllDifferent):
        ids = different.items
        names = {reading.array_name(i) for i in ids}
        if len(ids) >= 3 and all(map(reading.is_variable, ids)) and len(names) == 1 and names <= goal:
            spans = [reading.bounds(model, i) for i in ids]
            if all(lo >= spans[0][0] and hi - spans[0][0] < len(ids) for lo, hi in spans):
                return "positions", list(ids), spans[0][0]
    return None


def might_draw(features: frozenset[str]) -> bool:
    return "circuit" in features or {"allDifferent", "objective"} <= features


def _objective_reads(model) -> set[str]:
    """The arrays the objective reads: those it names, and those a constraint ties to the variables it names
    (pycsp3 posts `distances[city[k]][city[k + 1]]` as an element constraint on an auxiliary variable)."""
    named = reading.objective_names(model)
    if not named:
        return set()
    tied = {
        reading.array_name(vid)
        for constraint in model.constraints
        if {reading.array_name(v) for v in constraint.scope} & named
        for vid in constraint.scope
    }
    return named | tied


def recognise(model, data) -> bool:
    return tour_array(model) is not None


def describe(model, data, solution, previous) -> dict:
    """The route of `solution` (see kernelext.views)."""
    found = tour_array(model)
    if found is None:
        raise ViewNotApplicable(
            "the route draws a successor array under Circuit(...), or positions under AllDifferent(...) that the "
            "objective reads, and the model posts neither."
        )
    form, ids, first = found
    count = len(ids)
    values = [reading.value(vid, solution) for vid in ids]
    legs, left_out = _legs(form, ids, values, first)
    names = _names(data, count)
    points = placement.coordinates(data, ("coords", "points", "positions"), count)
    where = dict(enumerate(placement.scaled(points, 360))) if points else placement.circle(list(range(count)))
    centre = (sum(x for x, _ in where.values()) / count, sum(y for _, y in where.values()) / count)
    into = [b for _, b, _ in legs]
    crowded = {b for b in into if into.count(b) > 1}
    shapes = [
        line(*where[a], *where[b], INK, conflict=b in crowded, changed=reading.changed(by, solution, previous))
        for a, b, by in legs
    ]
    if form == "successors":
        faint = left_out | {k for k, v in enumerate(values) if v is None}
    else:  # a stop no position holds yet
        faint = set(range(count)) - {v - first for v in values if v is not None}
    for k in range(count):
        x, y = where[k]
        shapes.append(dot(x, y, placement.NODE, FAINT_FILL if k in faint else NODE_FILL, str(k), faint=k in faint))
        if names[k] != str(k):
            shapes.append(placement.outside(x, y, centre, names[k]))
    goal, score = reading.objective(model), reading.objective_value(model, solution)
    head = f"Route: {count} stops ({reading.common_name(ids)}), " + (
        "on the data's coordinates" if points else "on a circle"
    )
    if goal and goal[1] == "sum" and score is not None:
        head += f", tour length {score}"
    lines = [head, _tour_line(legs, names)]
    for k, vid in enumerate(ids):
        value = "*" if values[k] is None else str(values[k])
        if form == "successors":
            where_text = f" at ({_number(points[k][0])}, {_number(points[k][1])})" if points else ""
            state = " (left out)" if k in left_out else " (two legs in)" if k in crowded else ""
            text = f"{names[k]}{where_text}: {vid} = {value}{state}"
        else:
            stop = values[k] - first if values[k] is not None else None
            shown = f" ({names[stop]})" if stop is not None and 0 <= stop < count and names[stop] != str(stop) else ""
            text = f"{vid} = {value}{shown}" + (" (two legs in)" if stop in crowded else "")
        lines.append(text + " (changed)" * reading.changed((vid,), solution, previous))
    legend = [["circle", "a stop (faint: undecided or left out)"], ["line", "a leg of the tour"]]
    legend += [["thick line", "changed by this step"], ["dotted red line", "a second leg into the same stop"]]
    return picture("route", head, lines, shapes, legend)


def _legs(form: str, ids: list[str], values: list, first: int) -> tuple[list[tuple], set[int]]:
    """The legs decided so far, as (from, to, the variables deciding it), and the stops left out (their own
    successors); a value out of range gives no leg."""
    count, legs, left_out = len(ids), [], set()
    stops = [v - first if v is not None and 0 <= v - first < count else None for v in values]
    for k, stop in enumerate(stops):
        if form == "successors" and stop is not None:
            if stop == k:
                left_out.add(k)
            else:
                legs.append((k, stop, (ids[k],)))
        elif form == "positions" and stop is not None and stops[(k + 1) % count] is not None:
            legs.append((stop, stops[(k + 1) % count], (ids[k], ids[(k + 1) % count])))
    return legs, left_out


def _tour_line(legs: list, names: list[str]) -> str:
    """The tour as `a → b → ... → a` when its legs close one loop, else how many legs are decided."""
    following = {a: b for a, b, _ in legs}
    if legs and len(following) == len(legs):
        start = stop = legs[0][0]
        seen, stops = set(), []
        while stop in following and stop not in seen:
            seen.add(stop)
            stops.append(names[stop])
            stop = following[stop]
        if stop == start and len(seen) == len(legs):
            return "tour: " + " → ".join([*stops, names[start]])
    return f"{len(legs)} leg{'s' * (len(legs) != 1)} decided"


def _names(data, count: int) -> list[str]:
    for key in ("names", "cities"):
        found = data.get(key)
        if isinstance(found, list) and len(found) == count and all(isinstance(n, (str, int)) for n in found):
            return [str(n) for n in found]
    return [str(k) for k in range(count)]


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
