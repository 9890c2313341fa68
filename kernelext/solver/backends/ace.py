"""ACE, in a worker JVM kept warm between solves or in a new JVM for each solve."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import ClassVar

from kernelext.errors import ModelRejected
from kernelext.solver import ace_output
from kernelext.solver.backends.base import ALL, Backend, Form, Owner, Stop
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.errors import WorkerCrashed
from kernelext.solver.jvm.cold import run_java
from kernelext.solver.jvm.jars import ace_jar
from kernelext.solver.jvm.warm import WarmAce
from kernelext.solver.result import Cells, SolveResult

# ACE's nogood base holds 1,000,000 nogoods by default: an array of 4 MB made for every solve, which costs a
# garbage collection each time in a worker's small heap. Classroom searches record far fewer nogoods; past this
# limit ACE records no more, which can slow a search but never changes its answers.
NOGOOD_LIMIT = "-ngbl=10000"
WRONG = (Form("nValues"), Form("noOverlap"))  # ACE 2.6 counts one solution too many on them


class AceWarm(Backend):
    """ACE in a worker JVM kept warm between solves."""

    name: ClassVar[str] = "ace"
    summary: ClassVar[str] = "ACE in a worker JVM kept warm between solves"
    desktop_only: ClassVar[str] = "it runs on Java, which a browser has not"
    needs_java: ClassVar[bool] = True
    stoppable: ClassVar[bool] = True
    known_wrong: ClassVar[tuple[Form, ...]] = WRONG

    def __init__(self, solver: Owner):
        super().__init__(solver)
        self._worker = None

    def solve(
        self, model: CompiledModel, cells: Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        self.refuse_known_wrong(model)
        start = time.perf_counter()
        try:
            run = self.worker().run(ace_args(model.path(), sols, timeout), timeout=timeout, stop=stop)
        except WorkerCrashed as crashed:
            said = own_error(crashed.run.output) if crashed.run is not None else None
            if said is not None:  # ACE stopped the JVM on an error of its own, which it printed
                raise rejected(said) from None
            # else a cold run tells a model ACE rejects from a worker that died
            left = max(0.01, timeout - (time.perf_counter() - start))
            return self.solver.backend("ace-cold").solve(model, cells, sols=sols, timeout=left)
        stopped = "interrupted" if run.interrupted else "timeout" if run.out_of_time else timed_out(run.output)
        return ace_output.parse(
            run.output, cells, backend="ace-warm", time=time.perf_counter() - start, stopped=stopped
        )

    def worker(self):
        """The warm worker, started on first use."""
        if self._worker is None:
            self._worker = WarmAce(self.solver.java())
        return self._worker

    @property
    def pid(self) -> int | None:
        return self._worker.pid if self._worker is not None else None

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


class AceCold(Backend):
    """ACE in a new JVM for each solve."""

    name: ClassVar[str] = "ace-cold"
    summary: ClassVar[str] = "ACE in a new JVM for each solve"
    desktop_only: ClassVar[str] = "it runs on Java, which a browser has not"
    needs_java: ClassVar[bool] = True
    known_wrong: ClassVar[tuple[Form, ...]] = WRONG

    def solve(
        self, model: CompiledModel, cells: Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        self.refuse_known_wrong(model)
        start = time.perf_counter()
        run = run_java(
            str(self.solver.java().java_executable),
            ["-jar", str(ace_jar())],
            ace_args(model.path(), sols, timeout),
            timeout=timeout + 5,
        )
        check_accepted(run.output, run.stopped)
        return ace_output.parse(
            run.output,
            cells,
            backend="ace-cold",
            time=time.perf_counter() - start,
            stopped=run.stopped or timed_out(run.output),
        )


def ace_args(model: Path, sols: int | str, timeout: float) -> list[str]:
    """ACE's arguments: the model, the time limit and how many solutions to look for."""
    args = [str(model), f"-t={max(1, int(timeout * 1000))}", NOGOOD_LIMIT]
    if sols == ALL:
        return [*args, "-s=all", "-xe", "-xc=false"]
    if sols > 1:
        return [*args, f"-s={sols}", "-xe", "-xc=false"]
    return args


def check_accepted(output: str, stopped: str) -> None:
    """Raise ModelRejected when the solver stopped on an error of its own, with no verdict."""
    if stopped or re.search(r"^\s*s [A-Z]", ace_output.strip_colours(output), re.M):
        return
    lines = _lines(output)
    found = [k for k, line in enumerate(lines) if "Exception" in line or "ERROR" in line.upper()]
    raise rejected(_detail(lines, found[0]) if found else "no answer")


def own_error(output: str) -> str | None:
    """ACE's own error in `output` (its `! ERROR:` or `Fatal Error` line, or a Java exception it met); None when
    there is none: a JVM that died of something else (memory, a signal) says nothing about the model."""
    lines = _lines(output)
    found = [k for k, line in enumerate(lines) if line.startswith(("! ERROR", "Fatal Error")) or "Exception" in line]
    return _detail(lines, found[0]) if found else None


def rejected(detail: str) -> ModelRejected:
    return ModelRejected(
        f"The solver rejected the model ({detail[:150]}).\nCheck the types and values in this step's constraints, "
        "then run it again."
    )


def _lines(output: str) -> list[str]:
    return [line.strip() for line in ace_output.strip_colours(output).splitlines() if line.strip()]


def _detail(lines: list[str], k: int) -> str:
    """The error at line `k`: ACE writes "! ERROR:", then the text on the next line."""
    return " ".join(lines[k : k + 2]) if lines[k].endswith("ERROR:") else lines[k]


def timed_out(output: str) -> str:
    """ "timeout" when ACE says it stopped on its time limit."""
    stop = re.search(r"stop:(\w+)", output)
    return "timeout" if stop and "TIME" in stop.group(1) else ""
