"""The bound of an optimisation, solution after solution, as a small PNG (a data URI)."""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence


def bound_plot(bounds: Sequence[int]) -> str:
    """A PNG data URI of `bounds` against the solution number (no timings: same bounds, same bytes)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(3.2, 1.8), dpi=80)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    numbers = range(1, len(bounds) + 1)
    axes.step(numbers, bounds, where="post", color="#1f5fbf")
    axes.plot(numbers, bounds, "o", color="#1f5fbf", markersize=3)
    axes.set_xlabel("solution", fontsize=8)
    axes.set_ylabel("bound", fontsize=8)
    axes.tick_params(labelsize=7)
    axes.xaxis.get_major_locator().set_params(integer=True)
    figure.tight_layout(pad=0.3)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
