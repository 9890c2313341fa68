"""Own pycsp3's global model state: reset it, read what a step declared and posted, compile it."""

from __future__ import annotations

import contextlib
import copy
import io
import itertools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

MAX_LISTED_CONSTRAINTS = 8


@dataclass(frozen=True)
class Mark:
    """How far the model had grown: counts of declared entities, posted groups, objectives."""

    variables: int
    constraints: int
    objectives: int


@dataclass(frozen=True)
class ArrayInfo:
    """A declared variable array (or single variable): its name, shape and variable ids."""

    name: str
    shape: tuple[int, ...]
    cells: tuple[tuple[tuple[int, ...], str], ...]  # (index, variable id), row-major, holes left out


def reset() -> None:
    """Empty pycsp3's model and clear the flags and queues it keeps between models."""
    from pycsp3.classes.entities import clear
    from pycsp3.classes.main.variables import Variable
    from pycsp3.compiler import Compilation
    from pycsp3.tools import curser
    from pycsp3.tools.utilities import Error

    clear()
    Variable.arrays = []
    curser.queue_in.clear()
    Error.errorOccurrence = False
    Compilation.done = True  # nothing for pycsp3's exit hook to write into the working directory


def mark() -> Mark:
    from pycsp3.classes.entities import CtrEntities, ObjEntities, VarEntities

    return Mark(len(VarEntities.items), len(CtrEntities.items), len(ObjEntities.items))


def error_flagged() -> bool:
    """True when pycsp3 reported a modelling error (it then refuses to compile)."""
    from pycsp3.tools.utilities import Error

    return Error.errorOccurrence


def declared_since(start: Mark, end: Mark | None = None) -> list[str]:
    """One line per variable or array declared after `start` (and before `end`): name, shape, domains."""
    from pycsp3.classes.entities import EVar, VarEntities

    lines = []
    for item in VarEntities.items[start.variables:end.variables if end else None]:
        if isinstance(item, EVar):
            lines.append(f"{item.id} in {_domain_text(item.variable)}")
            continue
        shape = "".join(f"[{n}]" for n in item.size)
        domains = Counter(_domain_text(v) for v in item.flatVars)
        if len(domains) == 1:
            lines.append(f"{item.name}{shape} in {next(iter(domains))}")
        else:
            parts = ", ".join(f"{d} ({k} cells)" for d, k in domains.most_common())
            lines.append(f"{item.name}{shape} in {parts}")
    return lines


def _domain_text(variable) -> str:
    text = str(variable.dom).strip()
    return text if ".." in text and " " not in text else "{" + ", ".join(text.split()) + "}"


def posted_since(start: Mark, end: Mark | None = None) -> list[str]:
    """The constraints posted after `start` (and before `end`) as pycsp3 prints them, long lists summarised."""
    from pycsp3.classes.entities import CtrEntities

    texts = []
    with contextlib.redirect_stdout(io.StringIO()):  # pycsp3 may warn about its own slicing while printing
        for item in CtrEntities.items[start.constraints:end.constraints if end else None]:
            texts.extend(str(c) for c in item.flat_constraints())
    if len(texts) <= MAX_LISTED_CONSTRAINTS:
        return texts
    kinds = Counter(text.split("(", 1)[0] for text in texts)
    summary = ", ".join(f"{count} {kind}" for kind, count in kinds.most_common())
    shown = texts[: MAX_LISTED_CONSTRAINTS // 2]
    return shown + [f"... {len(texts) - len(shown)} more ({len(texts)} constraints in all: {summary})"]


def objective_since(start: Mark, end: Mark | None = None) -> str | None:
    """The objective set after `start` (and before `end`), as text, or None."""
    from pycsp3.classes.entities import ObjEntities

    items = ObjEntities.items[start.objectives:end.objectives if end else None]
    if not items:
        return None
    return str(items[-1].constraint)


@contextlib.contextmanager
def counting_objectives():
    """Count the objectives set meanwhile (pycsp3 silently keeps only the last of several); yields a list
    that gets one item per `minimize`/`maximize` call."""
    import pycsp3.functions

    calls: list[bool] = []
    optimize = pycsp3.functions._optimize

    def counted(term, minimization):
        calls.append(minimization)
        return optimize(term, minimization)

    pycsp3.functions._optimize = counted
    try:
        yield calls
    finally:
        pycsp3.functions._optimize = optimize


def has_objective() -> bool:
    from pycsp3.classes.entities import ObjEntities

    return bool(ObjEntities.items)


def has_constraints_or_objective() -> bool:
    from pycsp3.classes.entities import CtrEntities, ObjEntities

    return bool(CtrEntities.items or ObjEntities.items)


def arrays() -> list[ArrayInfo]:
    """Every declared array and single variable, in declaration order."""
    from pycsp3.classes.entities import EVar, VarEntities

    infos = []
    for item in VarEntities.items:
        if isinstance(item, EVar):
            infos.append(ArrayInfo(item.id, (), (((), item.id),)))
        else:
            cells = tuple((tuple(v.indexes), v.id) for v in item.flatVars)
            infos.append(ArrayInfo(item.name, tuple(item.size), cells))
    return infos


def solution_cells() -> dict[str, tuple[tuple[tuple[int, ...], str | None], ...]]:
    """Each array's variable ids in row-major order over its whole shape (None at holes),
    as solvers list them when they print `x[][]`."""
    out = {}
    for info in arrays():
        ids = dict(info.cells)
        out[info.name] = tuple((index, ids.get(index)) for index in itertools.product(*map(range, info.shape)))
    return out


def compile_to(path: Path) -> None:
    """Write the current model as an XCSP3 file at `path` (pycsp3's messages swallowed).

    pycsp3's compiler rewrites the posted constraints in place (it groups and compacts them), and some
    of them cannot be compiled twice. It is given a copy (sharing the variables), so the model stays
    as the steps posted it and can be compiled again after more steps.
    """
    from pycsp3.classes.entities import CtrEntities, ObjEntities, VarEntities
    from pycsp3.compiler import Compilation

    shared = {id(v): v for item in VarEntities.items for v in _variables_of(item)}
    posted = CtrEntities.items, ObjEntities.items
    try:
        CtrEntities.items = copy.deepcopy(posted[0], dict(shared))
        ObjEntities.items = copy.deepcopy(posted[1], dict(shared))
        with contextlib.redirect_stdout(io.StringIO()):
            result = Compilation.compile(str(path), verbose=0)
    finally:
        CtrEntities.items, ObjEntities.items = posted
    if result is None or not path.exists():
        raise RuntimeError("pycsp3 could not compile the model")


def _variables_of(item) -> list:
    from pycsp3.classes.entities import EVar

    return [item.variable] if isinstance(item, EVar) else item.flatVars
