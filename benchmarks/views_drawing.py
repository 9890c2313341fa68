"""Drawing a picture (a Gantt chart, a graph) against drawing the same step as a grid, side by side.

A 10x10 job shop (100 tasks, NoOverlap per machine, makespan minimised) and a 50-node graph colouring (100
`!=` edges) are built and solved step by step in a PuzzleSession; then each step's report is drawn, many times
over, as a notebook shows it: the picture (the whole model read as XCSP3, the picture chosen and described, its
text and static HTML), and the grid of the same array (described, its text and static HTML), with Python's own
operators as the magics run the kit's code.

Run: python benchmarks/views_drawing.py [RUNS]
Prints, per model, the median milliseconds of each drawing, and the picture's time as a ratio to the grid's.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kernelext.magic.puzzle import NotebookPuzzle
from kernelext.magic.render import report_html, report_text
from kernelext.pycsp3_glue.operators import plain_operators
from kernelext.steps.session import PuzzleSession
from kernelext.xcsp.subsets import ModelReading

JOBSHOP = [
    """
n = m = 10
durations = [[1 + (3 * i + 7 * j) % 9 for j in range(m)] for i in range(n)]
machines = [[(i + j) % m for j in range(m)] for i in range(n)]
s = VarArray(size=[n, m], dom=range(200))
""",
    """
satisfy(s[i][j] + durations[i][j] <= s[i][j + 1] for i in range(n) for j in range(m - 1))
satisfy(
    NoOverlap(
        origins=[s[i][j] for i in range(n) for j in range(m) if machines[i][j] == k],
        lengths=[durations[i][j] for i in range(n) for j in range(m) if machines[i][j] == k],
    )
    for k in range(m)
)
minimize(Maximum(s[i][-1] + durations[i][-1] for i in range(n)))
""",
]
GRAPH = [
    """
n = 50
edges = [(i, (i + 1) % n) for i in range(n)] + [(i, (i + 7) % n) for i in range(n)]
c = VarArray(size=n, dom=range(4))
""",
    """
satisfy(c[i] != c[j] for i, j in edges)
""",
]


def drawn_step(cells: list[str]) -> tuple[NotebookPuzzle, object]:
    """A notebook puzzle built from `cells` (solved within 5 s) and its last step's report."""
    session = PuzzleSession("bench", timeout=5)
    puzzle = NotebookPuzzle(session, session.namespace, None, 5)
    report = None
    for cell in cells:
        report = session.add_step(cell)
    return puzzle, report


def median_ms(draw, runs: int) -> float:
    """The median milliseconds of `draw()`, run as the magics run the kit's code (Python's own operators)."""
    times = []
    with plain_operators():
        for _ in range(runs):
            start = time.perf_counter()
            draw()
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def compare(name: str, cells: list[str], runs: int) -> None:
    puzzle, report = drawn_step(cells)
    kind = puzzle.kind(report.grid)

    def picture(fresh: bool = True):
        if fresh:  # the model read whole, as after a step that posted it all
            puzzle.session.reading = ModelReading()
        drawings = puzzle.drawings(report)
        assert drawings is not None, "no picture chosen"
        report_text(report, kind, {}, drawings)
        report_html(report, kind, {}, drawings)

    def grid():
        report_text(report, kind, puzzle.data(kind))
        report_html(report, kind, puzzle.data(kind))

    picture_ms, grid_ms = median_ms(picture, runs), median_ms(grid, runs)
    kept_ms = median_ms(lambda: picture(fresh=False), runs)
    rows, cols = report.grid.shape
    print(
        f"{name}: picture {picture_ms:.2f} ms ({kept_ms:.2f} ms with the constraints read at an earlier step), "
        f"grid ({rows}x{cols}) {grid_ms:.2f} ms, ratio {picture_ms / grid_ms:.1f} "
        f"(status {report.result.status.value})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=int, nargs="?", default=30, help="drawings timed per model (default 30)")
    runs = parser.parse_args().runs
    print(f"median of {runs} drawings of the same step, as a picture and as a grid:")
    compare("job shop 10x10, 100 tasks (Gantt chart)", JOBSHOP, runs)
    compare("graph colouring, 50 nodes, 100 edges (graph)", GRAPH, runs)


if __name__ == "__main__":
    main()
