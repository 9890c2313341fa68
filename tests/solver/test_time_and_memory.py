"""Promises about time and memory, on the real solver: a time limit is a wall-clock limit (on a model no
solver finishes: large tables ACE reads for a second or more, then pigeons in too few holes; every core
busy), Stop ends a solve while ACE still reads or searches, no JVM starts before a step needs one, a kernel
stays small over 200 steps (a graded run's limits are tested with the grader's sandbox, in tests/grading/).

These tests check what happens, with bounds on time that a busy machine cannot miss; how soon a limit or
Stop gives control back is measured by benchmarks/time_limits.py."""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kernelext.solver.engine import Solver

LATE = 30  # seconds past a limit that a solve may take here: a limit that never fires fails, a busy machine does not
MAX_RSS_MB = 350


PIGEONS = 13  # in one hole fewer, as 0/1 sums: ACE proved 10 impossible in 15 s and not 11 in 60 s


def large_table() -> str:
    """The 7-tuples of 0..9 that begin below 5 and whose sum ends in 3 or 7, in order: 1,000,000 tuples (the last
    value follows from the others, so they are written from blocks of three values)."""
    blocks = [(",".join(map(str, block)), sum(block)) for block in itertools.product(range(10), repeat=3)]
    firsts = [(text, total) for text, total in blocks if text < "5"]
    return "".join(
        f"({first},{block},{last})"
        for first, first_sum in firsts
        for block, block_sum in blocks
        for last in sorted({(3 - first_sum - block_sum) % 10, (7 - first_sum - block_sum) % 10})
    )


@pytest.fixture(scope="module")
def large_tables(tmp_path_factory) -> Path:
    """An XCSP3 model no solver finishes: a table of 800,000 tuples, which ACE reads for a second or more
    before any search, then `PIGEONS` pigeons in one hole fewer, which no search proves impossible in hours."""
    tuples = large_table()
    holes = range(PIGEONS - 1)
    sums = "".join(
        f"<sum><list> {' '.join(f'p[{i}][{j}]' for j in holes)} </list><condition> (eq,1) </condition></sum>"
        for i in range(PIGEONS)
    )
    sums += "".join(
        f"<sum><list> {' '.join(f'p[{i}][{j}]' for i in range(PIGEONS))} </list><condition> (le,1) </condition></sum>"
        for j in holes
    )
    path = tmp_path_factory.mktemp("large") / "tables.xml"
    path.write_text(
        f'<instance format="XCSP3" type="CSP"><variables><array id="x" size="[7]"> 0..9 </array>'
        f'<array id="p" size="[{PIGEONS}][{PIGEONS - 1}]"> 0..1 </array></variables><constraints>'
        f"<extension><list> x[] </list><supports> {tuples} </supports></extension>{sums}"
        "</constraints></instance>\n"
    )
    return path


def spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


@pytest.fixture
def busy_cores():
    """Every core this process may use kept busy, as on a shared JupyterHub node."""
    spinners = [
        multiprocessing.Process(target=spin, args=(120,), daemon=True) for _ in range(len(os.sched_getaffinity(0)))
    ]
    for spinner in spinners:
        spinner.start()
    yield
    for spinner in spinners:
        spinner.kill()


TINY = (
    '<instance format="XCSP3" type="CSP"><variables><array id="x" size="[2]"> 0..1 </array></variables>'
    "<constraints><intension> ne(x[0],x[1]) </intension></constraints></instance>\n"
)
TINY_CELLS = {"x": (((0,), "x[0]"), ((1,), "x[1]"))}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("tiny") / "tiny.xml"
    path.write_text(TINY)
    return path


# auto leaves a file this large to ACE; the others read it in Python, looking at the clock inside the table
@pytest.mark.parametrize("backend", ["ace", "auto", "cp-sat", "minizinc", "kit"])
def test_a_time_limit_holds_on_large_tables_while_every_core_is_busy(large_tables, tiny, busy_cores, backend):
    solver = Solver(backend)
    cells = {"x": tuple(((i,), f"x[{i}]") for i in range(7))}
    try:
        for limit in (1.0, 2.0):
            assert solver.solve(tiny, TINY_CELLS, timeout=60, backend="ace").status.value == "SAT"  # JVM up first
            start = time.monotonic()
            result = solver.solve(large_tables, cells, timeout=limit)
            took = time.monotonic() - start
            # no solver finishes this model: not solved, and stopped by the limit
            assert result.status.value == "UNKNOWN" and result.stopped == "timeout"
            assert took < limit + LATE, f"--timeout {limit} took {took:.2f} s"
    finally:
        solver.close()


def test_a_limit_shorter_than_the_solvers_start_holds_and_the_start_goes_on_for_the_next_solve(tiny, busy_cores):
    cells = TINY_CELLS
    solver = Solver("ace")
    try:
        start = time.monotonic()
        result = solver.solve(tiny, cells, timeout=0.05)  # a JVM takes far longer than this to start
        took = time.monotonic() - start
        # not solved (a solve that waited for the JVM would find the solution): the limit came first
        assert result.status.value == "UNKNOWN" and result.stopped == "timeout"
        assert took < 0.05 + LATE, f"--timeout 0.05 took {took:.2f} s"
        pid = solver.worker_pid
        result = solver.solve(tiny, cells, timeout=60)
        assert result.status.value == "SAT" and solver.worker_pid == pid  # the same worker, now started
    finally:
        solver.close()


STOPPED_WHILE_PARSING = """
import json, os, signal, sys, threading, time
from kernelext.solver.engine import Solver
solver = Solver("ace")
solver.solve(sys.argv[2], {"x": (((0,), "x[0]"), ((1,), "x[1]"))}, timeout=60)  # the JVM started first
cells = {"x": tuple(((i,), f"x[{i}]") for i in range(7))}
signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a kernel, whatever this process inherited
threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()  # what the kernel's Stop button sends
start = time.monotonic()
result = solver.solve(sys.argv[1], cells, timeout=60)
print(json.dumps({"after_stop": time.monotonic() - start - 1.0, "stopped": result.stopped,
                  "status": result.status.value}))
solver.close()
"""


def test_stop_ends_the_solve_even_while_ace_reads_large_tables(large_tables, tiny):
    # in a process of its own, so that the SIGINT it sends itself can never reach the test runner
    done = subprocess.run(
        [sys.executable, "-c", STOPPED_WHILE_PARSING, str(large_tables), str(tiny)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # no solver finishes this model: Stop ended the solve, whether ACE was still reading or searching
    assert result["stopped"] == "interrupted" and result["status"] == "UNKNOWN", result
    assert result["after_stop"] < LATE, result


KERNEL_CELLS = [
    "%load_ext kernelext\nfrom pycsp3 import *",
    "%%puzzle sudoku --no-solve\nx = VarArray(size=[9, 9], dom=range(1, 10))\n",
]
PROBE = "import os, sys, kernelext\nprint(os.getpid(), kernelext.current_session().solver.worker_pid, 'jpype' in sys.modules)"


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1]) / 1024


def test_no_jvm_before_a_step_needs_one_and_a_kernel_stays_small_over_200_solved_steps():
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")

    def run(code: str) -> str:
        printed = []
        reply = client.execute_interactive(
            code,
            timeout=120,
            output_hook=lambda message: (
                printed.append(message["content"].get("text", "")) if message["msg_type"] == "stream" else None
            ),
        )
        assert reply["content"]["status"] == "ok", reply["content"]
        return "".join(printed)

    try:
        for cell in KERNEL_CELLS:
            run(cell)
        kernel, worker, jpype = run(PROBE).split()
        assert (worker, jpype) == ("None", "False")  # nothing solved yet: no worker, no JVM in the kernel
        run("%%puzzle+\nsatisfy(AllDifferent(x[i]) for i in range(9))\n")
        for k in range(200):  # a step edited and run again, 200 times: each run rebuilds and solves the model,
            solver = " --solver ace" if k % 2 else ""  # with the default (CP-SAT in the kernel) and warm ACE in turn
            run(f"%%puzzle+ --step last{solver}\nsatisfy(x[{k % 9}][{k // 9 % 9}] == {k % 9 + 1})\n")
        kernel, worker, jpype = run(PROBE).split()
        assert jpype == "False"  # the JVM lives in the worker, never in the kernel
        total = rss_mb(int(kernel)) + rss_mb(int(worker))
        assert total <= MAX_RSS_MB, f"kernel + worker: {total:.0f} MB after 200 steps"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
