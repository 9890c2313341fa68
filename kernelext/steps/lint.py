"""Beginner mistakes that pycsp3 accepts silently, read from a step's syntax tree before it runs.

The tree alone can only guess what a name holds. A finding with a `kind` is such a guess: the step is
refused only if running it confirms the mistake (see `kernelext.steps.cell_code`), and the finding then gives
the words of the refusal. A finding without a kind stands on its own (an error or a warning)."""

from __future__ import annotations

import ast
import builtins
import inspect
import itertools
from collections.abc import Mapping
from dataclasses import dataclass

DECLARES = {"VarArray", "Var"}
CONSTRAINTS = {
    "AllDifferent",
    "AllDifferentList",
    "AllEqual",
    "Increasing",
    "Decreasing",
    "LexIncreasing",
    "LexDecreasing",
    "Cardinality",
    "Channel",
    "NoOverlap",
    "Cumulative",
    "BinPacking",
    "Circuit",
}
PLAIN_TYPES = (bool, int, float, str)
BUILTINS = {"max": "Maximum(...)", "min": "Minimum(...)", "sum": "Sum(...)", "abs": "pycsp3's abs()"}
BOOL_OPS = {ast.And: ("and", "&"), ast.Or: ("or", "|")}
DATA_ATTRIBUTES = {"dom", "id", "indexes", "name"}  # plain data read off a variable, e.g. x[0].dom
PLAIN_CALLS = {"len", "range", "str", "repr", "type", "isinstance", "id"}
PICKERS = {"flatten", "columns", "diagonals_down", "diagonals_up", "diagonal_down", "diagonal_up", "cp_array"}


TRUTH_TEST = "truth test"  # Python asks a constraint for True/False: `and`, `or`, `not`, `if`, `while`, max()...
UNPOSTED = "unposted"  # a constraint built and dropped (on a line of its own)
PLAIN_BOOL = "plain bool"  # satisfy() given True/False that Python worked out


@dataclass(frozen=True)
class Finding:
    """A mistake at `line`; an `error` stops the step, else it is a warning shown with the step's report.
    A finding with a `kind` (TRUTH_TEST, UNPOSTED, PLAIN_BOOL) is a guess that the run confirms or not."""

    line: int
    message: str
    error: bool = False
    kind: str = ""

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def check_source(source: str, namespace: Mapping) -> list[Finding]:
    """The mistakes in a step's `source`, given the names already bound in `namespace`; errors first, by line."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []  # running the step reports it, with its line
    named = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    seen = {name: namespace[name] for name in named if name in namespace}  # the only names the checks look up
    variables, maybe = _variable_names(tree, seen)
    shadowed = {
        name for name in BUILTINS if namespace.get(name, getattr(builtins, name)) is not getattr(builtins, name)
    }
    findings = _MistakeFinder(variables, maybe, _plain_names(tree, seen), shadowed).run(tree)
    findings += _generators_used_twice(tree, namespace)
    return sorted(set(findings), key=lambda f: (not f.error, f.line))


def _holds_variables(value, current: set[int], depth: int = 0) -> bool:
    """True if `value` is (or holds) a variable of the current model (`current`: their ids)."""
    from pycsp3.classes.main.variables import Variable

    if isinstance(value, Variable):
        return id(value) in current
    if depth < 4 and isinstance(value, (list, tuple)):
        # islice, not value[:3]: pycsp3's arrays wrap a slice past their end round (and print a warning)
        return any(
            _holds_variables(item, current, depth + 1) for item in itertools.islice(value, 3) if item is not None
        )
    return False


def _current_variables() -> set[int]:
    from pycsp3.classes.entities import EVar, VarEntities

    return {id(v) for item in VarEntities.items for v in ([item.variable] if isinstance(item, EVar) else item.flatVars)}


def _variable_names(tree: ast.AST, namespace: Mapping) -> tuple[set[str], set[str]]:
    """Names that surely hold variables of the current model (in `namespace`, where variables of a puzzle
    started before do not count; or assigned in the step a declaration or variables picked out of an array),
    and names that may (assigned in the step from any other expression that uses variables, e.g. len(x))."""
    current = _current_variables()
    sure = {name for name, value in namespace.items() if not name.startswith("_") and _holds_variables(value, current)}
    maybe: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = {t.id for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
            if _declares(node.value) or _picks_variables(node.value, sure):
                sure |= targets
            elif _mentions(node.value, sure | maybe) and not _plain_call(node.value):
                maybe |= targets
    return sure, maybe - sure


def _plain_call(node: ast.AST) -> bool:
    """A call that gives plain data whatever its arguments: len(x), range(len(x)), str(x)..."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in PLAIN_CALLS


def _picks_variables(node: ast.AST, names: set[str]) -> bool:
    """`node` picks variables out of the arrays `names`: `x`, `x[i][j]`, `[x[i] for i in ...]`, `flatten(x)`."""
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, (ast.Subscript, ast.Starred)):
        return _picks_variables(node.value, names)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return any(_picks_variables(item, names) for item in node.elts)
    if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
        return _picks_variables(node.elt, names)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in PICKERS
        and any(_picks_variables(arg, names) for arg in node.args)
    )


def _declares(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in DECLARES


def _mentions(node: ast.AST, names: set[str]) -> bool:
    """True if `node` uses one of `names`, other than to read plain data off it (`x[0].dom`)."""
    if isinstance(node, ast.Attribute) and node.attr in DATA_ATTRIBUTES:
        return False
    if isinstance(node, ast.Name):
        return node.id in names
    return any(_mentions(child, names) for child in ast.iter_child_nodes(node))


def _iterates_values(node: ast.AST) -> bool:
    """A loop over plain values: `range(...)` or a variable's domain (`x[0].dom`)."""
    return _is_range(node) or (isinstance(node, ast.Attribute) and node.attr == "dom")


def _plain_names(tree: ast.AST, namespace: Mapping) -> set[str]:
    """Names surely bound to plain numbers or strings: in `namespace` and not assigned in the step
    (a comprehension's own names are judged in its scope, by the checker)."""
    assigned = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return {name for name, value in namespace.items() if isinstance(value, PLAIN_TYPES) and name not in assigned}


def _is_range(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"


class _MistakeFinder(ast.NodeVisitor):
    """Walks a step's tree and collects findings."""

    def __init__(self, variables: set[str], maybe: set[str], plain: set[str], shadowed: set[str]):
        self.variables, self.maybe, self.plain, self.shadowed = variables, maybe, plain, shadowed
        self.findings: list[Finding] = []

    def flag(self, node: ast.AST, message: str, holds, error: bool = True, kind: str = TRUTH_TEST) -> bool:
        """Add a finding when `holds()` is true of the names that surely hold variables (an error, unless
        `error` is False), else when it is true once the names that may hold them count (a warning: the check
        cannot be sure). Returns whether a finding was added."""
        if holds():
            self.add(node, message, error, kind)
            return True
        if self.maybe:
            sure, self.variables = self.variables, self.variables | self.maybe
            try:
                unsure = holds()
            finally:
                self.variables = sure
            if unsure:
                self.add(node, message, False, kind)
                return True
        return False

    def run(self, tree: ast.AST) -> list[Finding]:
        self.visit(tree)
        return self.findings

    def add(self, node: ast.AST, message: str, error: bool = True, kind: str = "") -> None:
        self.findings.append(Finding(node.lineno, message, error, kind))

    def constraint_like(self, node: ast.AST) -> bool:
        """A comparison involving model variables (or `not`, `and`, `or` of such)."""
        if isinstance(node, ast.Compare):
            return not all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops) and _mentions(node, self.variables)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.constraint_like(node.operand)
        if isinstance(node, ast.BoolOp):
            return any(self.constraint_like(value) for value in node.values)
        return False

    def tests_variable(self, node: ast.AST) -> bool:
        """A test whose truth depends on a model variable's value (unknown while modelling)."""
        if isinstance(node, (ast.Name, ast.Subscript)):
            root = node
            while isinstance(root, ast.Subscript):
                root = root.value
            return isinstance(root, ast.Name) and root.id in self.variables
        return self.constraint_like(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        word, symbol = BOOL_OPS[type(node.op)]
        if not self.flag(
            node,
            f"`{word}` between constraints keeps only one of them: write (a) {symbol} (b), "
            "or give satisfy() separate arguments.",
            lambda: any(self.constraint_like(value) for value in node.values),
        ):
            self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        if len(node.ops) > 1:
            self.flag(
                node,
                "a chain like a < b < c tests a < b as True/False and keeps only b < c: write "
                "(a < b) & (b < c), or give satisfy() separate arguments.",
                lambda: _mentions(node, self.variables),
            )
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if not (
            isinstance(node.op, ast.Not)
            and self.flag(
                node,
                "`not` does not negate a constraint: write ~(a), or the opposite comparison (!= for ==).",
                lambda: self.constraint_like(node.operand),
            )
        ):
            self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        value = node.value
        self.flag(
            node,
            "this constraint is not posted: put it inside satisfy(...).",
            lambda: (
                self.constraint_like(value)
                or (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in CONSTRAINTS)
            ),
            kind=UNPOSTED,
        )
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        divisor = node.right
        if (
            isinstance(node.op, (ast.FloorDiv, ast.Div, ast.Mod))
            and isinstance(divisor, ast.Constant)
            and type(divisor.value) is int
            and divisor.value == 0
        ):
            self.flag(
                node,
                "a division by 0: no value of the variables satisfies a constraint that holds it, so the model has "
                "no solution.",
                lambda: _mentions(node.left, self.variables),
                error=False,
                kind="",
            )
        self.generic_visit(node)

    def visit_If(self, node: ast.If | ast.While | ast.IfExp) -> None:
        keyword = {ast.If: "if", ast.While: "while", ast.IfExp: "if"}[type(node)]
        self.flag(
            node,
            f"`{keyword}` cannot test a model variable (its value is unknown while modelling): "
            "use If(test, Then=...) inside satisfy(...).",
            lambda: self.tests_variable(node.test),
        )
        self.generic_visit(node)

    visit_While = visit_IfExp = visit_If

    def visit_ListComp(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        """A comprehension's loop names are its own: a name that loops over plain values (`range`) is a
        plain number and hides a model variable of the same name, one that loops over variables is one."""
        outer = self.variables, self.maybe, self.plain
        for generator in node.generators:
            names = {n.id for n in ast.walk(generator.target) if isinstance(n, ast.Name)}
            self.variables, self.maybe = self.variables - names, self.maybe - names
            if _iterates_values(generator.iter):
                self.plain = self.plain | names if isinstance(generator.target, ast.Name) else self.plain - names
            else:
                self.plain = self.plain - names
                if _mentions(generator.iter, outer[0]):
                    self.variables = self.variables | names
                elif _mentions(generator.iter, outer[1]):
                    self.maybe = self.maybe | names
        self.generic_visit(node)
        self.variables, self.maybe, self.plain = outer

    visit_SetComp = visit_GeneratorExp = visit_DictComp = visit_ListComp

    def visit_comprehension(self, node: ast.comprehension) -> None:
        for test in node.ifs:
            self.flag(
                test,
                "a comprehension's `if` cannot test a model variable (its value is unknown while "
                "modelling): use If(test, Then=...) inside satisfy(...).",
                lambda test=test: self.tests_variable(test),
            )
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name == "satisfy":
            for argument, plain in _constraint_arguments(node, self.plain):
                if self.evaluated_by_python(argument, plain):
                    self.add(
                        argument,
                        "Python worked this out to True/False before pycsp3 saw it (no model variable "
                        "in it): compare model variables, e.g. x[i] == v.",
                        kind=PLAIN_BOOL,
                    )
        if name == "Clause" and not any(keyword.arg == "phases" for keyword in node.keywords):
            self.add(
                node,
                "pycsp3 writes each variable of a Clause() without phases negated (Clause(x, y) posts "
                "not(x) or not(y), and ~x as x): give phases=[True, False, ...], True for the variable itself.",
                error=False,
            )
        if name in CONSTRAINTS and node.args and self.plain_number(node.args[0]):
            self.add(node, f"{name}() of a number posts nothing: give it the variables, e.g. {name}(x[i]).")
        if name in BUILTINS and name not in self.shadowed:
            self.flag(
                node,
                f"Python's {name}() on model variables: use {BUILTINS[name]} instead.",
                lambda: any(_mentions(a, self.variables) for a in node.args),
                error=name != "sum",
                kind="" if name == "sum" else TRUTH_TEST,
            )
        self.generic_visit(node)

    def plain_number(self, node: ast.AST) -> bool:
        return (isinstance(node, ast.Constant) and isinstance(node.value, (int, float))) or (
            isinstance(node, ast.Name) and node.id in self.plain
        )

    def evaluated_by_python(self, node: ast.AST, plain: set[str]) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, bool)
        if not isinstance(node, ast.Compare):
            return False
        allowed = (
            ast.Compare,
            ast.BinOp,
            ast.UnaryOp,
            ast.Constant,
            ast.Name,
            ast.Load,
            ast.cmpop,
            ast.operator,
            ast.unaryop,
        )
        return all(isinstance(n, allowed) and (not isinstance(n, ast.Name) or n.id in plain) for n in ast.walk(node))


def _constraint_arguments(call: ast.Call, plain: set[str]) -> list[tuple[ast.AST, set[str]]]:
    """The expressions a satisfy() call posts (its arguments, list items, comprehension elements), each with
    the names that are plain numbers there: `plain`, as the comprehensions around it rebind them."""
    found, todo = [], [(argument, plain) for argument in call.args]
    while todo:
        node, names = todo.pop()
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            todo.extend((item, names) for item in node.elts)
        elif isinstance(node, (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            for generator in node.generators:
                bound = {n.id for n in ast.walk(generator.target) if isinstance(n, ast.Name)}
                values = _iterates_values(generator.iter) and isinstance(generator.target, ast.Name)
                names = names | bound if values else names - bound
            todo.append((node.elt, names))
        else:
            found.append((node, names))
    return found


def _generators_used_twice(tree: ast.AST, namespace: Mapping) -> list[Finding]:
    """A generator read a second time gives nothing: uses after the first of a generator the step assigns,
    and any use of a generator an earlier cell already used up."""
    made: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.GeneratorExp):
            made.update((t.id, node.lineno) for t in node.targets if isinstance(t, ast.Name))
    loads = sorted(
        (n.lineno, n.col_offset, n.id)
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    )
    findings, seen = [], set()
    for line, _, name in loads:
        value = namespace.get(name)
        if name not in made and inspect.isgenerator(value) and inspect.getgeneratorstate(value) == "GEN_CLOSED":
            findings.append(
                Finding(
                    line,
                    f"the generator `{name}` was used up by an earlier cell, so it gives "
                    "nothing now: build it as a list [...] instead.",
                )
            )
        elif name in made and line >= made[name]:
            if name in seen:
                findings.append(
                    Finding(
                        line,
                        f"the generator `{name}` (line {made[name]}) was already used, so it "
                        "gives nothing here: build it as a list [...] instead.",
                    )
                )
            seen.add(name)
    return findings
