"""`auto` as a portfolio on the desktop: the first solver alone for a short first slice (a classroom step ends
there), then a race of the solvers that run here, as many at once as the kernel has cores (the others take turns
on them). The first checked, complete answer wins and the others are stopped; at the time limit, the best
checked answer found so far."""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from kernelext.solver.errors import BackendUnsupported
from kernelext.solver.result import SolveResult, Status

FIRST_SLICE = 0.5  # seconds the first solver has alone: what a classroom step takes, and more
SLICE_WALL = 8  # a first slice counted in CPU time lasts at most this many times as long in wall time
POLL = 0.05  # seconds between two looks at a race's stop signal
LATE = 1.0  # seconds a racer may take past the time limit to hand back what it found (it was told to stop)

Solve = Callable[[str, float, threading.Event], SolveResult]  # (backend, seconds, stop) -> a checked result


def wait_for(done: threading.Event, seconds: float, stop: threading.Event | None) -> bool:
    """Whether `done` was set within `seconds`; False as soon as `stop` is set (a race was decided)."""
    if stop is None:
        return done.wait(seconds)
    deadline = time.monotonic() + seconds
    while not done.wait(max(0.0, min(POLL, deadline - time.monotonic()))):
        if stop.is_set() or time.monotonic() >= deadline:
            return False
    return True


@dataclass(frozen=True)
class StopAt:
    """A stop signal set from the time `at` (time.perf_counter) on, or once `stop` is set: a reading that looks
    at it ends within its time limit even inside one large constraint."""

    at: float
    stop: threading.Event | None = None

    def is_set(self) -> bool:
        return time.perf_counter() >= self.at or (self.stop is not None and self.stop.is_set())


def usable_cores() -> int:
    """How many cores this process may use: its CPU affinity, within a container's CPU quota (cgroup v2)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
    except (OSError, ValueError):
        return max(1, cores)
    return max(1, min(cores, int(quota) // int(period))) if quota != "max" else max(1, cores)


def decided(result: SolveResult) -> bool:
    """Whether `result` is a complete, checked answer: a proof (UNSAT, OPTIMUM) or every solution asked for."""
    if result.invalid:
        return False
    return result.status in (Status.UNSAT, Status.OPTIMUM) or (result.status is Status.SAT and not result.stopped)


@dataclass
class Race:
    """One race: `solve` runs a backend; `order` the racers, best first; `cores` how many run at once.

    `sense()` says "minimize", "maximize" or "" (a satisfaction model), to keep the best of unfinished answers
    (asked only then: it may read the model).
    """

    solve: Solve
    order: tuple[str, ...]
    timeout: float
    cores: int
    sense: Callable[[], str] = str
    first_slice: float = FIRST_SLICE
    clock: Callable[[], float] = time.monotonic  # what the first slice is counted in (see `_first_answer`)
    results: dict[str, SolveResult] = field(default_factory=dict)
    errors: dict[str, Exception] = field(default_factory=dict)

    def run(self) -> SolveResult | None:
        """The winner, or the best unfinished answer, or UNKNOWN when no racer answered by the limit (None when
        every racer refused the model or failed: see `errors`).

        The first racer runs until the end. When more racers wait than cores are free, each one after the first
        gets a turn of an equal share of the time left, then yields its core to the next (a solver that is fast
        on a model is fast within its share)."""
        started, finished = time.monotonic(), queue.Queue()
        waiting, stops, turns = list(self.order), {}, {}  # turns: when each racer's turn ends

        def left() -> float:
            return self.timeout - (time.monotonic() - started)

        def start() -> None:
            name = waiting.pop(0)
            stops[name] = threading.Event()
            if waiting and name != self.order[0]:
                turns[name] = time.monotonic() + left() / (1 + len(waiting))
            threading.Thread(
                target=self._racer, args=(name, max(0.01, left()), stops[name], finished), daemon=True
            ).start()

        def next_answer(until: float) -> tuple[str, SolveResult | None] | None:
            try:
                return finished.get(timeout=max(0.0, until - time.monotonic()))
            except queue.Empty:
                return None

        interrupted, winner = False, None
        try:
            start()
            answer = self._first_answer(next_answer, started)
            while True:
                if answer is not None:
                    name, result = answer
                    stops.pop(name)
                    turns.pop(name, None)
                    if result is not None and decided(result):
                        winner = result
                        break
                while waiting and len(stops) < self.cores and left() > 0:
                    start()
                if not waiting:
                    turns.clear()  # a turn yields a core to a racer waiting for one: none waits now
                if not stops:
                    break
                end = started + self.timeout + LATE
                answer = next_answer(min([end, *turns.values()]))
                if answer is None and time.monotonic() >= end:
                    break
                for name in [name for name, ends in turns.items() if answer is None and ends <= time.monotonic()]:
                    stops[name].set()  # its turn is over: its answer comes, and the next racer starts
                    del turns[name]
        except KeyboardInterrupt:
            interrupted = True
        for stop in stops.values():
            stop.set()
        late = self._collect(set(stops), finished, started)
        if winner is not None:
            return winner
        best = self._best()
        if best is None and (late or interrupted):  # no answer in time: the limit (or Stop) ends the solve
            return SolveResult(
                Status.UNKNOWN,
                time=time.monotonic() - started,
                backend=self.order[0],
                stopped="interrupted" if interrupted else "timeout",
            )
        return replace(best, stopped="interrupted") if best is not None and interrupted else best

    def _first_answer(self, next_answer: Callable, started: float) -> tuple[str, SolveResult | None] | None:
        """The first racer's answer within its first slice (None when the slice ends first), the slice counted
        on `clock`. `time.process_time` counts the work of a racer in this process, the same on a busy machine as
        on a quiet one, so that a step's answer does not depend on the load: at most SLICE_WALL times the slice
        in wall time, and never past the time limit."""
        begun, wall_end = self.clock(), started + min(self.timeout, self.first_slice * SLICE_WALL)
        while self.clock() - begun < self.first_slice and time.monotonic() < wall_end:
            answer = next_answer(min(wall_end, time.monotonic() + POLL))
            if answer is not None:
                return answer
        return None

    def _racer(self, name: str, seconds: float, stop: threading.Event, finished: queue.Queue) -> None:
        result = None
        try:
            result = self.solve(name, seconds, stop)
            self.results[name] = result
        except Exception as error:  # a refusal (BackendUnsupported) or a solver's error: the others go on
            self.errors[name] = error
        finally:
            finished.put((name, result))

    def _collect(self, running: set[str], finished: queue.Queue, started: float) -> set[str]:
        """Wait for the racers still running (told to stop) to hand back what they found; those that did not
        by the limit and LATE."""
        while running:
            try:
                name, _ = finished.get(timeout=max(0.1, self.timeout + LATE - (time.monotonic() - started)))
            except queue.Empty:
                return running
            running.remove(name)
        return running

    def _best(self) -> SolveResult | None:
        """The best unfinished answer: the best objective (optimising), else the first racer's with solutions."""
        answered = [self.results[name] for name in self.order if name in self.results]
        with_solutions = [result for result in answered if result.solutions and not result.invalid]
        if not with_solutions:
            return next((result for result in answered if not result.invalid), None)
        bounded = [result for result in with_solutions if result.bound is not None]
        sense = self.sense() if bounded else ""
        if sense:
            sign = 1 if sense == "minimize" else -1
            return min(bounded, key=lambda r: sign * r.bound)
        return with_solutions[0]

    def refusals(self) -> list[str]:
        """The racers' refusals, in order."""
        return [str(self.errors[name]) for name in self.order if isinstance(self.errors.get(name), BackendUnsupported)]

    def failure(self) -> Exception | None:
        """The first racer's error that is not a refusal (a solver's error, a model it rejects), or None."""
        return next(
            (
                self.errors[n]
                for n in self.order
                if n in self.errors and not isinstance(self.errors[n], BackendUnsupported)
            ),
            None,
        )

    def notes(self) -> list[str]:
        """What the racers returned that the kit's check refused."""
        return [
            self.results[name].invalid for name in self.order if name in self.results and self.results[name].invalid
        ]
