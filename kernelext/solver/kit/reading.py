"""The model's constraints read as rules (kernelext.solver.kit.rules): `rule_of(constraint)` takes one
constraint of `kernelext.xcsp.subsets` and gives its rule, or None for a form it does not read, which a
walkthrough then leaves out and names (what it deduces stays true; it may only deduce less).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator

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
from kernelext.xcsp.constraints import read_each, unread_reification
from kernelext.xcsp.declarations import Declarations
from kernelext.xcsp.subsets import XmlConstraint
from kernelext.xcsp.values import condition as read_condition


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
    """The rule of `element`: of its one constraint, or its members' rules filtered together (a slide's
    windows); None when one of them is not read here."""
    if unread_reification(element):  # it holds only where its variable says so: no rule of its own
        return None
    members = [member for _, member in read_each(element, declarations)]
    if len(members) == 1:
        return _typed_rule(members[0], scope)
    in_scope = frozenset(scope)  # a frozenset: pycsp3 slows `in` on tuples while a model is built
    parts = [_typed_rule(member, tuple(dict.fromkeys(_named(member, in_scope)))) for member in members]
    return None if not parts or None in parts else Conjunction(tuple(scope), tuple(parts), element.tag)


def _typed_rule(constraint: typed.Constraint | None, scope) -> Rule | None:
    from_typed = _FROM_TYPED.get(type(constraint))
    return None if from_typed is None else from_typed(constraint, scope)


def _named(found, in_scope: frozenset[str]) -> Iterator[str]:
    """The variables of `in_scope` that a typed constraint names, in the order of its fields."""
    if isinstance(found, str):
        if found in in_scope:
            yield found
    elif isinstance(found, (tuple, list)):
        for part in found:
            yield from _named(part, in_scope)
    elif dataclasses.is_dataclass(found):
        for field in dataclasses.fields(found):
            yield from _named(getattr(found, field.name), in_scope)


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


def _element(constraint: typed.Element, scope) -> Rule | None:
    items, index, value = constraint.items, constraint.index, constraint.value
    if (
        index is None
        or constraint.rank != "any"  # the first or last item that matches: no rule
        or not items
        or not all(isinstance(v, str) for v in items)
        or len(set(items)) < len(items)
        or not isinstance(index, str)
        or index in items
    ):
        return None
    if isinstance(value, str) and value not in items and value != index:
        return Element((*items, index, value), len(items), constraint.start)
    if isinstance(value, int):
        return Element((*items, index), len(items), constraint.start, value.__eq__)
    test = _condition(constraint.condition.text) if constraint.condition is not None else None
    return Element((*items, index), len(items), constraint.start, test) if value is None and test is not None else None


def _channel(constraint: typed.Channel, scope) -> Rule | None:
    first, second = constraint.first, constraint.second or ()
    if constraint.value is not None or not all(isinstance(v, str) for v in first + second):
        return None
    if len(set(first + second)) < len(first + second):
        return None
    starts = (constraint.start, constraint.second_start if second else constraint.start)
    return Channel((*first, *second), len(first), starts)


def _ordered(constraint: typed.Ordered, scope) -> Rule | None:
    items = constraint.items
    if constraint.lengths is not None or not all(isinstance(v, str) for v in items) or len(set(items)) < len(items):
        return None
    return Ordered(items, constraint.operator)


def _lex(constraint: typed.Lex, scope) -> Rule | None:
    """Each group's lists in lexicographic order (a matrix: its rows, and its columns)."""
    names = {v: f"v[{i}]" for i, v in enumerate(scope)}
    chains = []
    for lists in constraint.groups:
        if len(lists) < 2 or len({len(listed) for listed in lists}) != 1:
            return None
        rows = ["(" + "".join(f"{_python(v, names)}, " for v in listed) + ")" for listed in lists]
        chains += [f"{a} {_OPERATORS[constraint.operator]} {b}" for a, b in zip(rows, rows[1:])]
    return Table(tuple(scope), eval(f"lambda v: {' and '.join(chains)}", _BUILTINS), "lex")


def _cardinality(constraint: typed.Cardinality, scope) -> Rule | None:
    """cardinality with numbers as values and counts: one count per value (and, closed, none outside them)."""
    items, counted = constraint.items, constraint.values
    if not all(isinstance(v, int) for v in counted) or not all(isinstance(v, str) for v in items):
        return None
    parts = []
    for value, occurs in zip(counted, constraint.occurs):
        if isinstance(occurs, range):
            test = occurs.__contains__
        elif isinstance(occurs, int):
            test = occurs.__eq__
        else:  # a count held by a variable: no rule
            return None
        parts.append(Count(items, frozenset((value,)), test))
    if constraint.closed:
        parts.append(Count(items, frozenset(counted), len(items).__eq__))
    return Conjunction(tuple(dict.fromkeys(items)), tuple(parts), "cardinality")


def _circuit(constraint: typed.Circuit, scope) -> Rule | None:
    items, start = constraint.items, constraint.start
    if constraint.size is not None or not all(isinstance(v, str) for v in items) or len(set(items)) < len(items):
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


def _no_overlap(constraint: typed.NoOverlap, scope) -> Rule | None:
    boxes, sizes = constraint.origins, constraint.lengths
    if not boxes:
        return None
    names = {v: f"v[{i}]" for i, v in enumerate(scope)}
    pairs = []
    for a in range(len(boxes)):
        for b in range(a + 1, len(boxes)):
            apart = [
                f"{_python(boxes[a][d], names)} + {_python(sizes[a][d], names)} <= {_python(boxes[b][d], names)} or "
                f"{_python(boxes[b][d], names)} + {_python(sizes[b][d], names)} <= {_python(boxes[a][d], names)}"
                for d in range(len(boxes[a]))
            ]
            if constraint.zero_ignored:
                apart += [f"{_python(s, names)} == 0" for s in (*sizes[a], *sizes[b])]
            pairs.append("(" + " or ".join(apart) + ")")
    return Table(tuple(scope), eval(f"lambda v: {' and '.join(pairs) or 'True'}", _BUILTINS), "noOverlap")


def _automaton(constraint: typed.Automaton, scope) -> Rule | None:
    """A regular constraint, or an MDD (from its root to a node no arc leaves)."""
    if not all(isinstance(v, str) for v in constraint.items) or not constraint.finals:
        return None
    return Regular(constraint.items, constraint.start, frozenset(constraint.finals), constraint.transitions)


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


def _extension(constraint: typed.Extension, scope) -> Rule | None:
    variables = constraint.items
    if constraint.values is not None:
        rows = tuple((v,) for low, high in constraint.values for v in range(low, high + 1))
    else:
        rows = constraint.rows
        if constraint.starred:
            rows = tuple(tuple(None if v == "*" else v for v in row) for row in rows)  # None: any value
    if constraint.supports:
        return Supports(variables, rows)
    plain = frozenset(row for row in rows if None not in row)
    starred = tuple(row for row in rows if None in row)

    def listed(values: tuple[int, ...]) -> bool:
        return values in plain or any(all(p is None or p == v for p, v in zip(row, values)) for row in starred)

    return Table(variables, lambda values: not listed(values), "extension")


def _count(constraint: typed.Count, scope) -> Rule | None:
    test = _condition(constraint.condition.text)
    items, counted = constraint.items, constraint.values
    if test is None or not all(isinstance(v, str) for v in items) or not all(isinstance(v, int) for v in counted):
        return None
    return Count(items, frozenset(counted), test)


def _intension(constraint: typed.Intension, scope) -> Rule | None:
    source = _python(constraint.tree, {v: f"v[{i}]" for i, v in enumerate(scope)})
    function = eval(f"lambda v: bool({source})", _BUILTINS)
    return Table(tuple(scope), function, "intension")


_FROM_TYPED = {
    typed.Intension: _intension,
    typed.Extension: _extension,
    typed.AllDifferent: _all_different,
    typed.AllDifferentLists: _all_different_lists,
    typed.AllDifferentMatrix: _all_different_matrix,
    typed.Sum: _sum,
    typed.Count: _count,
    typed.NValues: _n_values,
    typed.Element: _element,
    typed.Channel: _channel,
    typed.Ordered: _ordered,
    typed.Lex: _lex,
    typed.Cardinality: _cardinality,
    typed.Circuit: _circuit,
    typed.NoOverlap: _no_overlap,
    typed.Automaton: _automaton,
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
