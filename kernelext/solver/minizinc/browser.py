"""MiniZinc's WebAssembly, in the browser's kernel (Pyodide in a JupyterLite site built by kernelext.publish.lite).

The kernel calls the `minizinc` JavaScript package that the site serves (`minizinc/` at the site's root) and
waits for its answer with Pyodide's `run_sync`, so a step solves as on the desktop. Its answers are read as the
desktop program's are (kernelext.solver.minizinc.answers).
"""

from __future__ import annotations

import json
import time

from kernelext.solver import browser_stop
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.minizinc.answers import read_answers
from kernelext.solver.minizinc.program import how_many, translated_model
from kernelext.solver.result import Cells, SolveResult

GRACE = 5.0  # seconds past MiniZinc's own time limit before its worker is stopped

# Loads and starts MiniZinc in the kernel's worker when a solve first needs it (most classroom steps are answered by
# the kit's own search first); the worker keeps it for the next solves.
_START_JS = """
(root) => globalThis.kernelextMiniZinc ??= (async () => {
  const MiniZinc = await import(root + "minizinc/minizinc.mjs");
  await MiniZinc.init({workerURL: root + "minizinc/minizinc-worker.js", wasmURL: root + "minizinc/minizinc.wasm",
                       dataURL: root + "minizinc/minizinc.data"});
  return MiniZinc;
})()
"""
# Runs one solve in MiniZinc's web worker; resolves to the messages, as the desktop program streams them. A stop
# (kernelext.solver.browser_stop) cancels it, as its time limit does, keeping the solutions found.
_SOLVE_JS = """
async (start, root, text, options, limit, stop) => {
  let loadStopped;  // a stop while MiniZinc is still loading ends the wait at once (the loading goes on)
  const stoppedLoading = new Promise((resolve) => { loadStopped = () => resolve(null); });
  stop.cancels.add(loadStopped);
  if (stop.requested) loadStopped();
  const MiniZinc = await Promise.race([start(root), stoppedLoading]);
  stop.cancels.delete(loadStopped);
  if (MiniZinc === null) {
    stop.requested = false;
    return JSON.stringify({messages: [], stopped: "interrupted"});
  }
  const model = new MiniZinc.Model();
  model.addFile("model.mzn", text);
  const started = performance.now(), messages = [];
  const seconds = () => (performance.now() - started) / 1000;
  const solve = model.solve({options: Object.fromEntries(options), jsonOutput: false});
  solve.on("solution", e => messages.push([seconds(), {type: "solution", output: {default: e.output.default}}]));
  solve.on("statistics", e => messages.push([seconds(), {type: "statistics", statistics: e.statistics}]));
  solve.on("error", e => messages.push([seconds(), {type: "error", message: String(e.message)}]));
  let stopped = "";
  const end = (why) => { if (!stopped) { stopped = why; solve.cancel(); } };
  const interrupted = () => end("interrupted");
  stop.cancels.add(interrupted);
  if (stop.requested) interrupted();
  const timer = setTimeout(() => end("timeout"), limit);
  try {
    const answer = await solve;
    messages.push([seconds(), {type: "status", status: answer.status}]);
  } catch (error) {
    if (!stopped) messages.push([seconds(), {type: "error", message: String(error && error.message || error)}]);
  }
  clearTimeout(timer);
  stop.cancels.delete(interrupted);
  if (stopped === "interrupted") stop.requested = false;
  return JSON.stringify({messages, stopped});
}
"""


def solve_in_browser(
    model: CompiledModel, cells: Cells, *, sols: int | str, timeout: float, solver: str = "gecode"
) -> SolveResult:
    """Solve `model` with MiniZinc's WebAssembly within `timeout` seconds (translating counts)."""
    from pyodide.code import run_js
    from pyodide.ffi import can_run_sync, run_sync, to_js

    if not can_run_sync():
        raise BackendUnsupported(
            "This browser cannot wait for MiniZinc inside a cell (it lacks WebAssembly "
            "stack switching): use a recent Chrome, Edge or Firefox."
        )
    called = time.perf_counter()
    translated = translated_model(model, cells)
    left = max(0.001, timeout - (time.perf_counter() - called))
    options = {
        "solver": solver,
        "statistics": True,
        "time-limit": max(1, int(left * 1000)),
        **how_many(sols, bool(translated.objective)),
    }
    answer = json.loads(
        run_sync(
            run_js(_SOLVE_JS)(
                run_js(_START_JS),
                site_root(),
                translated.text,
                to_js(list(options.items())),
                int((left + GRACE) * 1000),
                browser_stop.state(),
            )
        )
    )
    return read_answers(
        [(seconds, message) for seconds, message in answer["messages"]],
        translated,
        cells,
        sols=sols,
        stopped=answer["stopped"],
        elapsed=time.perf_counter() - called,
    )


def site_root() -> str:
    """The site's address, read from the kernel's own (the kernel runs from `extensions/` under the root)."""
    import js

    return str(js.location.href).split("/extensions/")[0] + "/"
