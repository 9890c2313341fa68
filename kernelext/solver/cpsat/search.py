"""CP-SAT's search run on a thread of its own, so that the kernel's Stop (KeyboardInterrupt), a wall-clock
deadline and a race's stop signal (kernelext.solver.portfolio) all end it at once."""

from __future__ import annotations

import threading
import time

from kernelext.solver.portfolio import wait_for

STOP_WAIT = 0.2  # seconds CP-SAT gets to end after being told to stop


def run_search(
    solver, model, callback=None, *, deadline: float, stop: threading.Event | None = None
) -> tuple[int | None, str]:
    """Run CP-SAT's search on a thread: its status (None if it has not ended yet) and "interrupted" on
    KeyboardInterrupt, "timeout" if it outlives `deadline` (perf_counter) or `stop` is set, else ""."""
    done = threading.Event()  # waited on rather than the thread: an interrupted join can leave it unusable
    status = []

    def search() -> None:
        try:
            status.append(solver.Solve(model, callback))
        finally:
            done.set()

    threading.Thread(target=search, daemon=True).start()
    stopped = ""
    try:
        if not wait_for(done, max(0.0, deadline - time.perf_counter()), stop):
            stopped = "timeout"
    except KeyboardInterrupt:
        stopped = "interrupted"
    if not done.is_set():
        solver.StopSearch()
        done.wait(STOP_WAIT)
    return (status[0] if status else None), stopped
