"""An XCSP3 file cut into single constraints, written back as any subset of them (variables always kept).

A `<group>` gives one constraint per `<args>`, an `<instantiation>` one `eq` per variable, `<block>`s are
opened, objectives kept aside. Each constraint is kept as a standalone element with its variables listed one
by one, so the same constraint has the same text however pycsp3 grouped or abbreviated it. Lists, groups and
templates are expanded by `kernelext.xcsp.declarations`, as for every other reader.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from kernelext.errors import Untranslatable
from kernelext.xcsp.constraints import Constraint, Objective, read, read_objective
from kernelext.xcsp.declarations import Declarations, parameters, substitute
from kernelext.xcsp.document import Element, parse_file, parse_text, written
from kernelext.xcsp.expressions import written_expression
from kernelext.xcsp.values import values

MAX_TEXT = 120


@dataclass(frozen=True)
class XmlConstraint:
    """One constraint of an XCSP3 file.

    Attributes:
        xml: the constraint as a standalone XCSP3 element, variables listed one by one (its identity).
        text: a short readable form, e.g. `lt(x[0][0],x[0][1])` or `allDifferent(x[0][])`.
        scope: the ids of its variables, in order of first appearance.
        element: `xml` parsed (readers take it from here; never changed).
    """

    xml: str
    text: str
    scope: tuple[str, ...]
    element: Element = field(compare=False, repr=False)


def constraint_of(xml: str, text: str, scope: tuple[str, ...]) -> XmlConstraint:
    """The constraint a standalone XCSP3 element's text gives, variables already listed one by one."""
    return XmlConstraint(xml, text, tuple(scope), parse_text(xml))


@dataclass(frozen=True)
class XcspModel:
    """The variables of an XCSP3 file (as XML, and as read) and its constraints, one by one, in document order."""

    variables: str
    constraints: tuple[XmlConstraint, ...]
    declarations: Declarations = field(compare=False, repr=False)
    objectives: Element | None = field(default=None, compare=False, repr=False)

    @cached_property
    def objective(self) -> Objective | None:
        """The one objective, read once (kernelext.xcsp.constraints); None without one, with several, or for one
        the typed model does not read."""
        if self.objectives is None or len(self.objectives) != 1:
            return None
        try:
            return read_objective(self.objectives[0], self.declarations)
        except Untranslatable:
            return None

    @cached_property
    def typed(self) -> tuple[Constraint | None, ...]:
        """Each constraint in the typed model (kernelext.xcsp.constraints), read once; None for one it does not
        read (a tag not typed yet, or a form it refuses)."""
        found: list[Constraint | None] = []
        for constraint in self.constraints:
            try:
                found.append(read(constraint.element, self.declarations))
            except Untranslatable:
                found.append(None)
        return tuple(found)

    def write(self, path: Path, constraints: list[str]) -> Path:
        """Write a model with these variables and the constraints given as XML elements (a CSP: no objective)."""
        body = "\n".join(constraints)
        path.write_text(
            f'<instance format="XCSP3" type="CSP">\n{self.variables}\n'
            f"<constraints>\n{body}\n</constraints>\n</instance>\n"
        )
        return path


def read_model(path: Path) -> XcspModel:
    """Parse the XCSP3 file at `path` into its variables and single constraints."""
    root = parse_file(path)
    variables = root.find("variables")
    declarations = Declarations()
    declarations.declare(variables)
    found: list[XmlConstraint] = []
    for element in root.find("constraints") if root.find("constraints") is not None else ():
        _collect(element, declarations, found)
    return XcspModel(_clean(written(variables)), tuple(found), declarations, root.find("objectives"))


class ModelReading:
    """Reads a model given as its `<variables>`, constraint elements and `<objectives>` (as a step compiled them,
    without a file), step after step: what each constraint element gave is kept while that element and the
    `<variables>` element stay the same objects, so a step reads only what it posted. The elements are copied,
    never changed."""

    def __init__(self):
        self._variables: Element | None = None
        self._text, self._declarations = "", Declarations()
        self._read: dict[int, tuple[Element, tuple[XmlConstraint, ...]]] = {}

    def model(self, variables: Element, elements: Iterable[Element], objectives: Element | None = None) -> XcspModel:
        return self.counted(variables, elements, objectives)[0]

    def counted(
        self, variables: Element, elements: Iterable[Element], objectives: Element | None = None
    ) -> tuple[XcspModel, list[int]]:
        """The model, and how many of its single constraints each element gave, in order."""
        if variables is not self._variables:
            declarations = Declarations()
            declarations.declare(variables)
            self._variables, self._text, self._declarations, self._read = (
                variables,
                _clean(written(variables)),
                declarations,
                {},
            )
        read, found, counts = {}, [], []
        for element in elements:
            kept = self._read.get(id(element))
            if kept is None or kept[0] is not element:
                part: list[XmlConstraint] = []
                _collect(copy.deepcopy(element), self._declarations, part)
                kept = (element, tuple(part))
            read[id(element)] = kept
            found += kept[1]
            counts.append(len(kept[1]))
        self._read = read
        return XcspModel(self._text, tuple(found), self._declarations, objectives), counts


def objective_constraint(model: XcspModel, bound: int, op: str = "eq") -> XmlConstraint | None:
    """The model's objective held at `bound` (or compared with it: `op` lt, gt...), as a constraint: a sum
    (`<minimize type="sum">`) or an expression compared with it; None for another form, or without one objective
    the typed model reads."""
    goal = model.objective
    if goal is None:
        return None
    if goal.kind == "sum":
        coeffs = " ".join(map(written_expression, goal.coeffs)) if goal.coeffs is not None else ""
        element = parse_text(
            f"<sum><list> {goal.text} </list>"
            + (f"<coeffs> {coeffs} </coeffs>" if coeffs else "")
            + f"<condition> ({op},{bound}) </condition></sum>"
        )
    elif goal.kind == "expression":
        element = parse_text(f"<intension> {op}({goal.text},{bound}) </intension>")
    else:
        return None
    constraint = _constraint(element, parse_text(written(element)), model.declarations)
    return replace(constraint, text=f"{constraint.text} (the optimum)") if op == "eq" else constraint


def variable_element(name: str, values: tuple[int, ...]) -> str:
    """An XCSP3 `<var>` declaration of `name` with the domain `values`."""
    return f'<var id="{name}"> {" ".join(map(str, values))} </var>'


def rename(xml: str, names: dict[str, str]) -> str:
    """`xml` with each variable id found in `names` replaced by its new name."""
    return _REFERENCE.sub(lambda m: names.get(m.group(0), m.group(0)), xml)


_REFERENCE = re.compile(r"[A-Za-z_]\w*(?:\[[^\]\s]*\])*(?!\w|\()")
_BRACKETS = re.compile(r"\[([^\]]*)\]")


def _collect(element: Element, declarations: Declarations, found: list[XmlConstraint]) -> None:
    if element.tag == "block":
        for child in element:
            _collect(child, declarations, found)
    elif element.tag == "group":
        template, members = element[0], declarations.group_members(element)
        for member, args in zip(members, element[1:]):
            raw = (args.text or "").split()
            short = substitute(template, raw) if len(raw) > parameters(template) - 1 else member
            found.append(_constraint(member, short, declarations))
    elif element.tag == "instantiation":  # one `eq` per variable, so that each clue counts on its own
        variables = declarations.written_out(element.findtext("list", "")).split()
        for variable, value in zip(variables, values(element.findtext("values", ""))):
            clue = parse_text(f"<intension> eq({variable},{value}) </intension>")
            found.append(_constraint(clue, clue, declarations))
    elif element.tag not in ("comment", "annotations"):
        found.append(_constraint(element, element, declarations))


def _constraint(full: Element, short: Element, declarations: Declarations) -> XmlConstraint:
    readable = _readable(_summary(short), declarations)  # before `full` (possibly the same element) is written out
    for node in full.iter():
        node.tail = None
        text_of = " ".join((node.text or "").split())
        if text_of:
            node.text = (
                f" {_matrix(text_of, declarations) if node.tag == 'matrix' else declarations.written_out(text_of)} "
            )
        else:
            node.text = None
    scope = tuple(dict.fromkeys(declarations.scope(" ".join(node.text or "" for node in full.iter()))))
    return XmlConstraint(written(full), readable, scope, full)


def _matrix(text: str, declarations: Declarations) -> str:
    """A `<matrix>`'s text written out row by row: `x[][]` gives `(x[0][0],x[0][1])(x[1][0],x[1][1])`."""
    try:
        rows = declarations.matrix(text)
    except (Untranslatable, ValueError):  # not a matrix this reading takes: written out as it is
        return declarations.written_out(text)
    return "".join(
        "(" + ",".join(declarations.written_out(item).replace(" ", ",") for item in row) + ")" for row in rows
    )


def _readable(text: str, declarations: Declarations) -> str:
    """`text` with every reference's indices written out: `x[0][]` becomes `x[0][0..8]`, or the ids
    themselves when there are four at most."""

    def write_out(match: re.Match) -> str:
        token, ids = match.group(0), declarations.ids(match.group(0))
        if not ids or "[]" not in token:
            return token
        if len(ids) <= 4:
            return ", ".join(ids)
        name = token.split("[", 1)[0]
        parts = zip(_BRACKETS.findall(token), declarations.shapes[name])
        return name + "".join(f"[{part or f'0..{size - 1}'}]" for part, size in parts)

    return _REFERENCE.sub(write_out, text)


def _summary(element: Element) -> str:
    """`lt(x[0][0],x[0][1])` for an intension, else `tag(text)` or `tag(child: text, ...)`."""
    text = " ".join((element.text or "").split())
    if element.tag == "intension":
        out = text
    elif len(element) == 0:
        out = f"{element.tag}({text})"
    else:
        parts = [f"{child.tag}: {' '.join((child.text or '').split())}" for child in element]
        out = f"{element.tag}({', '.join(parts)})"
    return out if len(out) <= MAX_TEXT else out[: MAX_TEXT - 1] + "…"


def _clean(xml: str) -> str:
    return "\n".join(line for line in xml.splitlines() if line.strip())
