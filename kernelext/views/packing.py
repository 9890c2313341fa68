"""Packing: the rectangles of a 2-D `NoOverlap` inside their container.

A rectangle is an origin pair (x, y) with its sizes (numbers or variables). The container's width and height
are the data's (`width` and `height`, or `container` as [width, height]) or else the farthest any rectangle
can reach from its origins' domains; y grows upwards, (0, 0) at the bottom-left corner. A rectangle whose
origin or size is undecided is set apart on the right, faint; two placed rectangles that overlap are marked.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernelext.errors import ViewNotApplicable
from kernelext.views import reading
from kernelext.views.shapes import FAINT_FILL, box, colour, label, picture
from kernelext.xcsp.constraints import NoOverlap, Term

SUMMARY = "rectangles inside their container (NoOverlap in 2-D)"
DATA_NAMES = ("width", "height", "container")
LEFT, TOP = 24, 24  # pixels
SIDE = 360  # the container's longer side, at most


@dataclass(frozen=True)
class Rectangle:
    x: Term
    y: Term
    w: Term
    h: Term


def rectangles(model) -> list[Rectangle]:
    """The rectangles of every 2-D NoOverlap, in order (a rectangle in two of them is listed once)."""
    found = {}
    for constraint in reading.constraints(model, NoOverlap):
        if constraint.origins and all(len(box) == 2 for box in constraint.origins):
            for (x, y), (w, h) in zip(constraint.origins, constraint.lengths):
                found.setdefault((x, y), Rectangle(x, y, w, h))
    return list(found.values())


def might_draw(features: frozenset[str]) -> bool:
    return "noOverlap" in features


def recognise(model, data) -> bool:
    return bool(rectangles(model))


def describe(model, data, solution, previous) -> dict:
    """The packing of `solution` (see kernelext.views)."""
    found = rectangles(model)
    if not found:
        raise ViewNotApplicable(
            "the packing draws the rectangles of NoOverlap(origins=[(x, y), ...], lengths=[(w, h), ...]), "
            "and the model posts none."
        )
    width, height = _container(model, found, data)
    scale = min(32.0, SIDE / max(width, height, 1))
    placed = [_values(r, solution) for r in found]
    overlapping = _overlaps(placed)
    shapes = [box(LEFT, TOP, width * scale, height * scale, "#ffffff"), label(LEFT, TOP - 12, f"{width} x {height}")]
    lines, aside = [], 0
    for k, (rectangle, values) in enumerate(zip(found, placed)):
        name = _name(rectangle, k)
        changed = reading.changed((rectangle.x, rectangle.y, rectangle.w, rectangle.h), solution, previous)
        x, y, w, h = values
        if None in values:
            least_w, least_h = (reading.bounds(model, t)[0] for t in (rectangle.w, rectangle.h))
            w, h = (w if w is not None else max(least_w, 1)), (h if h is not None else max(least_h, 1))
            top = TOP + aside
            shapes.append(
                box(
                    LEFT + width * scale + 24,
                    top,
                    w * scale,
                    h * scale,
                    FAINT_FILL,
                    f"{name} *",
                    faint=True,
                    changed=changed,
                )
            )
            aside += h * scale + 6
            lines.append(f"{name}: {_star(values[2])} x {_star(values[3])}, not placed (*)" + " (changed)" * changed)
            continue
        clash = k in overlapping
        shapes.append(
            box(
                LEFT + x * scale,
                TOP + (height - y - h) * scale,  # y grows upwards: (0, 0) is the container's bottom-left corner
                w * scale,
                h * scale,
                colour(k),
                name,
                changed=changed,
                conflict=clash,
            )
        )
        lines.append(f"{name}: {w} x {h} at ({x}, {y})" + " (overlaps)" * clash + " (changed)" * changed)
    done = sum(None not in v for v in placed)
    head = f"Packing: {len(found)} rectangles in {width} x {height}, {done} placed"
    head += f", {len(overlapping)} overlapping" if overlapping else ""
    legend = [
        ["box", "a rectangle at its origin"],
        ["faint, aside", "not placed yet (*)"],
        ["thick outline", "changed by this step"],
        ["dotted red outline, ✗", "overlaps another"],
    ]
    return picture("packing", head, [head, *lines], shapes, legend)


def _container(model, found: list[Rectangle], data) -> tuple[int, int]:
    given = data.get("container")
    if isinstance(given, list) and len(given) == 2 and all(isinstance(n, int) for n in given):
        return given[0], given[1]
    if isinstance(data.get("width"), int) and isinstance(data.get("height"), int):
        return data["width"], data["height"]
    reach = [
        (
            reading.bounds(model, r.x)[1] + reading.bounds(model, r.w)[1],
            reading.bounds(model, r.y)[1] + reading.bounds(model, r.h)[1],
        )
        for r in found
    ]
    return max(w for w, _ in reach), max(h for _, h in reach)


def _values(rectangle: Rectangle, solution) -> tuple:
    return tuple(reading.value(t, solution) for t in (rectangle.x, rectangle.y, rectangle.w, rectangle.h))


def _overlaps(placed: list[tuple]) -> set[int]:
    """The placed rectangles whose insides meet another's (a rectangle of no area meets none)."""
    found = set()
    whole = [(k, v) for k, v in enumerate(placed) if None not in v and v[2] > 0 and v[3] > 0]
    for i, (a, (ax, ay, aw, ah)) in enumerate(whole):
        for b, (bx, by, bw, bh) in whole[i + 1 :]:
            if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
                found |= {a, b}
    return found


def _name(rectangle: Rectangle, k: int) -> str:
    """`3` when both origins are the 3rd of their arrays, else the origins: `(x[3],y[1])`."""
    ix, iy = reading.indexes(rectangle.x), reading.indexes(rectangle.y)
    if ix and ix == iy and reading.array_name(rectangle.x) != reading.array_name(rectangle.y):
        return "".join(f"{i}" if n == 0 else f".{i}" for n, i in enumerate(ix))
    return f"({rectangle.x},{rectangle.y})"


def _star(value: int | None) -> str:
    return "*" if value is None else str(value)
