"""Own pycsp3's global model state: reset it, read what a step declared and posted, compile it."""

from __future__ import annotations

import contextlib
import copy
import io
import itertools
import pickle
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from kernelext.grid import ArrayInfo
from kernelext.pycsp3_glue import source_lines
from kernelext.pycsp3_glue.operators import plain_operators

MAX_LISTED_CONSTRAINTS = 8


@dataclass(frozen=True)
class Mark:
    """How far the model had grown: counts of declared entities, posted groups, objectives."""

    variables: int
    constraints: int
    objectives: int


def reset() -> None:
    """Empty pycsp3's model and clear the flags, queues and caches it keeps between models (and its owner).

    pycsp3 keeps every expression node it ever built (`Node.all_nodes`, read by nothing) and caches tables
    and automata by content: left alone, they hold every earlier puzzle of the kernel in memory.
    """
    from pycsp3.classes.auxiliary.diagrams import Diagram
    from pycsp3.classes.entities import VarEntities, clear
    from pycsp3.classes.main.constraints import ConstraintExtension
    from pycsp3.classes.main.variables import Variable
    from pycsp3.classes.nodes import Node
    from pycsp3.compiler import Compilation
    from pycsp3.tools import curser
    from pycsp3.tools.utilities import Error

    clear()
    Node.all_nodes.clear()
    ConstraintExtension.cache.clear()
    ConstraintExtension.cache_for_knowing_if_hybrid.clear()
    Diagram._cache.clear()
    Variable.arrays = []
    curser.queue_in.clear()
    Error.errorOccurrence = False
    Compilation.done = True  # nothing for pycsp3's exit hook to write into the working directory
    VarEntities.kernelext_owner = None
    source_lines.install()


def claim(owner: object) -> None:
    """Record that `owner`'s steps built pycsp3's model as it stands. pycsp3's model is global, so its owner
    is kept with it (on pycsp3's own VarEntities) and forgotten by `reset`."""
    from pycsp3.classes.entities import VarEntities

    VarEntities.kernelext_owner = owner


def owned_by(owner: object) -> bool:
    """True when pycsp3's model is the one `owner` built last (see `claim`)."""
    from pycsp3.classes.entities import VarEntities

    return getattr(VarEntities, "kernelext_owner", None) is owner


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
    for item in VarEntities.items[start.variables : end.variables if end else None]:
        if isinstance(item, EVar):
            lines.append(f"{item.id} in {_domain_text(item.variable)}")
            continue
        shape = "".join(f"[{n}]" for n in item.size)
        domains = Counter(_domain_text(v) for v in item.flatVars)
        if len(domains) == 1:
            lines.append(f"{item.name}{shape} in {next(iter(domains))}")
        else:
            parts = ", ".join(f"{d} ({k} cell{'s' if k > 1 else ''})" for d, k in domains.most_common())
            lines.append(f"{item.name}{shape} in {parts}")
    return lines


def _domain_text(variable) -> str:
    text = str(variable.dom).strip()
    return text if ".." in text and " " not in text else "{" + ", ".join(text.split()) + "}"


def posted_since(start: Mark, end: Mark | None = None) -> list[str]:
    """The constraints posted after `start` (and before `end`) as pycsp3 prints them, long lists summarised."""
    from pycsp3.classes.entities import CtrEntities

    constraints = [
        c
        for item in CtrEntities.items[start.constraints : end.constraints if end else None]
        for c in item.flat_constraints()
    ]
    with contextlib.redirect_stdout(io.StringIO()):  # pycsp3 may warn about its own slicing while printing
        if len(constraints) <= MAX_LISTED_CONSTRAINTS:
            return [str(c) for c in constraints]
        shown = [str(c) for c in constraints[: MAX_LISTED_CONSTRAINTS // 2]]
        kinds = Counter(map(_kind, constraints))
    summary = ", ".join(f"{count} {kind}" for kind, count in kinds.most_common())
    return shown + [f"... {len(constraints) - len(shown)} more ({len(constraints)} constraints in all: {summary})"]


def _kind(constraint) -> str:
    """What pycsp3 prints before a constraint's first "(": its name, when it has no attributes (the whole text
    is not built then)."""
    from pycsp3.classes.main.constraints import Constraint

    if type(constraint).__str__ is Constraint.__str__ and not constraint.attributes:
        return str(constraint.name)
    return str(constraint).split("(", 1)[0]


def objective_since(start: Mark, end: Mark | None = None) -> str | None:
    """The objective set after `start` (and before `end`), as text, or None."""
    from pycsp3.classes.entities import ObjEntities

    items = ObjEntities.items[start.objectives : end.objectives if end else None]
    if not items:
        return None
    return str(items[-1].constraint)


def posted_tags(item) -> frozenset[str]:
    """The XCSP3 names of the constraints a posted item (see `posted_items`) holds (`intension`, `noOverlap`,
    `circuit`...), before any compiling."""
    return frozenset(str(c.name) for c in item.flat_constraints())


def has_objective() -> bool:
    from pycsp3.classes.entities import ObjEntities

    return bool(ObjEntities.items)


def anything_to_solve() -> bool:
    """True when the model has a constraint (ACE fails on an objective with no constraint)."""
    from pycsp3.classes.entities import CtrEntities

    return bool(CtrEntities.items)


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
        CtrEntities.items, ObjEntities.items = copy_sharing(posted, shared)
        with contextlib.redirect_stdout(io.StringIO()), plain_operators():  # as pycsp3 compiles at exit
            result = Compilation.compile(str(path), verbose=0)
    finally:
        CtrEntities.items, ObjEntities.items = posted
    if result is None or not path.exists():
        raise RuntimeError("pycsp3 could not compile the model")


def declared_items() -> tuple:
    """The declared variables and arrays (pycsp3's entities), in declaration order."""
    from pycsp3.classes.entities import VarEntities

    return tuple(VarEntities.items)


def posted_items() -> tuple:
    """The posted top-level items (pycsp3's entities: one per `satisfy` argument), in posting order."""
    from pycsp3.classes.entities import CtrEntities

    return tuple(CtrEntities.items)


def variables_element():
    """The model's `<variables>` element (lxml), as pycsp3 writes it into the XCSP3 file."""
    from pycsp3.tools import xcsp

    with plain_operators():
        return xcsp._variables()


def objectives_text() -> bytes:
    """The model's `<objectives>` element as pycsp3 writes it into the XCSP3 file (its XML text)."""
    from lxml import etree
    from pycsp3.tools import xcsp

    with contextlib.redirect_stdout(io.StringIO()), plain_operators():
        return etree.tostring(xcsp._objectives())


def compile_items(items) -> list[list]:
    """The XCSP3 constraint elements (lxml) pycsp3 compiles each posted top-level item of `items` into.

    It runs the passes of pycsp3's compiler (groups, slides, compact forms) on a copy of one item at a time:
    they work within an item, never across, so the elements are those a whole compile writes for it.
    """
    from pycsp3.classes.entities import (
        AnnEntities,
        CtrEntities,
        ObjEntities,
        VarEntities,
    )
    from pycsp3.dashboard import options
    from pycsp3.tools import aggregator, compactor, slider, xcsp

    shared = {id(v): v for entry in VarEntities.items for v in _variables_of(entry)}
    saved = CtrEntities.items, ObjEntities.items, AnnEntities.items
    compiled = []
    try:
        with contextlib.redirect_stdout(io.StringIO()), plain_operators():
            for item in items:
                CtrEntities.items, ObjEntities.items, AnnEntities.items = copy_sharing([item], shared), [], []
                if not options.dont_build_similar_constraints:
                    aggregator.build_similar_constraints()
                slider.handle_slides()
                if options.dont_run_compactor is False:
                    compactor.build_compact_forms()
                compiled.append(list(xcsp._constraints()))
    finally:
        CtrEntities.items, ObjEntities.items, AnnEntities.items = saved
    return compiled


def copy_sharing(value, shared: dict[int, object]):
    """A deep copy of `value` that keeps the objects of `shared` (by id) instead of copying them, as
    `copy.deepcopy(value, dict(shared))` makes it, in a pickle's round trip (several times faster); by
    `copy.deepcopy` when some part of `value` cannot be pickled."""

    def kept(obj):
        return (_kept, (id(obj),)) if id(obj) in shared else obj.__reduce_ex__(pickle.HIGHEST_PROTOCOL)

    class Reader(pickle.Unpickler):
        def find_class(self, module, name):
            return shared.__getitem__ if (module, name) == (__name__, "_kept") else super().find_class(module, name)

    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {kind: kept for kind in {type(obj) for obj in shared.values()}}
    try:
        pickler.dump(value)
    except (pickle.PicklingError, TypeError, AttributeError):
        return copy.deepcopy(value, dict(shared))
    buffer.seek(0)
    return Reader(buffer).load()


def _kept(key: int):
    """Stands for an object that `copy_sharing` keeps: its copy reads the object itself instead."""
    raise LookupError(f"no kept object {key}: only copy_sharing reads its copies")


def _variables_of(item) -> list:
    from pycsp3.classes.entities import EVar

    return [item.variable] if isinstance(item, EVar) else item.flatVars
