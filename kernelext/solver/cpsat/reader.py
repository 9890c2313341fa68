"""Read a compiled XCSP3 model straight into an OR-Tools CP-SAT model, without going through CPMpy.

Every constraint pycsp3 posts is translated exactly: variables with integer domains; `intension` (every
operator but set operators; `div` and `mod` truncate, and no tuple divides by zero, as in ACE); `extension`
(supports or conflicts, `*` included); the global constraints (kernelext.solver.cpsat.global_constraints); `group`,
`block` and `slide`; objectives that are an expression, a sum, a minimum, a maximum or an nValues. Anything else
raises BackendUnsupported naming it.

As ACE does, only the variables that some constraint or the objective involves enter the model: the others
are left out of solutions (None) and do not multiply the solution count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import kernelext.xcsp.constraints as typed
from kernelext.errors import ModelRejected, ReadingStopped, Untranslatable
from kernelext.solver.cpsat import module as cpsat_module
from kernelext.solver.cpsat.global_constraints import TYPED_HANDLERS, GlobalConstraints
from kernelext.solver.errors import BackendUnsupported
from kernelext.xcsp.constraints import read_each
from kernelext.xcsp.declarations import Declarations
from kernelext.xcsp.document import parse_file
from kernelext.xcsp.expressions import BOOLEAN
from kernelext.xcsp.values import StopSignal, boolean, expand_rows, expanded_size, size

MAX_TUPLES = 2_000  # past this many tuples once `*` is expanded, a table is posted tuple by tuple
LARGE = 500_000  # bytes of XCSP3 past which ACE, where it runs, reads a model faster than this reading does
_COMPARED = {
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
}
_OPPOSITE = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt", "eq": "ne", "ne": "eq"}


@dataclass(frozen=True)
class Translated:
    """A CP-SAT model read from XCSP3: the model, its variables by XCSP3 id, and whether it optimises."""

    model: object
    variables: dict
    objective: bool


def read(path: Path, holes: frozenset[str] = frozenset(), stop: StopSignal | None = None) -> Translated:
    """The XCSP3 file at `path` as a CP-SAT model; `holes` are the ids of array cells that hold no variable
    (the file may not mark them, and a compact list such as `x[][]` must skip them).

    Raises:
        BackendUnsupported: the file holds something this reading does not translate (or it failed on it).
        ReadingStopped: `stop` was set before the reading ended.
    """
    cp_model = cpsat_module.required_cp_model()
    try:
        root = parse_file(path)
    except Untranslatable as error:
        raise BackendUnsupported(f"the model file could not be read ({error})") from None
    objectives = root.find("objectives")
    if objectives is not None and len(objectives) != 1:
        raise BackendUnsupported("several objectives")
    constraints = root.find("constraints")
    return _translate(
        _Reader(cp_model, holes),
        root.find("variables"),
        constraints if constraints is not None else (),
        objectives[0] if objectives is not None else None,
        stop,
    )


class Reading:
    """Reads satisfaction models given in parts (the `<variables>` element, then the constraint elements), and
    keeps what it read: when the next model has the same variables and holes and begins with the very same
    constraint elements, only the elements after them are read, into the same CP-SAT model. Variables enter
    the model at their first use, so the model is the one a reading of the whole would build."""

    def __init__(self):
        self._reader = None
        self._variables = None
        self._holes: frozenset[str] = frozenset()
        self._elements: list = []

    def translated(
        self, variables, elements: list, holes: frozenset[str], stop: StopSignal | None = None
    ) -> Translated:
        """The CP-SAT model of `variables` and the constraint `elements` (raises BackendUnsupported, and
        ReadingStopped when `stop` is set before the end: the next reading then starts afresh)."""
        done = len(self._elements)
        extends = (
            self._reader is not None
            and variables is self._variables
            and holes == self._holes
            and len(elements) >= done
            and all(a is b for a, b in zip(elements, self._elements))
        )
        reader = self._reader if extends else _Reader(cpsat_module.required_cp_model(), holes)
        self._reader = None  # until the reading below succeeds: a failed one leaves a half-built model
        translated = _translate(
            reader, None if extends else variables, elements[done:] if extends else elements, None, stop
        )
        self._reader, self._variables, self._holes, self._elements = reader, variables, holes, list(elements)
        return translated


class EnforcedReading:
    """A CP-SAT model of the declarations `variables` whose constraints come in parts, added one after another,
    each part enforced by a literal of its own (a part whose literal is false is left out, which assumptions on
    the literals ask): the model, the parts' literals in the order added, and the variables by XCSP3 id.
    Raises BackendUnsupported as `read` does; a part that raises leaves the reading unusable."""

    def __init__(self, variables, holes: frozenset[str]):
        reader = self._reader = _Reader(cpsat_module.required_cp_model(), holes)
        self.model = reader.model
        self.literals: list = []
        self.variables = reader.used

        def declare() -> None:
            reader.declare(variables)
            for vid in reader.domains:  # made first, so that no part holds a variable's domain
                reader.var(vid)

        _read_into(reader, declare)

    def add(self, parts: Sequence[Sequence]) -> None:
        """Read the constraint elements of each of `parts`, under a new literal each."""
        reader = self._reader

        def read_them() -> None:
            for part in parts:
                posted = reader.model.Proto().constraints
                first = len(posted)
                reader.equalities.clear()  # so that each part defines the literals it uses, under its own literal
                for element in part:
                    reader.constraint(element)
                literal = reader.model.NewBoolVar("")
                for index in range(first, len(posted)):
                    posted[index].enforcement_literal.append(literal.Index())
                self.literals.append(literal)

        _read_into(reader, read_them)


def _translate(reader: _Reader, variables, constraints, objective, stop: StopSignal | None = None) -> Translated:
    """Read the declarations `variables` (None: declared already), the `constraints` and the `objective`
    element (or None) into `reader`'s model, looking at `stop` before each constraint and within large tables."""

    def read_them() -> None:
        if variables is not None:
            reader.declare(variables)
        for element in constraints:
            if stop is not None and stop.is_set():
                raise ReadingStopped
            reader.constraint(element)
        if objective is not None:
            reader.objective(objective)

    reader.stop = stop
    try:
        _read_into(reader, read_them)
    finally:
        reader.stop = None
    return Translated(reader.model, reader.used, objective is not None)


def _read_into(reader: _Reader, read_them: Callable[[], None]) -> None:
    """Run `read_them`, which reads into `reader`'s model: a form it did not foresee, or a model CP-SAT finds
    invalid, raises BackendUnsupported (another solver reads the model)."""
    try:
        read_them()
    except (BackendUnsupported, ModelRejected, ReadingStopped):
        raise
    except Untranslatable as error:
        raise BackendUnsupported(str(error)) from None
    except Exception as error:
        raise BackendUnsupported(f"an unforeseen form ({type(error).__name__}: {error})"[:160]) from None
    invalid = reader.model.Validate()  # for example bounds past 64-bit integers
    if invalid:
        raise BackendUnsupported(f"a model CP-SAT finds invalid ({invalid})"[:160])


class _Reader(GlobalConstraints, Declarations):
    """Builds the CP-SAT model one XCSP3 element at a time."""

    def __init__(self, cp_model, holes: frozenset[str]):
        super().__init__(holes)
        self.cp = cp_model
        self.model = cp_model.CpModel()
        self.used: dict = {}  # variable id -> its CP-SAT variable, made on first use
        self.equalities: dict = {}  # (variable index, value) -> the literal of variable == value

    def var(self, vid: str):
        """The CP-SAT variable of `vid` (a Boolean one when its values are within 0..1)."""
        found = self.used.get(vid)
        if found is not None:
            return found
        intervals = self.domains.get(vid)
        if intervals is None:
            raise BackendUnsupported(f"the undeclared variable {vid}")
        for low, high in intervals[:1] + intervals[-1:]:
            _checked_number(low), _checked_number(high)
        if boolean(intervals):
            variable = self.model.NewBoolVar(vid)
            if size(intervals) == 1:
                self.model.Add(variable == intervals[0][0])
        else:
            variable = self.model.NewIntVarFromDomain(self.cp.Domain.FromIntervals([list(i) for i in intervals]), vid)
        self.used[vid] = variable
        return variable

    def as_var(self, node):
        """The item `node` as a CP-SAT variable (a new one equal to it when it is not one)."""
        return self.as_var_term(self.term(node))

    def as_var_term(self, term):
        """`term` as a CP-SAT variable (a new one equal to it when it is not one)."""
        if isinstance(term, self.cp.IntVar):
            return term
        if isinstance(term, int):
            return self.model.NewConstant(term)
        variable = self.model.NewIntVar(*self.bounds_of(term), "")
        self.model.Add(variable == term)
        return variable

    def spans_of(self, term) -> tuple[tuple[int, int], ...]:
        """The values `term` can take, as intervals (an expression: its bounds)."""
        if isinstance(term, int):
            return ((term, term),)
        if isinstance(term, self.cp.IntVar):
            declared = self.domains.get(term.Name()) if term.Name() else None
            if declared is not None:
                return declared
            domain = list(term.proto.domain)
            return tuple(zip(domain[::2], domain[1::2]))
        flat = cpsat_module.flat_expression(term)
        low = high = flat.offset
        for variable, coefficient in zip(flat.vars, flat.coeffs):
            a, b = self.bounds_of(variable)
            low, high = low + min(a * coefficient, b * coefficient), high + max(a * coefficient, b * coefficient)
        return ((low, high),)

    def bounds_of(self, term) -> tuple[int, int]:
        spans = self.spans_of(term)
        return spans[0][0], spans[-1][1]

    def values_of(self, term) -> list[int]:
        """Every value `term` can take (an expression: every value within its bounds)."""
        return [v for low, high in self.spans_of(term) for v in range(low, high + 1)]

    # literals tied both ways to what they stand for

    def is_true(self, op: str, left, right):
        """A literal true exactly when `left op right` (a comparison of two CP-SAT terms)."""
        if isinstance(left, int) and isinstance(right, int):
            return self.model.NewConstant(int(_COMPARED[op](left, right)))
        if op == "eq" and isinstance(right, int) and isinstance(left, self.cp.IntVar):
            return self.equals(left, right)
        holds = self.model.NewBoolVar("")
        self.post_comparison(op, left, right, holds)
        self.post_comparison(_OPPOSITE[op], left, right, holds.Not())
        return holds

    def conjunction(self, literals: list):
        """A literal true exactly when every one of `literals` is."""
        if len(literals) == 1:
            return literals[0]
        holds = self.model.NewBoolVar("")
        self.model.AddBoolAnd(literals).OnlyEnforceIf(holds)
        self.model.AddBoolOr([lit.Not() for lit in literals]).OnlyEnforceIf(holds.Not())
        return holds

    def disjunction(self, literals: list):
        """A literal true exactly when one of `literals` is."""
        return self.conjunction([lit.Not() for lit in literals]).Not() if literals else self.model.NewConstant(0)

    def equals_value(self, term, value: int):
        """A literal true exactly when `term` == `value` (shared for a variable)."""
        if isinstance(term, self.cp.IntVar):
            return self.equals(term, value)
        return self.within(term, [value])

    def within(self, term, allowed: list[int]):
        """A literal true exactly when `term` takes one of `allowed`."""
        if isinstance(term, int):
            return self.model.NewConstant(int(term in allowed))
        if isinstance(term, self.cp.IntVar) and len(allowed) == 1:
            return self.equals(term, allowed[0])
        holds = self.model.NewBoolVar("")
        domain = self.cp.Domain.FromValues(sorted(set(allowed)))
        self.model.AddLinearExpressionInDomain(term, domain).OnlyEnforceIf(holds)
        self.model.AddLinearExpressionInDomain(term, domain.complement()).OnlyEnforceIf(holds.Not())
        return holds

    def condition_literal(self, left, found: typed.Condition):
        """A literal true exactly when `left` meets the XCSP3 condition."""
        if found.of_values:
            inside = self.within(left, [v for low, high in found.operand for v in range(low, high + 1)])
            return inside if found.operator == "in" else inside.Not()
        if found.operator not in _COMPARED:
            raise BackendUnsupported(f"the condition operator {found.operator}")
        return self.is_true(found.operator, left, self.term(found.operand))

    def post_condition(self, expression, found: typed.Condition) -> None:
        """`expression` meets the XCSP3 condition: `(le,y)`, `(in,1..5)`, `(notin,{1,3})`."""
        operator = found.operator
        if found.of_values:
            domain = self.cp.Domain.FromIntervals([list(i) for i in found.operand])
            self.model.AddLinearExpressionInDomain(expression, domain if operator == "in" else domain.complement())
        elif operator in _COMPARED:
            self.post_comparison(operator, expression, self.term(found.operand))
        else:
            raise BackendUnsupported(f"the condition operator {operator}")

    def matrix_lines(self, text: str) -> list[list[str]]:
        """A matrix's rows, then its columns."""
        rows = self.matrix(text)
        return [*rows, *(list(column) for column in zip(*rows))]

    # constraints

    def constraint(self, element) -> None:
        for tag, constraint in read_each(element, self):
            handler = _TYPED_HANDLERS.get(type(constraint))
            if handler is None:
                raise BackendUnsupported(f"the constraint <{tag}>")
            handler(self, constraint)

    def _intension(self, constraint: typed.Intension) -> None:
        self.post(constraint.tree)

    def _extension(self, constraint: typed.Extension) -> None:
        variables = [self.var(item) for item in constraint.items]
        if constraint.values is not None:
            domain = self.cp.Domain.FromIntervals([list(i) for i in constraint.values])
            self.model.AddLinearExpressionInDomain(variables[0], domain if constraint.supports else domain.complement())
            return
        rows = constraint.rows
        columns = [self.domains[v.Name()] for v in variables]
        if not constraint.supports:
            for row in rows:  # each conflict: some position differs from it
                self.model.AddBoolOr([self.equals(v, value).Not() for v, value in zip(variables, row) if value != "*"])
        elif not constraint.starred:
            self.model.AddAllowedAssignments(variables, rows)
        elif expanded_size(rows, columns, MAX_TUPLES) <= MAX_TUPLES:
            self.model.AddAllowedAssignments(variables, expand_rows(rows, columns))
        else:  # short tuples with many `*`: one literal per tuple, true exactly when the tuple matches
            self.model.AddBoolOr(
                [
                    self.conjunction([self.equals(v, value) for v, value in zip(variables, row) if value != "*"])
                    for row in rows
                ]
            )

    def equals(self, variable, value: int):
        """A literal true exactly when `variable` == `value` (one per pair, shared)."""
        key = (variable.Index(), value)
        if key not in self.equalities:
            if boolean(self.spans_of(variable)):
                self.equalities[key] = (
                    variable if value == 1 else variable.Not() if value == 0 else self.model.NewConstant(0)
                )
            else:
                holds = self.model.NewBoolVar("")
                self.model.Add(variable == value).OnlyEnforceIf(holds)
                self.model.Add(variable != value).OnlyEnforceIf(holds.Not())
                self.equalities[key] = holds
        return self.equalities[key]

    def objective(self, element) -> None:
        goal = typed.read_objective(element, self)
        if goal.kind == "expression":
            target = self.term(goal.items[0])
        elif goal.kind == "sum":
            target = self.weighted(goal.items, goal.coeffs)
        elif goal.kind in ("minimum", "maximum", "nValues") and goal.coeffs is None:
            items = [self.term(item) for item in goal.items]
            target = self.distinct(items) if goal.kind == "nValues" else self.extremum(goal.kind[:3], items)
        else:
            raise BackendUnsupported(f"an objective of type {goal.kind}")
        if goal.minimize:
            self.model.Minimize(target)
        else:
            self.model.Maximize(target)

    # expressions

    def post(self, node) -> None:
        """Make the Boolean expression `node` hold."""
        op, args = node if isinstance(node, tuple) else (None, ())
        if op in _COMPARED and not (op == "eq" and len(args) > 2):
            self.post_comparison(op, *[self.term(a) for a in _binary(op, args)])
        elif op == "and":
            for arg in args:
                self.post(arg)
        elif op in ("in", "notin"):
            term, allowed = self.membership(args)
            domain = self.cp.Domain.FromValues(allowed)
            self.model.AddLinearExpressionInDomain(term, domain if op == "in" else domain.complement())
        elif op == "or":
            self.model.AddBoolOr([self.literal(a) for a in args])
        elif op == "imp" and len(args) == 2:
            self.model.AddImplication(self.literal(args[0]), self.literal(args[1]))
        else:
            self.model.AddBoolOr([self.literal(node)])

    def post_comparison(self, op: str, left, right, enforced=None) -> None:
        """`left op right`, only when the literal `enforced` is true if one is given."""
        if isinstance(left, int) and isinstance(right, int):  # no variable: decided now
            if not _COMPARED[op](left, right):
                self.model.AddBoolAnd([enforced.Not()]) if enforced is not None else self.model.AddBoolOr([])
            return
        constraint = self.model.Add(_COMPARED[op](left, right))
        if enforced is not None:
            constraint.OnlyEnforceIf(enforced)

    def membership(self, args) -> tuple[object, list[int]]:
        if len(args) != 2 or not (isinstance(args[1], tuple) and args[1][0] == "set"):
            raise BackendUnsupported("`in` with something other than a set of integers")
        allowed = [a for a in args[1][1] if isinstance(a, int)]
        if len(allowed) != len(args[1][1]):
            raise BackendUnsupported("`in` with something other than a set of integers")
        return self.term(args[0]), allowed

    def literal(self, node):
        """A CP-SAT literal equal to the Boolean expression `node`."""
        if isinstance(node, int):
            if node not in (0, 1):
                raise BackendUnsupported("an integer used as a condition")
            return self.model.NewConstant(node)
        if isinstance(node, str):
            variable = self.var(node)
            if not boolean(self.domains[node]):
                raise BackendUnsupported(f"the integer variable {node} used as a condition")
            return variable
        op, args = node
        if op == "not" and len(args) == 1:
            return self.literal(args[0]).Not()
        if op == "eq" and len(args) > 2:
            return self.literal(("and", tuple(("eq", (args[0], a)) for a in args[1:])))
        if op == "iff" and len(args) > 2:
            return self.literal(("and", tuple(("iff", pair) for pair in zip(args, args[1:]))))
        if op == "xor" and len(args) > 2:
            return self.literal(("xor", (("xor", args[:2]), *args[2:])))
        holds = self.model.NewBoolVar("")  # every branch below ties it to `node` both ways
        if op in _COMPARED:
            left, right = [self.term(a) for a in _binary(op, args)]
            self.post_comparison(op, left, right, holds)
            self.post_comparison(_OPPOSITE[op], left, right, holds.Not())
        elif op in ("in", "notin"):
            term, allowed = self.membership(args)
            domain = self.cp.Domain.FromValues(allowed)
            inside, outside = (holds, holds.Not()) if op == "in" else (holds.Not(), holds)
            self.model.AddLinearExpressionInDomain(term, domain).OnlyEnforceIf(inside)
            self.model.AddLinearExpressionInDomain(term, domain.complement()).OnlyEnforceIf(outside)
        elif op in ("and", "or", "imp"):
            literals = [self.literal(a) for a in args]
            if op == "imp":
                if len(literals) != 2:
                    raise BackendUnsupported("imp with other than two arguments")
                literals = [literals[0].Not(), literals[1]]
                op = "or"
            if op == "and":
                self.model.AddBoolAnd(literals).OnlyEnforceIf(holds)
                self.model.AddBoolOr([lit.Not() for lit in literals]).OnlyEnforceIf(holds.Not())
            else:
                self.model.AddBoolOr(literals).OnlyEnforceIf(holds)
                self.model.AddBoolAnd([lit.Not() for lit in literals]).OnlyEnforceIf(holds.Not())
        elif op in ("iff", "xor") and len(args) == 2:
            left, right = [self._as_int(self.literal(a)) for a in args]
            same = "eq" if op == "iff" else "ne"
            self.post_comparison(same, left, right, holds)
            self.post_comparison(_OPPOSITE[same], left, right, holds.Not())
        else:
            raise BackendUnsupported(f"the operator {op} used as a condition")
        return holds

    def _as_int(self, literal):
        """A literal as a 0/1 term."""
        return 1 - literal.Not() if literal.Index() < 0 else literal

    def term(self, node):
        """A CP-SAT linear expression (or integer) equal to the integer expression `node`."""
        if isinstance(node, int):
            return _checked_number(node)
        if isinstance(node, str):
            return self.var(node)
        op, args = node
        if op in BOOLEAN:
            return self._as_int(self.literal(node))
        if op == "add":
            return sum(self.term(a) for a in args)
        if op == "sub" and len(args) == 2:
            return self.term(args[0]) - self.term(args[1])
        if op == "neg" and len(args) == 1:
            return -self.term(args[0])
        if op in ("mul", "sqr"):
            factors = [self.term(a) for a in (args if op == "mul" else (args[0], args[0]))]
            return self._product(factors, node)
        if op in ("abs", "dist"):
            inner = self.term(args[0]) if op == "abs" else self.term(args[0]) - self.term(args[1])
            result = self._new_int(node)
            self.model.AddAbsEquality(result, inner)
            return result
        if op in ("min", "max"):
            result = self._new_int(node)
            terms = [self.term(a) for a in args]
            (self.model.AddMinEquality if op == "min" else self.model.AddMaxEquality)(result, terms)
            return result
        if op == "if" and len(args) == 3:
            condition = self.literal(args[0])
            result = self._new_int(node)
            self.model.Add(result == self.term(args[1])).OnlyEnforceIf(condition)
            self.model.Add(result == self.term(args[2])).OnlyEnforceIf(condition.Not())
            return result
        if op in ("div", "mod") and len(args) == 2:
            return self._divided(op, self.term(args[0]), self.term(args[1]))
        if op == "pow" and len(args) == 2:
            return self._power(self.term(args[0]), self.term(args[1]))
        raise BackendUnsupported(f"the operator {op}")

    def _divided(self, op: str, numerator, denominator):
        """`numerator` div or mod `denominator`, both truncated toward zero as ACE computes them; a divisor of 0
        is not allowed (as in ACE, no tuple divides by zero)."""
        if isinstance(numerator, int) and isinstance(denominator, int) and denominator:
            quotient = abs(numerator) // abs(denominator) * (1 if (numerator >= 0) == (denominator > 0) else -1)
            return quotient if op == "div" else numerator - quotient * denominator
        spans = [
            span
            for low, high in self.spans_of(denominator)
            for span in ((low, min(high, -1)), (max(low, 1), high))
            if span[0] <= span[1]
        ]
        if not spans:
            self.model.AddBoolOr([])
            return 0
        divisor = self.model.NewIntVarFromDomain(self.cp.Domain.FromIntervals([list(s) for s in spans]), "")
        self.model.Add(divisor == denominator)
        largest = max(abs(v) for v in self.bounds_of(numerator))
        result = self.model.NewIntVar(-largest, largest, "")
        numerator = self.as_var_term(numerator)
        if op == "div":
            self.model.AddDivisionEquality(result, numerator, divisor)
        else:  # x mod y == x mod |y| when both truncate; CP-SAT takes a positive modulus only
            positive = self.model.NewIntVar(1, max(abs(v) for v in self.bounds_of(divisor)), "")
            self.model.AddAbsEquality(positive, divisor)
            self.model.AddModuloEquality(result, numerator, positive)
        return result

    def _power(self, base, exponent):
        """`base` to the power `exponent`: a product for a fixed exponent, else a table of the pairs."""
        if isinstance(exponent, int):
            if exponent < 0:
                raise BackendUnsupported("pow with a negative exponent")
            if exponent <= 1 or isinstance(base, int):
                return base**exponent if isinstance(base, int) else (1 if exponent == 0 else base)
            reached = [v**exponent for v in self.bounds_of(base)] + ([0] if self.bounds_of(base)[0] < 0 else [])
            result = self.model.NewIntVar(min(reached), max(reached), "")
            self.model.AddMultiplicationEquality(result, [self.as_var_term(base)] * exponent)
            return result
        bases, exponents = self.values_of(base), [e for e in self.values_of(exponent) if e >= 0]
        if len(bases) * len(exponents) > MAX_TUPLES:
            raise BackendUnsupported("pow with a variable exponent over large domains")
        rows = [(b, e, b**e) for b in bases for e in exponents]
        result = self.model.NewIntVar(min(r[2] for r in rows), max(r[2] for r in rows), "")
        self.model.AddAllowedAssignments([self.as_var_term(base), self.as_var_term(exponent), result], rows)
        return result

    def _product(self, factors: list, node):
        pairs = list(zip(factors, node[1] if node[0] == "mul" else (node[1][0], node[1][0])))
        scale = 1
        for factor, _ in pairs:
            scale *= factor if isinstance(factor, int) else 1
        others = [(factor, arg) for factor, arg in pairs if not isinstance(factor, int)]
        if len(others) <= 1:
            return scale * (others[0][0] if others else 1)
        if len(others) > 2:
            raise BackendUnsupported("a product of more than two variables")
        result = self._new_int(("mul", tuple(arg for _, arg in others)))
        self.model.AddMultiplicationEquality(result, [self._as_var(factor, arg) for factor, arg in others])
        return scale * result

    def _as_var(self, term, node):
        """`term` as a variable (a new one equal to it when it is an expression)."""
        if isinstance(term, self.cp.IntVar):
            return term
        variable = self._new_int(node)
        self.model.Add(variable == term)
        return variable

    def _new_int(self, node):
        low, high = self.bounds(node)
        return self.model.NewIntVar(low, high, "")

    def bounds(self, node) -> tuple[int, int]:
        """The smallest and largest values the integer expression `node` can take."""
        if isinstance(node, int):
            return node, node
        if isinstance(node, str):
            intervals = self.domains[node]
            if not intervals:
                raise BackendUnsupported(f"the empty domain of {node}")
            return intervals[0][0], intervals[-1][1]
        op, args = node
        spans = [self.bounds(a) for a in args if not (isinstance(a, tuple) and a[0] == "set")]
        if op in BOOLEAN:
            return 0, 1
        if op == "add":
            return sum(s[0] for s in spans), sum(s[1] for s in spans)
        if op == "sub":
            return spans[0][0] - spans[1][1], spans[0][1] - spans[1][0]
        if op == "neg":
            return -spans[0][1], -spans[0][0]
        if op in ("mul", "sqr"):
            spans = spans if op == "mul" else spans * 2
            low = high = 1
            for a, b in spans:
                corners = [low * a, low * b, high * a, high * b]
                low, high = min(corners), max(corners)
            return low, high
        if op in ("abs", "dist"):
            a, b = spans[0] if op == "abs" else (spans[0][0] - spans[1][1], spans[0][1] - spans[1][0])
            return (0 if a <= 0 <= b else min(abs(a), abs(b))), max(abs(a), abs(b))
        if op in ("min", "max"):
            return min(s[0] for s in spans), max(s[1] for s in spans)
        if op == "if":
            return min(spans[1][0], spans[2][0]), max(spans[1][1], spans[2][1])
        if op in ("div", "mod"):  # truncated: never larger than the numerator
            largest = max(abs(v) for v in spans[0])
            return -largest, largest
        if op == "pow":
            (a, b), (c, d) = spans
            powers = [
                x**e
                for x in {a, b, *(v for v in (-1, 0, 1) if a <= v <= b)}
                for e in {max(c, 0), max(c + 1, 0), max(d - 1, 0), max(d, 0)}
                if max(c, 0) <= e <= max(d, 0)
            ]
            return min(powers), max(powers)
        raise BackendUnsupported(f"the operator {op}")


def _binary(op: str, args: tuple) -> tuple:
    if len(args) != 2:
        raise BackendUnsupported(f"{op} with other than two arguments")
    return args


_TYPED_HANDLERS = {typed.Intension: _Reader._intension, typed.Extension: _Reader._extension, **TYPED_HANDLERS}


LARGEST = 2**53  # integers past this are refused: no solver of the kit takes them (ACE and CP-SAT sums overflow)


def _checked_number(value: int) -> int:
    """`value`, or ModelRejected when it is too large for any solver."""
    if abs(value) > LARGEST:
        raise ModelRejected(
            f"The solver rejected the model (the number {value} is too large: solvers take whole "
            f"numbers up to {LARGEST:,}).\nCheck the types and values in this step's constraints, "
            "then run it again."
        )
    return value
