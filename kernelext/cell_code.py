"""Run a step's source in the user's namespace and turn its failures into short messages."""

from __future__ import annotations

import builtins
import contextlib
import hashlib
import io
import linecache
import re
import sys
import traceback
from dataclasses import dataclass

from kernelext.errors import StepError

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
MAX_MESSAGE = 200


def register_source(source: str) -> str:
    """Give `source` a stable file name in linecache, so pycsp3 can read its lines and name variables."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:12]
    filename = f"<puzzle-step-{digest}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return filename


@dataclass(frozen=True)
class StepRun:
    """What running a step's source printed, and pycsp3's warnings in the kit's words ("line N: ...")."""

    printed: str
    warnings: tuple[str, ...] = ()


class _Printed(io.StringIO):
    """A step's printed output; pycsp3's warnings are taken out of it, each with the step's line that
    caused it (found on the call stack when pycsp3 prints it)."""

    def __init__(self, filename: str):
        super().__init__()
        self.filename, self.warnings = filename, []

    def write(self, text: str) -> int:
        if "Warning: " not in text:
            return super().write(text)
        message = _ANSI.sub("", text).split("Warning: ", 1)[1].replace(" (other similar cases not displayed)", "")
        self.warnings.append(_warning_in_words(_line_in(self.filename), message.strip()))
        return len(text)


def _line_in(filename: str) -> int | None:
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename != filename:
        frame = frame.f_back
    return frame.f_lineno if frame is not None else None


def _warning_in_words(line: int | None, message: str) -> str:
    where = f"line {line}: " if line else ""
    sliced = re.match(r"Auto-adjustment of array indexing from a slice slice\((\w+), (\w+), (\w+)\)", message)
    if sliced:
        start, stop, step = ("" if part == "None" else part for part in sliced.groups())
        return (f"{where}the slice [{start}:{stop}{':' + step if step else ''}] goes past the end of an array, and "
                "pycsp3 fills it with cells from its start again: keep slices within the array.")
    return f"{where}pycsp3: {_clip(message)}"


def _index_wraps_round(message: str) -> IndexError | None:
    """pycsp3 replaces an index past the end of an array by another one (x[9] of 7 items is x[2]): an error here."""
    wrapped = re.match(r"Auto-adjustment of array indexing: (-?\d+) -> (\d+)", message)
    if wrapped is None:
        return None
    index, used = wrapped.groups()
    return IndexError(f"index {index} is past the end of the array (pycsp3 would quietly use index {used}, "
                      "another cell): use an index below the array's size.")


def _empty_set_error(left, right, bool_value) -> ValueError | None:
    from pycsp3.classes.main.variables import Variable

    if bool_value and isinstance(left, Variable) and isinstance(right, (tuple, list, set, frozenset, range)) \
            and len(right) == 0:
        return ValueError(f"{left} in an empty set posts nothing (no value could do): give the set its values.")
    return None


@contextlib.contextmanager
def _data_kept(namespace: dict):
    """While a step runs, `from pycsp3 import *` binds the notebook's own `data` (as pycsp3 binds the data
    given with -data= on its command line), not the None it holds in a notebook."""
    import pycsp3

    kept = pycsp3.data
    pycsp3.data = namespace.get("data", kept)
    try:
        yield
    finally:
        pycsp3.data = kept


@contextlib.contextmanager
def _pycsp3_watched():
    """While a step runs: every pycsp3 warning is printed (not only the first of its kind in the process),
    and two silent mistakes raise where the step makes them: an index pycsp3 would wrap round (x[9] of 7
    items is x[2]) and `x in set()` (pycsp3 posts nothing)."""
    import pycsp3.functions as functions
    import pycsp3.tools.curser as curser
    from pycsp3.tools import utilities

    for kind in utilities._warning_already_printed:
        utilities._warning_already_printed[kind] = False
    warning, interpret_in = curser.warning, functions._bool_interpretation_for_in

    def checked_warning(message, type_message=None):
        error = _index_wraps_round(str(message))
        if error is not None:
            raise error
        return warning(message, type_message)

    def checked_in(left, right, bool_value):
        error = _empty_set_error(left, right, bool_value)
        if error is not None:
            raise error
        return interpret_in(left, right, bool_value)

    curser.warning, functions._bool_interpretation_for_in = checked_warning, checked_in
    try:
        yield
    finally:
        curser.warning, functions._bool_interpretation_for_in = warning, interpret_in


def run_source(source: str, namespace: dict, *, echo: bool = True) -> StepRun:
    """Execute `source` in `namespace`; return what it printed and its warnings; raise StepError on any failure.

    pycsp3 reports modelling errors by printing them and calling `sys.exit`: both become a StepError.
    """
    filename = register_source(source)
    try:
        code = builtins.compile(source, filename, "exec")
    except SyntaxError as error:
        raise StepError(_syntax_message(error)) from None
    printed = _Printed(filename)
    try:
        with contextlib.redirect_stdout(printed), _pycsp3_watched(), _data_kept(namespace):
            exec(code, namespace)
    except SystemExit:
        raise StepError(_pycsp3_message(printed.getvalue())) from None
    except KeyboardInterrupt:
        raise StepError("Interrupted: the step was not added (the model is as it was before this cell).") from None
    except Exception as error:
        raise StepError(_exception_message(error, filename)) from None
    text = printed.getvalue() if printed.getvalue().strip() else ""
    if echo and text:
        print(text, end="")
    return StepRun(text, tuple(dict.fromkeys(printed.warnings)))


def _syntax_message(error: SyntaxError) -> str:
    line = (error.text or "").rstrip()
    where = f"Line {error.lineno}: " if error.lineno else ""
    return f"{where}SyntaxError: {error.msg}" + (f"\n    {line.strip()}" if line else "")


def _exception_message(error: BaseException, filename: str) -> str:
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == filename]
    text = _clip(f"{type(error).__name__}: {error}".rstrip(": "))
    if isinstance(error, AssertionError) and not str(error):
        text = "pycsp3 rejected this constraint (an internal check failed): check the arguments' types"
    if not frames:
        return text
    frame = frames[-1]
    return f"Line {frame.lineno}: {text}\n    {(frame.line or '').strip()}"


def _clip(text: str) -> str:
    """The first line of an error's text, at most MAX_MESSAGE characters."""
    lines = text.strip().splitlines() or [""]
    if len(lines) == 1 and len(lines[0]) <= MAX_MESSAGE:
        return lines[0]
    return lines[0][:MAX_MESSAGE].rstrip() + " ..."


def _pycsp3_message(printed: str) -> str:
    lines = [_ANSI.sub("", line).strip() for line in printed.splitlines()]
    errors = [line for line in lines if line.startswith("ERROR:")]
    if errors:
        message = errors[-1][len("ERROR:"):].strip()
        hint = " Give it another name, or edit the step that declares it." if "used twice" in message else ""
        return f"pycsp3 refused this step: {message}{hint}"
    return "The step stopped (it called exit); the model is as it was before this cell."
