"""Which `in` Python's tuples, lists and sets use: Python's own, or pycsp3's.

When a model first declares variables, pycsp3 writes its own `in` into the type slots of tuple, list, set
and range (with forbiddenfruit), so that `x in {1, 2}` posts a constraint. From then on every `in` on
those types, by any code of the process (the kit's, Jupyter's messaging), calls back into Python: 15 to 100
times slower than Python's own, even with pycsp3's operators switched off. The kit writes Python's own
back while its own code runs and between cells, and pycsp3's while a cell or a step's code runs.

Python's own is read from subclasses: a subclass that does not define `__contains__` gets its base's
original function (tuple, list) or the generic one that calls `set.__contains__` (set), whenever it is
made. range cannot be subclassed and keeps pycsp3's.

From Python 3.13 the interpreter answers `item in some_set` without the slot once that line has run once or
twice (it specialises the operation), so pycsp3's `in` is skipped and a table constraint silently becomes True.
`InThroughSlots` compiles cells with each `in` as `operator.contains`, which always goes through the slot.
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
import sys

SPECIALISED = sys.version_info >= (3, 13)  # Pythons whose interpreter may skip the `in` slot of sets


class _Tuple(tuple):
    """Holds Python's own `in` for tuples."""


class _List(list):
    """Holds Python's own `in` for lists."""


class _Set(set):
    """Holds Python's own `in` for sets (and frozensets, which share the slot)."""


_HOLDERS = ((tuple, _Tuple), (list, _List), (set, _Set))


def _slot(klass: type, fruit) -> ctypes.c_void_p:
    """The `in` slot of `klass` (sq_contains in its sequence methods), as a pointer that can be written."""
    methods = fruit.PyTypeObject.from_address(id(klass)).tp_as_sequence[0]
    return ctypes.c_void_p.from_address(ctypes.addressof(methods) + fruit.PySequenceMethods.sq_contains.offset)


def _slots() -> list[tuple[ctypes.c_void_p, int, int]]:
    """Each type's slot with Python's own `in` and pycsp3's; empty while pycsp3 has not written its own."""
    fruit = sys.modules.get("pycsp3.libs.forbiddenfruit")
    written = getattr(fruit, "tp_func_dict", {})
    slots = []
    for klass, holder in _HOLDERS:
        if (klass, "__contains__") not in written:
            return []
        own, pycsp3s = _slot(holder, fruit).value, ctypes.cast(written[klass, "__contains__"], ctypes.c_void_p).value
        if not own or own == pycsp3s:
            return []
        slots.append((_slot(klass, fruit), own, pycsp3s))
    return slots


def write(pycsp3s: bool, slots: list | None = None) -> None:
    """Write pycsp3's `in` (or Python's own) into the slots, if pycsp3 has written its own."""
    for slot, own, theirs in _slots() if slots is None else slots:
        slot.value = theirs if pycsp3s else own


def pycsp3s_written() -> bool:
    """Whether the slots hold pycsp3's `in`."""
    return any(slot.value == theirs for slot, _, theirs in _slots())


@contextlib.contextmanager
def written(pycsp3s: bool):
    """pycsp3's `in` (or Python's own) on tuples, lists and sets while the block runs, then as before."""
    slots = _slots()
    before = [slot.value for slot, _, _ in slots]
    write(pycsp3s, slots)
    try:
        yield
    finally:
        for (slot, _, _), value in zip(slots, before):
            slot.value = value


def in_cells() -> None:
    """pre_execute hook: a cell's code runs with pycsp3's `in`, as stock pycsp3 runs it."""
    write(pycsp3s=True)


def between_cells() -> None:
    """post_execute hook: Python's own `in` until the next cell (Jupyter's messaging, widget callbacks)."""
    write(pycsp3s=False)


class InThroughSlots(ast.NodeTransformer):
    """Rewrites `a in b` as `operator.contains(b, a)` and `a not in b` as `not operator.contains(b, a)`: the same
    answer, always through the type's slot (so through pycsp3's `in` while it is written there)."""

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.In, ast.NotIn)):
            return node
        contains = ast.Attribute(
            ast.Call(ast.Name("__import__", ast.Load()), [ast.Constant("operator")], []), "contains", ast.Load()
        )
        call = ast.Call(contains, [node.comparators[0], node.left], [])
        rewritten = ast.UnaryOp(ast.Not(), call) if isinstance(node.ops[0], ast.NotIn) else call
        return ast.fix_missing_locations(ast.copy_location(rewritten, node))
