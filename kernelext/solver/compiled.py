"""What a backend solves: a compiled model, which gives itself as an XCSP3 file, to CP-SAT as a CP-SAT model,
and to the kit's own search as single constraints. A notebook's model gives the last two without writing the
first (see kernelext.steps.step_model)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from kernelext.solver.cpsat.reader import LARGE, Translated, read
from kernelext.xcsp.check import Checker
from kernelext.xcsp.subsets import XcspModel, read_model
from kernelext.xcsp.values import StopSignal


class CompiledModel(Protocol):
    """A model ready for the backends."""

    def path(self) -> Path:
        """The model as an XCSP3 file."""

    def optimises(self) -> bool:
        """Whether the model has an objective."""

    def cp_sat(self, holes: frozenset[str], stop: StopSignal | None = None) -> Translated:
        """The model as a CP-SAT model (`holes`: the ids of array cells that hold no variable).

        Raises BackendUnsupported when it holds something the reading does not translate, ReadingStopped
        when `stop` was set before the reading ended (a race was decided, or the time limit passed)."""

    def large(self) -> bool:
        """Whether the model's XCSP3 text takes more than cpsat.reader.LARGE bytes."""

    def xcsp(self) -> XcspModel:
        """The model read as single constraints (what the kit's own search reads)."""

    def checker(self, holes: frozenset[str]):
        """The model's Checker (kernelext.xcsp.check), which evaluates its constraints on a solution.

        Raises Untranslatable naming a constraint it cannot evaluate."""


@dataclass(frozen=True)
class ModelFile:
    """A model compiled into an XCSP3 file."""

    file: Path

    def path(self) -> Path:
        return self.file

    def optimises(self) -> bool:
        """True when the file states an optimisation problem (its root says `type="COP"`)."""
        with open(self.file, "rb") as opened:
            return b'type="COP"' in opened.read(200)

    def cp_sat(self, holes: frozenset[str], stop: StopSignal | None = None) -> Translated:
        return read(self.file, holes, stop)

    def checker(self, holes: frozenset[str]):
        return Checker.of_file(self.file, holes)

    def large(self) -> bool:
        return self.file.stat().st_size > LARGE

    def xcsp(self) -> XcspModel:
        return read_model(self.file)


def compiled(model: Path | str | CompiledModel) -> CompiledModel:
    """`model` as a CompiledModel: a path names an XCSP3 file."""
    return ModelFile(Path(model)) if isinstance(model, (str, Path)) else model


def holes_of(cells) -> frozenset[str]:
    """The ids of the array cells that hold no variable, from each array's cells (None at a hole)."""
    return frozenset(
        name + "".join(f"[{i}]" for i in index) for name, array in cells.items() for index, vid in array if vid is None
    )
