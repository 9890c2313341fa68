"""pycsp3 reads its caller's source to name variables and keep comments and tags: the kit's lazy stack
gives it the very same answers as `inspect.stack`."""

from __future__ import annotations

import functools
import importlib.util
import inspect

import pytest
from conftest import model_text
from hypothesis import given, strategies

from kernelext.pycsp3_glue import source_lines
from kernelext.steps.session import PuzzleSession

STEPS = [
    "n = 3\nx = VarArray(size=[n, n], dom=range(1, n + 1))  # the grid\ny = Var(dom={0, 1})\n"
    "z = VarArray(size=n, dom=lambda i: {0} if i == 0 else range(4))\n",
    "satisfy(\n    # rows\n    [AllDifferent(x[i]) for i in range(n)],\n    x[0][0] == y + 1  # linked\n)\n",
    "satisfy(AllDifferent(x[:, j]) for j in range(n))  # columns\n",
    "minimize(\n    Sum(z) + y\n)\n",
]


def built(steps) -> str:
    session = PuzzleSession("frames")
    for source in steps:
        session.add_step(source, solve=False)
    text = model_text()
    session.close()
    return text


@functools.cache
def stock_inspector():
    """A fresh copy of pycsp3's inspector module, as pycsp3 ships it."""
    spec = importlib.util.find_spec("pycsp3.tools.inspector")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_faster_inspection_gives_pycsp3_the_same_model(monkeypatch):
    lazy = built(STEPS)
    from pycsp3.tools import inspector

    with monkeypatch.context() as plain:
        plain.setattr(source_lines, "install", lambda: None)
        plain.setattr(inspector, "inspect", inspect)
        plain.setattr(inspector, "_remove_matching_brackets", stock_inspector()._remove_matching_brackets)
        stock = built(STEPS)
    assert lazy == stock
    assert all(f'id="{name}"' in lazy for name in "xyz")  # names read from the source


def facts(info) -> tuple:
    return info.filename, info.function, info.lineno, info.code_context, info.index, info.positions[:2], info.frame


@pytest.mark.parametrize("context", [1, 3, 2000])
def test_lazy_frames_read_what_inspect_reads(context):
    def here():  # both stacks read from the same line, so that every frame stands where it stood
        return [facts(f) for f in source_lines.stack(context)], [facts(f) for f in inspect.stack(context)]

    lazy, stock = here()
    assert lazy == stock and len(lazy) > 3


@given(strategies.text(alphabet="([{}])ab ,#", max_size=40))
def test_the_one_pass_bracket_remover_answers_as_pycsp3s(line):
    assert source_lines.without_brackets(line) == stock_inspector()._remove_matching_brackets(line)
