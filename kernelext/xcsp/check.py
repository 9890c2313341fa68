"""Every answer checked: a compiled XCSP3 model's constraints evaluated on a full assignment, in pure Python.

Each solution a solver returns (CP-SAT, ACE, MiniZinc, Choco) passes `Checker.broken` before a student sees it.
Each constraint means what XCSP3 says, as `kernelext/xcsp/to_minizinc.py` translates it (checked against brute
force): `div` and `mod` truncate toward zero and no tuple of an expression divides by zero (ACE evaluates every
branch), a circuit has at least two nodes, noOverlap ignores boxes with a zero length unless `zeroIgnored` is
false. The forms that translation refuses take the meaning XCSP3's own solution checker gives them
(XCSP3-Java-Tools' SolutionChecker): allEqual and nValues with except, minimum with an index, minimumArg and
maximumArg, element with a rank, reifiedBy or no index, channel's other forms, circuit with a size, cumulative
with ends, binPacking with limits or loads, flow, clause, the meta-constraints (and, or, not, iff, xor, ifThen,
ifThenElse), objectives of type product. Two readings are stricter than SolutionChecker's, as the kit's solvers
and MiniZinc's bin_packing_capa have them (ACE refuses both forms): binPacking with limits or loads puts every
item in a bin that has one, and binPacking with a condition holds for every bin of the items' domains, an empty
one too (SolutionChecker ignores the items past the limits, and the bins no item is in;
tests/xcsp/test_checker_agreement.py shows both). A power with a negative exponent is undefined (as the CP-SAT
reading has it). Anything else raises `Untranslatable` naming it.

Checking is fast: each single constraint is compiled once into a closure (an expression into nested functions,
a table into sets of tuples, `*` kept by position), and `broken` only calls them; `Checker.extended` reuses
what was compiled for the constraint elements a model shares with the one checked before. Standard library
only: the browser imports it too.
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from operator import itemgetter

import kernelext.xcsp.constraints as typed
from kernelext.errors import Untranslatable
from kernelext.xcsp.constraints import read_each, read_objective
from kernelext.xcsp.declarations import Declarations
from kernelext.xcsp.document import parse_file
from kernelext.xcsp.expressions import parse_expression
from kernelext.xcsp.values import Intervals, boolean, size

MAX_TEXT = 80  # the longest text `broken` gives for a constraint
_SMALL = 1 << 16  # sets of values up to this size are kept as sets, larger ones as intervals
_NUMBER = re.compile(r"-?\d+")
_COMPARE = {
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
    "eq": operator.eq,
    "ne": operator.ne,
}


class Checker:
    """Checks solutions against a model's constraints and computes its objective.

    Arguments:
        variables: the `<variables>` element.
        constraints: the constraint elements (children of `<constraints>`: groups, slides, blocks included).
        objective: the `<minimize>` or `<maximize>` element, or None.
        holes: the ids of array cells that hold no variable.

    Raises:
        Untranslatable: the model holds something the checker cannot evaluate exactly (the message names it).
    """

    def __init__(self, variables, constraints: Iterable, objective=None, holes: frozenset[str] = frozenset()):
        self._build(None, variables, constraints, objective, holes)

    @classmethod
    def of_file(cls, path, holes: frozenset[str] = frozenset()) -> Checker:
        """The checker of the XCSP3 file at `path`."""
        root = parse_file(path)
        constraints, objectives = root.find("constraints"), root.find("objectives")
        if objectives is not None and len(objectives) > 1:
            raise Untranslatable("several objectives")
        return cls(
            root.find("variables"),
            constraints if constraints is not None else (),
            objectives[0] if objectives is not None and len(objectives) else None,
            holes,
        )

    def extended(
        self, variables, constraints: Iterable, objective=None, holes: frozenset[str] = frozenset()
    ) -> Checker:
        """The checker of another model: when it has the very same `variables` element (and holes) and its
        constraints begin with the very same elements as this checker's, what was compiled for those is reused."""
        checker = Checker.__new__(Checker)
        checker._build(self, variables, constraints, objective, holes)
        return checker

    def _build(self, base: Checker | None, variables, constraints: Iterable, objective, holes) -> None:
        holes = frozenset(holes)
        elements = list(() if constraints is None else constraints)
        kept = 0
        if base is not None and variables is base._variables and holes == base._holes:
            compiler, done = base._compiler, base._elements
            while kept < min(len(elements), len(done)) and elements[kept] is done[kept]:
                kept += 1
            parts = base._parts[:kept]
        else:
            compiler, parts = _Compiler(holes), []
            try:
                compiler.declare(variables)
            except Untranslatable:
                raise
            except Exception as error:
                raise Untranslatable(f"the variables in a form not foreseen ({type(error).__name__})") from None
        for element in elements[kept:]:
            try:
                parts.append(compiler.leaves_of(element))
            except Untranslatable:
                raise
            except Exception as error:  # a malformed group or slide (its template, its arguments)
                raise Untranslatable(
                    f"the constraint <{element.tag}> in a form not foreseen ({type(error).__name__})"
                ) from None
        self._variables, self._holes, self._compiler = variables, holes, compiler
        self._elements, self._parts = elements, parts
        self._leaves = [leaf for part in parts for leaf in part]
        self._checks = [leaf.holds for leaf in self._leaves]
        used = dict.fromkeys(vid for leaf in self._leaves for vid in leaf.scope)
        self._objective, self._objective_scope, self._optimises = None, (), ""
        if objective is not None and objective.tag == "objectives":
            if len(objective) > 1:
                raise Untranslatable("several objectives")
            objective = objective[0] if len(objective) else None
        if objective is not None:
            scope: dict[str, None] = {}
            self._objective = _function(compiler.objective(objective, scope))
            self._objective_scope, self._optimises = tuple(scope), objective.tag
        self._used = tuple(used)

    @property
    def constraints_read(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each single constraint read, as its tag and the ids of its variables, in order."""
        return tuple((leaf.tag, leaf.scope) for leaf in self._leaves)

    @property
    def optimises(self) -> str:
        """What the objective asks: "minimize", "maximize", or "" (a satisfaction model)."""
        return self._optimises

    def broken(self, solution: Mapping[str, int | None]) -> str | None:
        """None when `solution` (variable id -> value) satisfies every constraint, else a short text naming
        what it breaks first: a value outside its variable's domain, then the first constraint (in the model's
        order) it breaks, or whose variables it gives no value."""
        outside = self._compiler.outside(solution)
        if outside:
            return outside
        get = solution.get
        missing = {vid for vid in self._used if get(vid) is None}
        for k, holds in enumerate(self._checks):
            if missing:
                lacking = next((vid for vid in self._leaves[k].scope if vid in missing), None)
                if lacking is not None:
                    return _text(self._leaves[k], MAX_TEXT - 20) + f" (no value for {lacking})"
            try:
                if holds(solution):
                    continue
            except ArithmeticError:  # a division by zero, a negative power: no such tuple is allowed
                pass
            return _text(self._leaves[k], MAX_TEXT)
        return None

    def objective_value(self, solution: Mapping[str, int | None]) -> int | None:
        """The objective's value for `solution`; None when the model has no objective (or when `solution`
        leaves one of its variables without a value, or divides by zero in it)."""
        if self._objective is None or any(solution.get(vid) is None for vid in self._objective_scope):
            return None
        try:
            return int(self._objective(solution))
        except ArithmeticError:
            return None


class _Leaf:
    """One single constraint, compiled: `holds(solution)`, the variables it involves, and how to name it."""

    __slots__ = ("holds", "scope", "tag", "label")

    def __init__(self, holds: Callable, scope: tuple[str, ...], tag: str, label: str | Callable | None = None):
        self.holds, self.scope, self.tag, self.label = holds, scope, tag, label


def _text(leaf: _Leaf, limit: int) -> str:
    """The leaf as a short text: an expression as written, another constraint as its tag and its variables."""
    label = leaf.label() if callable(leaf.label) else leaf.label
    if label is not None:
        return label if len(label) <= limit else label[: limit - 3] + "..."
    shown = f"{leaf.tag}({' '.join(leaf.scope)})"
    if len(shown) <= limit:
        return shown
    kept = f"{leaf.tag}("
    for vid in leaf.scope:
        if len(kept) + len(vid) + 5 > limit:
            break
        kept += vid + " "
    return kept + "...)"


def _compact(text: str) -> str:
    return "".join(text.split())


def _domain_text(spans: Intervals) -> str:
    text = " ".join(f"{low}..{high}" if high > low else str(low) for low, high in spans) or "(empty)"
    return text if len(text) <= 30 else text[:27] + "..."


# compiled terms: an int (a constant) or a function of the solution


def _function(term) -> Callable:
    if callable(term):
        return term
    return lambda s: term


def _unary(f: Callable, a) -> Callable:
    if callable(a):
        return lambda s: f(a(s))
    return lambda s: f(a)


def _binary(f: Callable, a, b) -> Callable:
    if callable(a):
        if callable(b):
            return lambda s: f(a(s), b(s))
        return lambda s: f(a(s), b)
    if callable(b):
        return lambda s: f(a, b(s))
    return lambda s: f(a, b)


def truncated_div(a: int, b: int) -> int:
    """XCSP3's (and ACE's) division: truncated toward zero; dividing by zero raises ZeroDivisionError."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def truncated_mod(a: int, b: int) -> int:
    """The remainder of the truncated division (the sign of `a`)."""
    return a - truncated_div(a, b) * b


def _pow(a: int, b: int) -> int:
    if b < 0:
        raise ArithmeticError("a negative power")
    return a**b


def _dist(a: int, b: int) -> int:
    return abs(a - b)


def _sqr(a: int) -> int:
    return a * a


def _membership(spans: Intervals) -> Callable[[int], bool]:
    """A test of membership in the values `spans` holds."""
    if size(spans) <= _SMALL:
        return frozenset(v for low, high in spans for v in range(low, high + 1)).__contains__
    return lambda v: any(low <= v <= high for low, high in spans)


def _node(token: str):
    """A list item as an expression tree: an int, a variable id, or an expression."""
    if _NUMBER.fullmatch(token):
        return int(token)
    return parse_expression(token) if "(" in token else token


def _safe(holds: Callable) -> Callable:
    def checked(s) -> bool:
        try:
            return holds(s)
        except ArithmeticError:
            return False

    return checked


def _table(rows: list[tuple]) -> Callable | frozenset:
    """The tuples of a table as a frozenset (no `*`), or a test of a tuple against them: the rows with `*` are
    grouped by the positions of their stars, each group a set of the values at the other positions."""
    plain, starred = set(), {}
    for row in rows:
        if "*" in row:
            fixed = tuple(k for k, v in enumerate(row) if v != "*")
            starred.setdefault(fixed, set()).add(tuple(row[k] for k in fixed))
        else:
            plain.add(row)
    plain = frozenset(plain)
    if not starred:
        return plain
    if () in starred:
        return lambda t: True
    groups = [
        (itemgetter(*fixed) if len(fixed) > 1 else (lambda t, k=fixed[0]: (t[k],)), frozenset(keys))
        for fixed, keys in starred.items()
    ]
    return lambda t: t in plain or any(pick(t) in keys for pick, keys in groups)


class _Compiler(Declarations):
    """Compiles each single constraint into a `_Leaf` (a closure over the solution)."""

    def __init__(self, holes: frozenset[str]):
        super().__init__(holes)
        self.getters: dict[str, Callable] = {}
        self.tables: dict[tuple[str, int], object] = {}
        self.conditions: dict[str, tuple] = {}
        self._bounds: dict[str, tuple] | None = None

    # domains

    def outside(self, solution: Mapping) -> str | None:
        """The first value of `solution` outside its variable's domain, as a text (None when there is none)."""
        if self._bounds is None:
            shared: dict[int, tuple] = {}
            self._bounds = {}
            for vid, spans in self.domains.items():
                if id(spans) not in shared:
                    low, high = (spans[0][0], spans[-1][1]) if spans else (1, 0)
                    shared[id(spans)] = (low, high, None if len(spans) <= 1 else _membership(spans), spans)
                self._bounds[vid] = shared[id(spans)]
        bounds = self._bounds
        for vid, value in solution.items():
            bound = bounds.get(vid)
            if bound is None or value is None:
                continue
            if type(value) is not int and not isinstance(value, int):
                return f"{vid} = {value!r}, not an integer"
            low, high, inside, spans = bound
            if value < low or value > high or (inside is not None and not inside(value)):
                return f"{vid} = {value}, outside its domain {_domain_text(spans)}"
        return None

    # leaves

    def leaves_of(self, element) -> list[_Leaf]:
        """The single constraints `element` stands for, compiled (groups, slides and blocks expanded)."""
        return [self.leaf(tag, constraint) for tag, constraint in read_each(element, self)]

    def leaf(self, tag: str, constraint: typed.Constraint | None) -> _Leaf:
        """The constraint `tag`, compiled from its typed form `constraint` (None: a tag it does not read)."""
        if constraint is None:
            raise Untranslatable(f"the constraint <{tag}>")
        scope: dict[str, None] = {}
        try:
            holds = _TYPED_HANDLERS[type(constraint)](self, constraint, scope)
        except Untranslatable:
            raise
        except Exception as error:
            raise Untranslatable(f"the constraint <{tag}> in a form not foreseen ({type(error).__name__})") from None
        label = partial(_compact, constraint.text) if isinstance(constraint, typed.Intension) else None
        return _Leaf(holds, tuple(scope), tag, label)

    # terms

    def var(self, vid: str, scope: dict) -> Callable:
        getter = self.getters.get(vid)
        if getter is None:
            if vid not in self.domains:
                raise Untranslatable(f"the undeclared variable {vid}")
            getter = self.getters[vid] = itemgetter(vid)
        scope[vid] = None
        return getter

    def nodes(self, text: str) -> list:
        domains = self.domains
        return [token if token in domains else _node(token) for token in self.tokens(text)]

    def term(self, node, scope: dict):
        """The integer expression `node` compiled: an int, or a function of the solution."""
        if isinstance(node, int):
            return node
        if isinstance(node, str):
            return self.var(node, scope)
        op, args = node
        if op in _COMPARE or op in ("not", "and", "or", "imp", "iff", "xor", "in", "notin"):
            return self.literal(node, scope)  # true and false are 1 and 0
        terms = [self.term(a, scope) for a in args if not (isinstance(a, tuple) and a[0] == "set")]
        if len(terms) != len(args):
            raise Untranslatable(f"a set inside the operator {op}")
        if op in ("add", "mul", "min", "max") and terms:
            if len(terms) == 2 and op in ("add", "mul"):
                return _binary(operator.add if op == "add" else operator.mul, *terms)
            functions = [_function(t) for t in terms]
            fold = {"add": sum, "mul": math.prod, "min": min, "max": max}[op]
            return lambda s: fold([f(s) for f in functions])
        binary = {"sub": operator.sub, "div": truncated_div, "mod": truncated_mod, "pow": _pow, "dist": _dist}.get(op)
        if binary is not None and len(terms) == 2:
            return _binary(binary, *terms)
        unary = {"neg": operator.neg, "abs": abs, "sqr": _sqr}.get(op)
        if unary is not None and len(terms) == 1:
            return _unary(unary, terms[0])
        if op == "if" and len(args) == 3:
            test = _function(self.literal(args[0], scope))
            then, otherwise = _function(terms[1]), _function(terms[2])

            def chosen(s):
                a, b = then(s), otherwise(s)  # both evaluated, as ACE does: neither may divide by zero
                return a if test(s) else b

            return chosen
        raise Untranslatable(f"the operator {op}")

    def literal(self, node, scope: dict):
        """The Boolean expression `node` compiled: a bool, or a function of the solution giving a bool."""
        if isinstance(node, int):
            if node not in (0, 1):
                raise Untranslatable("an integer other than 0 or 1 used as a condition")
            return bool(node)
        if isinstance(node, str):
            getter = self.var(node, scope)
            if not boolean(self.domains[node]):
                raise Untranslatable(f"the integer variable {node} used as a condition")
            return lambda s: getter(s) == 1
        op, args = node
        if op in ("in", "notin") and len(args) == 2 and isinstance(args[1], tuple) and args[1][0] == "set":
            left, members = self.term(args[0], scope), args[1][1]
            if all(isinstance(m, int) for m in members):
                inside = _unary(frozenset(members).__contains__, left)
            else:
                functions, left = [_function(self.term(m, scope)) for m in members], _function(left)
                inside = lambda s: left(s) in [f(s) for f in functions]  # noqa: E731
            return inside if op == "in" else _unary(operator.not_, inside)
        if op in ("in", "notin"):
            raise Untranslatable(f"`{op}` with something other than a set")
        if op in _COMPARE and len(args) == 2:
            return _binary(_COMPARE[op], *(self.term(a, scope) for a in args))
        if op == "eq" and len(args) > 2:
            functions = [_function(self.term(a, scope)) for a in args]
            return lambda s: len({f(s) for f in functions}) == 1
        if op == "not" and len(args) == 1:
            return _unary(operator.not_, self.literal(args[0], scope))
        if op not in ("and", "or", "imp", "xor", "iff"):
            raise Untranslatable(f"the operator {op} used as a condition")
        literals = [_function(self.literal(a, scope)) for a in args]
        if op == "and" and literals:  # every argument evaluated, as ACE does (none may divide by zero)
            return lambda s: all([f(s) for f in literals])
        if op == "or" and literals:
            return lambda s: any([f(s) for f in literals])
        if op == "imp" and len(literals) == 2:
            first, second = literals
            return lambda s: first(s) <= second(s)
        if op == "xor" and literals:
            return lambda s: sum([f(s) for f in literals]) % 2 == 1
        if op == "iff" and len(literals) >= 2:
            return lambda s: len({f(s) for f in literals}) == 1
        raise Untranslatable(f"the operator {op} used as a condition")

    def sequence(self, nodes: list, scope: dict) -> Callable:
        """A function giving the values of the list items `nodes` (a tuple or a list)."""
        if nodes and all(isinstance(n, str) for n in nodes):
            getters = [self.var(n, scope) for n in nodes]
            if len(nodes) == 1:
                only = getters[0]
                return lambda s: (only(s),)
            return itemgetter(*nodes)
        if all(isinstance(n, int) for n in nodes):
            fixed = tuple(nodes)
            return lambda s: fixed
        functions = [_function(self.term(n, scope)) for n in nodes]
        return lambda s: [f(s) for f in functions]

    def condition(self, condition: typed.Condition, scope: dict) -> Callable[[int, Mapping], bool]:
        """The XCSP3 condition as a test of a value (compiled once per text)."""
        known = self.conditions.get(condition.text)
        if known is None:
            involved: dict[str, None] = {}
            known = self.conditions[condition.text] = (self.compiled_condition(condition, involved), tuple(involved))
        scope.update(dict.fromkeys(known[1]))
        return known[0]

    def compiled_condition(self, condition: typed.Condition, scope: dict) -> Callable[[int, Mapping], bool]:
        op, operand = condition.operator, condition.operand
        if condition.of_values:
            inside = _membership(operand)
            return (lambda v, s: inside(v)) if op == "in" else (lambda v, s: not inside(v))
        compare = _COMPARE.get(op)
        if compare is None:
            raise Untranslatable(f"the condition operator {op}")
        right = self.term(operand, scope)
        if callable(right):
            return lambda v, s: compare(v, right(s))
        return lambda v, s: compare(v, right)

    def domain_values(self, nodes: list, what: str) -> list[int]:
        """The values of the domains of the variables `nodes`, in increasing order."""
        if not all(isinstance(n, str) and n in self.domains for n in nodes):
            raise Untranslatable(f"{what} over something other than variables")
        return sorted({v for n in nodes for low, high in self.domains[n] for v in range(low, high + 1)})

    # constraints: generic

    def _intension(self, constraint: typed.Intension, scope: dict) -> Callable:
        return _function(self.literal(constraint.tree, scope))

    def _extension(self, constraint: typed.Extension, scope: dict) -> Callable:
        items = list(constraint.items)
        return self.table(items, constraint.rows, constraint.values, constraint.text, constraint.supports, scope)

    def table(
        self, ids: list[str], rows: tuple, values: Intervals | None, text: str, positive: bool, scope: dict
    ) -> Callable:
        """A table over the variables `ids`: its `rows`, or a unary table's `values`; `text` the table as
        written (tables written alike share one test)."""
        domains = self.domains
        if not all(vid in domains for vid in ids):
            raise Untranslatable("a table over something other than variables")
        getters = [self.var(vid, scope) for vid in ids]
        if values is not None:
            inside, only = _membership(values), getters[0]
            return (lambda s: inside(only(s))) if positive else (lambda s: not inside(only(s)))
        key = (text, len(ids))
        matcher = self.tables.get(key)
        if matcher is None:
            matcher = self.tables[key] = _table(rows)
        get = itemgetter(*ids) if len(ids) > 1 else (lambda s, g=getters[0]: (g(s),))
        if isinstance(matcher, frozenset):
            return (lambda s: get(s) in matcher) if positive else (lambda s: get(s) not in matcher)
        return (lambda s: matcher(get(s))) if positive else (lambda s: not matcher(get(s)))

    def _instantiation(self, constraint: typed.Instantiation, scope: dict) -> Callable:
        get, fixed = self.sequence(list(constraint.items), scope), constraint.values
        return lambda s: tuple(get(s)) == fixed

    def _clause(self, constraint: typed.Clause, scope: dict) -> Callable:
        positive = [self.var(vid, scope) for vid in constraint.positive]
        negative = [self.var(vid, scope) for vid in constraint.negative]
        return lambda s: any(g(s) == 1 for g in positive) or any(g(s) == 0 for g in negative)

    def _logic(self, constraint: typed.Logic, scope: dict) -> Callable:
        parts = []
        for constraints in constraint.parts:
            checks = [_safe(_TYPED_HANDLERS[type(c)](self, c, scope)) for c in constraints]
            parts.append(lambda s, checks=checks: all([h(s) for h in checks]))
        operator = constraint.operator
        if operator == "and":
            return lambda s: all([p(s) for p in parts])
        if operator == "or":
            return lambda s: any([p(s) for p in parts])
        if operator == "iff":
            return lambda s: len({p(s) for p in parts}) == 1
        if operator == "xor":
            return lambda s: sum([p(s) for p in parts]) % 2 == 1
        if operator == "not":
            return lambda s: not parts[0](s)
        if operator == "ifThen":
            return lambda s: parts[0](s) <= parts[1](s)
        return lambda s: parts[1](s) if parts[0](s) else parts[2](s)  # ifThenElse

    # comparison

    def _all_different_matrix(self, constraint: typed.AllDifferentMatrix, scope: dict) -> Callable:
        lines = [self.sequence(list(line), scope) for line in [*constraint.rows, *constraint.columns]]
        skip = constraint.excepted or frozenset()
        return lambda s: all(_distinct(line(s), skip) for line in lines)

    def _all_different_lists(self, constraint: typed.AllDifferentLists, scope: dict) -> Callable:
        """No two lists equal, except on the tuples excepted."""
        vectors = [self.sequence(list(listed), scope) for listed in constraint.lists]
        skip = constraint.excepted or frozenset()

        def lists_differ(s) -> bool:
            kept = [v for v in (tuple(get(s)) for get in vectors) if v not in skip]
            return len(set(kept)) == len(kept)

        return lists_differ

    def _all_different(self, constraint: typed.AllDifferent, scope: dict) -> Callable:
        get, n = self.sequence(list(constraint.items), scope), len(constraint.items)
        if constraint.excepted is None:
            return lambda s: len(set(get(s))) == n
        skip = constraint.excepted
        return lambda s: _distinct(get(s), skip)

    def _all_equal_lists(self, constraint: typed.AllEqualLists, scope: dict) -> Callable:
        vectors = [self.sequence(list(listed), scope) for listed in constraint.lists]
        return lambda s: len({tuple(get(s)) for get in vectors}) == 1

    def _all_equal(self, constraint: typed.AllEqual, scope: dict) -> Callable:
        get = self.sequence(list(constraint.items), scope)
        if constraint.excepted is None:
            return lambda s: len(set(get(s))) <= 1
        skip = constraint.excepted  # as ACE posts it: equal unless one of them is excepted
        return lambda s: len(set(get(s)) - skip) <= 1

    def _ordered(self, constraint: typed.Ordered, scope: dict) -> Callable:
        get, compare = self.sequence(list(constraint.items), scope), _COMPARE[constraint.operator]
        if constraint.lengths is None:
            return lambda s: all(map(compare, *_pairs(get(s))))
        gaps = self.sequence(list(constraint.lengths), scope)

        def ordered(s) -> bool:
            items = get(s)
            return all(map(compare, map(operator.add, items, gaps(s)), itertools.islice(items, 1, None)))

        return ordered

    def _lex(self, constraint: typed.Lex, scope: dict) -> Callable:
        compare = _COMPARE[constraint.operator]
        compiled = []
        for group in constraint.groups:
            if len({len(listed) for listed in group}) > 1:
                raise Untranslatable("a lex of lists of different lengths")
            compiled.append([self.sequence(list(listed), scope) for listed in group])

        def ordered(s) -> bool:
            for vectors in compiled:
                found = [tuple(get(s)) for get in vectors]
                if not all(map(compare, found, found[1:])):
                    return False
            return True

        return ordered

    def _precedence(self, constraint: typed.Precedence, scope: dict) -> Callable:
        get, ordered, covered = self.sequence(list(constraint.items), scope), constraint.values, constraint.covered
        pairs = list(zip(ordered, ordered[1:]))

        def precedes(s) -> bool:
            first: dict[int, int] = {}
            for k, v in enumerate(get(s)):
                first.setdefault(v, k)
            for before, after in pairs:
                if after in first and not (before in first and first[before] < first[after]):
                    return False
            return not covered or all(v in first for v in ordered)

        return precedes

    # counting

    def _sum(self, constraint: typed.Sum, scope: dict) -> Callable:
        get = self.sequence(list(constraint.items), scope)
        test = self.condition(constraint.condition, scope)
        if constraint.coeffs is None:
            return lambda s: test(sum(get(s)), s)
        weights = self.sequence(list(constraint.coeffs), scope)
        return lambda s: test(sum(map(operator.mul, weights(s), get(s))), s)

    def _count(self, constraint: typed.Count, scope: dict) -> Callable:
        get = self.sequence(list(constraint.items), scope)
        counted = list(constraint.values)
        test = self.condition(constraint.condition, scope)
        if all(isinstance(v, int) for v in counted):
            inside = frozenset(counted).__contains__
            return lambda s: test(sum(map(inside, get(s))), s)
        chosen = self.sequence(counted, scope)
        return lambda s: test(sum(map(set(chosen(s)).__contains__, get(s))), s)

    def _n_values(self, constraint: typed.NValues, scope: dict) -> Callable:
        get = self.sequence(list(constraint.items), scope)
        skip = constraint.excepted
        test = self.condition(constraint.condition, scope)
        return lambda s: test(len(set(get(s)) - skip), s)

    def _cardinality(self, constraint: typed.Cardinality, scope: dict) -> Callable:
        get = self.sequence(list(constraint.items), scope)
        chosen = self.sequence(list(constraint.values), scope)
        tests = []
        for occurrence in constraint.occurs:
            if isinstance(occurrence, range):
                tests.append(lambda n, s, within=occurrence: n in within)
            else:
                tests.append(partial(_count_is, _function(self.term(occurrence, scope))))
        closed = constraint.closed

        def counts(s) -> bool:
            items, picked = list(get(s)), chosen(s)
            if not all(test(items.count(v), s) for v, test in zip(picked, tests)):
                return False
            return not closed or set(items) <= set(picked)

        return counts

    # connection

    def _extremum(self, constraint: typed.Extremum, scope: dict) -> Callable:
        get, pick = self.sequence(list(constraint.items), scope), min if constraint.least else max
        if constraint.index is None:
            test = self.condition(constraint.condition, scope)
            return lambda s: test(pick(get(s)), s)
        # with an index: the index of the least value, of the rank given
        test = self.condition(constraint.condition, scope) if constraint.condition is not None else None
        at, start, rank = _function(self.term(constraint.index, scope)), constraint.start, constraint.rank

        def found(s) -> bool:
            items = list(get(s))
            best, k = pick(items), at(s) - start
            if not 0 <= k < len(items) or items[k] != best:
                return False
            if (rank == "first" and best in items[:k]) or (rank == "last" and best in items[k + 1 :]):
                return False
            return test is None or test(best, s)

        return found

    def _arg_extremum(self, constraint: typed.ArgExtremum, scope: dict) -> Callable:
        """The index of the least (greatest) item, the first, the last or any of them (`rank`), meets the
        condition."""
        get, pick = self.sequence(list(constraint.items), scope), min if constraint.least else max
        start, rank = constraint.start, constraint.rank
        test = self.condition(constraint.condition, scope)

        def found(s) -> bool:
            items = list(get(s))
            best = pick(items)
            if rank == "first":
                return test(items.index(best) + start, s)
            if rank == "last":
                return test(len(items) - 1 - items[::-1].index(best) + start, s)
            return any(test(k + start, s) for k, v in enumerate(items) if v == best)

        return found

    def value_test(self, constraint: typed.Element | typed.MatrixElement, scope: dict) -> Callable:
        """A test of a value: equal to the constraint's value, or meeting its condition."""
        if constraint.value is None:
            return self.condition(constraint.condition, scope)
        target = self.term(constraint.value, scope)
        return (lambda v, s: v == target(s)) if callable(target) else (lambda v, s: v == target)

    def _matrix_element(self, constraint: typed.MatrixElement, scope: dict) -> Callable:
        test = self.value_test(constraint, scope)
        get = self.sequence([item for row in constraint.rows for item in row], scope)
        row, column = (_function(self.term(node, scope)) for node in (constraint.row, constraint.column))
        first, second = constraint.start_row, constraint.start_column
        height, width = len(constraint.rows), len(constraint.rows[0])

        def at_cell(s) -> bool:
            r, c = row(s) - first, column(s) - second
            return 0 <= r < height and 0 <= c < width and test(get(s)[r * width + c], s)

        return at_cell

    def _element(self, constraint: typed.Element, scope: dict) -> Callable:
        test = self.value_test(constraint, scope)
        get = self.sequence(list(constraint.items), scope)
        if constraint.index is None:  # the value is one of the list's
            if constraint.reified_by is None:
                return lambda s: any(test(v, s) for v in get(s))
            flag = self.var(constraint.reified_by, scope)
            return lambda s: any(test(v, s) for v in get(s)) == (flag(s) == 1)
        at, start, rank = _function(self.term(constraint.index, scope)), constraint.start, constraint.rank

        def at_index(s) -> bool:
            items = get(s)
            k = at(s) - start
            if not 0 <= k < len(items) or not test(items[k], s):
                return False
            if rank == "first":
                return not any(test(v, s) for v in items[:k])
            if rank == "last":
                return not any(test(v, s) for v in items[k + 1 :])
            return True

        return at_index

    def _channel(self, constraint: typed.Channel, scope: dict) -> Callable:
        first, n, start = self.sequence(list(constraint.first), scope), len(constraint.first), constraint.start
        if constraint.second is None and constraint.value is not None:  # a 0/1 list and the index of its only 1
            value = _function(self.term(constraint.value, scope))

            def one_at(s) -> bool:
                items, k = first(s), value(s) - start
                return items.count(1) == 1 and 0 <= k < n and items[k] == 1

            return one_at
        if constraint.second is None:  # x[i] = j -> x[j] = i

            def inverse(s) -> bool:
                items = first(s)
                return all(0 <= v - start < n and items[v - start] == i + start for i, v in enumerate(items))

            return inverse
        second, m, other = (
            self.sequence(list(constraint.second), scope),
            len(constraint.second),
            constraint.second_start,
        )

        def inverses(s) -> bool:  # x[i] = j -> y[j] = i (and back, which follows when the lists are as long)
            xs, ys = first(s), second(s)
            return all(0 <= v - other < m and ys[v - other] == i + start for i, v in enumerate(xs))

        return inverses

    # graphs

    def _circuit(self, constraint: typed.Circuit, scope: dict) -> Callable:
        """The nodes that do not point to themselves form one cycle, of at least two nodes (XCSP3's circuit)."""
        get, n, start = self.sequence(list(constraint.items), scope), len(constraint.items), constraint.start
        size = constraint.size
        wanted = _function(self.term(size, scope)) if size is not None else None

        def circuit(s) -> bool:
            following = [v - start for v in get(s)]
            if not all(0 <= v < n for v in following):
                return False
            loops = sum(1 for k, v in enumerate(following) if k == v)
            if loops == n or (wanted is not None and wanted(s) != n - loops):
                return False
            origin = next(k for k, v in enumerate(following) if k != v)
            length, node = 1, following[origin]
            while node != origin and length <= n:
                node, length = following[node], length + 1
            return node == origin and length == n - loops

        return circuit

    def _flow(self, constraint: typed.Flow, scope: dict) -> Callable:
        """What leaves each node less what enters it is its balance (nodes in increasing order); the weighted
        flow meets the condition."""
        flows, balance = self.sequence(list(constraint.flows), scope), self.sequence(list(constraint.balance), scope)
        position = {node: k for k, node in enumerate(constraint.nodes)}
        tails, heads = [position[a] for a, _ in constraint.arcs], [position[b] for _, b in constraint.arcs]
        weights = self.sequence(list(constraint.weights), scope) if constraint.weights is not None else None
        test = self.condition(constraint.condition, scope) if constraint.condition is not None else None

        def balanced(s) -> bool:
            amounts, net = flows(s), [0] * len(constraint.nodes)
            for tail, head, amount in zip(tails, heads, amounts):
                net[tail] += amount
                net[head] -= amount
            if net != list(balance(s)):
                return False
            return test is None or test(sum(map(operator.mul, weights(s), amounts)), s)

        return balanced

    # scheduling and packing

    def _no_overlap(self, constraint: typed.NoOverlap, scope: dict) -> Callable:
        ignore_zero = constraint.zero_ignored
        if all(len(box) == 1 for box in constraint.origins):  # tasks on a line
            starts = self.sequence([box[0] for box in constraint.origins], scope)
            sizes = self.sequence([side[0] for side in constraint.lengths], scope)
            return partial(_apart_on_a_line, starts, sizes, ignore_zero)
        corners = [self.sequence(list(b), scope) for b in constraint.origins]
        extents = [self.sequence(list(e), scope) for e in constraint.lengths]
        dimensions = range(len(constraint.origins[0]))

        def apart(s) -> bool:
            placed = [(tuple(c(s)), tuple(e(s))) for c, e in zip(corners, extents)]
            if ignore_zero:
                placed = [box for box in placed if 0 not in box[1]]
            return all(
                any(a[d] + la[d] <= b[d] or b[d] + lb[d] <= a[d] for d in dimensions)
                for (a, la), (b, lb) in itertools.combinations(placed, 2)
            )

        return apart

    def _cumulative(self, constraint: typed.Cumulative, scope: dict) -> Callable:
        """At each time between the first start and the last end, the heights of the tasks running then meet the
        condition; with ends, each task ends at its origin plus its length."""
        starts, lengths, heights = (
            self.sequence(list(found), scope) for found in (constraint.origins, constraint.lengths, constraint.heights)
        )
        finishes = self.sequence(list(constraint.ends), scope) if constraint.ends is not None else None
        test = self.condition(constraint.condition, scope)

        def within(s) -> bool:
            origins, spans = starts(s), lengths(s)
            if finishes is not None and any(o + d != e for o, d, e in zip(origins, spans, finishes(s))):
                return False
            tasks = [(o, o + d, h) for o, d, h in zip(origins, spans, heights(s)) if d > 0]
            if not tasks:
                return True
            last = max(end for _, end, _ in tasks)
            for time in sorted({o for o, _, _ in tasks} | {end for _, end, _ in tasks if end < last}):
                if not test(sum(h for o, end, h in tasks if o <= time < end), s):
                    return False
            return True

        return within

    def _bin_packing(self, constraint: typed.BinPacking, scope: dict) -> Callable:
        """Each bin's load (the sizes of the items put in it) meets the condition (bins: the values of the items'
        domains), or is at most its limit, or equals its load (bins numbered from 0)."""
        get, sizes = self.sequence(list(constraint.items), scope), self.sequence(list(constraint.sizes), scope)
        if constraint.capacities is not None:
            capacities, bins = self.sequence(list(constraint.capacities), scope), len(constraint.capacities)
            compare = operator.eq if constraint.exact else operator.le

            def packed(s) -> bool:
                placed, load = get(s), [0] * bins
                if not all(0 <= b < bins for b in placed):
                    return False
                for b, weight in zip(placed, sizes(s)):
                    load[b] += weight
                return all(map(compare, load, capacities(s)))

            return packed
        bins = len(self.domain_values(list(constraint.items), "<binPacking>"))
        test = self.condition(constraint.condition, scope)

        def loaded(s) -> bool:
            load: dict[int, int] = {}
            for b, weight in zip(get(s), sizes(s)):
                load[b] = load.get(b, 0) + weight
            return all(test(w, s) for w in load.values()) and (len(load) >= bins or test(0, s))

        return loaded

    def _knapsack(self, constraint: typed.Knapsack, scope: dict) -> Callable:
        get = self.sequence(list(constraint.items), scope)
        weights, profits = (self.sequence(list(factors), scope) for factors in (constraint.weights, constraint.profits))
        heavy, rich = (self.condition(held, scope) for held in (constraint.weight, constraint.profit))

        def fits(s) -> bool:
            items = get(s)
            return heavy(sum(map(operator.mul, weights(s), items)), s) and rich(
                sum(map(operator.mul, profits(s), items)), s
            )

        return fits

    # automata

    def _automaton(self, constraint: typed.Automaton, scope: dict) -> Callable:
        get = self.sequence(list(constraint.items), scope)
        return _automaton(get, list(constraint.transitions), constraint.start, list(constraint.finals))

    # objective

    def objective(self, element, scope: dict):
        """The objective's expression, compiled."""
        try:
            goal = read_objective(element, self)
            if goal.kind == "expression":
                return self.term(goal.items[0], scope)
            if goal.kind not in ("sum", "product", "minimum", "maximum", "nValues"):
                raise Untranslatable(f"an objective of type {goal.kind}")
            get = self.sequence(list(goal.items), scope)
            weights = self.sequence(list(goal.coeffs), scope) if goal.coeffs is not None else None
            fold = {
                "sum": sum,
                "product": math.prod,
                "minimum": min,
                "maximum": max,
                "nValues": lambda found: len(set(found)),
            }[goal.kind]
            if weights is None:
                return lambda s: fold(get(s))
            return lambda s: fold(list(map(operator.mul, weights(s), get(s))))
        except Untranslatable:
            raise
        except Exception as error:
            raise Untranslatable(
                f"the objective <{element.tag}> in a form not foreseen ({type(error).__name__})"
            ) from None


def _distinct(found, skip: frozenset) -> bool:
    kept = [v for v in found if v not in skip]
    return len(set(kept)) == len(kept)


def _pairs(items) -> tuple:
    return items, itertools.islice(items, 1, None)


def _count_is(occurs: Callable, n: int, s) -> bool:
    return n == occurs(s)


def _apart_on_a_line(starts: Callable, sizes: Callable, ignore_zero: bool, s) -> bool:
    """No two tasks overlap: sorted by origin (then length), each starts after every earlier one ends."""
    tasks = sorted(zip(starts(s), sizes(s)))
    if ignore_zero:
        tasks = [task for task in tasks if task[1] != 0]
    if any(length < 0 for _, length in tasks):  # the definition itself, pair by pair
        return all(a + la <= b or b + lb <= a for (a, la), (b, lb) in itertools.combinations(tasks, 2))
    end = None
    for origin, length in tasks:
        if end is not None and origin < end:
            return False
        end = origin + length if end is None else max(end, origin + length)
    return True


def _automaton(get: Callable, arcs: list[tuple[str, int, str]], start: str, finals: list[str]) -> Callable:
    """The items read by the automaton (non-deterministic ones too) end in a final state."""
    if not arcs:
        return lambda s: False
    following: dict[tuple[str, int], list[str]] = {}
    for tail, value, head in arcs:
        following.setdefault((tail, value), []).append(head)
    accepting = frozenset(finals)
    if all(len(heads) == 1 for heads in following.values()):
        step = {key: heads[0] for key, heads in following.items()}

        def read(s) -> bool:
            state = start
            for v in get(s):
                state = step.get((state, v))
                if state is None:
                    return False
            return state in accepting

        return read
    steps = {key: frozenset(heads) for key, heads in following.items()}

    def guess(s) -> bool:
        states = {start}
        for v in get(s):
            states = {head for state in states for head in steps.get((state, v), ())}
            if not states:
                return False
        return not accepting.isdisjoint(states)

    return guess


_TYPED_HANDLERS: dict[type, Callable] = {
    typed.Intension: _Compiler._intension,
    typed.Logic: _Compiler._logic,
    typed.Extension: _Compiler._extension,
    typed.AllDifferent: _Compiler._all_different,
    typed.AllDifferentLists: _Compiler._all_different_lists,
    typed.AllDifferentMatrix: _Compiler._all_different_matrix,
    typed.AllEqual: _Compiler._all_equal,
    typed.AllEqualLists: _Compiler._all_equal_lists,
    typed.Sum: _Compiler._sum,
    typed.Knapsack: _Compiler._knapsack,
    typed.BinPacking: _Compiler._bin_packing,
    typed.Flow: _Compiler._flow,
    typed.Clause: _Compiler._clause,
    typed.Count: _Compiler._count,
    typed.NValues: _Compiler._n_values,
    typed.Cardinality: _Compiler._cardinality,
    typed.Ordered: _Compiler._ordered,
    typed.Lex: _Compiler._lex,
    typed.Instantiation: _Compiler._instantiation,
    typed.Extremum: _Compiler._extremum,
    typed.ArgExtremum: _Compiler._arg_extremum,
    typed.Precedence: _Compiler._precedence,
    typed.Automaton: _Compiler._automaton,
    typed.NoOverlap: _Compiler._no_overlap,
    typed.Cumulative: _Compiler._cumulative,
    typed.Element: _Compiler._element,
    typed.MatrixElement: _Compiler._matrix_element,
    typed.Channel: _Compiler._channel,
    typed.Circuit: _Compiler._circuit,
}
