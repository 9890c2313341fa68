"""A notebook's model as the backends take it (a CompiledModel of kernelext.solver.compiled).

CP-SAT reads a satisfaction model from its parts: the `<variables>` element and the constraint elements
of each posted item. `ModelParts` keeps each item's elements while the item stands, and the reading
keeps its CP-SAT model while the constraints only grow, so a step compiles and reads only what it
posted. The XCSP3 file is written only when a backend asks for it (ACE, an objective, an export).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from kernelext.pycsp3_glue import model_state
from kernelext.solver.cpsat.reader import LARGE, Reading, Translated, read
from kernelext.xcsp.check import Checker
from kernelext.xcsp.document import Element, indentation, parse_text
from kernelext.xcsp.subsets import ModelReading, XcspModel, read_model
from kernelext.xcsp.values import StopSignal

_HEADER = len('<instance format="XCSP3" type="CSP">\n  <constraints>\n  </constraints>\n</instance>\n')


class ModelParts:
    """The compiled parts of one session's model, kept between solves."""

    def __init__(self):
        self.reading = Reading()
        self.xcsp = ModelReading()  # the model read as single constraints (the kit's search, the pictures)
        self._checker: Checker | None = None
        self._declared: tuple = ()
        self._variables: tuple[Element | None, int, int] = (None, 0, 0)  # element, bytes, most bytes
        self._items: list[tuple[object, list[Element], int, int]] = []  # item, elements, bytes, most

    def current(self) -> tuple[Element, list[Element], int, int]:
        """The `<variables>` element, the constraint elements, and the least and most bytes the XCSP3 file
        of the model can take (the file adds indentation to what the elements hold)."""
        from lxml import etree

        declared = model_state.declared_items()
        if len(declared) != len(self._declared) or any(a is not b for a, b in zip(declared, self._declared)):
            text = etree.tostring(model_state.variables_element())
            element = parse_text(text)
            self._declared, self._variables = declared, (element, len(text), len(text) + indentation(element, 1))
        items = model_state.posted_items()
        kept = 0
        while kept < min(len(items), len(self._items)) and self._items[kept][0] is items[kept]:
            kept += 1
        fresh = []
        for item, elements in zip(items[kept:], model_state.compile_items(items[kept:])):
            texts = [etree.tostring(element) for element in elements]
            read_back = [parse_text(text) for text in texts]
            size = sum(map(len, texts))
            fresh.append((item, read_back, size, size + sum(indentation(e, 2) for e in read_back)))
        self._items = self._items[:kept] + fresh
        variables, least, most = self._variables
        elements = [element for _, found, _, _ in self._items for element in found]
        return (
            variables,
            elements,
            _HEADER + least + sum(i[2] for i in self._items),
            _HEADER + most + sum(i[3] for i in self._items),
        )

    def element_items(self) -> list:
        """The posted item each constraint element of the last `current()` came from, in their order."""
        return [item for item, found, _, _ in self._items for _ in found]

    def checker(self, variables, elements: list, holes: frozenset[str]) -> Checker:
        """The Checker of these parts, reusing what the previous one compiled for the elements they share."""
        if self._checker is None:
            self._checker = Checker(variables, elements, None, holes)
        else:
            self._checker = self._checker.extended(variables, elements, None, holes)
        return self._checker


class StepModel:
    """The session's model at one solve: its file written on first demand, its CP-SAT model read from parts.

    Arguments:
        parts: the session's ModelParts.
        write: writes the model's XCSP3 file and gives its path.
    """

    def __init__(self, parts: ModelParts, write: Callable[[], Path]):
        self.parts, self._write = parts, write
        self._path: Path | None = None
        self._writing = threading.Lock()  # racers of `auto` ask for the file from threads of their own
        self._current: tuple | None = None
        self._prepared = False

    def prepare(self) -> None:
        """Compile what the solve reads, before it starts (a Ctrl-C here stops the step, not a search): the
        parts of a satisfaction model, else the file (also when the parts fail: the whole compile then says
        what is wrong, or gives the file to read)."""
        self._prepared = True
        if not self.optimises():
            try:
                self._current = self.parts.current()
                return
            except Exception:
                pass
        self.path()

    def path(self) -> Path:
        with self._writing:
            if self._path is None:
                self._path = self._write()
        return self._path

    def optimises(self) -> bool:
        return model_state.has_objective()

    def cp_sat(self, holes: frozenset[str], stop: StopSignal | None = None) -> Translated:
        """The same CP-SAT model as a reading of the file builds."""
        if not self._prepared:
            self.prepare()
        if self._current is None:
            return read(self.path(), holes, stop)
        variables, elements, _, _ = self._current
        return self.parts.reading.translated(variables, elements, holes, stop)

    def large(self) -> bool:
        """Whether the model's XCSP3 file takes more than LARGE bytes (near the limit, the file's own size)."""
        if not self._prepared:
            self.prepare()
        if self._current is None:
            return self.path().stat().st_size > LARGE
        _, _, least, most = self._current
        return least > LARGE or (most > LARGE and self.path().stat().st_size > LARGE)

    def xcsp(self) -> XcspModel:
        """The model read as single constraints, from the parts kept between steps when it is read from them."""
        if not self._prepared:
            self.prepare()
        if self._current is None:
            return read_model(self.path())
        variables, elements, _, _ = self._current
        return self.parts.xcsp.model(variables, elements)

    def checker(self, holes: frozenset[str]) -> Checker:
        """The model's Checker, built from the parts kept between steps when the model is read from them."""
        if not self._prepared:
            self.prepare()
        if self._current is None:
            return Checker.of_file(self.path(), holes)
        variables, elements, _, _ = self._current
        return self.parts.checker(variables, elements, holes)
