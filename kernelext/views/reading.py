"""What the pictures read off a compiled model (an XcspModel of kernelext.xcsp.subsets): its constraints in the typed
model's classes (kernelext.xcsp.constraints), values in a solution, domains, the objective."""

from __future__ import annotations

import re
from collections.abc import Mapping

from kernelext.errors import Untranslatable
from kernelext.xcsp.check import Checker
from kernelext.xcsp.constraints import Constraint, Term
from kernelext.xcsp.document import parse_text
from kernelext.xcsp.expressions import written_expression
from kernelext.xcsp.subsets import XcspModel

Solution = Mapping[str, "int | None"] | None
_INDEXES = re.compile(r"\[(\d+)\]")


def constraints(model: XcspModel, *kinds: type) -> list[Constraint]:
    """The model's single constraints of the typed model's classes `kinds`, read, in order (one the typed model
    cannot read is left out: a picture draws what it understands)."""
    return [typed for typed in model.typed if isinstance(typed, kinds)]


def value(term: Term, solution: Solution) -> int | None:
    """A number, or the value of the variable `term` in `solution` (None when undecided, unsolved, or an
    expression)."""
    if isinstance(term, int):
        return term
    return solution.get(term) if solution and isinstance(term, str) else None


def is_variable(term: Term) -> bool:
    return isinstance(term, str)


def bounds(model: XcspModel, term: Term) -> tuple[int, int]:
    """The least and greatest value a number or variable can take ((0, 0) for an expression)."""
    if isinstance(term, int):
        return term, term
    spans = model.declarations.domains.get(term) if isinstance(term, str) else None
    spans = spans or ((0, 0),)
    return spans[0][0], spans[-1][1]


def changed(tokens, solution: Solution, previous: Solution) -> bool:
    """Whether any of the variables `tokens` has another value than in `previous` (False without `previous`)."""
    if previous is None:
        return False
    return any(value(t, solution) != value(t, previous) for t in tokens if is_variable(t))


def array_name(vid: Term) -> str:
    """The array a variable belongs to (its own name for a single variable; "" for a number or an expression)."""
    return vid.partition("[")[0] if isinstance(vid, str) else ""


def indexes(vid: Term) -> tuple[int, ...]:
    return tuple(int(i) for i in _INDEXES.findall(vid)) if isinstance(vid, str) else ()


def common_name(ids: list[Term]) -> str:
    """What the ids have in common, `*` where they differ: `s[0][2] s[1][2]` -> `s[*][2]`."""
    if not ids or len({array_name(i) for i in ids}) != 1 or len({len(indexes(i)) for i in ids}) != 1:
        return ", ".join(map(str, ids[:3])) + (", ..." if len(ids) > 3 else "")
    columns = zip(*(indexes(i) for i in ids))
    return array_name(ids[0]) + "".join(f"[{c[0]}]" if len(set(c)) == 1 else "[*]" for c in columns)


def objective(model: XcspModel) -> tuple[str, str] | None:
    """The objective as ("minimize" or "maximize", its type: sum, maximum, expression...), None without one."""
    goal = model.objective
    return None if goal is None else ("minimize" if goal.minimize else "maximize", goal.kind)


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
    goal = model.objective
    if goal is None:
        return set()
    coeffs = " ".join(map(written_expression, goal.coeffs or ()))
    return {array_name(vid) for vid in model.declarations.scope(f"{goal.text} {coeffs}")}
