"""Models that stock pycsp3 compiles are accepted as they are and build the very same XCSP3: each model here
is pasted whole (its `from pycsp3 import *` line too) into one `%%puzzle` cell, exported, and compared with
what `python model.py -output=...` writes with stock pycsp3. Each one holds a pattern that published models use."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import weakref
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

MODELS = {
    "cyclic index": """
from pycsp3 import *
n = 6
x = VarArray(size=n, dom=range(3))
satisfy(
    # a circular sequence: the last cell's neighbour is the first one
    x[i] != x[i + 1] for i in range(n)
)
""",
    "if on plain values beside variables": """
from pycsp3 import *
pairs = [(0, 1, True), (1, 2, False), (2, 3, True)]
x = VarArray(size=4, dom=range(4))
satisfy(
    [a < b if smaller else a > b for (a, b, smaller) in [(x[i], x[j], s) for (i, j, s) in pairs]],
    x[3] == (0 if len(x) == 4 else x[2])
)
""",
    "and between plain booleans in a helper": """
from pycsp3 import *
kinds = [1, 1, 2, 1]

def linked(a, b):
    if kinds[a] == kinds[b] == 1 and a < b:
        return [x[a] < x[b]]
    return []

x = VarArray(size=4, dom=range(5))
satisfy(linked(a, b) for a in range(4) for b in range(4))
""",
    "circular slide": """
from pycsp3 import *
n, r = 8, 3
x = VarArray(size=n, dom=range(1, n + 1))
z = Var(dom=range(30))
satisfy(
    AllDifferent(x),
    Slide(Sum(x[i:i + r]) <= z for i in range(n))
)
minimize(z)
""",
    "slide": """
from pycsp3 import *
n = 7
x = VarArray(size=n, dom=range(10))
satisfy(
    Slide(abs(x[i] - x[i + 1]) >= 2 for i in range(n - 1)),
    x[0] == 4
)
maximize(x[n - 1])
""",
    "walrus in a comprehension's if": """
from pycsp3 import *
widths = [3, 2, 4]
x = VarArray(size=[3, 4], dom={0, 1})
satisfy(
    Sum(x[i][j:j + k]) >= 1 for i in range(3) for j in range(4) if (k := min(widths[i] - j, 2)) > 0
)
""",
    "data from the notebook": """
from pycsp3 import *
n, clues = data
x = VarArray(size=n, dom=range(n))
satisfy(AllDifferent(x), [x[i] == v for (i, v) in clues])
""",
}
DATA = {"data from the notebook": [4, [[0, 2], [3, 1]]]}


def canonical(path: Path):
    """An XCSP3 file as nested tuples, comments and notes left out."""

    def walk(element):
        attributes = tuple(sorted((k, v) for k, v in element.attrib.items() if k != "note"))
        return element.tag, attributes, " ".join((element.text or "").split()), tuple(walk(c) for c in element)

    return walk(ET.parse(path).getroot())


def stock_xcsp3(source: str, folder: Path, data=None) -> Path:
    model, out = folder / "Model.py", folder / "stock.xml"
    model.write_text(source)
    arguments = []
    if data is not None:
        (folder / "data.json").write_text(json.dumps({"n": data[0], "clues": data[1]}))
        arguments = ["-data=data.json"]
    subprocess.run(
        [sys.executable, model.name, f"-output={out}", *arguments],
        cwd=folder,
        check=True,
        capture_output=True,
        timeout=120,
    )
    return out


@pytest.mark.parametrize("name", MODELS)
def test_model_builds_what_stock_pycsp3_builds(shell, tmp_path, name):
    data = DATA.get(name)
    stock = stock_xcsp3(MODELS[name], tmp_path, data)
    shell.ok("%%puzzle first\ny = VarArray(size=[3, 3], dom=range(9))\nsatisfy(AllDifferent(y), y[0][0] < y[2][2])\n")
    shell.ok(f"data = {data!r}")
    shell.ok(f"%%puzzle {name.split()[0]} --no-solve\n{MODELS[name]}")
    shell.ok(f"%puzzle export {tmp_path / 'kit.xml'}")
    assert canonical(tmp_path / "kit.xml") == canonical(stock)


def test_cyclic_index_is_warned_about_naming_line_index_and_cell(shell):
    text = shell.ok(f"%%puzzle ring --no-solve\n{MODELS['cyclic index']}")
    assert "warning: line 8: index 6 is past the end of the array: pycsp3 wraps it round to index 0, x[0]." in text
    assert "Warning:" not in text


@pytest.mark.parametrize("name", ["slide", "circular slide"])
def test_slides_are_solved_to_the_same_optimum_by_both_solvers(shell, tmp_path, name):
    shell.ok(f"%%puzzle clock --no-solve\n{MODELS[name]}")
    shell.ok(f"%puzzle export {tmp_path / 'kit.xml'}")
    assert "<slide" in (tmp_path / "kit.xml").read_text()
    optima = [shell.ok(f"%puzzle solve --solver {solver} --timeout 60") for solver in ("cp-sat", "ace")]
    assert all("status: OPTIMUM" in text for text in optima), optima
    assert len({text.split("status:", 1)[1].splitlines()[0] for text in optima}) == 1


def test_a_new_puzzle_frees_what_the_previous_one_built(shell):
    shell.ok(
        "%%puzzle big --no-solve\nx = VarArray(size=60, dom=range(60))\n"
        "satisfy(x[i] + x[j] != 30 for i in range(60) for j in range(i))\n"
    )
    from pycsp3.classes.entities import CtrEntities
    from pycsp3.classes.nodes import Node

    node = weakref.ref(next(c for c in CtrEntities.items[0].flat_constraints()))
    assert len(Node.all_nodes) > 1000
    shell.ok("%%puzzle small\ny = VarArray(size=2, dom=range(2))\nsatisfy(y[0] != y[1])\n")
    gc.collect()
    assert node() is None
    assert len(Node.all_nodes) < 10
