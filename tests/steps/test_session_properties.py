"""Random sequences of adds, edits, re-runs, undos, failing steps and restarts: after each action the
session's model is the one rebuilt from scratch from the cells as they now stand, and solves the same.

The steps to pick from are valid on their own; a step is refused only when it would give the model a second
objective or declare `y` twice, and each test counts the steps that were accepted (it fails with none)."""

from __future__ import annotations

import hashlib

import pytest
from conftest import model_text
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from kernelext.errors import StepError
from kernelext.solver.engine import Solver
from kernelext.steps.session import PuzzleSession

PUZZLES = {  # name: (the %%puzzle cell, the %%puzzle+ cells to pick from)
    "latin": (
        "n = 4\nx = VarArray(size=[n, n], dom=range(1, n + 1))\n",
        [
            "satisfy(AllDifferent(x[i]) for i in range(n))\n",
            "satisfy(AllDifferent(x[:, j]) for j in range(n))\n",
            "satisfy(x[0][0] == 1)\n",
            "satisfy(x[0][0] == 2, x[1][1] == x[2][2])\n",
            "k = 2\nsatisfy(x[k][k] != 1)\n",
            "minimize(Sum(x[0]))\n",
            "y = VarArray(size=2, dom=range(3))\nsatisfy(y[0] != y[1])\n",
        ],
    ),
    "amaze": (
        "n, m = 3, 3\npoints = [[(1, 1), (3, 3)]]\nx = VarArray(size=[n + 2, m + 2], dom=lambda i, j: {0} "
        "if i in {0, n + 1} or j in {0, m + 1} else range(len(points) + 1))\n",
        [
            "satisfy(x[i][j] == v + 1 for v in range(len(points)) for i, j in points[v])\n",
            "satisfy(Count(x[i - 1][j], x[i + 1][j], x[i][j - 1], x[i][j + 1], value=v + 1) == 1\n"
            "        for v in range(len(points)) for i, j in points[v])\n",
            "minimize(Sum(x))\n",
            "satisfy(x[2][2] == 1)\n",
            "y = VarArray(size=2, dom=range(3))\nsatisfy(y[0] != y[1])\n",
        ],
    ),
    "queens": (
        "n = 5\nq = VarArray(size=n, dom=range(n))\n",
        [
            "satisfy(AllDifferent(q))\n",
            "satisfy(AllDifferent(q[i] + i for i in range(n)))\n",
            "satisfy(AllDifferent(q[i] - i for i in range(n)))\n",
            "satisfy(q[0] == 0)\n",
            "minimize(q[n - 1])\n",
            "y = VarArray(size=2, dom=range(3))\nsatisfy(y[0] != y[1])\n",
        ],
    ),
}
FAILING = [
    "satisfy(undefined_name == 1)\n",
    "satisfy(q[0] == \n",
    "z = VarArray(size=2, dom=range(0))\n",
    "satisfy(x[0][0] == 1 and x[1][1] == 2)\n",
    "satisfy(q[0] == 1 or q[1] == 2)\n",
    "n = 99\nraise KeyboardInterrupt\n",
]


ONCE = {"minimize(": "A model has one objective", "y = VarArray(": "The identifier y is used twice"}
PROPERTY_SETTINGS = dict(
    deadline=None,
    derandomize=True,
    database=None,  # the same examples on every run
    suppress_health_check=[HealthCheck.too_slow],
)  # each step runs pycsp3


def refusal(sources: list[str]) -> str | None:
    """What the session must say when its cells become `sources` (a second objective, `y` declared twice), or
    None when it must accept them."""
    for marker, message in ONCE.items():
        if sum(marker in source for source in sources) > 1:
            return message
    return None


def source_key(source: str) -> str:
    return "source:" + hashlib.sha1(source.encode()).hexdigest()


def rebuilt(name: str, cells: list[tuple[str, str]], solver: Solver) -> PuzzleSession:
    """A fresh session fed `cells` in order."""
    session = PuzzleSession(name, solver=solver)
    for key, source in cells:
        session.add_step(source, key, solve=False)
    return session


def status(session: PuzzleSession, backend: str = "ace") -> tuple:
    if not session.anything_to_solve():
        return ("nothing to solve",)
    result = session.solve(backend=backend, timeout=20)
    return result.status, result.bound


class SessionMachine(RuleBasedStateMachine):
    """The session under test, and the cells of the notebook as they stand (key, source)."""

    solver: Solver  # set by the test
    counts: dict  # set by the test: steps accepted and refused over all its examples

    def __init__(self):
        super().__init__()
        self.name = "latin"
        self.session = None
        self.cells: list[tuple[str, str]] = []
        self.history: list[list[tuple[str, str]]] = []  # the cells before each change, as `undo` goes back
        self.counter = 0

    @rule(name=st.sampled_from(sorted(PUZZLES)))
    def restart(self, name):
        if self.session is not None:
            self.session.close()
        self.name, self.session = name, PuzzleSession(name, solver=self.solver)
        self.session.add_step(PUZZLES[name][0], "board", solve=False)
        self.cells, self.history = [("board", PUZZLES[name][0])], [[]]

    @precondition(lambda self: self.session is not None)
    @rule(data=st.data(), keyed=st.booleans())
    def add(self, data, keyed):
        source = data.draw(st.sampled_from(PUZZLES[self.name][1]))
        self.counter += 1
        key = f"cell-{self.counter}" if keyed else source_key(source)
        self.run(key, source)

    @precondition(lambda self: len(self.cells) > 1)
    @rule(data=st.data())
    def edit_and_rerun(self, data):
        index = data.draw(st.integers(1, len(self.cells) - 1))
        source = data.draw(st.sampled_from(PUZZLES[self.name][1]))
        self.run(self.cells[index][0], source)

    @precondition(lambda self: self.cells)
    @rule(data=st.data())
    def rerun_out_of_order(self, data):
        self.run(*data.draw(st.sampled_from(self.cells)))

    @precondition(lambda self: self.session is not None)
    @rule(source=st.sampled_from(FAILING), replacing=st.booleans())
    def failing_step(self, source, replacing):
        key = self.cells[-1][0] if replacing and len(self.cells) > 1 else "failing"
        with pytest.raises(StepError):
            self.session.add_step(source, key, solve=False)

    @precondition(lambda self: len(self.cells) > 1)
    @rule()
    def undo(self):
        self.session.undo()
        self.cells = self.history.pop() if self.history else self.cells[:-1]

    def run(self, key: str, source: str) -> None:
        """Run a cell as the notebook would; mirror its effect on the cells when it is accepted (it must be,
        unless the cells would then set two objectives or declare `y` twice)."""
        keys, before = [k for k, _ in self.cells], list(self.cells)
        after = list(before)
        if key in keys:
            after[keys.index(key)] = (key, source)
        else:
            after.append((key, source))
        refused = refusal([s for _, s in after])
        if refused:
            with pytest.raises(StepError, match=refused):
                self.session.add_step(source, key, solve=False)
            self.counts["refused"] += 1
            return
        self.session.add_step(source, key, solve=False)
        self.counts["accepted"] += 1
        self.cells = after
        if self.cells != before:
            self.history.append(before)

    @invariant()
    def model_is_the_rebuilt_one(self):
        if self.session is None:
            return
        assert [(s.key, s.source) for s in self.session.steps] == self.cells
        self.session.anything_to_solve()  # pycsp3's model is global: the session makes it its own
        text = model_text()
        fresh = rebuilt(self.name, self.cells, self.solver)
        assert model_text() == text
        fresh.close()
        self.session.anything_to_solve()  # the other session built pycsp3's model since: this one gets its own back
        assert model_text() == text

    def teardown(self):
        if self.session is None:
            return
        mine = status(self.session)
        fresh = rebuilt(self.name, self.cells, self.solver)
        assert status(fresh) == mine
        fresh.close()
        self.session.close()


@pytest.fixture(scope="module")
def solver():
    shared = Solver()
    yield shared
    shared.close()


def test_every_sequence_leaves_the_model_that_a_rebuild_gives(solver):
    counts = {"accepted": 0, "refused": 0}
    machine = type("Machine", (SessionMachine,), {"solver": solver, "counts": counts})
    run_state_machine_as_test(machine, settings=settings(max_examples=200, stateful_step_count=6, **PROPERTY_SETTINGS))
    assert counts["accepted"] >= 100, counts  # the sequences added, edited and re-ran steps, not only failed


class WarmColdMachine(RuleBasedStateMachine):
    """Steps added one by one, each solved by warm and by cold ACE."""

    solver: Solver
    counts: dict  # set by the test: steps compared over all its examples

    def __init__(self):
        super().__init__()
        self.session = None

    @rule(name=st.sampled_from(sorted(PUZZLES)))
    def restart(self, name):
        if self.session is not None:
            self.session.close()
        self.session = PuzzleSession(name, solver=self.solver)
        self.session.add_step(PUZZLES[name][0], "board", solve=False)

    @precondition(lambda self: self.session is not None)
    @rule(data=st.data())
    def add_and_compare(self, data):
        source = data.draw(st.sampled_from(PUZZLES[self.session.name][1]))
        refused = refusal([step.source for step in self.session.steps] + [source])
        if refused:
            with pytest.raises(StepError, match=refused):
                self.session.add_step(source, solve=False)
            return
        self.session.add_step(source, solve=False)
        assert status(self.session, "ace") == status(self.session, "ace-cold")
        self.counts["compared"] += 1

    def teardown(self):
        if self.session is not None:
            self.session.close()


def test_warm_and_cold_ace_agree_on_every_step(solver):
    counts = {"compared": 0}
    machine = type("WarmCold", (WarmColdMachine,), {"solver": solver, "counts": counts})
    run_state_machine_as_test(machine, settings=settings(max_examples=20, stateful_step_count=3, **PROPERTY_SETTINGS))
    assert counts["compared"] >= 5, counts  # steps were added and solved both ways, not only refused
