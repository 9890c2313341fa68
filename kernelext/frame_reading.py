"""A faster stack for pycsp3's source inspection, with the same answers.

pycsp3 names variables and tags constraints by reading its caller's source: `inspect.stack(context=1)`
(twice) and `inspect.stack(context=2000)` at each `VarArray`, `satisfy`, `minimize`... Each call reads the
source lines of every frame on the stack, and a notebook cell runs under some thirty frames of IPython.
`install()` gives pycsp3's inspector a stack whose entries read a frame's source only when pycsp3 asks for
it (it asks for one frame), through `inspect.getframeinfo`, as `inspect.stack` does.
"""

from __future__ import annotations

import inspect
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

    def _read(self) -> inspect.Traceback:
        if self._info is None:
            self._info = inspect.getframeinfo(self.frame, self._context)
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


def stack(context: int = 1) -> list[LazyFrameInfo]:
    """`inspect.stack(context)`, its entries lazy: the caller's frame first, then outwards."""
    frames, frame = [], sys._getframe(1)
    while frame is not None:
        frames.append(LazyFrameInfo(frame, context))
        frame = frame.f_back
    return frames


def install() -> None:
    """Give pycsp3's inspector the lazy stack (its other uses of `inspect` unchanged)."""
    from pycsp3.tools import inspector

    if getattr(inspector.inspect, "stack", None) is not stack:
        names = {name: getattr(inspect, name) for name in dir(inspect) if not name.startswith("__")}
        inspector.inspect = SimpleNamespace(**{**names, "stack": stack})
