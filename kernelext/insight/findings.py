"""What explanations find: a conflict, why a cell has its value, hints, walkthroughs. Frozen dataclasses, each with its
words and its grid (`words()`, `picture()`), which `kernelext.widgets.static_forms` draws as text and HTML;
the algorithms that find them live in `kernelext.insight.explain`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from kernelext.grid import Grid
from kernelext.insight.pencil_marks import PencilGrid


@dataclass(frozen=True)
class Culprit:
    """One constraint of an explanation.

    Attributes:
        text: the constraint, short (e.g. `lt(x[0][0],x[0][1])`).
        step: the number of the step that posted it (1 for the first step).
        scope: its variables' ids.
        cells: the (row, col) cells of the drawn array among them.
    """

    text: str
    step: int
    scope: tuple[str, ...]
    cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Explanation:
    """Why a model has no solution: a set of constraints with no solution together.

    Attributes:
        puzzle: the puzzle's name.
        steps: the numbers of the steps in conflict (a minimal set of steps).
        constraints: the conflicting constraints; removing any one leaves a model with solutions (if minimal).
        minimal: False when time ran out before the set was shown minimal.
        grid: the drawn array, its cells in the constraints' scopes as `changed`.
    """

    puzzle: str
    steps: tuple[int, ...]
    constraints: tuple[Culprit, ...]
    minimal: bool
    grid: Grid | None

    def words(self) -> list[str]:
        steps = ", ".join(map(str, self.steps))
        return [
            f"{self.puzzle}: no solution. These {len(self.constraints)} constraints (steps {steps}) "
            "contradict each other:",
            *_listed(self.constraints),
            _minimal_note(self.minimal, "removing any one of them leaves a model with solutions"),
        ]

    def picture(self) -> tuple[Grid | None, str]:
        return self.grid, "cells they involve"


@dataclass(frozen=True)
class WhyAnswer:
    """Why a cell has its value: the constraints that force it, or a solution where it differs.

    Attributes:
        puzzle: the puzzle's name.
        cell: the variable's id, e.g. `x[3][4]`.
        value: its value in the first solution found.
        forced: True when every solution has `value` there.
        constraints: (forced) a set of constraints that rules out every other value; empty when the domain does.
        minimal: False when time ran out before the set was shown minimal.
        grid: the first solution, the constraints' cells as `changed`.
        alternative: (not forced) a solution with another value there, the cells that differ as `changed`.
    """

    puzzle: str
    cell: str
    value: int | None
    forced: bool
    constraints: tuple[Culprit, ...] = ()
    minimal: bool = True
    grid: Grid | None = None
    alternative: Grid | None = None

    def words(self) -> list[str]:
        if not self.forced:
            if self.value is None:
                return [f"{self.cell} is not forced: no constraint involves it."]
            return [f"{self.cell} is not forced: it is {self.value} in one solution; here is another one."]
        if not self.constraints:
            return [f"{self.cell} = {self.value} in every solution: its domain has no other value."]
        return [
            f"{self.cell} = {self.value} in every solution, because of these {len(self.constraints)} "
            f"constraints ({self.cell} != {self.value} contradicts them):",
            *_listed(self.constraints),
            _minimal_note(self.minimal, "without any one of them, another value is possible"),
        ]

    def picture(self) -> tuple[Grid | None, str]:
        if not self.forced:
            return (self.alternative, "cells that differ") if self.value is not None else (None, "")
        return (self.grid, "cells they involve") if self.constraints else (None, "")


def _listed(culprits: Sequence[Culprit]) -> list[str]:
    return [f"  step {c.step}: {c.text}" for c in culprits]


def _minimal_note(minimal: bool, meaning: str) -> str:
    return f"  ({meaning})" if minimal else "  (time ran out: this set may not be minimal)"


@dataclass(frozen=True)
class Deduction:
    """One step of a walkthrough: new facts and the smallest set of the model's constraints forcing them.

    Attributes:
        placed: (cell id, value) of the cells this step leaves with one candidate.
        removed: (cell id, values) of the candidates this step rules out (placements included).
        constraints: the constraints that force the facts from what is known before the step.
        known: (cell id, value) of the known cells in the constraints' scope.
        technique: the step's name when its shape is a known technique (`hidden single`, `X-wing`), else "".
        smallest: True when no step with fewer constraints exists (proven); False when it is only minimal.
        marks: the candidates after the step, its removed values struck, the constraints' cells highlighted.
        links: a named chain's links, (cell id, cell id, digit, strong): one of two strongly linked cells
            holds the digit, two weakly linked cells do not both hold it.
        minimal: False when a solver could not tell in time whether fewer of the constraints would do.
    """

    placed: tuple[tuple[str, int], ...]
    removed: tuple[tuple[str, tuple[int, ...]], ...]
    constraints: tuple[Culprit, ...]
    known: tuple[tuple[str, int], ...]
    technique: str
    smallest: bool
    marks: PencilGrid | None
    links: tuple[tuple[str, str, int, bool], ...] = ()
    minimal: bool = True

    @property
    def size(self) -> int:
        """How many constraints force each fact: 1 for merged singles, else all of them."""
        return 1 if self.technique == "singles" else len(self.constraints)

    def facts(self) -> str:
        """The new facts: `x[2][3] = 4` for a placement, `x[0][1] != 2, 5` for removed candidates."""
        placed = dict(self.placed)
        parts = [f"{cell} = {value}" for cell, value in self.placed]
        parts += [f"{cell} != {', '.join(map(str, values))}" for cell, values in self.removed if cell not in placed]
        return "; ".join(parts)

    def chain(self) -> str:
        """The links written out, `a =5= b -5- c` (strong `=`, weak `-`); links that do not follow on from
        each other are separated by commas."""
        parts = []
        for a, b, digit, strong in self.links:
            mark = f"={digit}=" if strong else f"-{digit}-"
            if parts and parts[-1].endswith(f" {a}"):
                parts[-1] += f" {mark} {b}"
            else:
                parts.append(f"{a} {mark} {b}")
        return ", ".join(parts)

    def line(self) -> str:
        """The step in one line: `FACTS by C1; C2 known: ...`, then its technique and whether it is proven smallest."""
        known = f" known: {', '.join(f'{c} = {v}' for c, v in self.known)}" if self.known else ""
        notes = [self.technique + (f": {self.chain()}" if self.links else "")] if self.technique else []
        notes += [] if self.smallest else ["minimal, not proven smallest"] if self.minimal else ["not proven minimal"]
        note = f" [{'; '.join(notes)}]" if notes else ""
        return f"{self.facts()} by {'; '.join(c.text for c in self.constraints)}{known}{note}"


@dataclass(frozen=True)
class Walkthrough:
    """A whole solve explained as a puzzle book does: deductions one after the other, from the givens.

    Attributes:
        puzzle: the puzzle's name.
        deductions: the steps, in order.
        solved: True when every cell of the drawn array is placed at the end.
        rating: the difficulty: a level and the hardest technique used, e.g. `hard (X-wing)`; "" when not rated.
        stopped: why the walkthrough ended before the grid was solved ("" when solved, or when it stopped
            after the deductions asked for).
        start: the candidates from the givens; end: the candidates at the end.
        optimum: for an optimisation model, what became of its objective (`its optimum, sum(x[][]) = 20,
            posted as a constraint`); "" otherwise.
    """

    puzzle: str
    deductions: tuple[Deduction, ...]
    solved: bool
    rating: str
    stopped: str
    start: PencilGrid | None
    end: PencilGrid | None
    optimum: str = ""

    def header(self) -> str:
        sizes = Counter(d.size for d in self.deductions)
        listed = ", ".join(
            f"{size} in {count}" + (" deduction(s)" if k == 0 else "")
            for k, (size, count) in enumerate(sorted(sizes.items()))
        )
        count = f"{len(self.deductions)} deduction(s)"
        if self.solved:
            head = f"solved in {count}"
        elif self.stopped:
            head = f"not solved ({self.stopped}) after {count}"
        else:
            head = f"the first {count} of the solve"
        listed = f" (constraints per fact: {listed})" if listed else ""
        rating = f"; difficulty: {self.rating}" if self.rating else ""
        optimum = f"; {self.optimum}" if self.optimum else ""
        return f"{self.puzzle}: {head}{listed}{rating}{optimum}."

    def words(self) -> list[str]:
        return [self.header()] + [f"{n:>3}. {d.line()}" for n, d in enumerate(self.deductions, start=1)]
