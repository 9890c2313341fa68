"""Pencil marks: each cell's values left after propagation (drawn by kernelext.widgets.pencil_forms).

`pencil_grid` and `compare_domains` are pure; `pencil_report` compiles a session's model and propagates its
constraints with the kit's own reasoning (`kernelext.solver.kit.search.fixpoint`: pure Python, no solver).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from kernelext.grid import ArrayInfo
from kernelext.pycsp3_glue import operators
from kernelext.solver.kit.search import fixpoint, read_rules
from kernelext.xcsp.subsets import read_model

Domains = Mapping[str, tuple[int, ...]]


@dataclass(frozen=True)
class PencilGrid:
    """The pencil marks of one array laid out as rows (a 1-D array is one row).

    Attributes:
        name: the array's name.
        values: per cell, the values left (sorted); None where the domains say nothing (a hole, or a variable
            the solver left out).
        removed: per cell, the values left in `previous` but not any more (empty without `previous`).
        holes: (row, col) positions with no variable at all.
        boolean: every cell's values are within {0, 1} (drawn as filled / empty / unknown).
        highlighted: (row, col) cells to draw highlighted (the cells of a deduction's constraints).
        left: what the values are, in the summary line ("values left after propagation", "candidates left").
        links: a chain to draw, ((row, col), (row, col), digit, strong) per link.
        note: what else to know about these marks, in a few words (constraints left out, time ran out), or "".
    """

    name: str
    values: tuple[tuple[tuple[int, ...] | None, ...], ...]
    removed: tuple[tuple[tuple[int, ...], ...], ...]
    holes: frozenset[tuple[int, int]] = frozenset()
    boolean: bool = False
    highlighted: frozenset[tuple[int, int]] = frozenset()
    left: str = "values left after propagation"
    links: tuple[tuple[tuple[int, int], tuple[int, int], int, bool], ...] = ()
    note: str = ""

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.values), len(self.values[0]) if self.values else 0

    @property
    def wiped_out(self) -> frozenset[tuple[int, int]]:
        """Cells with no value left (the model has no solution)."""
        return frozenset((r, c) for r, row in enumerate(self.values) for c, v in enumerate(row) if v == ())

    @property
    def remaining(self) -> int:
        """How many values are left over all cells."""
        return sum(len(v) for row in self.values for v in row if v is not None)


def pencil_grid(info: ArrayInfo, domains: Domains, previous: Domains | None = None) -> PencilGrid:
    """Lay the `domains` (variable id -> values) of `info`'s variables out as rows; note what `previous` had more."""
    rows, cols = info.grid_shape
    values: list[list] = [[None] * cols for _ in range(rows)]
    removed: list[list] = [[()] * cols for _ in range(rows)]
    for variable, (r, c) in info.positions().items():
        if variable in domains:
            values[r][c] = tuple(sorted(domains[variable]))
            if previous is not None and variable in previous:
                removed[r][c] = tuple(sorted(set(previous[variable]) - set(values[r][c])))
    holes = info.holes()
    known = [
        set(v) | set(gone) for row, gone_row in zip(values, removed) for v, gone in zip(row, gone_row) if v is not None
    ]
    boolean = bool(known) and all(s <= {0, 1} for s in known)
    return PencilGrid(info.name, tuple(map(tuple, values)), tuple(map(tuple, removed)), holes, boolean)


def compare_domains(a: Domains, b: Domains, names: tuple[str, str] = ("a", "b")) -> str:
    """Two models' pencil marks side by side as a text table: values left, fixed and wiped-out cells,
    and in how many cells each is strictly tighter than the other."""
    shared = a.keys() & b.keys()
    rows = [
        ("values left", sum(map(len, a.values())), sum(map(len, b.values()))),
        ("fixed cells", sum(len(v) == 1 for v in a.values()), sum(len(v) == 1 for v in b.values())),
        ("wiped out", sum(not v for v in a.values()), sum(not v for v in b.values())),
        ("tighter cells", sum(set(a[k]) < set(b[k]) for k in shared), sum(set(b[k]) < set(a[k]) for k in shared)),
    ]
    return side_by_side(rows, names)


def side_by_side(rows: list[tuple[str, object, object]], names: tuple[str, str]) -> str:
    """A text table of (label, first, second) rows under the two `names`, right-aligned."""
    width = max(len(label) for label, _, _ in rows)
    cols = [max(len(names[0]), 6), max(len(names[1]), 6)]
    lines = [" " * width + "  " + names[0].rjust(cols[0]) + "  " + names[1].rjust(cols[1])]
    lines += [f"{label.ljust(width)}  {str(x).rjust(cols[0])}  {str(y).rjust(cols[1])}" for label, x, y in rows]
    return "\n".join(lines)


def pencil_report(
    session,
    previous_domains: Domains | None = None,
    *,
    timeout: float | None = None,
    array: str | None = None,
    model: Path | None = None,
) -> tuple[PencilGrid | None, dict[str, tuple[int, ...]]]:
    """The pencil marks of `session`'s model as it stands: (the shown array's PencilGrid, every variable's domain).

    Each constraint read as a rule by the kit's reasoning filters its variables' values, from the declared
    domains, until none filters more; a constraint it does not read is left out (the marks then keep values
    it rules out), and the grid's note names its kind. Variables in no constraint keep their declared domain;
    an empty tuple is a wiped-out domain. When the time limit (`timeout`, else the session's) runs out, the
    values narrowed until then are shown, and the note says so. Pass the domains returned by the previous
    call as `previous_domains` to mark what this step removed, and `model` when the model as it stands is
    already compiled. The grid is None without a drawable array.
    """
    to_solve = session.anything_to_solve()  # first: it makes pycsp3's model the session's
    domains = declared_domains()
    if model is None and to_solve:
        model = session.compile()
    note = ""
    if model is not None:
        deadline = time.monotonic() + (timeout or session.timeout)
        with operators.plain_operators():  # pycsp3's `in` on sets is slow, and propagation needs none of it
            marks = fixpoint(read_rules(read_model(model), domains), deadline)
        domains.update({v: tuple(sorted(values)) for v, values in marks.domains.items()})
        note = marks.note
    info = session.array(array) if array is not None else session.shown_array()
    grid = pencil_grid(info, domains, previous_domains) if info is not None and len(info.shape) <= 2 else None
    return (replace(grid, note=note) if grid is not None and note else grid), domains


def declared_domains() -> dict[str, tuple[int, ...]]:
    """Every declared variable's domain, as pycsp3 holds it (variable id -> values)."""
    from pycsp3.classes.entities import EVar, VarEntities

    domains = {}
    for item in VarEntities.items:
        for variable in [item.variable] if isinstance(item, EVar) else item.flatVars:
            if variable is not None:
                domains[variable.id] = tuple(sorted(variable.dom.all_values()))
    return domains
