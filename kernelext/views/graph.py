"""Graph: the variables of one 1-D array as nodes, the binary constraints between them as edges (`!=` over an
edge list is a colouring), or the data's edges (`edges`, or an adjacency matrix `adjacency`) when no constraint
links them.

A node shows its value: as a colour when the array has few values, else as a number (`*` while undecided).
Nodes sit on the data's coordinates (`coords`, `positions`), else round a circle in breadth-first order. An
edge whose two ends break its constraint (a comparison between the two variables, decided) is marked.
"""

from __future__ import annotations

from kernelext.errors import ViewNotApplicable
from kernelext.views import placement, reading
from kernelext.views.shapes import FAINT_FILL, GREY, NODE_FILL, PALETTE, colour, dot, line, picture
from kernelext.xcsp.constraints import Constraint, Intension

SUMMARY = "nodes and edges: one array's variables and the binary constraints between them"
DATA_NAMES = ("edges", "adjacency", "names", "regions", "labels", "coords", "positions")
_HOLDS = {
    "ne": lambda a, b: a != b,
    "eq": lambda a, b: a == b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}


def linked(model) -> tuple[str, dict[tuple[int, int], list]] | None:
    """The 1-D array whose variables the most binary constraints link, and its edges: {(i, j): the constraints
    between its i-th and j-th variables (i < j), typed (None: one the typed model does not read)}; None when no
    binary constraint links two cells of one array."""
    shapes = model.declarations.shapes
    found: dict[str, dict[tuple[int, int], list]] = {}
    for constraint, typed in zip(model.constraints, model.typed):
        if len(constraint.scope) != 2:
            continue
        a, b = constraint.scope
        name = reading.array_name(a)
        if name != reading.array_name(b) or len(shapes.get(name, ())) != 1:
            continue
        i, j = sorted((reading.indexes(a)[0], reading.indexes(b)[0]))
        found.setdefault(name, {}).setdefault((i, j), []).append(typed)
    if not found:
        return None
    name = max(found, key=lambda n: (len(found[n]), n))
    return name, found[name]


def might_draw(features: frozenset[str]) -> bool:
    return {"intension", "1-D"} <= features


def recognise(model, data) -> bool:
    """One array's cells linked by binary constraints, all `!=` or with edges in the data, not all pairs of
    them (the pairs of an AllDifferent, or of queens, stay a grid)."""
    found = linked(model)
    if found is None:
        return False
    name, edges = found
    size = model.declarations.shapes[name][0]
    if size < 3 or len(edges) >= size * (size - 1) // 2:
        return False
    comparisons = [_comparison(c) for cs in edges.values() for c in cs]
    colouring = all(found is not None and found[0] == "ne" for found in comparisons)
    return colouring or bool(_data_edges(data, size))


def describe(model, data, solution, previous) -> dict:
    """The graph of `solution` (see kernelext.views)."""
    found = linked(model)
    arrays = [n for n, shape in model.declarations.shapes.items() if len(shape) == 1]
    if found is None and not arrays:
        raise ViewNotApplicable("the graph draws the variables of a 1-D array as nodes, and the model has none.")
    name, edges = found if found is not None else (arrays[0], {})
    size = model.declarations.shapes[name][0]
    if not edges:
        edges = {pair: [] for pair in _data_edges(data, size)}
    if not edges:
        raise ViewNotApplicable(
            f"the graph links the nodes of {name} by binary constraints between them, or by the data's `edges` "
            "or `adjacency`, and there are none."
        )
    ids = [f"{name}[{i}]" for i in range(size)]
    values = [reading.value(vid, solution) for vid in ids]
    names = _names(data, size) or ids
    low, high = _value_range(model, ids)
    as_colours = high - low < len(PALETTE)
    points = placement.coordinates(data, ("coords", "positions"), size)
    where = (
        dict(enumerate(placement.scaled(points, 360)))
        if points
        else placement.circle(placement.breadth_first(size, list(edges)))
    )
    centre = (sum(x for x, _ in where.values()) / size, sum(y for _, y in where.values()) / size)
    broken = {pair for pair, constraints in edges.items() if any(_broken(c, solution) for c in constraints)}
    shapes = []
    for i, j in sorted(edges):
        (x1, y1), (x2, y2) = where[i], where[j]
        shapes.append(line(x1, y1, x2, y2, GREY, conflict=(i, j) in broken))
    for k, vid in enumerate(ids):
        x, y = where[k]
        v = values[k]
        fill = FAINT_FILL if v is None else colour(v - low) if as_colours else NODE_FILL
        changed = reading.changed((vid,), solution, previous)
        shapes.append(dot(x, y, placement.NODE, fill, "*" if v is None else str(v), faint=v is None, changed=changed))
        shapes.append(placement.outside(x, y, centre, names[k]))
    neighbours: list[list[int]] = [[] for _ in range(size)]
    for i, j in sorted(edges):
        neighbours[i].append(j)
        neighbours[j].append(i)
    head = f"Graph: {size} nodes, {len(edges)} edges ({name}: values as {'colours' if as_colours else 'numbers'})"
    lines = [head]
    for k, vid in enumerate(ids):
        shown = names[k] if names[k] == vid else f"{names[k]} ({vid})"
        value = "*" if values[k] is None else str(values[k])
        changed = " (changed)" * reading.changed((vid,), solution, previous)
        lines.append(f"{shown} = {value}{changed}: " + ", ".join(names[n] for n in neighbours[k]))
    lines += [
        f"broken: {names[i]} - {names[j]} ({ids[i]} = {values[i]}, {ids[j]} = {values[j]})" for i, j in sorted(broken)
    ]
    legend = [["circle", "a node and its value (* undecided)"], ["line", "a constraint between two nodes"]]
    legend += [["thick ring", "changed by this step"], ["dotted red line", "its two ends break its constraint"]]
    return picture("graph", head, lines, shapes, legend)


def _data_edges(data, size: int) -> list[tuple[int, int]]:
    """The data's edges between nodes 0..size-1: `edges` as pairs, or `adjacency` as a size x size matrix."""
    pairs = data.get("edges")
    if (
        isinstance(pairs, list)
        and pairs
        and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) and 0 <= v < size for v in p) for p in pairs
        )
    ):
        return sorted({(min(a, b), max(a, b)) for a, b in pairs if a != b})
    matrix = data.get("adjacency")
    if isinstance(matrix, list) and len(matrix) == size and all(isinstance(r, list) and len(r) == size for r in matrix):
        return [(i, j) for i in range(size) for j in range(i + 1, size) if matrix[i][j] or matrix[j][i]]
    return []


def _names(data, size: int) -> list[str] | None:
    for key in ("names", "regions", "labels"):
        found = data.get(key)
        if isinstance(found, list) and len(found) == size and all(isinstance(n, (str, int)) for n in found):
            return [str(n) for n in found]
    return None


def _value_range(model, ids: list[str]) -> tuple[int, int]:
    spans = [reading.bounds(model, vid) for vid in ids]
    return min(low for low, _ in spans), max(high for _, high in spans)


def _comparison(constraint: Constraint | None) -> tuple[str, str, str] | None:
    """(operator, first variable, second variable) when the constraint compares two variables, else None."""
    if not isinstance(constraint, Intension) or not isinstance(constraint.tree, tuple):
        return None
    operator, arguments = constraint.tree
    if operator not in _HOLDS or len(arguments) != 2 or not all(isinstance(a, str) for a in arguments):
        return None
    return operator, *arguments


def _broken(constraint: Constraint | None, solution) -> bool:
    """True only when the constraint is a comparison of its two variables and their values break it."""
    found = _comparison(constraint)
    if found is None:
        return False
    operator, first, second = found
    a, b = reading.value(first, solution), reading.value(second, solution)
    return a is not None and b is not None and not _HOLDS[operator](a, b)
