"""What the views read off a compiled model (an XcspModel of kernelext.xcsp.subsets): constraints by tag, the
items of their lists, values in a solution, domains, the objective."""

from __future__ import annotations

import re
from collections.abc import Mapping

from kernelext.errors import Untranslatable
from kernelext.xcsp.check import Checker
from kernelext.xcsp.document import parse_text
from kernelext.xcsp.subsets import XcspModel, XmlConstraint

Solution = Mapping[str, "int | None"] | None
_NUMBER = re.compile(r"-?\d+")
_REPEATED = re.compile(r"(-?\d+)x(\d+)")
_INDEXES = re.compile(r"\[(\d+)\]")


def constraints(model: XcspModel, *tags: str) -> list[XmlConstraint]:
    """The model's single constraints whose tag is one of `tags`, in order."""
    return [c for c in model.constraints if c.element.tag in tags]


def items(constraint: XmlConstraint, child: str | None = None) -> list[str]:
    """The items of a constraint's list (its `child` element's text, or its own text): ids and numbers, XCSP3's
    `1x3` (1 three times) written out."""
    element = constraint.element if child is None else constraint.element.find(child)
    found = []
    for token in (element.text or "").split() if element is not None else ():
        repeated = _REPEATED.fullmatch(token)
        found += [repeated.group(1)] * int(repeated.group(2)) if repeated else [token]
    return found


def tuples(constraint: XmlConstraint, child: str) -> list[tuple[str, ...]]:
    """The tuples of a list such as `(x[0],y[0])(x[1],y[1])`; [] when the list holds no tuples."""
    element = constraint.element.find(child)
    text = "".join((element.text or "").split()) if element is not None else ""
    return [tuple(part.split(",")) for part in re.findall(r"\(([^)]*)\)", text)]


def value(token: str, solution: Solution) -> int | None:
    """A number, or the value of the variable `token` in `solution` (None when undecided or unsolved)."""
    if _NUMBER.fullmatch(token):
        return int(token)
    return solution.get(token) if solution else None


def is_variable(token: str) -> bool:
    return not _NUMBER.fullmatch(token)


def bounds(model: XcspModel, token: str) -> tuple[int, int]:
    """The least and greatest value a number or variable can take."""
    if _NUMBER.fullmatch(token):
        return int(token), int(token)
    spans = model.declarations.domains.get(token) or ((0, 0),)
    return spans[0][0], spans[-1][1]


def condition(constraint: XmlConstraint) -> tuple[str, int] | None:
    """A constraint's `<condition>` as (operator, number), None when absent or against a variable."""
    text = (constraint.element.findtext("condition") or "").strip().strip("()")
    operator, _, operand = text.partition(",")
    operand = operand.strip()
    return (operator.strip(), int(operand)) if _NUMBER.fullmatch(operand) else None


def changed(tokens, solution: Solution, previous: Solution) -> bool:
    """Whether any of the variables `tokens` has another value than in `previous` (False without `previous`)."""
    if previous is None:
        return False
    return any(value(t, solution) != value(t, previous) for t in tokens if is_variable(t))


def array_name(vid: str) -> str:
    return vid.partition("[")[0]


def indexes(vid: str) -> tuple[int, ...]:
    return tuple(int(i) for i in _INDEXES.findall(vid))


def common_name(ids: list[str]) -> str:
    """What the ids have in common, `*` where they differ: `s[0][2] s[1][2]` -> `s[*][2]`."""
    if not ids or len({array_name(i) for i in ids}) != 1 or len({len(indexes(i)) for i in ids}) != 1:
        return ", ".join(ids[:3]) + (", ..." if len(ids) > 3 else "")
    columns = zip(*(indexes(i) for i in ids))
    return array_name(ids[0]) + "".join(f"[{c[0]}]" if len(set(c)) == 1 else "[*]" for c in columns)


def objective(model: XcspModel) -> tuple[str, str] | None:
    """The objective as ("minimize" or "maximize", its type: sum, maximum, expression...), None without one."""
    if model.objectives is None or len(model.objectives) != 1:
        return None
    goal = model.objectives[0]
    return goal.tag, goal.get("type", "expression")


def objective_value(model: XcspModel, solution: Solution) -> int | None:
    """The objective's value for `solution`; None without an objective, a whole solution or an exact reading."""
    if model.objectives is None or not solution:
        return None
    try:
        return Checker(parse_text(model.variables), (), model.objectives).objective_value(solution)
    except Untranslatable:
        return None


def objective_names(model: XcspModel) -> set[str]:
    """The arrays (and single variables) the objective mentions."""
    if model.objectives is None:
        return set()
    text = " ".join(" ".join((e.text or "").split()) for e in model.objectives.iter())
    return {array_name(vid) for vid in model.declarations.scope(text)}
