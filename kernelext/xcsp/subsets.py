"""An XCSP3 file cut into single constraints, written back as any subset of them (variables always kept).

A `<group>` gives one constraint per `<args>`, an `<instantiation>` one `eq` per variable, `<block>`s are
opened, objectives dropped. Each constraint is
kept as a standalone element with its variables listed one by one, so the same constraint has the same
text however pycsp3 grouped or abbreviated it.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from pathlib import Path

_REFERENCE = re.compile(r"[A-Za-z_]\w*(?:\[[^\]\s]*\])*(?!\w|\()")
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_PARAMETER = re.compile(r"%(\d+|\.\.\.)")
MAX_TEXT = 120


@dataclass(frozen=True)
class XmlConstraint:
    """One constraint of an XCSP3 file.

    Attributes:
        xml: the constraint as a standalone XCSP3 element, variables listed one by one (its identity).
        text: a short readable form, e.g. `lt(x[0][0],x[0][1])` or `allDifferent(x[0][])`.
        scope: the ids of its variables, in order of first appearance.
    """

    xml: str
    text: str
    scope: tuple[str, ...]


@dataclass(frozen=True)
class XcspModel:
    """The variables of an XCSP3 file (as XML) and its constraints, one by one, in document order."""

    variables: str
    constraints: tuple[XmlConstraint, ...]

    def write(self, path: Path, constraints: list[str]) -> Path:
        """Write a model with these variables and the constraints given as XML elements (a CSP: no objective)."""
        body = "\n".join(constraints)
        path.write_text(f'<instance format="XCSP3" type="CSP">\n{self.variables}\n'
                        f"<constraints>\n{body}\n</constraints>\n</instance>\n")
        return path


def read_model(path: Path) -> XcspModel:
    """Parse the XCSP3 file at `path` into its variables and single constraints."""
    root = ET.parse(path).getroot()
    variables = root.find("variables")
    expand = _Expander(variables)
    found: list[XmlConstraint] = []
    for element in root.find("constraints") if root.find("constraints") is not None else ():
        _collect(element, expand, found)
    return XcspModel(_clean(ET.tostring(variables, encoding="unicode")), tuple(found))


def objective_constraint(root: ET.Element, bound: int) -> XmlConstraint | None:
    """The model's one objective held at `bound`, as a constraint: a sum (`<minimize type="sum">`) or an
    expression equal to it; None for another form, or for several objectives."""
    objectives = root.find("objectives")
    if objectives is None or len(objectives) != 1:
        return None
    goal = objectives[0]
    kind = goal.get("type", "expression")
    if kind == "sum":
        listed = goal.find("list")
        terms = listed.text if listed is not None else goal.text
        coeffs = goal.findtext("coeffs")
        element = ET.fromstring(f"<sum><list> {terms} </list>" + (f"<coeffs> {coeffs} </coeffs>" if coeffs else "")
                                + f"<condition> (eq,{bound}) </condition></sum>")
    elif kind == "expression" and len(goal) == 0:
        element = ET.fromstring(f"<intension> eq({' '.join((goal.text or '').split())},{bound}) </intension>")
    else:
        return None
    expand = _Expander(root.find("variables"))
    constraint = _constraint(element, ET.fromstring(ET.tostring(element)), expand)
    return replace(constraint, text=f"{constraint.text} (the optimum)")


def variable_element(name: str, values: tuple[int, ...]) -> str:
    """An XCSP3 `<var>` declaration of `name` with the domain `values`."""
    return f'<var id="{name}"> {" ".join(map(str, values))} </var>'


def rename(xml: str, names: dict[str, str]) -> str:
    """`xml` with each variable id found in `names` replaced by its new name."""
    return _REFERENCE.sub(lambda m: names.get(m.group(0), m.group(0)), xml)


class _Expander:
    """Lists the variable ids an XCSP3 reference stands for (`x[0][]`, `x[1..3][2]`, `z`)."""

    def __init__(self, variables: ET.Element):
        self.sizes: dict[str, tuple[int, ...]] = {}
        for element in variables:
            if element.tag == "array":
                self.sizes[element.get("id")] = tuple(int(n) for n in _BRACKETS.findall(element.get("size")))
            elif element.tag == "var":
                self.sizes[element.get("id")] = ()

    def ids(self, token: str) -> list[str] | None:
        """The ids `token` stands for, or None if it names no declared variable."""
        ranges = self._ranges(token)
        if ranges is None:
            return None
        name = token.split("[", 1)[0]
        return [name + "".join(f"[{i}]" for i in index) for index in itertools.product(*ranges)]

    def _ranges(self, token: str) -> list | None:
        """The indices `token` takes in each dimension (`x[1..2][]`: range(1, 3), range(size))."""
        sizes = self.sizes.get(token.split("[", 1)[0])
        parts = _BRACKETS.findall(token)
        if sizes is None or len(parts) != len(sizes):
            return None
        ranges = []
        for part, size in zip(parts, sizes):
            if part == "":
                ranges.append(range(size))
            elif ".." in part:
                low, high = part.split("..")
                ranges.append(range(int(low), int(high) + 1))
            else:
                ranges.append((int(part),))
        return ranges

    def matrix(self, text: str) -> str:
        """A `<matrix>`'s text written out row by row: `x[][]` gives `(x[0][0],x[0][1])(x[1][0],x[1][1])`."""
        token = " ".join(text.split())
        ranges = self._ranges(token) if _REFERENCE.fullmatch(token) else None
        if ranges is not None and sum(len(r) > 1 for r in ranges) == 2:
            ids = self.ids(token)
            width = [len(r) for r in ranges if len(r) > 1][1]
            return "".join("(" + ",".join(ids[i:i + width]) + ")" for i in range(0, len(ids), width))
        return re.sub(r"\(([^)]*)\)", lambda row: "(" + ",".join(self.text(row.group(1).replace(",", " ")).split()) + ")",
                      token)

    def text(self, text: str) -> str:
        """`text` with every reference written out as the ids it stands for."""
        return _REFERENCE.sub(lambda m: " ".join(self.ids(m.group(0)) or [m.group(0)]), text)

    def readable(self, text: str) -> str:
        """`text` with every reference's indices written out: `x[0][]` becomes `x[0][0..8]`, or the ids
        themselves when there are four at most."""

        def write_out(match: re.Match) -> str:
            token, ids = match.group(0), self.ids(match.group(0))
            if not ids or "[]" not in token:
                return token
            if len(ids) <= 4:
                return ", ".join(ids)
            name = token.split("[", 1)[0]
            parts = zip(_BRACKETS.findall(token), self.sizes[name])
            return name + "".join(f"[{part or f'0..{size - 1}'}]" for part, size in parts)

        return _REFERENCE.sub(write_out, text)

    def scope(self, text: str) -> list[str]:
        return [i for m in _REFERENCE.finditer(text) for i in self.ids(m.group(0)) or ()]


def _collect(element: ET.Element, expand: _Expander, found: list[XmlConstraint]) -> None:
    if element.tag == "block":
        for child in element:
            _collect(child, expand, found)
    elif element.tag == "group":
        template, *args = list(element)
        for arg in args:
            raw = (arg.text or "").split()
            full = [token for raw_token in raw for token in (expand.ids(raw_token) or [raw_token])]
            short = raw if len(raw) > _highest_parameter(template) else full
            found.append(_constraint(_substitute(template, full), _substitute(template, short), expand))
    elif element.tag == "instantiation":  # one `eq` per variable, so that each clue counts on its own
        variables = expand.text(element.findtext("list", "")).split()
        for variable, value in zip(variables, repeated(element.findtext("values", "").split())):
            clue = ET.fromstring(f"<intension> eq({variable},{value}) </intension>")
            found.append(_constraint(clue, clue, expand))
    elif element.tag not in ("comment", "annotations"):
        found.append(_constraint(element, element, expand))


def repeated(tokens: list[str]) -> list[str]:
    """XCSP3's compact values written out: `0x3` (0 three times) gives 0 0 0."""
    out = []
    for token in tokens:
        value, times = token.split("x") if re.fullmatch(r"-?\d+x\d+", token) else (token, "1")
        out += [value] * int(times)
    return out


def _highest_parameter(template: ET.Element) -> int:
    """The largest i of the `%i` in a group's template (-1 if none)."""
    used = [int(p) for node in template.iter() for p in _PARAMETER.findall(node.text or "") if p != "..."]
    return max(used, default=-1)


def _substitute(template: ET.Element, args: list[str]) -> ET.Element:
    """A copy of the group's `template` with `%i` and `%...` replaced by `args`."""
    copy = ET.fromstring(ET.tostring(template, encoding="unicode"))
    rest = " ".join(args[_highest_parameter(template) + 1:])

    def fill(match: re.Match) -> str:
        return rest if match.group(1) == "..." else args[int(match.group(1))]

    for node in copy.iter():
        if node.text:
            node.text = _PARAMETER.sub(fill, node.text)
    return copy


def _constraint(full: ET.Element, short: ET.Element, expand: _Expander) -> XmlConstraint:
    text = expand.readable(_readable(short))  # before `full` (possibly the same element) is written out
    for node in full.iter():
        node.tail = None
        written = expand.matrix if node.tag == "matrix" else expand.text
        node.text = " " + written(" ".join(node.text.split())) + " " if (node.text or "").strip() else None
    xml = ET.tostring(full, encoding="unicode")
    scope = tuple(dict.fromkeys(expand.scope(" ".join(node.text or "" for node in full.iter()))))
    return XmlConstraint(xml, text, scope)


def _readable(element: ET.Element) -> str:
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
