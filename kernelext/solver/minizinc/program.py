"""MiniZinc with Gecode, run as the system's `minizinc` program on the compiled model's translation
(see kernelext.xcsp.to_minizinc).

The program runs in its own process group, with MiniZinc's own time limit (it counts compiling too); the kernel's
Stop and a limit it overran end the whole group. Solutions are read as MiniZinc streams them (`--json-stream`), so
an interrupted search keeps the ones it found.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from kernelext.errors import ReadingStopped, Untranslatable
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.minizinc.answers import read_answers
from kernelext.solver.portfolio import StopAt, wait_for
from kernelext.solver.result import Cells, SolveResult, Status
from kernelext.xcsp.to_minizinc import MiniZincModel, translate
from kernelext.xcsp.values import StopSignal

MISSING = "MiniZinc is not installed: apt-get install minizinc (or get it from minizinc.org), or use --solver ace."
GRACE = 0.5  # seconds past its own time limit before the program is stopped from outside (MiniZinc may
# still be compiling a large model: the solutions it streamed before are kept)


def minizinc_program() -> str:
    """The path of the system's `minizinc` (raises BackendUnsupported, saying how to get it, when there is none)."""
    found = shutil.which("minizinc")
    if found is None:
        raise BackendUnsupported(MISSING)
    return found


def solve_minizinc(
    model: CompiledModel,
    cells: Cells,
    *,
    sols: int | str,
    timeout: float,
    solver: str = "gecode",
    stop: threading.Event | None = None,
) -> SolveResult:
    """Solve `model` within `timeout` seconds of wall time from the call (translating counts), or until
    `stop` is set.

    Raises:
        BackendUnsupported: the model holds something the translation does not take, or MiniZinc is missing.
    """
    called = time.perf_counter()
    program = minizinc_program()
    try:
        translated = translated_model(model, cells, StopAt(called + timeout, stop))
    except ReadingStopped:
        return SolveResult(Status.UNKNOWN, time=time.perf_counter() - called, backend="minizinc", stopped="timeout")
    left = timeout - (time.perf_counter() - called)
    if left <= 0 or (stop is not None and stop.is_set()):  # the translation used up the time: nothing is started
        return SolveResult(Status.UNKNOWN, time=time.perf_counter() - called, backend="minizinc", stopped="timeout")
    with tempfile.TemporaryDirectory(prefix="kernelext-mzn-") as folder:
        source = Path(folder) / "model.mzn"
        source.write_text(translated.text)
        run = _Run(
            [
                program,
                "--solver",
                solver,
                "--json-stream",
                "-s",
                "--time-limit",
                str(max(1, int(left * 1000))),
                *_flags(how_many(sols, bool(translated.objective))),
                str(source),
            ],
            started=called,
        )
        stopped = run.wait(left + GRACE, stop)
    return _result(run, translated, cells, sols, stopped, time.perf_counter() - called)


def translated_model(model: CompiledModel, cells: Cells, stop: StopSignal | None = None) -> MiniZincModel:
    """`model` in MiniZinc (raises BackendUnsupported, naming the construct, when the translation does not take it,
    and ReadingStopped once `stop` is set)."""
    holes = frozenset(
        name + "".join(f"[{i}]" for i in index) for name, array in cells.items() for index, vid in array if vid is None
    )
    try:
        return translate(model.path().read_text(), holes, stop)
    except Untranslatable as error:
        raise BackendUnsupported(
            f"The translation to MiniZinc does not take {error}: nothing was solved (the "
            "desktop kit's ACE takes it: --solver ace)."
        ) from None


def how_many(sols: int | str, optimising: bool) -> dict:
    """MiniZinc's options for the solutions asked for, as its program and its WebAssembly both name them."""
    if optimising:
        return {"intermediate-solutions": True}  # each improving solution, for the progress
    if sols == "all":
        return {"all-solutions": True}
    return {"num-solutions": int(sols)} if int(sols) > 1 else {}


def _flags(options: dict) -> list[str]:
    return [part for name, value in options.items() for part in (f"--{name}", *([] if value is True else [str(value)]))]


class _Run:
    """The program running in its own process group; its JSON messages kept as they come, with their time."""

    def __init__(self, command: list[str], started: float):
        self.started = started
        self.messages: list[tuple[float, dict]] = []
        self.errors = ""
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
        self.done = threading.Event()
        self._readers = [
            threading.Thread(target=self._read_messages, daemon=True),
            threading.Thread(target=self._read_errors, daemon=True),
        ]
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

    def wait(self, limit: float, stop: threading.Event | None = None) -> str:
        """Wait for the program's end: "" when it ended, "timeout" or "interrupted" when it was stopped (at
        `limit`, or when `stop` was set)."""
        stopped = ""
        try:
            if not wait_for(self.done, limit, stop):
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


def _result(
    run: _Run, translated: MiniZincModel, cells: Cells, sols: int | str, stopped: str, elapsed: float
) -> SolveResult:
    failed = run.process.returncode not in (0, None) and not stopped
    return read_answers(
        run.messages,
        translated,
        cells,
        sols=sols,
        stopped=stopped,
        elapsed=elapsed,
        failure=f"MiniZinc stopped with an error: {_last_line(run.errors)}" if failed else "",
    )


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip() and "deprecated" not in line]
    return lines[-1][:200] if lines else "no message"
