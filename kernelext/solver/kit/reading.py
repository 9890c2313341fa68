"""The model's constraints read as rules (kernelext.solver.kit.rules): `rule_of(constraint)` takes one
constraint of `kernelext.xcsp.subsets` and gives its rule, or None for a form it does not read, which a
walkthrough then leaves out and names (what it deduces stays true; it may only deduce less).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import kernelext.xcsp.constraints as typed
from kernelext.errors import Untranslatable
from kernelext.solver.kit.rules import (
    AllDifferent,
    AllDifferentList,
    AllDifferentOf,
    Channel,
    Conjunction,
    Count,
    Element,
    Ordered,
    Regular,
    Rule,
    Sum,
    Supports,
    Table,
)
from kernelext.xcsp.check import truncated_div, truncated_mod
from kernelext.xcsp.constraints import read, unread_reification
from kernelext.xcsp.declarations import Declarations
from kernelext.xcsp.expressions import parse_expression
from kernelext.xcsp.subsets import XmlConstraint
from kernelext.xcsp.values import condition as read_condition
from kernelext.xcsp.values import tuples as read_tuples
from kernelext.xcsp.values import values as read_values


def rule_of(constraint: XmlConstraint, declarations: Declarations) -> Rule | None:
    """The rule for one constraint of a model with these `declarations`, or None when its kind is not read here."""
    try:
        return _rule(constraint.element, constraint.scope, declarations)
    except (
        Untranslatable,
        ValueError,
        KeyError,
        ZeroDivisionError,
        SyntaxError,
        TypeError,
        AttributeError,
        IndexError,
    ):  # a form not read here: the constraint is left out
        return None


def _rule(element, scope, declarations: Declarations) -> Rule | None:
    if unread_reification(element):  # it holds only where its variable says so: no rule of its own
        return None
    typed = read(element, declarations)
    from_typed = _FROM_TYPED.get(type(typed))
    if from_typed is not None:
        return from_typed(typed, scope)
    if element.tag == "slide":  # read window by window, each window as a constraint of its own
        return _slide(element, scope, declarations)
    reader = _READERS.get(element.tag)  # the forms not read from the typed model yet
    return reader(element, scope) if reader else None


def _all_different(constraint: typed.AllDifferent, scope) -> Rule | None:
    if constraint.excepted is not None:
        return None
    if all(isinstance(term, str) for term in constraint.items):
        return AllDifferent(constraint.items)
    return _all_different_of(constraint.items, scope)


def _all_different_lists(constraint: typed.AllDifferentLists, scope) -> Rule | None:
    """No two lists equal."""
    if constraint.excepted is not None or not all(isinstance(v, str) for row in constraint.lists for v in row):
        return None
    return AllDifferentList(tuple(v for row in constraint.lists for v in row), len(constraint.lists[0]))


def _all_different_matrix(constraint: typed.AllDifferentMatrix, scope) -> Rule | None:
    """Each row and each column all different."""
    lines = (*constraint.rows, *constraint.columns)
    if constraint.excepted is not None or not all(isinstance(v, str) for line in lines for v in line):
        return None
    every = tuple(dict.fromkeys(v for row in constraint.rows for v in row))
    return Conjunction(every, tuple(map(AllDifferent, lines)), "allDifferent")


def _all_different_of(terms, scope) -> Rule:
    """An allDifferent over expressions (parsed terms): by matching when each expression has a variable of its
    own, else as a predicate."""
    owners = [_variables(node) for node in terms]
    if all(len(owned) == 1 for owned in owners) and len({o[0] for o in owners}) == len(owners):
        functions = tuple(
            eval(f"lambda v: {_python(node, {owned[0]: 'v'})}", _BUILTINS) for node, owned in zip(terms, owners)
        )
        return AllDifferentOf(tuple(o[0] for o in owners), functions)
    names = {v: f"v[{i}]" for i, v in enumerate(scope)}
    values = ", ".join(_python(node, names) for node in terms)
    return Table(tuple(scope), eval(f"lambda v: len({{{values}}}) == {len(terms)}", _BUILTINS), "allDifferent")


def _variables(node) -> list[str]:
    """The variable ids of a parsed expression, each once, in order."""
    if isinstance(node, int):
        return []
    if isinstance(node, str):
        return [node]
    return list(dict.fromkeys(v for child in node[1] for v in _variables(child)))


def _is_number(token: str) -> bool:
    return re.fullmatch(r"-?\d+", token) is not None


def _n_values(constraint: typed.NValues, scope) -> Rule | None:
    """nValues: how many distinct values the list takes, compared with a number or a variable."""
    condition = constraint.condition
    if (
        condition.operator not in _COMPARISONS
        or constraint.excepted
        or not all(isinstance(v, str) for v in constraint.items)
        or isinstance(condition.operand, tuple)
    ):
        return None
    names = {v: f"v[{i}]" for i, v in enumerate(scope)}
    count = f"len({{{', '.join(names[v] for v in constraint.items)}}})"
    limit = _python(condition.operand, names)
    return Table(
        tuple(scope), eval(f"lambda v: {count} {_OPERATORS[condition.operator]} {limit}", _BUILTINS), "nValues"
    )


def _element(element, scope) -> Rule | None:
    items = element.findtext("list", "").split()
    listed = element.find("list")
    start = int((listed if listed is not None else element).get("startIndex", element.get("startIndex", "0")))
    index = (element.findtext("index") or "").strip()
    value = (element.findtext("value") or "").strip()
    if (
        element.find("index") is None
        or element.find("index").get("rank", "any") != "any"  # the first or last item that matches: no rule
        or not items
        or any(_is_number(v) for v in items)
        or len(set(items)) < len(items)
        or not index
        or _is_number(index)
        or index in items
    ):
        return None
    if value and not _is_number(value) and value not in items and value != index:
        return Element((*items, index, value), len(items), start)
    if value and _is_number(value):
        return Element((*items, index), len(items), start, int(value).__eq__)
    test = _condition(element.findtext("condition"))
    return Element((*items, index), len(items), start, test) if not value and test is not None else None


def _channel(element, scope) -> Rule | None:
    lists = element.findall("list")
    if not lists or len(lists) > 2 or element.find("value") is not None:
        return None
    first = lists[0].text.split()
    second = lists[1].text.split() if len(lists) == 2 else []
    if any(_is_number(v) for v in first + second) or len(set(first + second)) < len(first + second):
        return None
    starts = (int(lists[0].get("startIndex", "0")), int(lists[-1].get("startIndex", "0")))
    return Channel((*first, *second), len(first), starts)


def _ordered(element, scope) -> Rule | None:
    items = (element.findtext("list") or "").split()
    operator = (element.findtext("operator") or "").strip()
    if (
        element.find("lengths") is not None
        or operator not in ("lt", "le", "ge", "gt")
        or any(_is_number(v) for v in items)
        or len(set(items)) < len(items)
    ):
        return None
    return Ordered(tuple(items), operator)


def _lex(element, scope) -> Rule | None:
    rows = [row.text.split() for row in element.findall("list")]
    operator = (element.findtext("operator") or "").strip()
    if len(rows) < 2 or operator not in ("lt", "le", "gt", "ge") or len({len(row) for row in rows}) != 1:
        return None
    names = {v: f"v[{i}]" for i, v in enumerate(scope)}
    lists = ["(" + "".join(f"{v if _is_number(v) else names[v]}, " for v in row) + ")" for row in rows]
    chain = " and ".join(f"{a} {_OPERATORS[operator]} {b}" for a, b in zip(lists, lists[1:]))
    return Table(tuple(scope), eval(f"lambda v: {chain}", _BUILTINS), "lex")


def _cardinality(element, scope) -> Rule | None:
    """cardinality with numbers as values and counts: one count per value (and, closed, none outside them)."""
    items = (element.findtext("list") or "").split()
    values = (element.findtext("values") or "").split()
    occurs = (element.findtext("occurs") or "").split()
    if len(values) != len(occurs) or not all(map(_is_number, values)) or any(_is_number(v) for v in items):
        return None
    parts = []
    for value, occur in zip(values, occurs):
        test = _condition(f"(in,{occur})" if ".." in occur else f"(eq,{occur})")
        if test is None:
            return None
        parts.append(Count(tuple(items), frozenset((int(value),)), test))
    listed = element.find("values")
    if listed is not None and listed.get("closed") == "true":
        parts.append(Count(tuple(items), frozenset(map(int, values)), len(items).__eq__))
    return Conjunction(tuple(dict.fromkeys(items)), tuple(parts), "cardinality")


def _circuit(element, scope) -> Rule | None:
    items = (element.findtext("list") or element.text or "").split()
    listed = element.find("list")
    start = int((listed if listed is not None else element).get("startIndex", "0"))  # pycsp3's short form: on <circuit>
    if element.find("size") is not None or any(_is_number(v) for v in items) or len(set(items)) < len(items):
        return None
    order = [scope.index(v) for v in items]

    def one_circuit(values: tuple[int, ...]) -> bool:
        successor = [values[k] - start for k in order]
        if any(not 0 <= s < len(successor) for s in successor):
            return False
        on = [k for k, s in enumerate(successor) if s != k]  # a node pointing at itself is off the circuit
        if len(on) < 2:
            return False
        seen, node = set(), on[0]
        while node not in seen:
            seen.add(node)
            node = successor[node]
        return node == on[0] and len(seen) == len(on)

    return Table(tuple(scope), one_circuit, "circuit")


def _no_overlap(element, scope) -> Rule | None:
    origins, lengths = element.findtext("origins") or "", element.findtext("lengths") or ""
    zero_ignored = element.get("zeroIgnored", "true") != "false"
    if "(" in origins:
        boxes = [b.split(",") for b in re.findall(r"\(([^)]*)\)", origins)]
        sizes = [s.split(",") for s in re.findall(r"\(([^)]*)\)", lengths)]
    else:
        boxes, sizes = [[o] for o in origins.split()], [[s] for s in lengths.split()]
    if len(boxes) != len(sizes) or not boxes:
        return None
    names = {v: f"v[{i}]" for i, v in enumerate(scope)}

    def term(token: str) -> str:
        return token.strip() if _is_number(token.strip()) else names[token.strip()]

    pairs = []
    for a in range(len(boxes)):
        for b in range(a + 1, len(boxes)):
            apart = [
                f"{term(boxes[a][d])} + {term(sizes[a][d])} <= {term(boxes[b][d])} or "
                f"{term(boxes[b][d])} + {term(sizes[b][d])} <= {term(boxes[a][d])}"
                for d in range(len(boxes[a]))
            ]
            if zero_ignored:
                apart += [f"{term(s)} == 0" for s in (*sizes[a], *sizes[b])]
            pairs.append("(" + " or ".join(apart) + ")")
    return Table(tuple(scope), eval(f"lambda v: {' and '.join(pairs) or 'True'}", _BUILTINS), "noOverlap")


def _mdd(element, scope) -> Rule | None:
    moves = tuple(
        (a, int(v), b)
        for a, v, b in re.findall(r"\(\s*(\w+)\s*,\s*(-?\d+)\s*,\s*(\w+)\s*\)", element.findtext("transitions") or "")
    )
    sources, targets = {a for a, _, _ in moves}, {b for _, _, b in moves}
    roots, terminals = sources - targets, targets - sources
    if len(roots) != 1 or not terminals:
        return None
    return Regular(tuple((element.findtext("list") or "").split()), next(iter(roots)), frozenset(terminals), moves)


def _slide(element, scope, declarations: Declarations) -> Rule | None:
    """A slide: its template on each window, read as one rule each, filtered together."""
    members = declarations.slide_members(element)
    in_scope = frozenset(scope)  # a frozenset: pycsp3 slows `in` on tuples while a model is built
    parts = []
    for member in members:
        ids = tuple(
            dict.fromkeys(
                token
                for part in member.iter()
                for token in re.findall(r"[\w\[\]]+", part.text or "")
                if token in in_scope
            )
        )
        rule = _rule(member, ids, declarations)
        if rule is None:
            return None
        parts.append(rule)
    return Conjunction(tuple(scope), tuple(parts), "slide")


def _sum(constraint: typed.Sum, scope) -> Rule | None:
    terms, weights = constraint.items, constraint.coeffs or (1,) * len(constraint.items)
    if not all(isinstance(w, int) for w in weights):
        return None
    condition = constraint.condition
    test = _condition(condition.text)
    if test is None or not all(isinstance(t, str) for t in terms):  # expressions, or a limit that is a variable
        return _sum_as_table(terms, weights, condition, scope)
    equal = condition.operand if condition.operator == "eq" and isinstance(condition.operand, int) else None
    return Sum(terms, tuple(weights), test, equal)


def _sum_as_table(terms, weights, condition: typed.Condition, scope) -> Rule | None:
    """A sum of expressions, or compared with a variable, as a predicate over its variables."""
    if condition.operator not in _COMPARISONS:
        return None
    names = {v: f"v[{i}]" for i, v in enumerate(scope)}
    total = " + ".join(f"{w} * {_python(t, names)}" for t, w in zip(terms, weights))
    source = f"({total}) {_OPERATORS[condition.operator]} {_python(condition.operand, names)}"
    return Table(tuple(scope), eval(f"lambda v: bool({source})", _BUILTINS), "sum")


def _extension(element, scope) -> Rule | None:
    variables = element.findtext("list").split()
    supports, conflicts = element.findtext("supports"), element.findtext("conflicts")
    rows = _tuples(supports if supports is not None else conflicts, len(variables))
    if rows is None:
        return None
    if supports is not None:
        return Supports(tuple(variables), rows)
    plain = frozenset(row for row in rows if None not in row)
    starred = tuple(row for row in rows if None in row)  # `*` matches any value

    def listed(values: tuple[int, ...]) -> bool:
        return values in plain or any(all(p is None or p == v for p, v in zip(row, values)) for row in starred)

    return Table(tuple(variables), lambda values: not listed(values), "extension")


def _count(constraint: typed.Count, scope) -> Rule | None:
    test = _condition(constraint.condition.text)
    items, counted = constraint.items, constraint.values
    if test is None or not all(isinstance(v, str) for v in items) or not all(isinstance(v, int) for v in counted):
        return None
    return Count(items, frozenset(counted), test)


def _intension(element, scope) -> Rule | None:
    text = element.findtext("function") if element.find("function") is not None else element.text
    source = _python(parse_expression(text or ""), {v: f"v[{i}]" for i, v in enumerate(scope)})
    function = eval(f"lambda v: bool({source})", _BUILTINS)
    return Table(tuple(scope), function, "intension")


def _regular(element, scope) -> Rule | None:
    moves = tuple(
        (a, int(v), b)
        for a, v, b in re.findall(r"\(\s*(\w+)\s*,\s*(-?\d+)\s*,\s*(\w+)\s*\)", element.findtext("transitions"))
    )
    return Regular(
        tuple(element.findtext("list").split()),
        element.findtext("start").strip(),
        frozenset(element.findtext("final").split()),
        moves,
    )


_FROM_TYPED = {
    typed.AllDifferent: _all_different,
    typed.AllDifferentLists: _all_different_lists,
    typed.AllDifferentMatrix: _all_different_matrix,
    typed.Sum: _sum,
    typed.Count: _count,
    typed.NValues: _n_values,
}
_READERS = {
    "extension": _extension,
    "intension": _intension,
    "regular": _regular,
    "element": _element,
    "channel": _channel,
    "ordered": _ordered,
    "lex": _lex,
    "cardinality": _cardinality,
    "circuit": _circuit,
    "noOverlap": _no_overlap,
    "mdd": _mdd,
}
_BUILTINS = {
    "abs": abs, "min": min, "max": max, "int": int, "bool": bool, "len": len,
    "div": truncated_div, "mod": truncated_mod,  # XCSP3's: truncated toward zero (Python's // and % floor)
}  # fmt: skip

_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")
_OPERATORS = {
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "add": "+",
    "mul": "*",
    "and": " and ",
    "or": " or ",
    "xor": " ^ ",
}


def _python(node, names: dict[str, str]) -> str:
    """An XCSP3 expression (parsed) as Python source over `v[i]`."""
    if isinstance(node, int):
        return str(node)
    if isinstance(node, str):
        return names[node]
    op, args = node
    if op in ("in", "notin") and len(args) == 2 and isinstance(args[1], tuple) and args[1][0] == "set":
        members = ", ".join(_python(a, names) for a in args[1][1])
        return f"({_python(args[0], names)} {'in' if op == 'in' else 'not in'} {{{members}}})"
    parts = [_python(a, names) for a in args]
    if op in ("eq", "ne", "lt", "le", "gt", "ge") and len(parts) == 2:
        return f"({parts[0]} {_OPERATORS[op]} {parts[1]})"
    if op == "eq":
        return f"(len({{{', '.join(parts)}}}) == 1)"
    if op in ("add", "mul", "and", "or"):
        return "(" + _OPERATORS[op].join(parts) + ")"
    if op == "sub" and len(parts) == 2:
        return f"({parts[0]} - {parts[1]})"
    if op in ("div", "mod") and len(parts) == 2:
        return f"{op}({parts[0]}, {parts[1]})"
    if op == "xor":
        return "(" + " ^ ".join(f"bool({p})" for p in parts) + ")"
    simple = {
        "neg": "(-{0})",
        "abs": "abs({0})",
        "not": "(not {0})",
        "dist": "abs({0} - {1})",
        "imp": "((not {0}) or {1})",
        "iff": "(bool({0}) == bool({1}))",
        "if": "({1} if {0} else {2})",
    }
    if op in simple:
        return simple[op].format(*parts)
    if op in ("min", "max"):
        return f"{op}({', '.join(parts)})"
    raise Untranslatable(f"the operator {op}")


def _condition(text: str | None) -> Callable[[int], bool] | None:
    """`(eq,13)` or `(in,1..3)` as a test of a sum; None for a condition on a variable."""
    try:
        op, operand = read_condition(text or "")
    except Untranslatable:
        return None
    if re.fullmatch(r"-?\d+", operand):
        k = int(operand)
        tests = {"eq": k.__eq__, "ne": k.__ne__, "lt": k.__gt__, "le": k.__ge__, "gt": k.__lt__, "ge": k.__le__}
        return tests.get(op)
    interval = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", operand)
    if interval and op in ("in", "notin"):
        low, high = map(int, interval.groups())
        return (lambda s: low <= s <= high) if op == "in" else (lambda s: not low <= s <= high)
    return None


def _tuples(text: str | None, width: int) -> tuple[tuple[int | None, ...], ...] | None:
    """The tuples of a table (`(0,1)(1,*)`, or `0 1` for one variable), None for `*`; None for no table."""
    if text is None:
        return None
    if width == 1:
        return tuple((v,) for v in read_values(text.replace(",", " ")))
    return tuple(tuple(None if v == "*" else v for v in row) for row in read_tuples(text, width))
