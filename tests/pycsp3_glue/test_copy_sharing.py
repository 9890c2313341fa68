"""pycsp3's compiler rewrites the constraints it compiles, so the kit compiles copies that share the model's
variables: `copy_sharing` makes the same copy as `copy.deepcopy` with the variables in its memo."""

from __future__ import annotations

import copy
import enum

from kernelext.pycsp3_glue.model_state import compile_items, copy_sharing, posted_items
from kernelext.steps.session import PuzzleSession

STEPS = [
    "x = VarArray(size=[3, 3], dom=range(1, 4))\ny = Var(dom={0, 1})\n",
    "satisfy([AllDifferent(x[i]) for i in range(3)], x[0][0] + y == x[1][1])\n",
    "satisfy((x[0][0], x[0][1]) in {(1, 2), (2, 3)}, [x[i][0] != x[i][1] for i in range(3)])\n",
    "satisfy(Sum(x[:, j]) == 6 for j in range(3))\n",
]


def session_with_steps() -> PuzzleSession:
    session = PuzzleSession("copies")
    exec("from pycsp3 import *", session.namespace)
    for source in STEPS:
        session.add_step(source, solve=False)
    return session


def shared_variables() -> dict[int, object]:
    from pycsp3.classes.entities import VarEntities

    variables = [[entry.variable] if hasattr(entry, "variable") else entry.flatVars for entry in VarEntities.items]
    return {id(v): v for group in variables for v in group}


def text_of(items) -> list[str]:
    from lxml import etree

    return [etree.tostring(element).decode() for elements in compile_items(items) for element in elements]


def test_the_copy_compiles_as_deepcopy_s_copy_and_shares_only_the_variables():
    session = session_with_steps()
    try:
        shared = shared_variables()
        items = list(posted_items())
        copied, deep = copy_sharing(items, shared), copy.deepcopy(items, dict(shared))
        assert text_of(copied) == text_of(deep) == text_of(items)
        variables = {id(v) for v in shared.values()}
        found = [v for v in _walk(copied) if type(v).__name__.startswith("Variable")]
        assert found and all(id(v) in variables for v in found), "a variable was copied"
        original = {id(v) for v in _walk(items) if isinstance(v, (list, dict))}
        assert not [v for v in _walk(copied) if isinstance(v, (list, dict)) and id(v) in original], "a list is shared"
    finally:
        session.close()


def test_what_pickle_cannot_copy_is_copied_by_deepcopy():
    kept = object()
    value = {"f": lambda: 1, "kept": kept, "list": [1, [2]]}
    copied = copy_sharing(value, {id(kept): kept})
    assert copied["kept"] is kept and copied["list"] == [1, [2]] and copied["list"] is not value["list"]


def _walk(value, seen=None):
    """Every object reachable from `value` through lists, tuples, dicts and instances' attributes (not into enum
    members and variables: the model shares those)."""
    seen = set() if seen is None else seen
    if id(value) in seen or isinstance(value, (int, str, float, bool, type(None))):
        return
    seen.add(id(value))
    yield value
    if isinstance(value, enum.Enum) or type(value).__name__.startswith("Variable"):
        return
    if isinstance(value, dict):
        children = value.values()
    elif isinstance(value, (list, tuple, set, frozenset)):
        children = value
    else:
        children = getattr(value, "__dict__", {}).values()
    for child in children:
        yield from _walk(child, seen)
