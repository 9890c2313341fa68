"""The model's constraints as rules a walkthrough reasons with in the kernel: each one, alone, says exactly
which candidates of its variables it still allows (the values of its variables in some solution of it).

`rule_of(constraint)` reads one constraint of `kernelext.xcsp.subsets` (allDifferent, sum, count,
extension, intension, regular); None for a kind it does not read, which a walkthrough then leaves out (what it deduces
stays true, it may only deduce less).
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass

from kernelext.errors import Untranslatable
from kernelext.xcsp.expressions import parse_expression
from kernelext.xcsp.subsets import XmlConstraint

Domains = tuple[frozenset[int], ...]
MAX_TUPLES = 200_000  # an intension or a table of conflicts is enumerated over at most this many tuples


@dataclass(frozen=True)
class AllDifferent:
    """Pairwise different values, filtered by matching (Régin): a value stays when some matching uses it."""

    scope: tuple[str, ...]
    kind = "allDifferent"

    def filter(self, domains: Domains) -> Domains | None:
        n = len(domains)
        match: dict[int, int] = {}  # value -> position
        for position in range(n):
            if not _augment(position, domains, match, {}):
                return None
        free = frozenset(v for d in domains for v in d if v not in match)
        movable = _movable(domains, match, free)
        component = _components(domains, match)
        kept = []
        for position, domain in enumerate(domains):
            allowed = set()
            for value in domain:
                holder = match.get(value)
                if holder is None or holder == position or holder in movable or \
                        component[holder] == component[position]:
                    allowed.add(value)
            kept.append(frozenset(allowed))
        return tuple(kept)


def _augment(position: int, domains: Domains, match: dict[int, int], seen: dict[int, None]) -> bool:
    """Find `position` a value, moving others along (dicts and frozensets: pycsp3 slows `in` on sets down)."""
    for value in domains[position]:
        if value in seen:
            continue
        seen[value] = None
        if value not in match or _augment(match[value], domains, match, seen):
            match[value] = position
            return True
    return False


def _movable(domains: Domains, match: dict[int, int], free: frozenset[int]) -> dict[int, None]:
    """Positions that can give their value up: they take a free value, or the value of a movable position."""
    reached = {p: None for p, d in enumerate(domains) if d & free}
    frontier = list(reached)
    takers: dict[int, list[int]] = {}
    for p, d in enumerate(domains):
        for value in d:
            if value in match and match[value] != p:
                takers.setdefault(match[value], []).append(p)
    while frontier:
        q = frontier.pop()
        for p in takers.get(q, ()):
            if p not in reached:
                reached[p] = None
                frontier.append(p)
    return reached


def _components(domains: Domains, match: dict[int, int]) -> list[int]:
    """Strongly connected components of `p -> q` when position p can take q's value (Tarjan, iterative)."""
    n = len(domains)
    edges = [[match[v] for v in d if v in match and match[v] != p] for p, d in enumerate(domains)]
    index, low, component = [-1] * n, [0] * n, [-1] * n
    stack, on_stack, counter, label = [], [False] * n, 0, 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if index[nxt] < 0:
                    work.append((nxt, 0))
                elif on_stack[nxt]:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component[member] = label
                    if member == node:
                        break
                label += 1
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return component


@dataclass(frozen=True)
class Sum:
    """`sum(coeffs[i] * x[i]) OP limit`, filtered exactly from the sums each prefix and suffix can reach."""

    scope: tuple[str, ...]
    coeffs: tuple[int, ...]
    test: Callable[[int], bool]
    equal: int | None = None  # the limit, when OP is `eq` (a faster filter)
    kind = "sum"

    def filter(self, domains: Domains) -> Domains | None:
        n = len(domains)
        prefix = [frozenset((0,))]
        for c, d in zip(self.coeffs, domains):
            prefix.append(frozenset(s + c * v for s in prefix[-1] for v in d))
        suffix = [frozenset((0,))]
        for c, d in zip(reversed(self.coeffs), reversed(domains)):
            suffix.append(frozenset(s + c * v for s in suffix[-1] for v in d))
        suffix.reverse()
        if not any(self.test(s) for s in prefix[-1]):
            return None
        kept = []
        for i in range(n):
            before, after, c = prefix[i], suffix[i + 1], self.coeffs[i]
            if self.equal is not None:
                kept.append(frozenset(v for v in domains[i] if any(self.equal - c * v - a in after for a in before)))
                continue
            reachable = {a + b for a in before for b in after}
            kept.append(frozenset(v for v in domains[i] if any(self.test(r + c * v) for r in reachable)))
        return tuple(kept)


@dataclass(frozen=True)
class Count:
    """How many of the scope's variables take one of `values`, tested: a sum of 0/1 marks, filtered as one."""

    scope: tuple[str, ...]
    values: frozenset[int]
    test: Callable[[int], bool]
    kind = "count"

    def filter(self, domains: Domains) -> Domains | None:
        marks = tuple(frozenset(int(v in self.values) for v in d) for d in domains)
        kept = Sum(self.scope, (1,) * len(domains), self.test).filter(marks)
        if kept is None:
            return None
        return tuple(frozenset(v for v in d if int(v in self.values) in k) for d, k in zip(domains, kept))


@dataclass(frozen=True)
class Table:
    """Allowed tuples given by a predicate over the scope's values, filtered by enumeration."""

    scope: tuple[str, ...]
    allows: Callable[[tuple[int, ...]], bool]
    kind: str = "table"

    def filter(self, domains: Domains) -> Domains | None:
        size = 1
        for d in domains:
            size *= len(d)
        if size > MAX_TUPLES:
            return domains
        kept: list[set[int]] = [set() for _ in domains]
        for values in itertools.product(*(sorted(d) for d in domains)):
            if self._allows(values):
                for slot, value in zip(kept, values):
                    slot.add(value)
        return None if not kept[0] else tuple(map(frozenset, kept))

    def _allows(self, values: tuple[int, ...]) -> bool:
        """Whether the tuple is allowed; one that divides by zero is not (as in XCSP3)."""
        try:
            return self.allows(values)
        except ZeroDivisionError:
            return False


@dataclass(frozen=True)
class Regular:
    """A word of the scope's values accepted by a finite automaton, filtered by the states each prefix reaches."""

    scope: tuple[str, ...]
    start: str
    finals: frozenset[str]
    moves: tuple[tuple[str, int, str], ...]
    kind = "regular"

    def filter(self, domains: Domains) -> Domains | None:
        forward = [frozenset((self.start,))]
        for d in domains:
            forward.append(frozenset(b for a, v, b in self.moves if a in forward[-1] and v in d))
        alive = forward[-1] & self.finals
        if not alive:
            return None
        kept: list[set[int]] = [set() for _ in domains]
        for i in range(len(domains) - 1, -1, -1):
            before = set()
            for a, v, b in self.moves:
                if b in alive and a in forward[i] and v in domains[i]:
                    kept[i].add(v)
                    before.add(a)
            alive = frozenset(before)
        return tuple(map(frozenset, kept))


Rule = AllDifferent | Sum | Count | Table | Regular


def rule_of(constraint: XmlConstraint) -> Rule | None:
    """The rule for one constraint, or None when its kind is not read here."""
    try:
        element = ET.fromstring(constraint.xml)
        reader = _READERS.get(element.tag)
        return reader(element, constraint.scope) if reader else None
    except (Untranslatable, ValueError, KeyError, ZeroDivisionError, SyntaxError, TypeError, AttributeError,
            IndexError):  # a form not read here: the constraint is left out
        return None


def _all_different(element, scope) -> Rule | None:
    if element.find("list") is not None or element.find("except") is not None or "(" in element.text:
        return None
    return AllDifferent(tuple(element.text.split()))


def _sum(element, scope) -> Rule | None:
    terms = _terms(element.findtext("list", element.text or ""))
    coeffs = element.findtext("coeffs")
    weights = _integers(coeffs) if coeffs else [1] * len(terms)
    if len(weights) == 1 < len(terms):
        weights *= len(terms)
    condition = element.findtext("condition")
    test = _condition(condition)
    if test is None or any("(" in t for t in terms):  # expressions, or a limit that is a variable
        return _sum_as_table(terms, weights, condition, scope)
    equal = re.fullmatch(r"\s*\(\s*eq\s*,\s*(-?\d+)\s*\)\s*", condition)
    return Sum(tuple(terms), tuple(weights), test, int(equal.group(1)) if equal else None)


def _sum_as_table(terms: list[str], weights: list[int], condition: str, scope) -> Rule | None:
    """A sum of expressions, or compared with a variable, as a predicate over its variables."""
    match = re.fullmatch(r"\s*\(\s*(eq|ne|lt|le|gt|ge)\s*,\s*(.+?)\s*\)\s*", condition or "")
    if match is None:
        return None
    op, limit = match.groups()
    names = {v: f"v[{i}]" for i, v in enumerate(scope)}
    total = " + ".join(f"{w} * {_python(parse_expression(t), names)}" for t, w in zip(terms, weights))
    source = f"({total}) {_OPERATORS[op]} {_python(parse_expression(limit), names)}"
    return Table(tuple(scope), eval(f"lambda v: bool({source})", {"abs": abs, "min": min, "max": max}), "sum")


def _terms(text: str) -> list[str]:
    """The terms of a list: variable ids, or expressions (with spaces only outside their brackets)."""
    terms, depth, current = [], 0, ""
    for char in text:
        depth += (char == "(") - (char == ")")
        if char.isspace() and depth == 0:
            terms += [current] if current else []
            current = ""
        else:
            current += char
    return terms + ([current] if current else [])


def _extension(element, scope) -> Rule | None:
    variables = element.findtext("list").split()
    supports, conflicts = element.findtext("supports"), element.findtext("conflicts")
    rows = _tuples(supports if supports is not None else conflicts, len(variables))
    if rows is None:
        return None
    plain = frozenset(row for row in rows if None not in row)
    starred = tuple(row for row in rows if None in row)  # `*` matches any value

    def listed(values: tuple[int, ...]) -> bool:
        return values in plain or any(all(p is None or p == v for p, v in zip(row, values)) for row in starred)

    if supports is not None:
        return Table(tuple(variables), listed, "extension")
    return Table(tuple(variables), lambda values: not listed(values), "extension")


def _count(element, scope) -> Rule | None:
    variables = element.findtext("list", "").split()
    test = _condition(element.findtext("condition"))
    if test is None or any("(" in v for v in variables) or element.find("values") is None:
        return None
    return Count(tuple(variables), frozenset(_integers(element.findtext("values"))), test)


def _intension(element, scope) -> Rule | None:
    text = element.findtext("function") if element.find("function") is not None else element.text
    source = _python(parse_expression(text or ""), {v: f"v[{i}]" for i, v in enumerate(scope)})
    function = eval(f"lambda v: bool({source})", {"abs": abs, "min": min, "max": max})  # noqa: S307 (our own text)
    return Table(tuple(scope), function, "intension")


def _regular(element, scope) -> Rule | None:
    moves = tuple((a, int(v), b) for a, v, b in re.findall(r"\(\s*(\w+)\s*,\s*(-?\d+)\s*,\s*(\w+)\s*\)",
                                                             element.findtext("transitions")))
    return Regular(tuple(element.findtext("list").split()), element.findtext("start").strip(),
                   frozenset(element.findtext("final").split()), moves)


_READERS = {"allDifferent": _all_different, "sum": _sum, "count": _count, "extension": _extension,
            "intension": _intension, "regular": _regular}

_OPERATORS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "add": "+", "sub": "-",
              "mul": "*", "mod": "%", "and": " and ", "or": " or ", "xor": " ^ "}


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
    if op in ("sub", "mod") and len(parts) == 2:
        return f"({parts[0]} {_OPERATORS[op]} {parts[1]})"
    if op == "xor":
        return "(" + " ^ ".join(f"bool({p})" for p in parts) + ")"
    if op == "div" and len(parts) == 2:
        return f"int({parts[0]} / {parts[1]})"
    simple = {"neg": "(-{0})", "abs": "abs({0})", "not": "(not {0})", "dist": "abs({0} - {1})",
              "imp": "((not {0}) or {1})", "iff": "(bool({0}) == bool({1}))", "if": "({1} if {0} else {2})"}
    if op in simple:
        return simple[op].format(*parts)
    if op in ("min", "max"):
        return f"{op}({', '.join(parts)})"
    raise Untranslatable(f"the operator {op}")


def _condition(text: str | None) -> Callable[[int], bool] | None:
    """`(eq,13)` or `(in,1..3)` as a test of a sum; None for a condition on a variable."""
    match = re.fullmatch(r"\s*\(\s*(\w+)\s*,\s*(.+?)\s*\)\s*", text or "")
    if match is None:
        return None
    op, operand = match.groups()
    if re.fullmatch(r"-?\d+", operand):
        k = int(operand)
        tests = {"eq": k.__eq__, "ne": k.__ne__, "lt": k.__gt__, "le": k.__ge__, "gt": k.__lt__, "ge": k.__le__}
        return tests.get(op)
    interval = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", operand)
    if interval and op in ("in", "notin"):
        low, high = map(int, interval.groups())
        return (lambda s: low <= s <= high) if op == "in" else (lambda s: not low <= s <= high)
    return None


def _integers(text: str) -> list[int]:
    values = []
    for token in text.split():
        if "x" in token:
            value, times = token.split("x")
            values += [int(value)] * int(times)
        else:
            values.append(int(token))
    return values


def _tuples(text: str | None, width: int) -> tuple[tuple[int | None, ...], ...] | None:
    """The tuples of a table (`(0,1)(1,*)`, or `0 1` for one variable), None for `*`; None for no table."""
    if text is None:
        return None
    if width == 1:
        return tuple((v,) for v in _integers(text.replace(",", " ")))
    rows = re.findall(r"\(([^)]*)\)", text)
    return tuple(tuple(None if v.strip() == "*" else int(v) for v in row.split(",")) for row in rows)
