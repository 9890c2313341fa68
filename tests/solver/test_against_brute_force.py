"""Every construct pycsp3 posts, on small models drawn by Hypothesis (sizes, domains, constants): the whole set of
solutions each backend gives (the kit's own search among them), through the kit (its checker included), equals the set found by trying every
assignment in plain Python."""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from conftest import EVERY_SOLUTION
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernelext.errors import ModelRejected
from kernelext.solver.engine import Solver
from kernelext.solver.errors import BackendUnsupported
from kernelext.steps.session import PuzzleSession

pytestmark = pytest.mark.timeout(900)

BACKENDS = ["cp-sat", "auto", "ace", "minizinc", "kit"]


@dataclass(frozen=True)
class Construct:
    """A model over x[0..n-1] in 0..d-1 (and b[0..n-1] in 0..1): its pycsp3 source and its meaning in Python."""

    source: Callable[[dict], str]
    holds: Callable[[dict, tuple, tuple], bool]  # (parameters, x, b) -> does the assignment satisfy it
    parameters: st.SearchStrategy = st.fixed_dictionaries({})
    uses_b: bool = False
    matrix: bool = False  # b is then declared as z, a 2x2 array in 0..1 (z[i][j] is b[2 * i + j])


def _lex_less(a, b, strict):
    return tuple(a) < tuple(b) or (not strict and tuple(a) == tuple(b))


def _circuit(x, start=0):
    nodes = [i for i in range(len(x)) if x[i] - start != i]
    if len(nodes) < 2 or any(not 0 <= v - start < len(x) for v in x):
        return False
    seen, node = [], nodes[0]
    while node not in seen:
        seen.append(node)
        node = x[node] - start
    return node == nodes[0] and sorted(seen) == nodes


def _lists_differ(lists, excepted):
    kept = [tuple(listed) for listed in lists if tuple(listed) not in excepted]
    return len(set(kept)) == len(kept)


def _no_overlap(origins, lengths, zero_ignored=True):
    for a, b in itertools.combinations(range(len(origins)), 2):
        if zero_ignored and (lengths[a] == 0 or lengths[b] == 0):
            continue
        if not (origins[a] + lengths[a] <= origins[b] or origins[b] + lengths[b] <= origins[a]):
            return False
    return True


def _no_overlap_2d(boxes, sizes):
    for a, b in itertools.combinations(range(len(boxes)), 2):
        if any(0 in sizes[k] for k in (a, b)):
            continue
        if not any(
            boxes[a][d] + sizes[a][d] <= boxes[b][d] or boxes[b][d] + sizes[b][d] <= boxes[a][d] for d in range(2)
        ):
            return False
    return True


def _cumulative(origins, lengths, heights, limit):
    times = range(min(origins), max(o + n for o, n in zip(origins, lengths)) + 1)
    return all(sum(h for o, n, h in zip(origins, lengths, heights) if o <= t < o + n) <= limit for t in times)


def _precedence(x, ordered, covered=False):
    for before, after in zip(ordered, ordered[1:]):
        if after in x and (before not in x or x.index(before) > x.index(after)):
            return False
    return not covered or all(v in x for v in ordered)


def _accepts(word, arcs, start, finals):
    states = {start}
    for value in word:
        states = {head for tail, v, head in arcs if tail in states and v == value}
    return bool(states & set(finals))


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


small = st.integers


CONSTRUCTS = {
    "intension arithmetic": Construct(
        lambda p: f"satisfy(abs(x[0] - x[1]) + {p['k']} * x[2] >= max(x[0], x[1]), x[0] * x[1] != {p['m']})",
        lambda p, x, b: abs(x[0] - x[1]) + p["k"] * x[2] >= max(x[0], x[1]) and x[0] * x[1] != p["m"],
        st.fixed_dictionaries({"k": small(-2, 2), "m": small(0, 4)}),
    ),
    "div and mod": Construct(
        lambda p: (
            f"satisfy((x[0] - {p['s']}) % (x[1] - {p['t']}) == x[2] - {p['s']}, "
            f"(x[2] - {p['s']}) // (x[0] - {p['t']}) >= 0)"
        ),
        lambda p, x, b: (
            x[1] != p["t"]
            and x[0] != p["t"]
            and (x[0] - p["s"]) - _trunc_div(x[0] - p["s"], x[1] - p["t"]) * (x[1] - p["t"]) == x[2] - p["s"]
            and _trunc_div(x[2] - p["s"], x[0] - p["t"]) >= 0
        ),
        st.fixed_dictionaries({"s": small(0, 2), "t": small(0, 2)}),
    ),
    "pow": Construct(
        lambda p: f"satisfy(x[0] ** {p['e']} == x[1] + x[2], x[2] ** x[1] <= 4)",
        lambda p, x, b: x[0] ** p["e"] == x[1] + x[2] and x[2] ** x[1] <= 4,
        st.fixed_dictionaries({"e": small(0, 3)}),
    ),
    "logic": Construct(
        lambda p: (
            "satisfy((x[0] == 1) | (b[0] == 1), (x[1] > x[2]) == (b[1] == 1), imply(b[2] == 1, x[0] != 2),"
            " b[0] ^ b[1] ^ b[2])"
        ),
        lambda p, x, b: (
            (x[0] == 1 or b[0] == 1)
            and ((x[1] > x[2]) == (b[1] == 1))
            and (b[2] != 1 or x[0] != 2)
            and (b[0] + b[1] + b[2]) % 2 == 1
        ),
        uses_b=True,
    ),
    "if then else": Construct(
        lambda p: "satisfy(If(b[0] == 1, Then=x[0] == 1, Else=x[1] == 2))",
        lambda p, x, b: x[0] == 1 if b[0] == 1 else x[1] == 2,
        uses_b=True,
    ),
    "in a set": Construct(
        lambda p: f"satisfy(x[0] in {set(p['s'])}, x[1] not in {set(p['s'])})",
        lambda p, x, b: x[0] in p["s"] and x[1] not in p["s"],
        st.fixed_dictionaries({"s": st.lists(small(0, 3), min_size=1, max_size=3)}),
    ),
    "table": Construct(
        lambda p: f"satisfy(x[:3] in {p['t']})",
        lambda p, x, b: tuple(x[:3]) in p["t"],
        st.fixed_dictionaries(
            {"t": st.lists(st.tuples(small(0, 3), small(0, 3), small(0, 3)), min_size=1, max_size=6)}
        ),
    ),
    "table with *": Construct(
        lambda p: "satisfy(Table(scope=x[:3], supports=[(0, ANY, 1), (2, 2, ANY), (1, 0, 0)]))",
        lambda p, x, b: (x[0] == 0 and x[2] == 1) or (x[0] == 2 and x[1] == 2) or tuple(x[:3]) == (1, 0, 0),
    ),
    "conflicts with *": Construct(
        lambda p: "satisfy(x[:3] not in {(0, 0, 0), (1, ANY, 1)})",
        lambda p, x, b: tuple(x[:3]) != (0, 0, 0) and not (x[0] == 1 and x[2] == 1),
    ),
    "allDifferent": Construct(lambda p: "satisfy(AllDifferent(x))", lambda p, x, b: len(set(x)) == len(x)),
    "allDifferent of expressions": Construct(
        lambda p: "satisfy(AllDifferent(x[i] + i for i in range(n)))",
        lambda p, x, b: len({v + i for i, v in enumerate(x)}) == len(x),
    ),
    "allDifferent except": Construct(
        lambda p: f"satisfy(AllDifferent(x, excepting={p['e']}))",
        lambda p, x, b: all(u != v or u == p["e"] for u, v in itertools.combinations(x, 2)),
        st.fixed_dictionaries({"e": small(0, 2)}),
    ),
    "allDifferentList": Construct(
        lambda p: "satisfy(AllDifferentList([x[:2], x[1:3], x[2:4]]))",
        lambda p, x, b: len({tuple(x[:2]), tuple(x[1:3]), tuple(x[2:4])}) == 3,
    ),
    "allDifferentList except": Construct(
        lambda p: f"satisfy(AllDifferentList([x[:2], x[1:3], x[2:4]], excepting=[({p['e']}, {p['e']})]))",
        lambda p, x, b: _lists_differ([x[:2], x[1:3], x[2:4]], {(p["e"], p["e"])}),
        st.fixed_dictionaries({"e": small(0, 2)}),
    ),
    "allDifferent matrix": Construct(
        lambda p: "satisfy(AllDifferent(z, matrix=True))",
        lambda p, x, b: all(b[i] != b[j] for i, j in [(0, 1), (2, 3), (0, 2), (1, 3)]),  # z[i][j] is b[2 * i + j]
        uses_b=True,
        matrix=True,
    ),
    "allDifferent matrix except": Construct(
        lambda p: "satisfy(AllDifferent(z, matrix=True, excepting=0))",
        lambda p, x, b: all(
            b[i] != b[j] or b[i] == 0 for i, j in [(0, 1), (2, 3), (0, 2), (1, 3)]
        ),  # z[i][j] is b[2 * i + j]
        uses_b=True,
        matrix=True,
    ),
    "allEqual": Construct(lambda p: "satisfy(AllEqual(x[:3]))", lambda p, x, b: len(set(x[:3])) == 1),
    "allEqual except": Construct(lambda p: "satisfy(AllEqual(x, excepting=0))", lambda p, x, b: len(set(x) - {0}) <= 1),
    "ordered": Construct(
        lambda p: f"satisfy(Increasing(x, strict={p['s']}))",
        lambda p, x, b: all(u < v if p["s"] else u <= v for u, v in zip(x, x[1:])),
        st.fixed_dictionaries({"s": st.booleans()}),
    ),
    "ordered with lengths": Construct(
        lambda p: "satisfy(Increasing(x[:3], lengths=[1, x[3]]))",
        lambda p, x, b: x[0] + 1 <= x[1] and x[1] + x[3] <= x[2],
    ),
    "lex": Construct(
        lambda p: f"satisfy(LexIncreasing(x[:2], x[2:], strict={p['s']}))",
        lambda p, x, b: _lex_less(x[:2], x[2:], p["s"]),
        st.fixed_dictionaries({"s": st.booleans()}),
    ),
    "lex decreasing": Construct(
        lambda p: "satisfy(LexDecreasing(x[:2], x[2:], strict=True))", lambda p, x, b: _lex_less(x[2:], x[:2], True)
    ),
    "lex of a matrix": Construct(
        lambda p: f"satisfy(LexIncreasing(z, matrix=True, strict={p['s']}))",
        lambda p, x, b: _lex_less(b[:2], b[2:], p["s"]) and _lex_less(b[0::2], b[1::2], p["s"]),  # rows, columns
        st.fixed_dictionaries({"s": st.booleans()}),
        uses_b=True,
        matrix=True,
    ),
    "sum": Construct(
        lambda p: f"satisfy(Sum(x) {p['op']} {p['k']})",
        lambda p, x, b: eval(f"{sum(x)} {p['op']} {p['k']}"),
        st.fixed_dictionaries({"op": st.sampled_from(["==", "<=", ">", "!="]), "k": small(0, 8)}),
    ),
    "sum with coefficients": Construct(
        lambda p: f"satisfy(Sum(x[i] * c for i, c in enumerate({p['c']})) == {p['k']})",
        lambda p, x, b: sum(v * c for v, c in zip(x, p["c"])) == p["k"],
        st.fixed_dictionaries({"c": st.lists(small(-2, 3), min_size=4, max_size=4), "k": small(-3, 6)}),
    ),
    "sum with variable coefficients": Construct(
        lambda p: "satisfy(Sum(b[i] * x[i] for i in range(n)) == 3)",
        lambda p, x, b: sum(u * v for u, v in zip(b, x)) == 3,
        uses_b=True,
    ),
    "sum in a range": Construct(lambda p: "satisfy(Sum(x) in range(2, 5))", lambda p, x, b: 2 <= sum(x) < 5),
    "count": Construct(
        lambda p: f"satisfy(Count(x, value={p['v']}) == {p['k']})",
        lambda p, x, b: x.count(p["v"]) == p["k"],
        st.fixed_dictionaries({"v": small(0, 2), "k": small(0, 3)}),
    ),
    "count of variables": Construct(
        lambda p: "satisfy(Count(x[:2], values=[x[2], x[3]]) >= 1)",
        lambda p, x, b: sum(v in (x[2], x[3]) for v in x[:2]) >= 1,
    ),
    "nValues": Construct(
        lambda p: f"satisfy(NValues(x) == {p['k']})",
        lambda p, x, b: len(set(x)) == p["k"],
        st.fixed_dictionaries({"k": small(1, 3)}),
    ),
    "nValues except": Construct(
        lambda p: "satisfy(NValues(x, excepting=0) <= 1)", lambda p, x, b: len(set(x) - {0}) <= 1
    ),
    "cardinality": Construct(
        lambda p: "satisfy(Cardinality(x, occurrences={0: 1, 1: range(1, 3), 2: x[3]}))",
        lambda p, x, b: x.count(0) == 1 and 1 <= x.count(1) <= 2 and x.count(2) == x[3],
    ),
    "closed cardinality": Construct(
        lambda p: "satisfy(Cardinality(x, occurrences={0: 1, 1: 2, 2: 1}, closed=True))",
        lambda p, x, b: (x.count(0), x.count(1), x.count(2)) == (1, 2, 1),
    ),
    "minimum and maximum": Construct(
        lambda p: f"satisfy(Minimum(x) == {p['lo']}, Maximum(x[:3]) <= x[3])",
        lambda p, x, b: min(x) == p["lo"] and max(x[:3]) <= x[3],
        st.fixed_dictionaries({"lo": small(0, 2)}),
    ),
    "maximumArg": Construct(
        lambda p: f"satisfy(MaximumArg(x, rank=TypeRank.{p['r']}) == {p['i']})",
        lambda p, x, b: (
            p["i"]
            in [i for i, v in enumerate(x) if v == max(x)][
                {"FIRST": slice(0, 1), "LAST": slice(-1, None), "ANY": slice(None)}[p["r"]]
            ]
        ),
        st.fixed_dictionaries({"r": st.sampled_from(["FIRST", "LAST", "ANY"]), "i": small(0, 3)}),
    ),
    "element": Construct(
        lambda p: "satisfy(x[x[0]] == 2, x[1] == x[x[2]])",
        lambda p, x, b: x[0] < len(x) and x[2] < len(x) and x[x[0]] == 2 and x[1] == x[x[2]],
    ),
    "element of a matrix": Construct(
        lambda p: "satisfy(z[z[0][0]][z[1][1]] == 1, x[0] == z[z[1][0]][1] + x[1])",
        lambda p, x, b: b[2 * b[0] + b[3]] == 1 and x[0] == b[2 * b[2] + 1] + x[1],
        uses_b=True,
        matrix=True,
    ),
    "channel": Construct(
        lambda p: "satisfy(Channel(x[:2], x[2:]))",
        lambda p, x, b: (
            all(x[i] < 2 and x[2 + x[i]] == i for i in range(2))
            and all(x[2 + j] < 2 and x[x[2 + j]] == j for j in range(2))
        ),
    ),
    "channel of one list": Construct(
        lambda p: "satisfy(Channel(x))",
        lambda p, x, b: all((x[i] == j) == (x[j] == i) for i in range(4) for j in range(4)),
    ),
    "channel to a value": Construct(
        lambda p: "satisfy(Channel(b, x[0]))", lambda p, x, b: sum(b) == 1 and b.index(1) == x[0], uses_b=True
    ),
    "circuit": Construct(lambda p: "satisfy(Circuit(x))", lambda p, x, b: _circuit(x)),
    "circuit from 1": Construct(lambda p: "satisfy(Circuit(x, start_index=1))", lambda p, x, b: _circuit(x, 1)),
    "noOverlap": Construct(
        lambda p: f"satisfy(NoOverlap(origins=x[:3], lengths={p['l']}))",
        lambda p, x, b: _no_overlap(x[:3], p["l"]),
        st.fixed_dictionaries({"l": st.lists(small(0, 2), min_size=3, max_size=3)}),
    ),
    "noOverlap of variable lengths": Construct(
        lambda p: f"satisfy(NoOverlap(origins=x[:2], lengths=x[2:], zero_ignored={p['z']}))",
        lambda p, x, b: _no_overlap(x[:2], x[2:], p["z"]),
        st.fixed_dictionaries({"z": st.booleans()}),
    ),
    "noOverlap in 2 dimensions": Construct(
        lambda p: f"satisfy(NoOverlap(origins=[(x[0], x[1]), (x[2], x[3])], lengths={p['l']}))",
        lambda p, x, b: _no_overlap_2d([(x[0], x[1]), (x[2], x[3])], p["l"]),
        st.fixed_dictionaries({"l": st.lists(st.tuples(small(0, 2), small(1, 2)), min_size=2, max_size=2)}),
    ),
    "cumulative": Construct(
        lambda p: f"satisfy(Cumulative(origins=x[:3], lengths={p['l']}, heights={p['h']}) <= {p['c']})",
        lambda p, x, b: _cumulative(x[:3], p["l"], p["h"], p["c"]),
        st.fixed_dictionaries(
            {
                "l": st.lists(small(0, 2), min_size=3, max_size=3),
                "h": st.lists(small(0, 2), min_size=3, max_size=3),
                "c": small(1, 3),
            }
        ),
    ),
    "cumulative of variable lengths": Construct(
        lambda p: "satisfy(Cumulative(origins=x[:2], lengths=x[2:], heights=[1, 2]) <= 2)",
        lambda p, x, b: _cumulative(x[:2], x[2:], [1, 2], 2),
    ),
    "binPacking": Construct(
        lambda p: f"satisfy(BinPacking(x[:3], sizes={p['s']}) <= {p['c']})",
        lambda p, x, b: all(sum(s for v, s in zip(x[:3], p["s"]) if v == k) <= p["c"] for k in range(4)),
        st.fixed_dictionaries({"s": st.lists(small(1, 3), min_size=3, max_size=3), "c": small(2, 4)}),
    ),
    "binPacking with limits": Construct(
        lambda p: f"satisfy(BinPacking(x[:3], sizes=[1, 2, 2], limits={p['m']}))",
        lambda p, x, b: (
            all(v < len(p["m"]) for v in x[:3])
            and all(sum(s for v, s in zip(x[:3], [1, 2, 2]) if v == k) <= m for k, m in enumerate(p["m"]))
        ),
        st.fixed_dictionaries({"m": st.lists(small(0, 3), min_size=2, max_size=4)}),
    ),
    "flow": Construct(  # with weights: pycsp3 cannot post a flow without a condition
        lambda p: (
            f"satisfy(Flow(x[:3], balance=[2, 0, -2], arcs=[(0, 1), (1, 2), (0, 2)], weights=[1, 1, 3]) <= {p['c']})"
        ),
        lambda p, x, b: x[0] + x[2] == 2 and x[1] == x[0] and x[0] + x[1] + 3 * x[2] <= p["c"],
        st.fixed_dictionaries({"c": small(2, 7)}),
    ),
    "clause": Construct(  # a phase True is the variable, False its negation
        lambda p: f"satisfy(Clause(b[:3], phases={p['p']}))",
        lambda p, x, b: any(v == (1 if phase else 0) for v, phase in zip(b[:3], p["p"])),
        st.fixed_dictionaries({"p": st.lists(st.booleans(), min_size=3, max_size=3)}),
        uses_b=True,
    ),
    "knapsack": Construct(
        lambda p: "satisfy(Knapsack(b, weights=[1, 2, 3, 2], wlimit=5, profits=[2, 3, 4, 1]) >= 6)",
        lambda p, x, b: (
            sum(u * w for u, w in zip(b, [1, 2, 3, 2])) <= 5 and sum(u * w for u, w in zip(b, [2, 3, 4, 1])) >= 6
        ),
        uses_b=True,
    ),
    "regular": Construct(
        lambda p: (
            "satisfy(b in Automaton(start='a', final={'c'}, transitions=[('a', 0, 'a'), ('a', 1, 'b'), "
            "('b', 1, 'c'), ('c', 0, 'c'), ('c', 1, 'b'), ('a', 1, 'c')]))"
        ),
        lambda p, x, b: _accepts(
            b, [("a", 0, "a"), ("a", 1, "b"), ("b", 1, "c"), ("c", 0, "c"), ("c", 1, "b"), ("a", 1, "c")], "a", ["c"]
        ),
        uses_b=True,
    ),
    "mdd": Construct(
        lambda p: (
            "satisfy(x[:2] in MDD([('r', 0, 'n1'), ('r', 1, 'n2'), ('n1', 2, 't'), ('n2', 0, 't'), ('n2', 3, 't')]))"
        ),
        lambda p, x, b: tuple(x[:2]) in {(0, 2), (1, 0), (1, 3)},
    ),
    "precedence": Construct(
        lambda p: f"satisfy(Precedence(x, values={p['v']}, covered={p['c']}))",
        lambda p, x, b: _precedence(list(x), p["v"], p["c"]),
        st.fixed_dictionaries({"v": st.sampled_from([[0, 1, 2], [1, 2], [2, 0]]), "c": st.booleans()}),
    ),
    "instantiation": Construct(lambda p: "satisfy(x[:3] == (0, 1, 2))", lambda p, x, b: tuple(x[:3]) == (0, 1, 2)),
    "slide": Construct(
        lambda p: "satisfy(x[i] != x[i + 1] for i in range(n - 1))",
        lambda p, x, b: all(u != v for u, v in zip(x, x[1:])),
    ),
}


def _model(construct: Construct, parameters: dict) -> tuple[str, str]:
    second = "z = VarArray(size=[2, 2], dom={0, 1})\n" if construct.matrix else "b = VarArray(size=n, dom={0, 1})\n"
    declare = "n = 4\nx = VarArray(size=n, dom=range(4))\n" + (second if construct.uses_b else "")
    return declare, construct.source(parameters) + "\n"


def _brute_force(construct: Construct, parameters: dict) -> set[tuple]:
    found = set()
    for x in itertools.product(range(4), repeat=4):
        for b in itertools.product(range(2), repeat=4) if construct.uses_b else [()]:
            try:
                holds = construct.holds(parameters, list(x), list(b))
            except (IndexError, ZeroDivisionError):
                holds = False
            if holds:
                found.add(x + b)
    return found


def _solutions(result, construct: Construct) -> list[tuple]:
    second = [f"z[{i}][{j}]" for i in range(2) for j in range(2)] if construct.matrix else [f"b[{i}]" for i in range(4)]
    names = [f"x[{i}]" for i in range(4)] + (second if construct.uses_b else [])
    return [tuple(solution.get(name) for name in names) for solution in result.solutions]


def _solved(solver, construct: Construct, parameters: dict, backend: str, objective: str = "", **options):
    """The construct's model (and `objective`) solved by `backend` within 60 s."""
    declare, source = _model(construct, parameters)
    session = PuzzleSession("brute", solver=solver)
    try:
        session.add_step(declare, solve=False)
        session.add_step(source + objective, solve=False)
        return session.solve(backend=backend, timeout=60, **options)
    finally:
        session.close()


@pytest.fixture(scope="module")
def shared_solver():
    solver = Solver(keep=EVERY_SOLUTION)
    yield solver
    solver.close()


def _involved(rows: set[tuple], result_rows: list[tuple]) -> set[tuple]:
    """Brute force's solutions projected onto the variables the solver reports (None: in no constraint)."""
    if not result_rows:
        return rows
    keep = [k for k, value in enumerate(result_rows[0]) if value is not None]
    return {tuple(row[k] if k in keep else None for k in range(len(row))) for row in rows}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", CONSTRUCTS)
def test_every_solution_and_only_solutions_as_brute_force_finds(shared_solver, backend, name):
    if backend == "minizinc" and shutil.which("minizinc") is None:
        pytest.fail("minizinc is not installed (apt-get install minizinc)")
    construct = CONSTRUCTS[name]

    @settings(max_examples=4, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(construct.parameters)
    def check(parameters):
        try:
            result = _solved(shared_solver, construct, parameters, backend, sols="all")
        except (BackendUnsupported, ModelRejected) as refused:  # refused in words: never a wrong answer
            assert backend in ("ace", "minizinc") and str(refused), refused
            return
        assert result.stopped == "", (name, parameters, result)
        if backend == "ace" and result.status.value == "UNKNOWN" and not result.solutions:
            return  # ACE gave no answer (it does so on divisors that can be 0 or negative): nothing wrong shown
        found = _solutions(result, construct)
        expected_all = _brute_force(construct, parameters)
        if result.invalid and "solved again" not in result.invalid:  # the kit's check caught a wrong answer
            assert backend in ("ace", "minizinc"), result.invalid
            assert set(found) <= _involved(expected_all, found) and result.status.value != "UNSAT"
            return
        assert len(found) == len(set(found)), f"{backend} repeats solutions on {name} {parameters}"
        expected = _involved(expected_all, found)
        assert set(found) == expected, (
            f"{backend} on {name} {parameters}: {len(found)} solutions, "
            f"brute force {len(expected)}; extra {sorted(set(found) - expected)[:3]}, "
            f"missing {sorted(expected - set(found))[:3]}"
        )
        assert (result.status.value == "UNSAT") == (not expected)

    check()


# An objective over x for each construct, in turn: a sum, an expression, a variable, a weighted sum to maximise.
OBJECTIVES = (
    ("minimize(Sum(x))", min, lambda x: sum(x)),
    ("maximize(x[0] * 2 - x[1])", max, lambda x: x[0] * 2 - x[1]),
    ("minimize(x[3])", min, lambda x: x[3]),
    ("maximize(Sum((i + 1) * x[i] for i in range(4)))", max, lambda x: sum((i + 1) * v for i, v in enumerate(x))),
)


@pytest.mark.parametrize("backend", ["kit", "cp-sat"])
@pytest.mark.parametrize("name", CONSTRUCTS)
def test_the_optimum_is_the_best_objective_brute_force_finds(shared_solver, backend, name):
    construct = CONSTRUCTS[name]
    objective, best, value = OBJECTIVES[list(CONSTRUCTS).index(name) % len(OBJECTIVES)]

    @settings(max_examples=2, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(construct.parameters)
    def check(parameters):
        result = _solved(shared_solver, construct, parameters, backend, objective=objective + "\n")
        solutions = _brute_force(construct, parameters)
        assert result.stopped == "" and not result.invalid, (name, parameters, result)
        if not solutions:
            assert result.status.value == "UNSAT", (name, parameters, result)
            return
        optimum = best(value(row[:4]) for row in solutions)
        assert (result.status.value, result.bound) == ("OPTIMUM", optimum), (name, parameters, objective, result)
        [solution] = _solutions(result, construct)
        assert value(solution[:4]) == optimum

    check()
