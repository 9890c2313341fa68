"""MiniZinc with Gecode, run as the system's `minizinc` program on the compiled model's translation
(see kernelext.xcsp.minizinc).

The program runs in its own process group, with MiniZinc's own time limit (it counts compiling too); the kernel's
Stop and a limit it overran end the whole group. Solutions are read as MiniZinc streams them (`--json-stream`), so
an interrupted search keeps the ones it found.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from types import MappingProxyType

from kernelext.errors import Untranslatable
from kernelext.solver import ace_output
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.errors import BackendUnsupported, SolverError
from kernelext.solver.result import SolveResult, Status
from kernelext.xcsp.minizinc import MiniZincModel, translate

MISSING = "MiniZinc is not installed: apt-get install minizinc (or get it from minizinc.org), or use --solver ace."
GRACE = 5.0  # seconds past its own time limit before the program is stopped from outside
_STATUS = {"OPTIMAL_SOLUTION": Status.OPTIMUM, "ALL_SOLUTIONS": Status.SAT, "UNSATISFIABLE": Status.UNSAT}


def minizinc_program() -> str:
    """The path of the system's `minizinc` (raises BackendUnsupported, saying how to get it, when there is none)."""
    found = shutil.which("minizinc")
    if found is None:
        raise BackendUnsupported(MISSING)
    return found


def solve_minizinc(model: CompiledModel, cells: ace_output.Cells, *, sols: int | str, timeout: float) -> SolveResult:
    """Solve `model` within `timeout` seconds of wall time from the call (translating counts).

    Raises:
        BackendUnsupported: the model holds something the translation does not take, or MiniZinc is missing.
    """
    called = time.perf_counter()
    program = minizinc_program()
    holes = frozenset(name + "".join(f"[{i}]" for i in index)
                      for name, array in cells.items() for index, vid in array if vid is None)
    try:
        translated = translate(model.path().read_text(), holes)
    except Untranslatable as error:
        raise BackendUnsupported(str(error)) from None
    left = max(0.001, timeout - (time.perf_counter() - called))
    with tempfile.TemporaryDirectory(prefix="kernelext-mzn-") as folder:
        source = Path(folder) / "model.mzn"
        source.write_text(translated.text)
        run = _Run([program, "--solver", "gecode", "--json-stream", "-s", "--time-limit", str(max(1, int(left * 1000))),
                    *_how_many(sols, bool(translated.objective)), str(source)], started=called)
        stopped = run.wait(left + GRACE)
    return _result(run, translated, cells, sols, stopped, time.perf_counter() - called)


def _how_many(sols: int | str, optimising: bool) -> list[str]:
    if optimising:
        return ["-i"]  # each improving solution, for the progress
    if sols == "all":
        return ["-a"]
    return ["-n", str(sols)] if int(sols) > 1 else []


class _Run:
    """The program running in its own process group; its JSON messages kept as they come, with their time."""

    def __init__(self, command: list[str], started: float):
        self.started = started
        self.messages: list[tuple[float, dict]] = []
        self.errors = ""
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        start_new_session=True)
        self.done = threading.Event()
        self._readers = [threading.Thread(target=self._read_messages, daemon=True),
                         threading.Thread(target=self._read_errors, daemon=True)]
        for reader in self._readers:
            reader.start()

    def _read_messages(self) -> None:
        try:
            for line in self.process.stdout:
                if line.strip().startswith("{"):
                    try:
                        self.messages.append((time.perf_counter() - self.started, json.loads(line)))
                    except json.JSONDecodeError:
                        pass  # a message cut short when the program was stopped
        finally:
            self.done.set()

    def _read_errors(self) -> None:
        self.errors = self.process.stderr.read()

    def wait(self, limit: float) -> str:
        """Wait for the program's end: "" when it ended, "timeout" or "interrupted" when it was stopped."""
        stopped = ""
        try:
            if not self.done.wait(limit):
                stopped = "timeout"
        except KeyboardInterrupt:
            stopped = "interrupted"
        if stopped:
            _stop_group(self.process)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _stop_group(self.process)
        for reader in self._readers:
            reader.join(timeout=5)
        return stopped


def _stop_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _result(run: _Run, translated: MiniZincModel, cells: ace_output.Cells, sols: int | str, stopped: str,
            elapsed: float) -> SolveResult:
    found, progress, status, stats = [], [], None, {}
    for seconds, message in run.messages:
        kind = message.get("type")
        if kind == "error":
            raise SolverError(f"MiniZinc refused the translated model ({message.get('message', '')[:200]}).")
        if kind == "solution":
            values, objective = _solution_values(message["output"]["default"])
            found.append(_solution(values, translated.variables, cells))
            if translated.objective:
                progress.append((seconds, objective))
        elif kind == "status":
            status = message["status"]
        elif kind == "statistics":
            stats.update({key: str(value) for key, value in message["statistics"].items()
                          if key in ("nodes", "failures", "solveTime")})
    if run.process.returncode not in (0, None) and not stopped and status is None and not found:
        raise SolverError(f"MiniZinc stopped with an error: {_last_line(run.errors)}")
    result_status = _STATUS.get(status, Status.SAT if found else Status.UNKNOWN)
    if result_status is Status.OPTIMUM and not translated.objective:
        result_status = Status.SAT
    complete = status in _STATUS or (not translated.objective and sols != "all" and len(found) >= int(sols))
    stats["solutions"] = str(len(found))
    return SolveResult(result_status, tuple(found[-1:] if translated.objective else found),
                       progress[-1][1] if progress else None, tuple(progress), elapsed, "minizinc",
                       MappingProxyType(stats), stopped or ("" if complete else "timeout"))


def _solution_values(text: str) -> tuple[list[int], int | None]:
    """`[1, 2, 3]\\n7\\n` -> ([1, 2, 3], 7): the variables' values, then the objective's when there is one."""
    lines = [line for line in text.splitlines() if line.strip()]
    values = [int(v) for v in re.findall(r"-?\d+", lines[0])] if lines else []
    return values, int(lines[1]) if len(lines) > 1 else None


def _solution(values: list[int], variables: tuple[str, ...], cells: ace_output.Cells):
    by_id = dict(zip(variables, values))
    return MappingProxyType({vid: by_id.get(vid) for array in cells.values() for _, vid in array if vid is not None})


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip() and "deprecated" not in line]
    return lines[-1][:200] if lines else "no message"
