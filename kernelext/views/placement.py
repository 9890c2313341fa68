"""Where the nodes of a graph or the stops of a route go: on the data's coordinates, scaled into a square, or
on a circle in an order that keeps neighbours close (deterministic: no randomness, no iterations)."""

from __future__ import annotations

import math

from kernelext.views.shapes import label

NODE = 12  # a node's radius, in pixels
MARGIN = 40  # room around the nodes for their labels


def coordinates(data: dict, names: tuple[str, ...], count: int) -> list[tuple[float, float]] | None:
    """The data's coordinates of `count` points: the first of `names` holding `count` pairs of numbers, or
    `x` and `y` holding `count` numbers each; None when there are none."""
    for name in names:
        found = data.get(name)
        if (
            isinstance(found, list)
            and len(found) == count
            and all(isinstance(p, list) and len(p) == 2 and all(_number(v) for v in p) for p in found)
        ):
            return [(float(a), float(b)) for a, b in found]
    xs, ys = data.get("x"), data.get("y")
    if all(isinstance(v, list) and len(v) == count and all(map(_number, v)) for v in (xs, ys)):
        return [(float(a), float(b)) for a, b in zip(xs, ys)]
    return None


def scaled(points: list[tuple[float, float]], side: int) -> list[tuple[float, float]]:
    """`points` scaled into a `side` x `side` square (keeping their proportions), y pointing down, with a margin."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    return [(MARGIN + (x - min(xs)) * side / span, MARGIN + (max(ys) - y) * side / span) for x, y in points]


def circle(order: list[int]) -> dict[int, tuple[float, float]]:
    """The nodes of `order` evenly round a circle, the first at the top, clockwise; 34 pixels apart at least."""
    count = len(order)
    radius = max(70.0, 34 * count / (2 * math.pi))
    centre = MARGIN + radius
    return {
        node: (
            centre + radius * math.sin(2 * math.pi * k / count),
            centre - radius * math.cos(2 * math.pi * k / count),
        )
        for k, node in enumerate(order)
    }


def breadth_first(count: int, edges: list[tuple[int, int]]) -> list[int]:
    """Nodes 0..count-1 in breadth-first order from 0 (neighbours in increasing order), then from each node not
    reached yet: neighbours end up near each other on a circle."""
    neighbours: list[list[int]] = [[] for _ in range(count)]
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    seen, order = [False] * count, []
    for root in range(count):
        if seen[root]:
            continue
        seen[root], queue = True, [root]
        while queue:
            node = queue.pop(0)
            order.append(node)
            for other in sorted(neighbours[node]):
                if not seen[other]:
                    seen[other] = True
                    queue.append(other)
    return order


def outside(x: float, y: float, centre: tuple[float, float], text: str) -> dict:
    """The label of the node at (x, y), beside it on the side away from `centre` (outside a circle)."""
    dx, dy = x - centre[0], y - centre[1]
    norm = math.hypot(dx, dy) or 1.0
    dx, dy = dx / norm, dy / norm
    anchor = "start" if dx > 0.35 else "end" if dx < -0.35 else "middle"
    return label(x + dx * (NODE + 4), y + dy * (NODE + 8), text, anchor, 10)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
