"""Beginner mistakes that stock pycsp3 accepts silently are pointed out, with their line, before the step runs."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, model_text

from kernelext.errors import StepError
from kernelext.magic.render import report_text
from kernelext.steps.lint import check_source
from kernelext.steps.session import PuzzleSession

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
# cells that show a mistake on purpose, to let the class see what goes wrong
DEMONSTRATIONS = {"satisfy(k[A] == (k[B] == 0 and k[C] == 0))"}

MISTAKES = {  # source (x: 3 variables 0..2, n = 3): (line, words of the message, stops the step)
    "and": ("k = 1\nsatisfy(x[0] == 1 and x[1] == 2)", 2, "write (a) & (b)", True),
    "or": ("satisfy(x[0] == 1 or x[1] == 2)", 1, "write (a) | (b)", True),
    "not": ("satisfy(not x[0] == 1)", 1, "write ~(a)", True),
    "and inside a comprehension": ("satisfy(x[i] == 1 and x[i] == 2 for i in range(3))", 1, "&", True),
    "and on a variable declared in the step": (
        "y = VarArray(size=2, dom={0, 1})\nsatisfy(y[0] == 1 and y[1] == 0)",
        2,
        "&",
        True,
    ),
    "and on an alias of a variable": ("row = x\nsatisfy(row[0] == 1 or row[1] == 1)", 2, "|", True),
    "comparison on its own line": ("x[0] == 1", 1, "put it inside satisfy(...)", True),
    "global constraint on its own line": ("AllDifferent(x)", 1, "put it inside satisfy(...)", True),
    "True reaching satisfy": ("satisfy(True)", 1, "True/False before pycsp3 saw it", True),
    "comparison of plain numbers": ("satisfy(n == 3)", 1, "True/False before pycsp3 saw it", True),
    "comparison of loop counters": ("satisfy(i < j for i in range(3) for j in range(3))", 1, "True/False", True),
    "if on a comparison": ("if x[0] == 1:\n    satisfy(x[1] == 1)", 1, "use If(test, Then=...)", True),
    "if on a variable": ("satisfy(x[1] == 1 if x[0] else x[1] == 2)", 1, "use If(test, Then=...)", True),
    "while on a variable": ("while x[0] > 5:\n    break", 1, "use If(test, Then=...)", True),
    "comprehension filter on a variable": ("satisfy(x[i] == 1 for i in range(3) if x[i] > 0)", 1, "If(", True),
    "builtin sum": ("satisfy(sum(x) == 2)", 1, "use Sum(...)", False),
    "clause without phases": ("satisfy(Clause(x[0], ~x[1]))", 1, "give phases=[True, False, ...]", False),
    "division by 0": ("satisfy(x[0] // 0 == 1)", 1, "a division by 0", False),
    "remainder of a division by 0": ("k = 2\nsatisfy(x[i] % 0 == k for i in range(3))", 2, "a division by 0", False),
    "generator used twice": (
        "g = (x[i] for i in range(3))\nsatisfy(AllDifferent(g))\n\nsatisfy(Sum(g) == 2)",
        4,
        "build it as a list",
        False,
    ),
}
FINE = [
    "satisfy(x[0] == 1, x[1] == 2)",
    "satisfy((x[0] == 1) & (x[1] == 2), ~(x[2] == 0))",
    "satisfy(x[i] == 1 for i in range(n) if i > 0 and i < 2)",
    "cells = [x[i] for i in range(3) if x[i] is not None]",
    "satisfy(Maximum(x) == 2, max(x) == 2, abs(x[0] - x[1]) == 1)",
    "satisfy(x[0] // 2 == 1, x[1] % n == 0)",
    "total = sum([1, 2, 3])\nok = n > 2 and total == 6",
    "g = (x[i] for i in range(3))\nsatisfy(AllDifferent(g))",
    "dom = lambda i: {0} if i in {0, n} else range(3)",
    # a loop name that shadows a model array, and plain values drawn from domains (PyCSP3-models code)
    "src, dst = [0, 1, 2], [1, 2, 0]\nsucc = [{src[x] for x in range(3) if dst[x] == i} for i in range(3)]",
    "cliques = [[0, 1], [1, 2]]\nbig = [c for c in cliques if all(k < 3 for k in c)]",
    "gaps = [(v2 - v1, v2, v1) for v2 in x[2].dom for v1 in x[1].dom if v2 - v1 in x[0].dom]",
    "satisfy(Clause(variables=[x[0], x[1]], phases=[True, False]))",  # as PyCSP3-models' SAT and Rubik write it
]


@pytest.fixture
def namespace():
    session = PuzzleSession("lint")
    session.add_step("x = VarArray(size=3, dom=range(3))\nn = 3\n", solve=False)
    yield session.namespace
    session.close()


@pytest.mark.parametrize("name", MISTAKES)
def test_mistake_is_found_at_its_line_naming_the_fix(namespace, name):
    source, line, words, error = MISTAKES[name]
    findings = check_source(source, namespace)
    assert findings, name
    assert findings[0].line == line and words in findings[0].message and findings[0].error is error
    assert str(findings[0]).startswith(f"line {line}: ") and "\n" not in str(findings[0])


@pytest.mark.parametrize("source", FINE)
def test_correct_code_gives_no_finding(namespace, source):
    assert check_source(source, namespace) == []


def test_loop_over_variables_still_cannot_filter_on_them(namespace):
    [finding] = check_source("satisfy(v == 1 for v in x if v > 0)", namespace)
    assert finding.error and "comprehension's `if`" in finding.message


def test_arrays_of_a_puzzle_started_before_are_plain_names_now(shell):
    shell.ok("%%puzzle first\ne = VarArray(size=3, dom=range(3))\n")
    shell.ok("%%puzzle second\nsrc, dst = [0, 1, 2], [1, 2, 0]\ny = VarArray(size=3, dom=range(3))\n")
    text = shell.ok(
        "%%puzzle+\nnext_of = [{src[e] for e in range(3) if dst[e] == i} for i in range(3)]\nsatisfy(y[0] == 1)\n"
    )
    assert "status: SAT" in text and "warning" not in text


def test_builtin_max_is_an_error_when_pycsp3_does_not_shadow_it():
    findings = check_source("x = VarArray(size=3, dom=range(3))\nm = max(x)", {})
    assert findings[0].line == 2 and "use Maximum(...)" in findings[0].message and findings[0].error


def test_generator_used_up_by_an_earlier_cell_is_pointed_out(namespace):
    exec("g = (v for v in x)\nlist(g)", namespace)
    findings = check_source("satisfy(AllDifferent(g))", namespace)
    assert "used up by an earlier cell" in findings[0].message


def test_syntax_errors_are_left_to_the_step():
    assert check_source("satisfy(x[0] == ", {}) == []


def test_session_refuses_an_error_and_keeps_the_model():
    session = PuzzleSession("lint")
    session.add_step("x = VarArray(size=3, dom=range(3))\n", solve=False)
    session.add_step("satisfy(x[0] == 1)\n", solve=False)
    before = model_text()
    with pytest.raises(StepError) as caught:
        session.add_step("satisfy(x[1] == 0)\nsatisfy(x[1] == 1 and x[2] == 2)\n")
    assert str(caught.value) == (
        "Line 2: `and` between constraints keeps only one of them: write (a) & (b), or give "
        "satisfy() separate arguments.\n    satisfy(x[1] == 1 and x[2] == 2)"
    )
    assert model_text() == before and len(session.steps) == 2
    session.close()


def test_session_shows_warnings_with_the_report():
    session = PuzzleSession("lint")
    session.add_step("x = VarArray(size=3, dom=range(3))\n", solve=False)
    report = session.add_step("satisfy(sum(x) == 2)\n")
    assert report.warnings == ("line 1: Python's sum() on model variables: use Sum(...) instead.",)
    assert report.result.status.value == "SAT"
    assert "\nwarning: line 1: Python's sum() on model variables: use Sum(...) instead.\nstatus: SAT" in report_text(
        report
    )
    session.close()


def test_warning_is_shown_in_the_notebook(shell):
    shell.ok("%%puzzle w\nx = VarArray(size=3, dom=range(3))\n")
    assert "warning: line 2: Python's sum()" in shell.ok("%%puzzle+\nsatisfy(sum(x) == 2)\n")  # line 1: %%puzzle+
    text = shell.fails("%%puzzle+\nsatisfy(x[0] == 1 or x[1] == 1)\n")
    assert "Line 2: `or` between constraints" in text and "Traceback" not in text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_false_alarm_on_the_classroom_notebooks(path, shell, monkeypatch):
    """Every cell runs in a real shell, as in the notebook (steps not solved); no step is flagged, but the
    notebooks' deliberate mistakes."""
    monkeypatch.chdir(path.parent)
    for cell in json.loads(path.read_text())["cells"]:
        source = "".join(cell["source"])
        head, _, body = source.partition("\n")
        if cell["cell_type"] != "code" or head.startswith("%puzzle "):  # line commands declare nothing
            continue
        if not head.startswith("%%puzzle"):
            shell.ok(source)
            continue
        findings = check_source(body, shell.ip.user_ns)
        if body.strip() in DEMONSTRATIONS:
            assert findings and findings[0].error, body
            shell.fails(source)
            continue
        assert findings == [], (path.name, body)
        shell.ok(f"{head} --no-solve\n{body}")


def test_pycsp3_warnings_are_one_line_in_the_kits_words_naming_the_line(shell):
    shell.ok("%%puzzle w\nx = VarArray(size=[3, 3], dom=range(3))\n")
    text = shell.ok("%%puzzle+\nk = 1\nsatisfy(Sum(x[1][:5]) >= 1)\n")
    assert (
        "warning: line 3: the slice [:5] goes past the end of an array, and pycsp3 fills it with cells from "
        "its start again: keep slices within the array."
    ) in text
    assert "Warning:" not in text and "\x1b" not in text
    again = shell.ok("%%puzzle+\nsatisfy(Sum(x[2][:4]) >= 1)\n")
    assert "warning: line 2: the slice [:4]" in again  # each step's warning, not only the first in the kernel


def test_no_puzzle_cell_of_a_stored_notebook_shows_a_raw_pycsp3_warning():
    for path in NOTEBOOKS:
        for cell in json.loads(path.read_text())["cells"]:
            if not "".join(cell["source"]).startswith("%"):
                continue  # a plain cell may show pycsp3 on its own, on purpose (the `and` trap)
            for output in cell.get("outputs", ()):
                text = "".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", ""))
                assert "Warning:" not in text and "\x1b[" not in text, f"{path.name}: {text[:200]}"


@pytest.mark.parametrize(
    "source", ["d = len(x)\nok = [i for i in range(5) if i < d]", "d = len(x)\nif d > 2:\n    satisfy(x[0] == 1)"]
)
def test_plain_data_computed_from_variables_is_not_a_variable(namespace, source):
    assert check_source(source, namespace) == []


def test_a_name_that_may_hold_variables_gives_a_warning_not_a_refusal(namespace):
    [finding] = check_source("e = abs(x[0] - x[1])\nif e > 1:\n    satisfy(x[0] == 1)", namespace)
    assert finding.line == 2 and not finding.error and "`if` cannot test a model variable" in finding.message
    [finding] = check_source("y = x[0]\nif y > 1:\n    satisfy(x[0] == 1)", namespace)
    assert finding.error  # y is surely a variable: picked out of x


def test_a_name_reused_by_sibling_comprehensions_is_judged_in_each_one():
    namespace = {}
    exec("from pycsp3 import *", namespace)
    session = PuzzleSession("lint", namespace)
    session.add_step("n = 4\nS = VarArray(size=[n, n], dom=range(1, n + 1))\n", solve=False)
    rows_then_blocks = (
        "satisfy([AllDifferent(r) for r in S],\n"
        "        [AllDifferent(S[i][j] for i in range(r, r + 2) for j in range(2)) for r in range(0, 4, 2)])"
    )
    assert check_source(rows_then_blocks, namespace) == []
    assert "of a number" in check_source("satisfy([AllDifferent(r) for r in range(3)])", namespace)[0].message
    session.close()


RUN_TIME = {  # a step that really asks a constraint for True/False, or drops one: (line, words of the refusal)
    "and inside a helper": (
        "def both(a, b):\n    return a == 1 and b == 2\nsatisfy(both(x[0], x[1]))",
        2,
        "asked a constraint for True/False",
    ),
    "chain of comparisons": ("satisfy(x[0] < x[1] < x[2])", 1, "write (a < b) & (b < c)"),
    "while on a constraint": ("k = 0\nwhile x[k] > 0:\n    k += 1", 2, "use If(test, Then=...)"),
    "constraint dropped inside a loop": ("for i in range(2):\n    x[i] != x[i + 1]", 2, "put it inside satisfy(...)"),
    "tuple of variables looked up among numbers": ("satisfy((x[0], x[1]) in enumerate([2, 1]))", 1, "True/False"),
}


@pytest.mark.parametrize("name", RUN_TIME)
def test_mistake_the_step_really_makes_is_refused_at_its_line(name):
    source, line, words = RUN_TIME[name]
    session = PuzzleSession("lint")
    session.add_step("x = VarArray(size=3, dom=range(3))\nn = 3\n", solve=False)
    before = model_text()
    with pytest.raises(StepError) as caught:
        session.add_step(source, solve=False)
    assert str(caught.value).startswith(f"Line {line}: ") and words in str(caught.value), str(caught.value)
    assert model_text() == before and len(session.steps) == 1
    session.close()


@pytest.mark.parametrize(
    "source",
    [
        "satisfy(x[2] == (0 if len(x) == n else x[1]))",
        "flags = [True, False]\nsatisfy(a < b if f else a > b for (a, b, f) in [(x[0], x[1], flags[0]), (x[1], x[2], flags[1])])",
        "kinds = [1, 1, 2]\nsatisfy([x[a] < x[b] for a in range(3) for b in range(3) if kinds[a] == kinds[b] == 1 and a < b])",
        "satisfy(Sum(x[j:j + k]) >= 1 for j in range(3) if (k := min(3 - j, 2)) > 1)",
    ],
)
def test_plain_tests_beside_variables_are_accepted_without_a_word(source):
    session = PuzzleSession("lint")
    session.add_step("x = VarArray(size=3, dom=range(3))\nn = 3\n", solve=False)
    report = session.add_step(source, solve=False)
    assert report.posted and report.warnings == ()
    session.close()


def test_a_variable_asked_for_true_or_false_is_a_warning():
    session = PuzzleSession("lint")
    session.add_step("x = VarArray(size=3, dom=range(3))\n", solve=False)
    report = session.add_step("satisfy(x[1] == 1 if x[0] else x[1] == 2)", solve=False)
    assert report.warnings == (
        "line 1: a model variable is tested as True/False, and Python takes it as true "
        "whatever its value (unknown while modelling): for its value use If(x == v, "
        "Then=...); for a hole, `is not None`.",
    )
    assert report.posted == ("intension(function:eq(x[1],1))",)
    session.close()


@pytest.mark.parametrize("container", ["cp_array([[], [1], [1, 2]])", "[[], [1], [1, 2]]", "[set(), {1}, {1, 2}]"])
def test_not_in_an_empty_collection_posts_nothing_and_in_one_is_refused(container):
    """`x not in S` with S empty holds for every value: pycsp3 posts nothing, which is right, whichever way it
    hands the test over (an empty list of integers, cp_array's, hands `in` over as False). `x in S` with S empty
    holds for none, and is refused."""
    namespace = {}
    exec("from pycsp3 import *", namespace)
    session = PuzzleSession("empty", namespace)
    session.add_step(f"x = VarArray(size=3, dom=range(3))\nS = {container}\n", solve=False)
    report = session.add_step("satisfy([x[i] not in S[i] for i in range(3)])", solve=True, sols="all")
    assert len(report.posted) == 2  # nothing for x[0]
    assert sorted((s["x[1]"], s["x[2]"]) for s in report.result.solutions) == [(0, 0), (2, 0)]
    before = model_text()
    with pytest.raises(StepError, match="x\\[0\\] in an empty set posts nothing"):
        session.add_step("satisfy([x[i] in S[i] for i in range(3)])", solve=False)
    assert model_text() == before
