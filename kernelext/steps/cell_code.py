"""Run a step's source in the user's namespace and turn its failures into short messages."""

from __future__ import annotations

import ast
import builtins
import contextlib
import hashlib
import io
import linecache
import re
import sys
import traceback
from dataclasses import dataclass
from types import MappingProxyType

from kernelext.errors import StepError
from kernelext.pycsp3_glue import in_operator
from kernelext.pycsp3_glue.operators import pycsp3_operators
from kernelext.steps.lint import PLAIN_BOOL, TRUTH_TEST, UNPOSTED, Finding

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
MAX_MESSAGE = 200
WORDS = MappingProxyType(
    {  # what a step that really does it is told, where no finding on its line words it better
        TRUTH_TEST: "Python asked a constraint for True/False (`if`, `while`, `and`, `or`, `not`, a chain a < b < c, "
        "max() and min() do), and its truth is unknown while modelling: use If(...), &, |, ~, "
        "Maximum(...), Minimum(...) or separate constraints.",
        UNPOSTED: "this constraint is not posted: put it inside satisfy(...).",
        PLAIN_BOOL: "satisfy() was given True/False, which Python worked out before pycsp3 saw it (no model variable "
        "in it): compare model variables, e.g. x[i] == v.",
    }
)
VARIABLE_TESTED = (
    "a model variable is tested as True/False, and Python takes it as true whatever its value "
    "(unknown while modelling): for its value use If(x == v, Then=...); for a hole, `is not None`."
)


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
        return (
            f"{where}the slice [{start}:{stop}{':' + step if step else ''}] goes past the end of an array, and "
            "pycsp3 fills it with cells from its start again: keep slices within the array."
        )
    return f"{where}pycsp3: {_clip(message)}"


class _Confirmed(Exception):
    """The step's own code really made a mistake of `kind` (a finding kind of `kernelext.steps.lint`)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


@contextlib.contextmanager
def _mistakes_caught(filename: str, variables_tested: list[int]):
    """While a step runs, the step's own code (not pycsp3's) asking a constraint, an expression or a partial
    constraint (Sum(x)) for True/False raises, and so does a constraint left on a line of its own (the step
    is compiled so that such a value reaches `sys.displayhook`); a variable asked for True/False is noted."""
    from pycsp3.classes.entities import ECtr
    from pycsp3.classes.main.constraints import PartialConstraint
    from pycsp3.classes.main.variables import Variable
    from pycsp3.classes.nodes import Node

    def refused(original):
        def __bool__(self):
            if sys._getframe(1).f_code.co_filename == filename:
                raise _Confirmed(TRUTH_TEST)
            return original(self)

        return __bool__

    def noted(self):
        caller = sys._getframe(1)
        if caller.f_code.co_filename == filename:
            variables_tested.append(caller.f_lineno)
        return True

    def dropped(value):
        if isinstance(value, (Node, ECtr, PartialConstraint)):
            raise _Confirmed(UNPOSTED)

    owners = (Node, ECtr, PartialConstraint, Variable)
    originals, hook = [owner.__dict__.get("__bool__") for owner in owners], sys.displayhook
    Node.__bool__, ECtr.__bool__ = refused(Node.__bool__), refused(ECtr.__bool__)
    PartialConstraint.__bool__, Variable.__bool__ = refused(lambda self: True), noted
    sys.displayhook = dropped
    try:
        yield
    finally:
        sys.displayhook = hook
        for owner, original in zip(owners, originals):
            if original is None:
                del owner.__bool__
            else:
                owner.__bool__ = original


def _wrapped_index(message: str) -> tuple[str, str, str] | None:
    """(index, index used, the item there) when `message` is pycsp3's note that it wrapped an index round."""
    wrapped = re.match(r"Auto-adjustment of array indexing: (-?\d+) -> (\d+) in (.*)", message, re.S)
    return wrapped.groups() if wrapped else None


def _wrap_warning(line: int | None, index: str, used: str, item: str, times: int) -> str:
    where = f"line {line}: " if line else ""
    more = f" ({times} indexes on this line)" if times > 1 else ""
    return (
        f"{where}index {index} is past the end of the array: pycsp3 wraps it round to index {used}, "
        f"{_clip(item.strip())}{more}."
    )


def _wrap_error(index: str, used: str, item: str) -> IndexError:
    return IndexError(
        f"index {index} is past the end of the array (pycsp3 would wrap it round to index {used}, "
        f"{_clip(item.strip())}): strict indexing is on, so use an index below the array's size."
    )


def _empty_set_error(left, right, bool_value) -> ValueError | None:
    """The error for `x in S` with S empty, which pycsp3 posts as nothing where no value could do; None for
    anything else, `x not in S` included (nothing to post there, rightly). pycsp3 hands `in` over as `bool_value`
    True, but for an empty list of integers (its ListInt, handed over as a plain list) as False, and `not in`
    the other way round."""
    from pycsp3.classes.main.variables import Variable

    if not isinstance(left, Variable) or not isinstance(right, (tuple, list, set, frozenset, range)) or len(right):
        return None
    written_in = not bool_value if type(right) is list else bool_value
    if written_in:
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
def _pycsp3_watched(filename: str, strict_indexing: bool, wraps: dict):
    """While a step runs: every pycsp3 warning is printed (not only the first of its kind in the process);
    an index pycsp3 wraps round (x[9] of 7 items is x[2]) is noted in `wraps` ({line: (index, used, item,
    times)}), or raises when `strict_indexing`; `x in set()` (pycsp3 posts nothing) raises."""
    import pycsp3.functions as functions
    import pycsp3.tools.curser as curser
    from pycsp3.tools import utilities

    for kind in utilities._warning_already_printed:
        utilities._warning_already_printed[kind] = False
    warning, interpret_in = curser.warning, functions._bool_interpretation_for_in

    def checked_warning(message, type_message=None):
        wrapped = _wrapped_index(str(message))
        if wrapped is None:
            return warning(message, type_message)
        if strict_indexing:
            raise _wrap_error(*wrapped)
        line = _line_in(filename)
        first = wraps.get(line, (*wrapped, 0))
        wraps[line] = (*first[:3], first[3] + 1)

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


def run_source(
    source: str, namespace: dict, *, echo: bool = True, strict_indexing: bool = False, guesses: tuple[Finding, ...] = ()
) -> StepRun:
    """Execute `source` in `namespace`; return what it printed and its warnings; raise StepError on any failure.

    The code runs with pycsp3's operators (the kit's own code may run with Python's plain ones).
    pycsp3 reports modelling errors by printing them and calling `sys.exit`: both become a StepError.
    A mistake the step really makes (a constraint asked for True/False, or left unposted) is refused in the
    words of the finding of `guesses` on its line, if any. An index past the end of an array is wrapped
    round as pycsp3 does, with a warning (an error when `strict_indexing`).
    """
    filename = register_source(source)
    try:  # compiled as the interactive prompt compiles: a value left on a line of its own reaches displayhook
        tree = ast.parse(source, filename)
        if in_operator.SPECIALISED:
            tree = in_operator.InThroughSlots().visit(tree)
        code = builtins.compile(ast.Interactive(tree.body), filename, "single")
    except SyntaxError as error:
        raise StepError(_syntax_message(error)) from None
    printed, wraps, variables_tested = _Printed(filename), {}, []
    try:
        with (
            contextlib.redirect_stdout(printed),
            pycsp3_operators(),
            _pycsp3_watched(filename, strict_indexing, wraps),
            _data_kept(namespace),
            _mistakes_caught(filename, variables_tested),
        ):
            exec(code, namespace)
    except SystemExit:
        raise StepError(_pycsp3_message(printed.getvalue())) from None
    except KeyboardInterrupt:
        raise StepError("Interrupted: the step was not added (the model is as it was before this cell).") from None
    except Exception as error:
        raise StepError(_exception_message(error, filename, guesses)) from None
    text = _ANSI.sub("", printed.getvalue()) if printed.getvalue().strip() else ""  # no terminal colours in a notebook
    if echo and text:
        print(text, end="")
    wrapped = [_wrap_warning(line, *wrap) for line, wrap in wraps.items()]
    tested = [f"line {line}: {VARIABLE_TESTED}" for line in dict.fromkeys(variables_tested)]
    return StepRun(text, tuple(dict.fromkeys(printed.warnings + wrapped + tested)))


def _syntax_message(error: SyntaxError) -> str:
    line = (error.text or "").rstrip()
    where = f"Line {error.lineno}: " if error.lineno else ""
    return f"{where}SyntaxError: {error.msg}" + (f"\n    {line.strip()}" if line else "")


def _exception_message(error: BaseException, filename: str, guesses: tuple[Finding, ...] = ()) -> str:
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == filename]
    line = frames[-1].lineno if frames else None
    text = _clip(f"{type(error).__name__}: {error}".rstrip(": "))
    if isinstance(error, AssertionError) and not str(error):
        text = "pycsp3 rejected this constraint (an internal check failed): check the arguments' types"
    kind = error.kind if isinstance(error, _Confirmed) else PLAIN_BOOL if _given_a_bool(error) else ""
    if kind:
        found = [
            f for f in guesses if f.kind == kind and (f.line == line or kind == PLAIN_BOOL)
        ]  # satisfy() spans lines
        found.sort(key=lambda f: f.line != line)
        text, line = (found[0].message, found[0].line) if found else (WORDS[kind], line)
    if line is None:
        return text
    return f"Line {line}: {text}\n    {linecache.getline(filename, line).strip()}"


def _given_a_bool(error: BaseException) -> bool:
    """pycsp3's own assertion that satisfy() was given True/False where a constraint belongs."""
    return isinstance(error, AssertionError) and any(
        words in str(error) for words in ("A boolean that does not represent", "An argument of satisfy() before")
    )


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
        message = errors[-1][len("ERROR:") :].strip()
        message = message if message.endswith((".", "!", "?")) else f"{message}."
        hint = " Give it another name, or edit the step that declares it." if "used twice" in message else ""
        return f"pycsp3 refused this step: {message}{hint}"
    return "The step stopped (it called exit); the model is as it was before this cell."
