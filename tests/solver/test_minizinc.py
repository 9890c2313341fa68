"""MiniZinc (Gecode) as a backend: the translation of each construct counts the same solutions as the other
solvers, what it does not take is refused by name, and time limits, Stop and optimisation progress work."""

from __future__ import annotations

import ast
import itertools
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from conftest import ROOT

from kernelext.errors import Untranslatable
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.minizinc.program import MISSING
from kernelext.steps.session import PuzzleSession
from kernelext.xcsp.check import Checker
from kernelext.xcsp.to_minizinc import identifier, translate

DECLARE = (
    "x = VarArray(size=4, dom=range(4))\ny = VarArray(size=4, dom=range(4))\n"
    "b = VarArray(size=4, dom={0, 1})\nk = Var(dom=range(5))\n"
)

# Each model's solutions are counted by MiniZinc and by a reference: warm ACE, or CP-SAT through CPMpy
# ("ortools") where ACE 2.6 is wrong or refuses the model (docs/reference/solvers.md: "Solver bugs the third solver showed").
COUNTED = {
    "table with *": ("satisfy(Table(scope=x[:3], supports=[(0, ANY, 1), (2, 2, ANY), (1, 0, 0)]))", "ace"),
    "tables of a group (declared once)": (
        "satisfy(Table(scope=x[i:i + 2], supports=[(0, ANY), (1, 2), (3, 3)]) for i in range(3))",
        "ace",
    ),
    "table with * past its expansion": (
        "z = VarArray(size=6, dom=range(10))\n"
        "satisfy(Table(scope=z, supports=[(0, ANY, ANY, ANY, ANY, 1), (1, 2, ANY, ANY, ANY, ANY)]),\n"
        "        z[2] == z[3], z[3] == z[4], z[4] == 1)",
        "ace",
    ),
    "conflicts with *": ("satisfy(x[:3] not in {(0, 0, 0), (1, ANY, 1)})", "ortools"),
    "unary tables": ("satisfy(x[0] in {1, 3}, x[1] not in {0, 2})", "ace"),
    "regular": (
        "satisfy(Regular(scope=b, automaton=Automaton(start='a', final={'c'}, transitions=["
        "('a', 0, 'a'), ('a', 1, 'b'), ('b', 1, 'c'), ('c', 0, 'c'), ('c', 1, 'b')])))",
        "ace",
    ),
    "element": ("satisfy(x[y[0]] == 2, y[1] == x[y[2]])", "ace"),
    "element of a matrix": (
        "z = VarArray(size=[2, 4], dom=range(3))\nsatisfy(z[b[0]][y[0]] == 2, z[1][0] == z[0][3])",
        "ace",
    ),
    "circuit": ("satisfy(Circuit(x))", "ace"),
    "channel": ("satisfy(Channel(x, y))", "ace"),
    "channel of one list": ("satisfy(Channel(x))", "ace"),
    "channel to a value": ("satisfy(Channel(b, k))", "ortools"),
    "cardinality": ("satisfy(Cardinality(x, occurrences={0: 1, 1: range(1, 3), 2: y[0]}))", "ortools"),
    "closed cardinality": ("satisfy(Cardinality(x, occurrences={0: 1, 1: 2, 2: 1}, closed=True))", "ace"),
    "ordered": ("satisfy(Increasing(x), Decreasing(y, strict=True))", "ace"),
    "lex": ("satisfy(LexIncreasing(x, y), LexDecreasing(y[:2], x[2:], strict=True))", "ace"),
    "noOverlap": ("satisfy(NoOverlap(origins=x[:3], lengths=[1, 2, 1]))", "ortools"),
    "noOverlap in 2 dimensions": (
        "satisfy(NoOverlap(origins=[(x[0], y[0]), (x[1], y[1])], lengths=[(2, 1), (1, 2)]))",
        "ortools",
    ),
    "precedence": ("satisfy(Precedence(x, values=[0, 1, 2]))", "ace"),
    "precedence of every value": ("satisfy(Precedence(x))", "ace"),
    "covered precedence": ("satisfy(Precedence(x, values=[1, 2], covered=True))", "ace"),
    "repeated values (1x3)": ("satisfy(Cumulative(origins=x[:3], lengths=[2, 2, 2], heights=[1, 1, 1]) <= 2)", "ace"),
    "cumulative": ("satisfy(Cumulative(origins=x[:3], lengths=[1, 2, 1], heights=[1, 1, 2]) <= 2)", "ace"),
    "count": ("satisfy(Count(x, value=1) == 2, Count(y, values=[0, 3]) >= 3)", "ace"),
    "nValues": ("satisfy(NValues(x) == 2, NValues(y) >= 3)", "ortools"),
    "minimum and maximum": ("satisfy(Minimum(x) == 1, Maximum(y) <= 2)", "ace"),
    "allDifferent except": ("satisfy(AllDifferent(x, excepting=0))", "ace"),
    "allDifferentList": ("satisfy(AllDifferentList([x[:2], x[2:], y[:2]]))", "ace"),
    "allDifferentList except": ("satisfy(AllDifferentList([x[:2], x[2:], y[:2]], excepting=[(0, 0)]))", "ace"),
    "allEqual": ("satisfy(AllEqual(x[:3]), x[3] != x[0])", "ace"),
    "binPacking": ("satisfy(BinPacking(x[:3], sizes=[1, 2, 3]) <= 3)", "ace"),
    "div and mod": ("satisfy(x[0] % 3 == x[1] // 2, (x[2] + 1) // (x[3] + 1) == 1)", "ace"),
    "logic": (
        "satisfy((x[0] == 1) | (b[0] == 1), (x[1] > x[2]) == (b[1] == 1), imply(b[2] == 1, x[3] != 2), b[3] ^ b[0])",
        "ace",
    ),
    "arithmetic": ("satisfy(abs(x[0] - x[1]) == 2, max(x[2], x[3]) == x[0] + 1, min(y[0], y[1]) * 2 >= y[2])", "ace"),
    "if then else": ("satisfy(If(b[0] == 1, Then=x[0] == 1, Else=x[1] == 2))", "ace"),
    "instantiation": ("satisfy(x[:3] == (0, 1, 2))", "ace"),
    "sum with variable coefficients": ("satisfy(Sum(b[i] * x[i] for i in range(4)) == 3)", "ace"),
    "sum in a range": ("satisfy(Sum(x) in range(2, 5))", "ace"),
    "no solution": ("satisfy(AllDifferent(b[:3]))", "ace"),
}

OPTIMISED = {
    "minimise a maximum": "satisfy(AllDifferent(x))\nminimize(Maximum(x))",
    "maximise a weighted sum": "satisfy(Sum(b) <= 2)\nmaximize(Sum((i + 1) * b[i] for i in range(4)))",
    "minimise nValues": "satisfy(x[0] != x[1])\nminimize(NValues(x))",
    "minimise an expression": "satisfy(x[0] + x[1] >= 3)\nminimize(x[0] * 2 + x[1])",
}


def session_of(solver, source: str) -> PuzzleSession:
    session = PuzzleSession("mzn", solver=solver)
    session.add_step(DECLARE, solve=False)
    session.add_step(source + "\n", solve=False)
    return session


@pytest.mark.parametrize("name", COUNTED)
def test_each_construct_counts_the_solutions_the_reference_counts(solver, name):
    source, reference = COUNTED[name]
    session = session_of(solver, source)
    expected = session.solve(backend=reference, sols="all", timeout=60)
    found = session.solve(backend="minizinc", sols="all", timeout=60)
    session.close()
    assert found.backend == "minizinc" and found.stopped == ""
    assert (found.status, len(found.solutions)) == (expected.status, len(expected.solutions))
    assert _valued(found.solutions) == _valued(expected.solutions)


def _valued(solutions) -> set[tuple]:
    """The solutions as sets of (variable, value), variables in no constraint (None) left out."""
    return {tuple(sorted((vid, value) for vid, value in s.items() if value is not None)) for s in solutions}


@pytest.mark.parametrize("name", OPTIMISED)
def test_each_objective_reaches_the_optimum_ace_proves(solver, name):
    session = session_of(solver, OPTIMISED[name])
    expected = session.solve(backend="ace", timeout=60)
    found = session.solve(backend="minizinc", timeout=60)
    session.close()
    assert (found.status.value, found.bound) == ("OPTIMUM", expected.bound)
    assert len(found.solutions) == 1 and found.progress[-1][1] == found.bound


def test_optimisation_progress_improves_to_the_optimum(solver):
    session = PuzzleSession("golomb", solver=solver)
    session.add_step("m = 6\nmark = VarArray(size=m, dom=range(m * m))\n", solve=False)
    session.add_step(
        "satisfy(mark[0] == 0, Increasing(mark, strict=True),\n"
        "        AllDifferent(mark[j] - mark[i] for i in range(m) for j in range(i + 1, m)))\n"
        "minimize(mark[-1])\n",
        solve=False,
    )
    result = session.solve(backend="minizinc", timeout=60)
    session.close()
    bounds = [bound for _, bound in result.progress]
    assert (result.status.value, result.bound) == ("OPTIMUM", 17)
    assert len(bounds) >= 2 and bounds == sorted(bounds, reverse=True) and bounds[-1] == 17
    assert result.solution["mark[5]"] == 17


def test_variables_in_no_constraint_are_left_out_as_ace_leaves_them(solver):
    session = session_of(solver, "satisfy(x[0] + x[1] == 5)")
    result = session.solve(backend="minizinc", sols="all", timeout=60)
    session.close()
    assert len(result.solutions) == 2
    assert all(s["x[2]"] is None and s["b[0]"] is None and {s["x[0]"], s["x[1]"]} == {2, 3} for s in result.solutions)


def test_solution_limits_are_kept(solver):
    session = session_of(solver, "satisfy(AllDifferent(x))")
    assert len(session.solve(backend="minizinc", sols=5, timeout=60).solutions) == 5
    assert len(session.solve(backend="minizinc", sols="all", timeout=60).solutions) == 24
    session.close()


HARD = (
    "n = 16\nq = VarArray(size=n, dom=range(n))\n",
    "satisfy(AllDifferent(q), AllDifferent(q[i] + i for i in range(n)), AllDifferent(q[i] - i for i in range(n)))\n",
)


def test_a_time_limit_stops_the_search_with_the_solutions_found(solver):
    session = PuzzleSession("queens", solver=solver)
    for source in HARD:
        session.add_step(source, solve=False)
    result = session.solve(backend="minizinc", sols="all", timeout=1)
    session.close()
    assert result.stopped == "timeout" and result.status.value == "SAT"
    assert 0 < len(result.solutions) < 14_772_512  # all of 16-queens' solutions
    assert result.time < 30  # the limit held (generous: a busy machine cannot miss it)


def test_stop_ends_the_search_and_its_processes(solver, ctrl_c_interrupts):
    session = PuzzleSession("queens", solver=solver)
    for source in HARD:
        session.add_step(source, solve=False)
    main, running = threading.get_ident(), []
    earlier = set(_our_gecode())  # a search of an earlier test still being reaped is not this solve's

    def stop_once_gecode_runs() -> None:
        deadline = time.monotonic() + 60
        while not running and time.monotonic() < deadline:
            running.extend(pid for pid in _our_gecode() if pid not in earlier)
            time.sleep(0.05)
        signal.pthread_kill(main, signal.SIGINT)  # as the kernel's Stop does

    stopper = threading.Thread(target=stop_once_gecode_runs)
    stopper.start()
    result = session.solve(backend="minizinc", sols="all", timeout=120)
    stopper.join()
    session.close()
    assert running and result.stopped == "interrupted" and result.time < 60
    deadline = time.monotonic() + 10  # killed processes are reaped by init
    while any(Path(f"/proc/{pid}").exists() for pid in running) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in running)


def _our_gecode() -> list[int]:
    """The ids of the Gecode processes that this process started (through MiniZinc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes() if entry.name.isdigit() else b""
            if b"fzn-gecode" in command.split(b"\0")[0] and os.getpid() in _ancestors(int(entry.name)):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _ancestors(pid: int) -> list[int]:
    chain = []
    for _ in range(4):
        status = Path(f"/proc/{pid}/status").read_text()
        pid = int(status.split("PPid:")[1].split()[0])
        chain.append(pid)
    return chain


XCSP3 = """<instance format="XCSP3" type="CSP"><variables><array id="x" size="[3]"> 0..2 </array></variables>
<constraints>{}</constraints></instance>"""


@pytest.mark.parametrize(
    "constraint, named",
    [
        ("<clause>x[0] not(add(x[1],1))</clause>", "this form of <clause>"),
        ("<circuit><list>x[]</list><size>2</size></circuit>", "<circuit> with a size"),
        ("<intension>eq(x[0],foo(x[1]))</intension>", "the operator foo"),
        ("<intension>or(x[0],x[1])</intension>", "the integer variable x[0] used as a condition"),
        ("<nValues><list>x[]</list><except>0</except><condition>(eq,2)</condition></nValues>", "<nValues> with except"),
        ("<allEqual><list>x[0] x[1]</list><list>x[1] x[2]</list></allEqual>", "an allEqual of several lists"),
        ("<intension reifiedBy='x[2]'>lt(x[0],x[1])</intension>", "<intension> with reifiedBy"),
        ("<element><list>x[]</list><index rank='last'>x[0]</index><value>1</value></element>", "the rank last"),
        ("<ordered><list>x[]</list><lengths>1 1 1</lengths><operator>le</operator></ordered>", "lengths do not match"),
        ("<lex><list>x[0] x[1]</list><list>x[1] x[2]</list><limit>1</limit><operator>lt</operator></lex>", "a limit"),
        (
            "<knapsack><list>x[]</list><weights>1 2</weights><profits>1 1 1</profits>"
            "<condition>(le,3)</condition><condition>(ge,1)</condition></knapsack>",
            "do not match its list",
        ),
        (
            "<binPacking><list>x[]</list><sizes>1 2</sizes><condition>(le,2)</condition></binPacking>",
            "sizes do not match its list",
        ),
    ],
)
def test_what_the_translation_does_not_take_is_refused_by_name(constraint, named):
    with pytest.raises(Untranslatable) as refused:
        translate(XCSP3.format(constraint))
    assert named in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("backend", ["minizinc", "cp-sat"])
@pytest.mark.parametrize(
    "constraint",
    [
        "<knapsack><list>x[]</list><weights>1 2 1</weights><profits>2 1 3</profits>"
        "<limit>3</limit><condition>(ge,4)</condition></knapsack>",
        "<flow><list>x[]</list><balance>2 0 -2</balance><arcs>(1,3)(3,4)(1,4)</arcs>"
        "<weights>1 1 3</weights><condition>(le,5)</condition></flow>",
    ],
    ids=["knapsack with a limit", "flow on nodes 1, 3 and 4"],
)
def test_a_form_read_outside_pycsp3_counts_as_the_checker_does(solver, tmp_path, backend, constraint):
    path = tmp_path / "model.xml"
    path.write_text(XCSP3.format(constraint))
    checker = Checker.of_file(path)
    expected = {
        values
        for values in itertools.product(range(3), repeat=3)
        if checker.broken({f"x[{i}]": v for i, v in enumerate(values)}) is None
    }
    cells = {"x": tuple(((i,), f"x[{i}]") for i in range(3))}
    result = solver.solve(path, cells, sols="all", timeout=60, backend=backend)
    assert {tuple(s[f"x[{i}]"] for i in range(3)) for s in result.solutions} == expected and expected


def test_compact_lengths_of_an_ordered_list_are_written_out():
    ordered = "<ordered><list>x[]</list><lengths>1x2</lengths><operator>le</operator></ordered>"
    assert "constraint Vx_0 + 1 <= Vx_1 /\\ Vx_1 + 1 <= Vx_2;" in translate(XCSP3.format(ordered)).text


def test_the_backend_refuses_an_untranslatable_step_in_one_line(solver):
    session = session_of(solver, "satisfy(AllDifferent([[x[0], x[1]], [x[2], x[3]]], matrix=True))")
    with pytest.raises(
        BackendUnsupported,
        match=r"^The translation to MiniZinc does not take the matrix x\[\] \(not two "
        r"dimensions of an array\): nothing was solved [^\n]*$",
    ):
        session.solve(backend="minizinc")
    session.close()


def test_without_minizinc_the_backend_says_how_to_get_it(solver, monkeypatch):
    session = session_of(solver, "satisfy(x[0] < x[1])")
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(BackendUnsupported) as missing:
        session.solve(backend="minizinc")
    session.close()
    assert str(missing.value) == MISSING and "apt-get install minizinc" in MISSING


def test_names_map_back_without_clashes():
    names = ["x[1][2]", "x_1[2]", "x_1_2", "x__1", "x[12]", "sum", "output"]
    assert len({identifier(n) for n in names}) == len(names)
    assert all(identifier(n).startswith("V") for n in names)


def test_the_text_compiles_with_the_system_minizinc_as_is():
    model = translate(XCSP3.format("<allDifferent>x[]</allDifferent><intension>lt(x[0],x[1])</intension>"))
    run = subprocess.run(
        ["minizinc", "--solver", "gecode", "-a", "-"], input=model.text, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("----------") == 3 and "==========" in run.stdout


PURE = {"__future__", "collections.abc", "dataclasses", "itertools", "re", "typing", "xml.etree.ElementTree"}


def test_the_translation_imports_only_the_standard_library_the_browser_has():
    """The browser imports the translation: no lxml, numpy or subprocess, nothing of the solvers."""
    package = ROOT / "kernelext"
    seen, todo = set(), ["kernelext.xcsp.to_minizinc"]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = package.parent / (module.replace(".", "/") + ".py")
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                if name.startswith("kernelext."):
                    todo.append(name)
                else:
                    assert name in PURE, f"{module} imports {name}"
    assert seen == {
        "kernelext.xcsp.to_minizinc",
        "kernelext.xcsp.constraints",
        "kernelext.errors",
        "kernelext.xcsp.declarations",
        "kernelext.xcsp.expressions",
        "kernelext.xcsp.values",
    }


def test_the_minizinc_solver_setting_is_checked_and_reaches_the_backend(shell):
    magics = shell.ip.magics_manager.registry["PuzzleMagics"]
    shell.run("%config PuzzleMagics.minizinc_solver = 'cplex'")  # IPython logs the refusal
    assert magics.minizinc_solver == "gecode"
    shell.ok("%%puzzle pair\nx = VarArray(size=2, dom=range(3))")
    shell.ok("%config PuzzleMagics.minizinc_solver = 'chuffed'")  # not in Debian's MiniZinc: MiniZinc says so
    missing = shell.fails("%%puzzle+ --solver minizinc\nsatisfy(x[0] < x[1])")
    assert "MiniZinc" in missing and "chuffed" in missing.lower()
    shell.ok("%config PuzzleMagics.minizinc_solver = 'gecode'")
    assert "status: SAT" in shell.ok("%%puzzle+ --solver minizinc\nsatisfy(x[0] < x[1])")
