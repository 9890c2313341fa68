"""CP-SAT reading XCSP3 directly: the same solution counts as brute force and as ACE, the constructs it
leaves to ACE named, holes skipped, and time limits and Stop that hold."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import EVERY_SOLUTION
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernelext.errors import ReadingStopped
from kernelext.solver.backends.cpsat import solve_cpsat
from kernelext.solver.cpsat.reader import Reading
from kernelext.solver.engine import Solver
from kernelext.solver.errors import BackendUnsupported
from kernelext.xcsp.check import Checker
from kernelext.xcsp.document import parse_text

N = 3  # variables x[0..2]
DOMAIN = range(0, 4)
CELLS = {"x": tuple(((i,), f"x[{i}]") for i in range(N))}
VARIABLES = [f"x[{i}]" for i in range(N)]


def instance(
    constraints: str, variables: str = f'<array id="x" size="[{N}]"> 0..3 </array>', objectives: str = ""
) -> str:
    return (
        f'<instance format="XCSP3" type="{"COP" if objectives else "CSP"}"><variables>{variables}</variables>'
        f"<constraints>{constraints}</constraints>{objectives}</instance>\n"
    )


def count(tmp_path: Path, text: str, cells=CELLS, backend: str = "cp-sat", solver: Solver | None = None):
    path = tmp_path / "model.xml"
    path.write_text(text)
    if backend == "cp-sat":
        return solve_cpsat(path, cells, sols="all", timeout=30)
    return solver.solve(path, cells, sols="all", timeout=30, backend=backend)


# Random expressions over x[0..2], with a Python evaluation of XCSP3's meaning as the oracle.

INTEGER_OPS = {
    "add": lambda *a: sum(a),
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "neg": lambda a: -a,
    "abs": abs,
    "dist": lambda a, b: abs(a - b),
    "min": min,
    "max": max,
    "if": lambda c, a, b: a if c else b,
}
BOOLEAN_OPS = {
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "eq": lambda *a: len(set(a)) == 1,
    "ne": lambda a, b: a != b,
    "and": lambda *a: all(a),
    "or": lambda *a: any(a),
    "not": lambda a: not a,
    "imp": lambda a, b: (not a) or b,
    "iff": lambda a, b: bool(a) == bool(b),
    "xor": lambda a, b: bool(a) != bool(b),
}


def integers(depth: int):
    leaf = st.one_of(
        st.integers(-2, 4).map(lambda k: (str(k), lambda v, k=k: k)),
        st.integers(0, N - 1).map(lambda i: (f"x[{i}]", lambda v, i=i: v[i])),
    )
    if depth == 0:
        return leaf
    smaller = integers(depth - 1)
    binary = st.tuples(st.sampled_from(["add", "sub", "mul", "dist", "min", "max"]), smaller, smaller).map(
        lambda t: (f"{t[0]}({t[1][0]},{t[2][0]})", lambda v, t=t: INTEGER_OPS[t[0]](t[1][1](v), t[2][1](v)))
    )
    unary = st.tuples(st.sampled_from(["neg", "abs"]), smaller).map(
        lambda t: (f"{t[0]}({t[1][0]})", lambda v, t=t: INTEGER_OPS[t[0]](t[1][1](v)))
    )
    choice = st.tuples(booleans(depth - 1), smaller, smaller).map(
        lambda t: (f"if({t[0][0]},{t[1][0]},{t[2][0]})", lambda v, t=t: t[1][1](v) if t[0][1](v) else t[2][1](v))
    )
    return st.one_of(leaf, binary, unary, choice)


def booleans(depth: int):
    comparison = st.tuples(
        st.sampled_from(["lt", "le", "gt", "ge", "eq", "ne"]), integers(min(depth, 1)), integers(min(depth, 1))
    ).map(lambda t: (f"{t[0]}({t[1][0]},{t[2][0]})", lambda v, t=t: BOOLEAN_OPS[t[0]](t[1][1](v), t[2][1](v))))
    membership = st.tuples(
        st.sampled_from(["in", "notin"]), integers(min(depth, 1)), st.sets(st.integers(-1, 4), min_size=1, max_size=3)
    ).map(
        lambda t: (
            f"{t[0]}({t[1][0]},set({','.join(map(str, sorted(t[2])))}))",
            lambda v, t=t: (t[1][1](v) in t[2]) == (t[0] == "in"),
        )
    )
    if depth == 0:
        return st.one_of(comparison, membership)
    smaller = booleans(depth - 1)
    logic = st.tuples(st.sampled_from(["and", "or", "imp", "iff", "xor"]), smaller, smaller).map(
        lambda t: (f"{t[0]}({t[1][0]},{t[2][0]})", lambda v, t=t: BOOLEAN_OPS[t[0]](t[1][1](v), t[2][1](v)))
    )
    negation = smaller.map(lambda t: (f"not({t[0]})", lambda v, t=t: not t[1](v)))
    return st.one_of(comparison, membership, logic, negation)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(booleans(2), min_size=1, max_size=2))
def test_random_intension_constraints_count_as_brute_force(tmp_path, constraints):
    text = instance("".join(f"<intension> {xcsp} </intension>" for xcsp, _ in constraints))
    used = {i for xcsp, _ in constraints for i in range(N) if f"x[{i}]" in xcsp}
    expected = {
        tuple(v[i] for i in sorted(used))
        for v in itertools.product(DOMAIN, repeat=N)
        if all(holds(v) for _, holds in constraints)
    }  # ACE's counting: unconstrained variables left out
    result = count(tmp_path, text)
    assert len(result.solutions) == len(expected), text
    assert result.status.value == ("SAT" if expected else "UNSAT")
    for solution in result.solutions:
        values = [solution[f"x[{i}]"] for i in range(N)]
        assert all(holds(values) for _, holds in constraints), (text, values)
        assert all((values[i] is None) == (i not in used) for i in range(N))


GLOBAL_FORMS = {
    "sum with coefficients and a variable": "<sum><list> x[0] x[1] </list><coeffs> 2 -1 </coeffs>"
    "<condition> (le,x[2]) </condition></sum>",
    "sum in a range": "<sum><list> x[] </list><condition> (in,2..4) </condition></sum>",
    "sum of expressions": "<sum><list> eq(x[0],1) add(x[1],1) </list><condition> (eq,3) </condition></sum>",
    "count": "<count><list> x[] </list><values> 1 2 </values><condition> (ge,2) </condition></count>",
    "allDifferent": "<allDifferent> x[] </allDifferent>",
    "allDifferent of expressions": "<allDifferent> x[0] add(x[1],1) </allDifferent>",
    "table with stars": "<extension><list> x[] </list><supports> (0,*,1)(1,1,*)(*,2,2) </supports></extension>",
    "conflicts": "<extension><list> x[] </list><conflicts> (0,2,1)(3,3,3) </conflicts></extension>",
    "unary table": "<extension><list> x[1] </list><supports> 0 2..3 </supports></extension>",
    "group": "<group><intension> lt(%0,%1) </intension><args> x[0] x[1] </args><args> x[1] x[2] </args></group>",
    "group with %...": "<group><allDifferent> %... </allDifferent><args> x[0..1] </args><args> x[1..2] </args></group>",
    "instantiation": "<block><instantiation><list> x[0] </list><values> 2 </values></instantiation></block>",
    "compact values": "<instantiation><list> x[0] x[1] </list><values> 1x2 </values></instantiation>",
    "compact coefficients": "<sum><list> x[] </list><coeffs> 2x2 -1 </coeffs><condition> (eq,3) </condition></sum>",
    "regular": "<regular><list> x[] </list><transitions> (a,0,a)(a,1,b)(b,1,b)(b,2,c)(c,3,c) </transitions>"
    "<start> a </start><final> b c </final></regular>",
}


@pytest.fixture(scope="module")
def solver():
    solver = Solver(keep=EVERY_SOLUTION)
    yield solver
    solver.close()


@pytest.mark.parametrize("form", GLOBAL_FORMS, ids=list(GLOBAL_FORMS))
def test_each_global_form_counts_as_ace_does(tmp_path, solver, form):
    text = instance(GLOBAL_FORMS[form])
    ours, ace = count(tmp_path, text), count(tmp_path, text, backend="ace", solver=solver)
    assert (ours.status, len(ours.solutions)) == (ace.status, len(ace.solutions))
    assert {tuple(sorted(s.items())) for s in ours.solutions} == {tuple(sorted(s.items())) for s in ace.solutions}


def test_a_long_table_with_stars_is_posted_tuple_by_tuple_with_ace_s_count(tmp_path, solver):
    width = 8  # 4 ** 7 tuples once expanded: too many to list, so each tuple gets its own literal
    cells = {"y": tuple(((i,), f"y[{i}]") for i in range(width))}
    rows = "".join("(" + ",".join(str(k) if j in (k, k + 1) else "*" for j in range(width)) + ")" for k in range(3))
    text = instance(
        f"<extension><list> y[] </list><supports> {rows} </supports></extension>",
        variables=f'<array id="y" size="[{width}]"> 0..3 </array>',
    )
    ours = count(tmp_path, text, cells)
    ace = count(tmp_path, text, cells, backend="ace", solver=solver)
    assert len(ours.solutions) == len(ace.solutions) > 4 ** (width - 2)


def test_objectives_reach_ace_s_optimum(tmp_path, solver):
    for objective in (
        '<minimize type="sum"><list> x[] </list><coeffs> 1 -2 1 </coeffs></minimize>',
        "<maximize> dist(x[0],add(x[1],x[2])) </maximize>",
    ):
        text = instance("<intension> ne(x[0],x[1]) </intension>", objectives=f"<objectives>{objective}</objectives>")
        path = tmp_path / "model.xml"
        path.write_text(text)
        ours = solve_cpsat(path, CELLS, sols=1, timeout=30)
        ace = solver.solve(path, CELLS, timeout=30, backend="ace")
        assert (ours.status.value, ours.bound) == ("OPTIMUM", ace.bound)
        assert len(ours.solutions) == 1 and ours.progress[-1][1] == ours.bound  # the best, and how it improved


def test_an_all_equal_of_lists_makes_every_list_equal(tmp_path):
    found = count(tmp_path, instance("<allEqual><list> x[0] x[1] </list><list> x[1] x[2] </list></allEqual>"))
    assert sorted(tuple(s.values()) for s in found.solutions) == [(v, v, v) for v in DOMAIN]


def test_a_flow_s_nodes_are_those_of_its_arcs_as_the_checker_reads_them(tmp_path):
    text = instance(  # nodes 1, 3 and 4: the balance is theirs, in that order
        "<flow><list> x[] </list><balance> 1 0 -1 </balance><arcs> (1,3)(3,4)(1,4) </arcs>"
        "<weights> 1 1 2 </weights><condition> (le,3) </condition></flow>"
    )
    found = count(tmp_path, text)
    checker = Checker.of_file(tmp_path / "model.xml")
    expected = {
        values for values in itertools.product(DOMAIN, repeat=N) if checker.broken(dict(zip(VARIABLES, values))) is None
    }
    assert expected and {tuple(s.values()) for s in found.solutions} == expected and not found.invalid


def test_a_circuit_s_start_is_its_list_s_as_the_checker_reads_it(tmp_path):
    on_both = count(tmp_path, instance("<circuit startIndex='0'><list startIndex='1'> x[] </list></circuit>"))
    on_list = count(tmp_path, instance("<circuit><list startIndex='1'> x[] </list></circuit>"))
    assert on_both.solutions and on_both.solutions == on_list.solutions and not on_both.invalid


def test_an_element_s_start_may_be_given_on_the_element(tmp_path):
    on_element = count(
        tmp_path,
        instance("<element startIndex='1'><list> x[] </list><index> x[0] </index><value> 3 </value></element>"),
    )
    on_list = count(
        tmp_path,
        instance("<element><list startIndex='1'> x[] </list><index> x[0] </index><value> 3 </value></element>"),
    )
    assert on_element.solutions and on_element.solutions == on_list.solutions


def test_an_argument_s_start_may_be_given_on_the_element(tmp_path):
    arg = "<minimumArg{}><list{}> x[] </list><condition> (eq,1) </condition></minimumArg>"
    on_element = count(tmp_path, instance(arg.format(" startIndex='1'", "")))
    on_list = count(tmp_path, instance(arg.format("", " startIndex='1'")))
    assert on_element.solutions and on_element.solutions == on_list.solutions


def test_compact_lists_skip_the_holes_of_an_array(tmp_path):
    cells = {"z": (((0,), "z[0]"), ((1,), None), ((2,), "z[2]"))}  # z[1] is a hole the file does not mark
    text = instance("<allDifferent> z[] </allDifferent>", variables='<array id="z" size="[3]"> 0..1 </array>')
    result = count(tmp_path, text, cells)
    assert len(result.solutions) == 2 and all(set(s) == {"z[0]", "z[2]"} for s in result.solutions)


@pytest.mark.parametrize(
    "constraint, named",
    [
        ("<allDifferent><matrix> x[] </matrix></allDifferent>", "not two dimensions"),
        (
            "<cumulative><origins> x[] </origins><lengths> 1 1 1 </lengths><heights> 1 1 1 </heights>"
            "<machines> x[] </machines><conditions> (le,1) </conditions></cumulative>",
            "machines",
        ),
        ("<intension> eq(pow(x[0],-1),1) </intension>", "negative exponent"),
        ("<smart><list> x[] </list></smart>", "<smart>"),
        ("<group><intension ireifiedBy='x[2]'> lt(%0,%1) </intension><args> x[0] x[1] </args></group>", "ireifiedBy"),
        ("<sum reifiedBy='x[2]'><list> x[0] x[1] </list><condition> (eq,1) </condition></sum>", "reifiedBy"),
        ("<element><list> x[] </list><index rank='first'> x[0] </index><value> 1 </value></element>", "rank first"),
        ("<ordered><list> x[] </list><lengths> 1 </lengths><operator> le </operator></ordered>", "lengths"),
        (
            "<lex><list> x[0] x[1] </list><list> x[1] x[2] </list><limit> 1 </limit><operator> lt </operator></lex>",
            "limit",
        ),
        ("<minimum><list> x[] </list><index> x[0] </index><condition> (eq,1) </condition></minimum>", "an index"),
        (
            "<knapsack><list> x[] </list><weights> 1 2 3 </weights><profits> 1 1 </profits>"
            "<condition> (le,3) </condition><condition> (ge,1) </condition></knapsack>",
            "do not match its list",
        ),
        ("<binPacking><list> x[] </list><sizes> 1 2 </sizes><limits> 2 2 2 </limits></binPacking>", "sizes do not"),
        (
            "<flow><list> x[] </list><balance> 0 0 0 </balance><arcs> (0,1)(1,2)(0,2) </arcs><weights> 1 1 </weights>"
            "<condition> (le,3) </condition></flow>",
            "weights do not match",
        ),
    ],
)
def test_what_it_does_not_translate_is_named_and_left_to_another_solver(tmp_path, constraint, named):
    with pytest.raises(BackendUnsupported, match=named):
        count(tmp_path, instance(constraint))


def test_the_same_model_gives_the_same_solutions_every_time(tmp_path):
    text = instance("<allDifferent> x[] </allDifferent><intension> lt(x[0],x[2]) </intension>")
    path = tmp_path / "model.xml"
    path.write_text(text)
    first = [solve_cpsat(path, CELLS, sols=1, timeout=10).solution for _ in range(3)]
    assert first[0] == first[1] == first[2]


def hard_instance(m: int = 12) -> str:
    """The shortest Golomb ruler with `m` marks: CP-SAT takes far longer than the limits below to prove it."""
    differences = " ".join(f"sub(g[{j}],g[{i}])" for i in range(m) for j in range(i + 1, m))
    increasing = "".join(f"<intension> lt(g[{i}],g[{i + 1}]) </intension>" for i in range(m - 1))
    return instance(
        f"<instantiation><list> g[0] </list><values> 0 </values></instantiation>{increasing}"
        f"<allDifferent> {differences} </allDifferent>",
        variables=f'<array id="g" size="[{m}]"> 0..{m * m} </array>',
        objectives=f"<objectives><minimize> g[{m - 1}] </minimize></objectives>",
    )


HARD_CELLS = {"g": tuple(((i,), f"g[{i}]") for i in range(12))}
LATE = 30  # seconds past a limit or Stop that a solve may take here (how soon it returns: benchmarks/time_limits.py)


def test_a_time_limit_holds_on_a_search_that_would_run_for_long(tmp_path):
    path = tmp_path / "hard.xml"
    path.write_text(hard_instance())
    start = time.monotonic()
    result = solve_cpsat(path, HARD_CELLS, sols=1, timeout=1.0)
    assert result.stopped == "timeout" and result.status.value in ("SAT", "UNKNOWN")  # no optimum proved
    assert time.monotonic() - start < 1.0 + LATE


STOPPED = """
import json, os, signal, sys, threading, time
from pathlib import Path
from kernelext.solver.backends.cpsat import solve_cpsat
cells = {"g": tuple(((i,), f"g[{i}]") for i in range(12))}
signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a kernel, whatever this process inherited
threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()  # what the kernel's Stop button sends
start = time.monotonic()
result = solve_cpsat(Path(sys.argv[1]), cells, sols=1, timeout=60)
print(json.dumps({"after_stop": time.monotonic() - start - 1.0, "stopped": result.stopped}))
"""


def test_stop_ends_a_cp_sat_search(tmp_path):
    path = tmp_path / "hard.xml"
    path.write_text(hard_instance())
    done = subprocess.run([sys.executable, "-c", STOPPED, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(next(line for line in done.stdout.splitlines() if line.startswith("{")))
    assert result["stopped"] == "interrupted", result  # Stop ended it, not the 60 s limit
    assert result["after_stop"] < LATE, result


def test_cp_sat_comes_without_pandas_whose_api_still_works_when_asked_for():
    script = """
import sys
from kernelext.solver.cpsat.module import cp_model
cp = cp_model()
model = cp.CpModel()
v = model.new_int_var(0, 3, "v")
model.add(v >= 2)
solver = cp.CpSolver()
assert solver.solve(model) == cp.OPTIMAL and solver.value(v) == 2
assert "pandas" not in sys.modules
import pandas
series = model.new_int_var_series("s", pandas.Index(range(3)), 0, 5)
assert isinstance(series, pandas.Series) and len(series) == 3
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_reading_told_to_stop_ends_and_the_next_one_starts_afresh():
    root = parse_text(
        instance("<allDifferent> x[] </allDifferent><sum><list> x[] </list><condition> (eq,3) </condition></sum>")
    )
    variables, elements = root.find("variables"), list(root.find("constraints"))
    reading, stop = Reading(), threading.Event()
    stop.set()
    with pytest.raises(ReadingStopped):
        reading.translated(variables, elements, frozenset(), stop)
    translated = reading.translated(variables, elements, frozenset())
    assert len(translated.model.Proto().constraints) >= 2 and set(translated.variables) == {"x[0]", "x[1]", "x[2]"}


class SetAfterOneLook:
    """A stop signal that is clear at its first look and set from then on: the look before the first
    constraint passes, so only a look inside that constraint can stop the reading."""

    def __init__(self):
        self.looks = 0

    def is_set(self) -> bool:
        self.looks += 1
        return self.looks > 1


ONE_LARGE_TABLE = instance(
    "<extension><list> x[] </list><supports> "
    + "".join(f"({a},{b},{c})" for a, b, c in itertools.product(range(60), repeat=3))
    + " </supports></extension>",
    '<array id="x" size="[3]"> 0..59 </array>',
)  # 216,000 tuples, one constraint


def test_a_reading_stops_inside_one_large_table(tmp_path):
    from kernelext.solver.cpsat.reader import read
    from kernelext.solver.kit.search import read_rules
    from kernelext.xcsp.subsets import read_model
    from kernelext.xcsp.to_minizinc import translate

    path = tmp_path / "table.xml"
    path.write_text(ONE_LARGE_TABLE)
    for reading in (
        lambda stop: read(path, frozenset(), stop),  # CP-SAT's
        lambda stop: translate(ONE_LARGE_TABLE, stop=stop),  # MiniZinc's
        lambda stop: read_rules(read_model(path), stop=stop),  # the kit's
    ):
        stop = SetAfterOneLook()
        with pytest.raises(ReadingStopped):
            reading(stop)
        assert stop.looks == 2  # stopped at its first look inside the table
        reading(None)  # and read whole when not told to stop
