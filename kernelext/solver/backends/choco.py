"""Choco, in a new JVM for each solve."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import ClassVar

from kernelext.solver import ace_output
from kernelext.solver.backends.ace import check_accepted
from kernelext.solver.backends.base import ALL, Backend, Form, Stop
from kernelext.solver.compiled import CompiledModel
from kernelext.solver.jvm.cold import run_java
from kernelext.solver.jvm.jars import choco_jar
from kernelext.solver.result import Cells, SolveResult


class Choco(Backend):
    """Choco in a new JVM for each solve."""

    name: ClassVar[str] = "choco"
    summary: ClassVar[str] = "Choco in a new JVM for each solve"
    desktop_only: ClassVar[str] = "it runs on Java, which a browser has not"
    needs_java: ClassVar[bool] = True
    # Choco leaves solutions out on these
    known_wrong: ClassVar[tuple[Form, ...]] = (
        Form("binPacking"),
        Form("maximumArg"),
        Form("allDifferent", ("matrix", "except")),
    )

    def solve(
        self, model: CompiledModel, cells: Cells, *, sols: int | str, timeout: float, stop: Stop = None
    ) -> SolveResult:
        self.refuse_known_wrong(model)
        args = [str(model.path()), f"-limit=[{max(1, int(timeout))}s]"]
        if sols == ALL or sols > 1:
            args.append("-a")
        start = time.perf_counter()
        run = run_java(
            str(self.solver.java().java_executable),
            ["-cp", str(choco_jar()), "org.chocosolver.parser.xcsp.ChocoXCSP"],
            args,
            timeout=timeout + 5,
        )
        check_accepted(run.output, run.stopped)
        result = ace_output.parse(
            run.output, cells, backend="choco", time=time.perf_counter() - start, stopped=run.stopped
        )
        found = result.solutions
        if len(found) > 1 and found[-1] == found[-2]:  # Choco prints its last solution again after its verdict
            found = found[:-1]
        return replace(result, solutions=found if sols == ALL else found[:sols])
