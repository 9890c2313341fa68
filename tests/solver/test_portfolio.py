"""`auto` as a portfolio: CP-SAT alone for a first slice, then a race on the kernel's cores; the winner checked,
the others stopped, an optimum shown as one canonical solution."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT

from kernelext.pycsp3_glue import model_state
from kernelext.solver import portfolio
from kernelext.solver.backends import Auto
from kernelext.solver.backends.cpsat import solve_cpsat
from kernelext.solver.compiled import compiled
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.portfolio import Race
from kernelext.solver.result import SolveResult, Status
from kernelext.steps.session import PuzzleSession

sys.path.insert(0, str(ROOT / "benchmarks"))
from large_instances import numberlink  # noqa: E402

SUDOKU_4 = [
    "x = VarArray(size=[4, 4], dom=range(1, 5))\n",
    "satisfy(AllDifferent(x[i]) for i in range(4))\n"
    "satisfy(AllDifferent(x[:, j]) for j in range(4))\n"
    "satisfy(AllDifferent(x[i][j] for i in range(b, b + 2) for j in range(c, c + 2)) "
    "for b in (0, 2) for c in (0, 2))\n",
    "satisfy(x[0][0] == 1, x[1][2] == 4)\n",
]
GOLOMB_5 = [
    "n = 5\nx = VarArray(size=n, dom=range(12))\n",
    "satisfy(Increasing(x, strict=True), x[0] == 0)\n"
    "satisfy(AllDifferent(abs(x[i] - x[j]) for i in range(n) for j in range(i + 1, n)))\n",
    "minimize(x[-1])\n",
]
MANY = ["x = VarArray(size=12, dom=range(10))\n", "satisfy(Sum(x) >= 0)\n"]  # 10^12 solutions


def session_of(solver, steps) -> PuzzleSession:
    session = PuzzleSession("race", solver=solver)
    for source in steps:
        session.add_step(source, solve=False)
    return session


def test_a_classroom_step_never_starts_another_solver(solver, monkeypatch):
    monkeypatch.setattr(Auto, "first_slice", 30.0)  # a busy test machine may take longer than a classroom's
    session = session_of(solver, SUDOKU_4)
    race_runs = []
    real_run = Race.run

    def watched(race):
        race_runs.append(race)
        return real_run(race)

    Race.run = watched
    try:
        result = session.solve(backend="auto")
    finally:
        Race.run = real_run
    assert result.status is Status.SAT and result.backend == "cp-sat"
    (race,) = race_runs
    assert set(race.results) | set(race.errors) == {"cp-sat"}, "CP-SAT answered in its first slice, alone"
    assert solver.worker_pid is None, "no ACE worker was started"


def test_auto_races_warm_ace_on_numberlink_and_proves_its_optimum(solver):
    session = session_of(solver, numberlink())
    raced = session.solve(backend="auto", timeout=60)  # warm ACE proves it in about 1.4 s on a quiet machine
    assert raced.status is Status.OPTIMUM and raced.bound == 44
    assert solver.worker_pid is not None, "CP-SAT did not prove it in its first slice: warm ACE joined the race"
    session.close()


def test_an_optimum_another_solver_proved_is_shown_as_cp_sats_solution_for_that_value(solver):
    session = session_of(solver, GOLOMB_5)
    model, cells = compiled(session.compile()), model_state.solution_cells()
    by_ace = solver.solve(model, cells, backend="ace")
    assert by_ace.status is Status.OPTIMUM and by_ace.bound == 11
    shown = Auto(solver)._canonical(model, cells, by_ace, seconds=10)
    held = solve_cpsat(model, cells, sols=1, timeout=10, objective_at=11)
    assert shown.status is Status.OPTIMUM and shown.bound == 11 and shown.backend == "ace-warm"
    assert shown.solutions == held.solutions and held.status is Status.SAT
    assert solver.check(model, cells, shown) == shown, "the solution shown passes the kit's check"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("backend", ["cp-sat", "ace", "minizinc"])
def test_a_racer_stops_when_the_race_is_decided(solver, backend):
    session = session_of(solver, MANY)
    model, cells = session.compile(), model_state.solution_cells()
    solver.solve(model, cells, backend=backend)  # started (a JVM, a program) before the timed search
    signal = threading.Event()
    stop = threading.Timer(1.0, signal.set)
    stop.start()
    started = time.monotonic()
    result = solver.solve(model, cells, sols="all", timeout=600, backend=backend, stop=signal)
    assert result.stopped and result.solutions and time.monotonic() - started < 600


def test_the_race_runs_no_more_solvers_at_once_than_the_kernel_has_cores():
    running, most, lock = [0], [0], threading.Lock()

    def solve(name, seconds, stop):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        stop.wait(0.2 if name == "slow-2" else seconds)
        with lock:
            running[0] -= 1
        status = Status.SAT if name == "slow-2" else Status.UNKNOWN
        return SolveResult(status, ({"x": 1},), backend=name, stopped="" if status is Status.SAT else "timeout")

    race = Race(solve, ("slow-1", "slow-2", "slow-3"), timeout=5, cores=2, first_slice=0.1)
    winner = race.run()
    assert winner.backend == "slow-2" and most[0] == 2
    assert "slow-3" not in race.results, "the third racer waits for a core, and the race ended first"


def test_racers_waiting_for_a_core_get_a_turn_each():
    def solve(name, seconds, stop):
        if name == "quick":
            return SolveResult(Status.SAT, ({"x": 1},), backend=name)
        stop.wait(seconds)  # runs until told to stop: its turn is over, or the race was decided
        return SolveResult(Status.UNKNOWN, backend=name, stopped="timeout")

    race = Race(solve, ("first", "slow", "quick"), timeout=2, cores=2, first_slice=0.05)
    winner = race.run()
    assert winner.backend == "quick" and race.results["slow"].status is Status.UNKNOWN
    assert race.results["first"].stopped == "timeout", "the first racer runs on until the race is decided"


def test_the_race_keeps_the_best_unfinished_answer():
    bounds = {"a": 9, "b": 7, "c": 8}

    def solve(name, seconds, stop):
        return SolveResult(Status.SAT, ({"x": bounds[name]},), bound=bounds[name], backend=name, stopped="timeout")

    race = Race(solve, ("a", "b", "c"), timeout=1, cores=3, sense=lambda: "minimize", first_slice=0.05)
    assert race.run().backend == "b"
    race = Race(solve, ("a", "b", "c"), timeout=1, cores=3, sense=lambda: "maximize", first_slice=0.05)
    assert race.run().backend == "a"


def test_a_racer_keeps_its_core_past_its_turn_once_no_racer_waits_for_one():
    def solve(name, seconds, stop):
        if name != "long":
            raise BackendUnsupported(f"{name} does not take this model")
        if stop.wait(1.5):  # its turn (half the time left when it started) would end at about 1 s
            return SolveResult(Status.UNKNOWN, backend=name, stopped="timeout")
        return SolveResult(Status.UNSAT, backend=name)

    race = Race(solve, ("first", "long", "refuses"), timeout=2, cores=2, first_slice=0.05)
    assert race.run().status is Status.UNSAT, "stopped at the end of a turn that yielded to nobody"


def test_racers_that_hand_back_nothing_by_the_limit_end_the_race_unknown():
    release = threading.Event()

    def solve(name, seconds, stop):
        release.wait(30)  # still reading the model: deaf to its stop signal
        return SolveResult(Status.UNKNOWN, backend=name, stopped="timeout")

    race = Race(solve, ("a", "b"), timeout=0.2, cores=2, first_slice=0.05)
    try:
        result = race.run()
    finally:
        release.set()
    # not None, which would hand the model to the next solvers in turn, past the limit
    assert result.status is Status.UNKNOWN and result.stopped == "timeout" and not race.errors


def test_the_cores_counted_are_those_the_kernel_may_use():
    code = "import os; os.sched_setaffinity(0, {0}); from kernelext.solver.portfolio import usable_cores; print(usable_cores())"
    one = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert one.stdout.strip() == "1"
    assert 1 <= portfolio.usable_cores() <= len(os.sched_getaffinity(0))


def test_a_backend_still_busy_with_a_late_racer_waits_for_it_within_the_limit(solver):
    session = session_of(solver, SUDOKU_4)
    held, release = threading.Event(), threading.Event()

    def late_racer():
        with solver.exclusive("cp-sat", 60) as left:
            assert left is not None
            held.set()
            release.wait(30)

    threading.Thread(target=late_racer, daemon=True).start()
    assert held.wait(30)
    try:
        result = session.solve(timeout=0.3, backend="cp-sat")
        assert result.status is Status.UNKNOWN and result.stopped == "timeout", "it ran beside the late racer"
    finally:
        release.set()
    assert session.solve(timeout=60, backend="cp-sat").status is Status.SAT


def test_a_first_slice_counted_in_cpu_time_waits_for_a_first_racer_the_machine_keeps_waiting():
    started = []

    def solve(name, seconds, stop):
        started.append(name)
        if name == "first":
            time.sleep(1.0)  # not scheduled: a busy machine's other processes have the cores
            return SolveResult(Status.SAT, ({"x": 1},), backend=name)
        return SolveResult(Status.SAT, ({"x": 2},), backend=name)

    race = Race(solve, ("first", "other"), timeout=10, cores=2, first_slice=0.5, clock=time.process_time)
    assert race.run().backend == "first" and started == ["first"], "the slice ended on the wall clock"
    started.clear()
    race = Race(solve, ("first", "other"), timeout=10, cores=2, first_slice=0.5)  # wall-clock slice: other joins
    assert race.run().backend == "other" and started == ["first", "other"]
