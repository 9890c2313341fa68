"""Every limit holds: `--sols all` keeps at most `max_solutions` and counts the rest, `tree` searches within its
`--timeout`, `%puzzle check` passes its `--timeout` on. The seconds past each limit are measured in
benchmarks/command_limits.py; here, what each command says and keeps."""

from __future__ import annotations

import pytest

MANY = "%%puzzle many\nx = VarArray(size=4, dom=range(10))\n"  # 10,000 solutions
PIGEONS = "%%puzzle pigeons\nx = VarArray(size=12, dom=range(11))\n"
NO_TWO_ALIKE = "%%puzzle+\nsatisfy(x[i] != x[j] for i in range(12) for j in range(i + 1, 12))\n"


def magics(shell):
    return shell.ip.magics_manager.registry["PuzzleMagics"]


@pytest.fixture(autouse=True)
def configured_here_only(shell):
    """`%config` writes into the shell's configuration, which outlives the test: take max_solutions out again."""
    yield
    shell.ip.config.PuzzleMagics.pop("max_solutions", None)


@pytest.mark.parametrize("backend", ["auto", "ace", "minizinc"])
def test_sols_all_keeps_max_solutions_and_counts_the_rest(shell, backend):
    shell.ok("from pycsp3 import *")
    shell.ok("%config PuzzleMagics.max_solutions = 50")
    shell.ok(MANY)
    text = shell.ok(f"%%puzzle+ --sols all --solver {backend} --timeout 120\nsatisfy(Sum(x) >= 0)\n")  # a busy machine
    assert "10,000 solutions found, the first 50 kept and checked" in text
    report = magics(shell).session
    assert len(report.last_result.solutions) == 50 and report.last_result.more == 9950
    assert len({tuple(sorted(s.items())) for s in report.last_result.solutions}) == 50


def test_sols_all_under_the_limit_says_only_the_count(shell):
    shell.ok("from pycsp3 import *")
    shell.ok(MANY)
    text = shell.ok("%%puzzle+ --sols all\nsatisfy(Sum(x) == 1)\n")
    assert "SAT: 4 solutions" in text and "kept" not in text


def test_max_solutions_must_be_positive(shell, caplog):
    shell.ok("%config PuzzleMagics.max_solutions = 0")  # IPython logs a trait's refusal, and keeps the value
    assert "max_solutions must be 1 or more, not 0" in caplog.text
    assert magics(shell).max_solutions == 10_000


def test_max_solutions_set_after_the_first_solve_applies_to_the_next(shell):
    shell.ok("from pycsp3 import *")
    shell.ok(MANY)
    shell.ok("%%puzzle+\nsatisfy(Sum(x) >= 0)\n")
    shell.ok("%config PuzzleMagics.max_solutions = 7")
    text = shell.ok("%puzzle solve --sols all")
    assert "the first 7 kept" in text


@pytest.mark.timeout(60)
def test_tree_searches_within_its_own_timeout(shell):
    shell.ok("from pycsp3 import *")
    shell.ok(PIGEONS)
    shell.ok(NO_TWO_ALIKE)
    text = shell.ok("%puzzle tree --nodes 1000000 --timeout 1")
    assert "Stopped when the time limit ran out" in text
    nodes = int(text.split("search tree: ")[1].split(" nodes")[0])
    assert 0 < nodes < 1_000_000
