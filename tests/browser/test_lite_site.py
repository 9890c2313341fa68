"""The kit in the browser: a site built by `kernelext-lite`, served on 127.0.0.1 and opened in Debian's chromium
that reaches no other host. Notebooks run cell by cell in JupyterLite's Pyodide kernel, solving with MiniZinc's
WebAssembly: every classroom notebook's steps (all in one kernel, one notebook after the other) against the
statuses the desktop kit stored, the Amaze and Futoshiki walkthroughs' grids drawn, pencil marks, a search tree
and pictures saved as SVG and PNG, models compiled in the browser against the desktop's XCSP3, and a released
exercise checked with `%puzzle check`; axe-core's WCAG 2.1 A/AA rules over a notebook's outputs with the live
widgets (grid, pencil marks, search tree, Gantt chart). Fails (never skips) when chromium, Playwright or the
fetched parts are missing.
"""

from __future__ import annotations

import importlib.util
import io
import json
import math
import re
import struct
from pathlib import Path
from xml.etree import ElementTree

import matplotlib.image
import pytest
from axe import described, notebook_violations
from lab_server import ARTIFACTS, require_browser
from lite_site import (
    LiteNotebook,
    build_site,
    errors,
    local_page,
    notebook,
    released_and_solved,
    text,
)
from local_web import launch, served

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
STATUS = re.compile(r"^status: .*$", re.M)
# What needs the desktop kit: the Java and OR-Tools solvers (SVG pictures are drawn in plain Python, pencil marks and search
# trees come from the kit's own reasoning, and run in the browser as on the desktop).
DESKTOP_ONLY = re.compile(r"--solver (ace|ace-cold|choco|ortools|cp-sat)\b")
# Compiles each model as a step after the declarations, and solves it: all solutions, or the optimum.
COMPILE_AND_SOLVE = """
def compile_and_solve(declare, models, backend=None):
    from kernelext.steps.session import PuzzleSession
    found = {}
    for name, (source, optimising) in models.items():
        session = PuzzleSession("m")
        exec("from pycsp3 import *", session.namespace)
        session.add_step(declare, solve=False)
        session.add_step(source + "\\n", solve=False)
        result = session.solve(sols=1 if optimising else "all", timeout=60, backend=backend)
        found[name] = [session.compile().read_text(), result.status.value, len(result.solutions), result.bound]
        session.close()
    return found
"""


CLASSROOM = sorted(path.name for path in NOTEBOOKS.glob("*.ipynb"))
CLASSROOM_SWEEP = "classroom_sweep.ipynb"  # an empty notebook, where the classroom notebooks' code cells run one by one
CHDIR = "import os\nos.chdir(os.path.join(os.getcwd(), 'notebooks'))"  # where the notebooks find their data


def code_sources(name: str) -> list[str]:
    """The sources of a classroom notebook's code cells."""
    nb = json.loads((NOTEBOOKS / name).read_text())
    return ["".join(cell["source"]) for cell in nb["cells"] if cell["cell_type"] == "code"]


def _minizinc_tests():
    spec = importlib.util.spec_from_file_location("minizinc_models", ROOT / "tests" / "solver" / "test_minizinc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MODELS = _minizinc_tests()
COMPILED = {
    **{name: (source, False) for name, (source, _) in MODELS.COUNTED.items()},
    **{name: (source, True) for name, source in MODELS.OPTIMISED.items()},
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lite")
    compile_nb = tmp / "compile_models.ipynb"
    compile_nb.write_text(
        json.dumps(
            notebook(
                [
                    "%load_ext kernelext",
                    COMPILE_AND_SOLVE + f"import json\nprint(json.dumps(compile_and_solve("
                    f"{MODELS.DECLARE!r}, {COMPILED!r})))",
                    "from pycsp3 import *",
                    "%%puzzle refused\nx = VarArray(size=3, dom=range(3))",
                    "%%puzzle+ --solver minizinc\nsatisfy(BinPacking(x, sizes=[1, 2, 3], limits=[3, 4, 5]))",
                    "%%puzzle+\nsatisfy(BinPacking(x, sizes=[1, 2, 3], limits=[3, 4, 5]))",
                    "print(get_ipython().magics_manager.registry['PuzzleMagics'].session.last_result.backend)",
                    "%puzzle undo",
                    "%%puzzle+\nsatisfy(x[0] == 1 and x[1] == 2)",
                    "%%puzzle+\nx[0] == 1",
                    "%puzzle steps",
                    "%config PuzzleMagics.minizinc_solver = 'chuffed'",
                    "%%puzzle+ --solver minizinc\nsatisfy(x[0] < x[1], x[1] < x[2])",
                ]
            )
        )
    )
    sweep = tmp / CLASSROOM_SWEEP
    sweep.write_text(json.dumps(notebook([])))
    built = build_site(tmp / "site", [NOTEBOOKS, released_and_solved(tmp), compile_nb, sweep])
    with served(built, ready="jupyter-lite.json") as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    sync_playwright = require_browser()
    with sync_playwright() as p:
        chromium = launch(p, only_local=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    with local_page(browser) as page:
        yield page


def run_all(nb: LiteNotebook) -> list[tuple[str, list[dict]]]:
    return [(nb.source(index), nb.run(index, timeout=180)) for index in nb.code_cells()]


def stored_statuses(name: str) -> list[list[str]]:
    """The status lines of each code cell of a classroom notebook, as the desktop kit stored them."""
    nb = json.loads((NOTEBOOKS / name).read_text())
    return [STATUS.findall(text(cell.get("outputs", []))) for cell in nb["cells"] if cell["cell_type"] == "code"]


# True for each module whose bytecode came with its wheel and is the kernel's Python's: Python writes none itself
# here (sys.dont_write_bytecode), and reads one whose magic number is its own.
BYTECODE_READ = """import importlib.util, sys, IPython, pycsp3, kernelext
assert sys.dont_write_bytecode
for module in (IPython, pycsp3, kernelext):
    with open(module.__cached__, "rb") as compiled:
        print(compiled.read(4) == importlib.util.MAGIC_NUMBER)"""


GANTT = """%%puzzle shop --view gantt
s = VarArray(size=3, dom=range(8))
satisfy(NoOverlap(origins=s, lengths=[2, 3, 1]))"""


def assert_saved_png(nb: LiteNotebook, command: str, path: str) -> None:
    """`command` writes a PNG drawn by the browser's canvas into the file browser: its size is the SVG's at twice
    the scale, and it shows a drawing (some white, some ink), as test-artifacts/lite-saved-*.png shows it."""
    saved = nb.run_new(command)
    name = Path(path).name
    assert not errors(saved) and f"Wrote {name}" in text(saved), text(saved)
    alt = nb.file_text(str(Path(path).with_suffix(".txt")))  # its text alternative, beside it
    assert alt and alt.strip(), f"no text form beside {name}"
    data = nb.file_bytes(path)
    assert data is not None and data.startswith(b"\x89PNG\r\n\x1a\n"), (data or b"")[:16]
    (ARTIFACTS / f"lite-saved-{name}").write_bytes(data)
    svg = nb.run_new(f"%puzzle save {Path(name).with_suffix('.svg')}")
    assert not errors(svg)
    root = ElementTree.fromstring(nb.file_text(str(Path(path).with_suffix(".svg"))).encode())
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (math.ceil(2 * float(root.get("width"))), math.ceil(2 * float(root.get("height"))))
    pixels = matplotlib.image.imread(io.BytesIO(data))[..., :3]
    white = (pixels > 0.97).all(axis=-1).mean()
    ink = (pixels < 0.4).all(axis=-1).mean()
    assert 0.1 < white < 0.99 and ink > 0.001, (white, ink)


def test_the_amaze_walkthrough_reaches_its_optimum_and_draws_its_grids(classroom_ran):
    ran = classroom_ran["amaze.ipynb"]
    statuses = [STATUS.findall(text(outputs)) for _, outputs, _ in ran]
    assert statuses[-2] == ["status: OPTIMUM (bound 20)"]
    steps = [(outputs, grids) for source, outputs, grids in ran if source.startswith("%%puzzle")]
    assert len(steps) == 5 and all(grids == [("x: 7 x 7", 49)] for _, grids in steps)  # the widget, drawn
    for outputs, _ in steps:  # and its static form, for a saved notebook
        assert 'title="x: 7 x 7"' in "".join("".join(o.get("data", {}).get("text/html", "")) for o in outputs)


def test_the_futoshiki_walkthrough_counts_its_solutions(classroom_ran):
    ran = classroom_ran["futoshiki.ipynb"]
    statuses = sum((STATUS.findall(text(outputs)) for _, outputs, _ in ran), [])
    assert "status: SAT: 48 solutions" in statuses and "status: SAT: 1 solution, the only one" in statuses
    steps = [grids for source, _, grids in ran if source.startswith("%%puzzle")]
    assert steps and all([title for title, _ in grids] == ["x: 4 x 4"] for grids in steps)


def test_pencil_marks_a_search_tree_and_saved_pictures_in_the_browser(page, site):
    nb = LiteNotebook(page, site, "notebooks/queens.ipynb")  # cells of its own are added to it and run
    for source in (
        "%load_ext kernelext\nfrom pycsp3 import *",
        "%%puzzle sudoku\nx = VarArray(size=[4, 4], dom=range(1, 5))",
        "%%puzzle+\nsatisfy([AllDifferent(x[i]) for i in range(4)], [AllDifferent(x[:, j]) for j in range(4)])",
    ):
        assert not errors(nb.run_new(source)), source
    marks = nb.run_new("%%puzzle+ --domains\nsatisfy(x[0][0] == 1, x[0][1] == 2, x[1][0] == 3)")
    assert not errors(marks) and "values left after propagation" in text(marks), text(marks)
    index = nb.code_cells()[-1]
    tables = page.evaluate(
        "(i) => window.jupyterapp.shell.currentWidget.content.widgets[i].node"
        ".querySelectorAll('table[title=\"x: 4 x 4\"]').length",
        index,
    )
    assert tables >= 2, f"{tables} table(s) drawn: the step's grid and its pencil marks were expected"
    nb.show(index)
    page.screenshot(path=ARTIFACTS / "lite-pencil-marks.png")
    tree = nb.run_new("%puzzle tree")
    assert not errors(tree), text(tree)
    index = nb.code_cells()[-1]
    nodes = page.evaluate(
        "(i) => window.jupyterapp.shell.currentWidget.content.widgets[i].node.querySelectorAll('svg [data-node]').length",
        index,
    )
    assert nodes >= 3, f"the search tree drew {nodes} node(s)"
    nb.show(index)
    page.screenshot(path=ARTIFACTS / "lite-search-tree.png")
    saved = nb.run_new("%puzzle save sudoku.svg")  # no matplotlib in the browser: drawn in plain Python
    assert not errors(saved) and "Wrote sudoku.svg" in text(saved), text(saved)
    svg = nb.file_text("notebooks/sudoku.svg")  # it lands in the file browser, beside the notebook
    assert (
        svg is not None and svg.startswith("<?xml") and "<svg" in svg and svg.count("<rect") > 16 and "<text" in svg
    ), (svg or "")[:200]
    assert_saved_png(nb, "%puzzle save sudoku.png", "notebooks/sudoku.png")
    gantt = nb.run_new(GANTT)  # a picture too
    assert not errors(gantt) and "status: SAT" in text(gantt), text(gantt)
    assert_saved_png(nb, "%puzzle save shop.png", "notebooks/shop.png")
    read = nb.run_new(BYTECODE_READ)  # the site's wheels carry bytecode: nothing compiled at start
    assert text(read).split() == ["True"] * 3, text(read)
    found = notebook_violations(page)  # the notebook's stored outputs, and the live widgets of the cells run here
    assert found == [], described(found)


@pytest.fixture(scope="module")
def classroom_ran(browser, site) -> dict[str, list[tuple[str, list[dict], list[tuple[str, int]]]]]:
    """Every classroom notebook's code cells run in turn in one kernel (one Pyodide start for them all), from the
    notebooks' folder: each notebook's (source, outputs, grids drawn) of its code cells, by name. Each cell is added
    to a notebook, run and read, and the cells before it removed: JupyterLab's time to run a cell grows with the
    notebook's length (0.8 s a cell in a notebook of 200 cells, against 0.2 s in a classroom notebook)."""
    amaze_optimum = len(code_sources("amaze.ipynb")) - 2  # the Amaze walkthrough's optimum, to be seen
    found = {}
    with local_page(browser) as page:
        nb = LiteNotebook(page, site, CLASSROOM_SWEEP)
        assert not errors(nb.run_new(CHDIR))
        for name in CLASSROOM:
            found[name] = []
            for k, source in enumerate(code_sources(name)):
                outputs = nb.run_new(source, timeout=180)
                index = nb.code_cells()[-1]
                assert nb.source(index) == source, f"not the cell just run: {nb.source(index)!r}"
                found[name].append((source, outputs, nb.grids(index)))
                if name == "amaze.ipynb" and k == amaze_optimum:
                    nb.show(index)
                    page.screenshot(path=ARTIFACTS / "lite-amaze-optimum.png")
                for _ in range(index):  # the cells before it (a notebook is never empty: the last one stays)
                    nb.remove(0)
    return found


@pytest.mark.parametrize("name", CLASSROOM)
def test_each_classroom_step_has_the_desktop_s_status_or_says_it_needs_the_desktop(classroom_ran, name):
    ran = classroom_ran[name]
    assert [source for source, _, _ in ran] == code_sources(name)
    desktop_only_ran = False
    for (source, outputs, _), stored in zip(ran, stored_statuses(name)):
        found = errors(outputs)
        if DESKTOP_ONLY.search(source):
            assert found and all("need the desktop kit" in error and "\n" not in error for error in found), (
                source,
                found,
            )
            desktop_only_ran = True
        elif desktop_only_ran and found:  # only as it reads a name that a desktop-only cell would have set
            assert all("NameError" in error for error in found), (source, found)
        else:
            assert not found, (source, found)
        if not found:
            assert STATUS.findall(text(outputs)) == stored, source


def test_a_released_exercise_is_checked_on_its_public_instances(page, site):
    nb = LiteNotebook(page, site, "futoshiki_exercise/solved.ipynb")
    ran = run_all(nb)
    assert [errors(outputs) for _, outputs in ran] == [[] for _ in ran]
    assert "2/2 public instances passed" in text(ran[-1][1])
    nb = LiteNotebook(page, site, "futoshiki_exercise/wrong.ipynb")
    report = text(run_all(nb)[-1][1])
    assert re.search(r"[01]/2 public instances passed", report) and "failed" in report, report


def test_models_compile_and_solve_in_the_browser_as_on_the_desktop(page, site):
    nb = LiteNotebook(page, site, "compile_models.ipynb")
    ran = run_all(nb)
    assert not errors(ran[1][1])
    in_browser = json.loads(text(ran[1][1]))
    shown = dict(ran)
    [refused] = errors(shown["%%puzzle+ --solver minizinc\nsatisfy(BinPacking(x, sizes=[1, 2, 3], limits=[3, 4, 5]))"])
    assert "does not take <binPacking> with limits or loads" in refused and "\n" not in refused  # by name, one line
    packed = shown["%%puzzle+\nsatisfy(BinPacking(x, sizes=[1, 2, 3], limits=[3, 4, 5]))"]
    assert not errors(packed) and "status: SAT" in text(packed), text(packed)  # the kit's own search reads it
    answered = shown["print(get_ipython().magics_manager.registry['PuzzleMagics'].session.last_result.backend)"]
    assert text(answered).strip() == "kit", text(answered)
    [both] = errors(shown["%%puzzle+\nsatisfy(x[0] == 1 and x[1] == 2)"])  # a student's mistakes, caught, rolled back
    assert "`and` between constraints keeps only one of them" in both
    [unposted] = errors(shown["%%puzzle+\nx[0] == 1"])
    assert "this constraint is not posted: put it inside satisfy(...)" in unposted
    assert text(shown["%puzzle steps"]).startswith("refused: 1 step(s)")
    chuffed = text(ran[-1][1])  # another of MiniZinc's solvers, by the setting
    assert not errors(ran[-1][1]) and "status: SAT" in chuffed and "[0][1][2]" in chuffed, chuffed
    namespace = {}
    exec(COMPILE_AND_SOLVE, namespace)
    on_desktop = namespace["compile_and_solve"](MODELS.DECLARE, COMPILED, backend="minizinc")
    assert list(in_browser) == list(COMPILED)
    for name in COMPILED:
        assert in_browser[name] == on_desktop[name], name
