"""A faster source inspection for pycsp3, with the same answers.

pycsp3 names variables and tags constraints by reading its caller's source: `inspect.stack(context=1)`
(twice) and `inspect.stack(context=2000)` at each `VarArray`, `satisfy`, `minimize`... Each call reads the
source lines of every frame on the stack, and a notebook cell runs under some thirty frames of IPython.
`install()` gives pycsp3's inspector a stack whose entries read a frame's source only when pycsp3 asks for
it (it asks for one frame), the lines `inspect.getframeinfo` would give, read from `linecache` without
`inspect.getmodule` (which walks every loaded module, three times per frame). It also gives the inspector
a bracket remover that takes one pass over a line where pycsp3's takes one pass per bracketed part (it reads
the code of every `satisfy(...)` for comments that way).
"""

from __future__ import annotations

import dis
import inspect
import linecache
import sys
from types import FrameType, SimpleNamespace


class LazyFrameInfo:
    """What `inspect.stack` lists for one frame, its source lines read on first use."""

    __slots__ = ("frame", "_context", "_info")

    def __init__(self, frame: FrameType, context: int):
        self.frame, self._context, self._info = frame, context, None

    @property
    def filename(self) -> str:
        return self.frame.f_code.co_filename

    @property
    def function(self) -> str:
        return self.frame.f_code.co_name

    @property
    def lineno(self) -> int:
        return self.frame.f_lineno

    def _read(self) -> SimpleNamespace:
        if self._info is None:
            self._info = frame_lines(self.frame, self._context)
        return self._info

    @property
    def code_context(self):
        return self._read().code_context

    @property
    def index(self):
        return self._read().index

    @property
    def positions(self):
        return self._read().positions


def frame_lines(frame: FrameType, context: int) -> SimpleNamespace:
    """The `code_context`, `index` and `positions` that `inspect.getframeinfo(frame, context)` gives."""
    where = getattr(inspect, "_get_code_position", None)  # Python 3.11+: the instruction's span
    span = where(frame.f_code, frame.f_lasti) if where is not None else (None,)
    lineno = span[0] if span[0] is not None else frame.f_lineno
    positions = dis.Positions(lineno, *span[1:]) if where is not None else None
    filename = frame.f_code.co_filename
    linecache.checkcache(filename)
    lines = linecache.getlines(filename, frame.f_globals)
    first = frame.f_code.co_firstlineno - 1  # inspect.findsource fails when the code starts past the end
    if not lines or context <= 0 or (first > 0 and first >= len(lines)):
        return SimpleNamespace(code_context=None, index=None, positions=positions)
    start = max(0, min(lineno - 1 - context // 2, len(lines) - context))
    return SimpleNamespace(code_context=lines[start : start + context], index=lineno - 1 - start, positions=positions)


def stack(context: int = 1) -> list[LazyFrameInfo]:
    """`inspect.stack(context)`, its entries lazy: the caller's frame first, then outwards."""
    frames, frame = [], sys._getframe(1)
    while frame is not None:
        frames.append(LazyFrameInfo(frame, context))
        frame = frame.f_back
    return frames


def without_brackets(line: str) -> str:
    """`line` without its bracketed parts, as pycsp3's `_remove_matching_brackets` gives it: a closing bracket
    ends the part that the last opening bracket still open began when they match, and is kept otherwise."""
    opened, removed = [], []
    for i, c in enumerate(line):
        if c in "([{":
            opened.append(i)
        elif opened and line[opened[-1]] + c in ("()", "[]", "{}"):
            start = opened.pop()
            while removed and removed[-1][0] > start:  # the parts inside this one
                removed.pop()
            removed.append((start, i + 1))
    kept, end = [], 0
    for start, stop in removed:
        kept.append(line[end:start])
        end = stop
    return "".join(kept) + line[end:]


def install() -> None:
    """Give pycsp3's inspector the lazy stack and the one-pass bracket remover (the rest of it unchanged)."""
    from pycsp3.tools import inspector

    if getattr(inspector.inspect, "stack", None) is not stack:
        names = {name: getattr(inspect, name) for name in dir(inspect) if not name.startswith("__")}
        inspector.inspect = SimpleNamespace(**{**names, "stack": stack})
    inspector._remove_matching_brackets = without_brackets
