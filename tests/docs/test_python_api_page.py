"""The Python API page (docs/reference/python-api.md) says what the code has: every `kernelext.` name it
writes imports, and every signature line of its code blocks (`NAME(PARAMETERS)`, NAME dotted from `kernelext.`
or from a class the page named so) has the function's parameters, in order, of the same kind and with the
same defaults."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "reference" / "python-api.md"
DOTTED = re.compile(r"\bkernelext(?:\.\w+)+")
SIGNATURE = re.compile(r"^((?:kernelext\.)?[A-Za-z_][\w.]*)\((.*)\)$")
BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def resolve(dotted: str):
    """The object a dotted name names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ImportError(dotted)


def written_parameters(text: str) -> list[tuple[str, str, str | None]]:
    """(name, kind, default as written) of each parameter of a signature as the page writes it."""
    arguments = ast.parse(f"def f({text}): pass").body[0].args
    positional = arguments.posonlyargs + arguments.args
    defaults = [None] * (len(positional) - len(arguments.defaults)) + arguments.defaults
    found = [(a.arg, "POSITIONAL_OR_KEYWORD", d) for a, d in zip(positional, defaults)]
    found += [(a.arg, "KEYWORD_ONLY", d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults)]
    return [(name, kind, None if d is None else ast.unparse(d)) for name, kind, d in found]


def code_parameters(function) -> list[tuple[str, str, object]]:
    parameters = list(inspect.signature(function).parameters.values())
    if inspect.isfunction(function) and "." in function.__qualname__ and parameters[0].name == "self":
        parameters = parameters[1:]  # a method, written as Class.method(...)
    return [(p.name, p.kind.name, p.default) for p in parameters]


def same_default(written: str | None, default) -> bool:
    if written is None:
        return default is inspect.Parameter.empty
    try:
        return ast.literal_eval(written) == default
    except ValueError:
        return written == repr(default)


def signatures() -> list[tuple[str, str]]:
    lines = [line.strip() for block in BLOCK.findall(PAGE.read_text()) for line in block.splitlines()]
    return [match.groups() for line in lines if (match := SIGNATURE.match(line))]


def test_every_kernelext_name_of_the_page_exists():
    names = sorted(set(DOTTED.findall(PAGE.read_text())))
    assert len(names) > 20, names
    missing = []
    for name in names:
        try:
            resolve(name)
        except (ImportError, AttributeError) as error:
            missing.append(f"{name}: {error}")
    assert not missing, "\n".join(missing)


def test_every_signature_of_the_page_is_the_codes():
    known, checked, wrong = {}, 0, []
    for name, text in signatures():
        if name.startswith("kernelext."):
            function = resolve(name)
            known[name.rsplit(".", 1)[1]] = function
        elif name.split(".")[0] in known:
            function = known[name.split(".")[0]]
            for attribute in name.split(".")[1:]:
                function = getattr(function, attribute)
        else:
            continue  # a call of an example (`main([...])`), not a signature
        page, code = written_parameters(text), code_parameters(function)
        checked += 1
        if [(n, k) for n, k, _ in page] != [(n, k) for n, k, _ in code]:
            wrong.append(f"{name}({text}): the code has ({', '.join(n for n, _, _ in code)})")
        else:
            wrong += [
                f"{name}: {n}={w} on the page, {d!r} in the code"
                for (n, _, w), (_, _, d) in zip(page, code)
                if not same_default(w, d)
            ]
    assert checked >= 20, checked
    assert not wrong, "\n".join(wrong)
