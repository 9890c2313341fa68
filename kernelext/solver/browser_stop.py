"""Stop in the browser's kernel, where JupyterLite's Pyodide kernel has no interrupt of its own.

The site's front-end plugin (kernelext/publish/lite/site_extension) posts `{kernelextStop}` to the kernel's
worker when the kernel is interrupted (the Stop button, Kernel > Interrupt Kernel). The worker's JavaScript runs
while Python waits for a promise (`run_sync`), so the message gets in:
  - while a MiniZinc solve runs: it is cancelled and keeps the solutions found (kernelext.solver.minizinc.browser);
  - during the kit's own searches, which call `passed(deadline)`: every POLL seconds it lets the message in and
    raises KeyboardInterrupt, as Ctrl-C does on the desktop.
A stop asked for while no cell ran is forgotten when the next cell starts. Python that never waits for
JavaScript (a `while True:` loop of a student's own) cannot be stopped this way.
"""

from __future__ import annotations

import time

from kernelext.solver.choice import in_browser

POLL = 0.1  # seconds between two looks at the worker's messages during the kit's own searches

# The worker's stop state, made once: `requested` until taken, and the solves' `cancels`, called on a stop.
_STATE_JS = """
() => globalThis.kernelextStop ??= (() => {
  const state = {requested: false, nextPoll: 0, cancels: new Set()};
  addEventListener("message", (event) => {
    if (event.data && event.data.kernelextStop) {
      state.requested = true;
      for (const cancel of state.cancels) cancel();
    }
  });
  return state;
})()
"""
_TURN_JS = "() => new Promise((resolve) => setTimeout(resolve, 0))"  # one turn of the worker's event loop


def state():
    """The worker's stop state (a JavaScript object), listening from the first call on."""
    import js
    from pyodide.code import run_js

    return getattr(js, "kernelextStop", None) or run_js(_STATE_JS)()


def forget(*_) -> None:
    """Forget a stop asked for before this cell (IPython's `pre_run_cell` event, in a browser)."""
    state().requested = False


def passed(deadline: float) -> bool:
    """Whether the `time.monotonic()` deadline has passed; in a browser, KeyboardInterrupt on a stop."""
    now = time.monotonic()
    if now > deadline:
        return True
    if in_browser():
        _poll(now)
    return False


def _poll(now: float) -> None:
    from pyodide.code import run_js
    from pyodide.ffi import can_run_sync, run_sync

    stop = state()
    if now < stop.nextPoll or not can_run_sync():
        return
    stop.nextPoll = now + POLL
    run_sync(run_js(_TURN_JS)())
    if stop.requested:
        stop.requested = False
        raise KeyboardInterrupt
