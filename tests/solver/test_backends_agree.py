"""Warm ACE, cold ACE, OR-Tools through CPMpy, CP-SAT reading XCSP3 directly, the kit's own search
and the default (auto) give the same status, optimum and solution count."""

from __future__ import annotations

import signal
import sys
import threading
import time

import nbformat
import pytest
from conftest import ROOT
from instances import AMAZE, FUTOSHIKI, INSTANCES, Instance

from kernelext.solver.backends import BACKENDS as REGISTRY
from kernelext.solver.engine import Solver
from kernelext.solver.errors import BackendUnsupported
from kernelext.steps.session import PuzzleSession

# Every backend of the registry but Choco (checked on the notebooks' last steps by test_puzzle_loop, it
# needs a new JVM per solve).
BACKENDS = tuple(name for name in REGISTRY if name != "choco")


def outcomes(solver: Solver, steps, sols=1):
    session = PuzzleSession("agree", solver=solver)
    for source in steps:
        session.add_step(source, solve=False)
    results = {}
    for backend in BACKENDS:
        try:
            results[backend] = session.solve(sols=sols, backend=backend, timeout=120)  # a busy machine: slow
        except BackendUnsupported as refused:  # a solver known to be wrong on a constraint refuses it by name
            expected = "does not read this objective" if backend == "kit" else "known to answer wrong"
            assert backend in ("kit", "ace", "ace-cold", "ortools", "choco") and expected in str(refused), refused
    assert results["auto"].backend == "cp-sat"  # optimisation included
    session.close()
    return results


@pytest.mark.parametrize("instance", INSTANCES, ids=lambda i: i.name)
def test_backends_agree_on_external_instances(solver, instance: Instance):
    results = outcomes(solver, instance.steps, sols="all" if instance.count else 1)
    for backend, result in results.items():
        assert result.status.value == instance.status, backend
        assert result.bound == instance.bound, backend
        if instance.count is not None:
            assert len(result.solutions) == instance.count, backend


@pytest.mark.parametrize("steps", [AMAZE, FUTOSHIKI], ids=["amaze", "futoshiki"])
def test_backends_agree_on_every_walkthrough_step(solver, steps):
    for k in range(2, len(steps) + 1):
        results = outcomes(solver, steps[:k])
        assert "cp-sat" in results, "CP-SAT reads every walkthrough step directly"
        assert len({(r.status, r.bound) for r in results.values()}) == 1, {
            b: (r.status, r.bound) for b, r in results.items()
        }


def test_auto_falls_back_to_minizinc_when_cp_sat_cannot_read_the_model(solver, monkeypatch):
    session = PuzzleSession("auto", solver=solver)
    for source in FUTOSHIKI:
        session.add_step(source, solve=False)
    expected = session.solve(backend="auto", sols="all")
    assert expected.backend == "cp-sat"
    monkeypatch.setitem(sys.modules, "ortools.sat.python.cp_model", None)  # as where OR-Tools is not installed
    with pytest.raises(BackendUnsupported, match="not installed"):
        session.solve(backend="cp-sat")
    result = session.solve(backend="auto", sols="all")
    assert result.backend == "minizinc"
    assert (result.status, set(map(frozenset, map(dict.items, map(dict, result.solutions))))) == (
        expected.status,
        set(map(frozenset, map(dict.items, map(dict, expected.solutions)))),
    )
    session.close()


def test_every_backend_of_the_registry_solves_a_walkthrough(solver):
    session = PuzzleSession("every", solver=solver)
    for source in FUTOSHIKI:
        session.add_step(source, solve=False)
    answers = {name: session.solve(backend=name, timeout=60) for name in REGISTRY}
    assert len({(r.status, tuple(sorted(r.solution.items()))) for r in answers.values()}) == 1, answers
    session.close()


NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.stem)
def test_backends_agree_on_every_notebook_step(shell, notebook, monkeypatch):
    """Warm ACE, OR-Tools and MiniZinc after every step of every classroom notebook; cold ACE at each puzzle's last
    step (each against the default, CP-SAT)."""
    monkeypatch.chdir(notebook.parent)
    magics = shell.ip.magics_manager.registry["PuzzleMagics"]
    checked, last = 0, None
    for cell in nbformat.read(notebook, 4).cells:
        if cell.cell_type != "code":
            continue
        starts_puzzle = cell.source.startswith("%%puzzle ")
        if starts_puzzle and last is not None:
            assert_agree(last, ("auto", "ace", "ace-cold"))
        shell.ok(cell.source)
        if cell.source.startswith("%%puzzle") and magics.session.steps and magics.session.anything_to_solve():
            last = magics.session
            assert_agree(last, ("auto", "ace", "ortools", "minizinc"))
            checked += 1
    if last is not None:
        assert_agree(last, ("auto", "ace", "ace-cold"))
    assert checked > 0


def assert_agree(session, backends):
    answers = {}
    for backend in backends:
        try:
            result = session.solve(backend=backend, timeout=60)
        except BackendUnsupported as refused:  # a solver known to be wrong on a constraint refuses it by name
            assert "known to answer wrong" in str(refused), refused
            continue
        answers[backend] = (result.status, result.bound)
    assert len(set(answers.values())) == 1, f"{session.name} step {len(session.steps)}: {answers}"


@pytest.mark.parametrize("backend", [name for name in BACKENDS if name != "auto"])
def test_stop_still_interrupts_the_kernel_after_a_solve(solver, backend, ctrl_c_interrupts):
    """A solver that takes SIGINT for itself (CP-SAT through CPMpy did) must give it back: else the next Stop
    ends the kernel instead of the cell."""
    session = PuzzleSession("stop", solver=solver)
    for source in FUTOSHIKI:
        session.add_step(source, solve=False)
    session.solve(backend=backend, timeout=60)
    session.close()
    with pytest.raises(KeyboardInterrupt):
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        time.sleep(5)  # the interrupt lands at once; this only waits for it


def test_a_model_cpmpy_does_not_take_is_refused_not_exited(solver):
    session = PuzzleSession("precedence", solver=solver)
    session.add_step(
        "x = VarArray(size=4, dom=range(4))\nsatisfy(Precedence(x, values=[1, 2], covered=True))\n", solve=False
    )
    with pytest.raises(BackendUnsupported, match="CPMpy does not take"):
        session.solve(backend="ortools")
    session.close()
