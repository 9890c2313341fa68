"""Run a step's source in the user's namespace and turn its failures into short messages."""

from __future__ import annotations

import builtins
import contextlib
import hashlib
import io
import linecache
import re
import traceback

from kernelext.errors import StepError

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
MAX_MESSAGE = 200


def register_source(source: str) -> str:
    """Give `source` a stable file name in linecache, so pycsp3 can read its lines and name variables."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:12]
    filename = f"<puzzle-step-{digest}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return filename


def run_source(source: str, namespace: dict, *, echo: bool = True) -> str:
    """Execute `source` in `namespace`; return what it printed; raise StepError on any failure.

    pycsp3 reports modelling errors by printing them and calling `sys.exit`: both become a StepError.
    """
    filename = register_source(source)
    try:
        code = builtins.compile(source, filename, "exec")
    except SyntaxError as error:
        raise StepError(_syntax_message(error)) from None
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            exec(code, namespace)
    except SystemExit:
        raise StepError(_pycsp3_message(printed.getvalue())) from None
    except KeyboardInterrupt:
        raise StepError("Interrupted: the step was not added (the model is as it was before this cell).") from None
    except Exception as error:
        raise StepError(_exception_message(error, filename)) from None
    if echo and printed.getvalue():
        print(printed.getvalue(), end="")
    return printed.getvalue()


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
