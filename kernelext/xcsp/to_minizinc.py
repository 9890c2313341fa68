"""A compiled XCSP3 model as MiniZinc text, for any MiniZinc (Debian's 2.6 on the desktop, 2.10 in the
browser).

Pure Python on the standard library, so that the browser imports it as the desktop does. Each XCSP3 variable that
a constraint or the objective involves becomes one MiniZinc variable (`x[2][3]` is `Vx_2_3`, an underscore in a
name doubled); the others are left out, as ACE leaves them out, so that they do not multiply solutions. The model
prints those variables' values in the order of `MiniZincModel.variables`, then the objective's value.

Constraints taken (those of the typed model in `_TYPED_WRITERS`): each is posted with MiniZinc's own global where Debian's MiniZinc and the
browser's agree on it (`all_different`, `table`, `lex_less`, `lex_lesseq`, `cumulative`, `subcircuit`, `nvalue`,
`all_equal`), and otherwise as the exact sum, table or logic it stands for. Anything else raises
`Untranslatable` naming it: a model is translated exactly or not at all.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from dataclasses import dataclass

import kernelext.xcsp.constraints as typed
from kernelext.errors import ReadingStopped, Untranslatable
from kernelext.xcsp.constraints import read_each
from kernelext.xcsp.declarations import Declarations
from kernelext.xcsp.expressions import BOOLEAN, COMPARISONS
from kernelext.xcsp.values import (
    Intervals,
    StopSignal,
    boolean,
    expand_rows,
    expanded_size,
    size,
)

ROWS_CHUNK = 20_000  # tuples written between two looks at the reading's stop signal
MAX_STAR_TUPLES = 5_000  # past this many tuples once `*` is expanded, a table is posted as a disjunction of rows
OBJECTIVE = "kx_objective"
_INFIX = {
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "eq": "=",
    "ne": "!=",
    "add": "+",
    "sub": "-",
    "mul": "*",
    "div": "div",
    "mod": "mod",
    "and": "/\\",
    "or": "\\/",
    "imp": "->",
    "iff": "<->",
    "xor": "xor",
}
_SWAPPED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


@dataclass(frozen=True)
class MiniZincModel:
    """A model as MiniZinc text.

    Attributes:
        text: the model; it prints one line `[v1, v2, ...]` per solution, then the objective's value if any.
        variables: the XCSP3 ids of the values printed, in order.
        objective: "minimize", "maximize", or "" for a satisfaction model.
    """

    text: str
    variables: tuple[str, ...]
    objective: str = ""


def translate(xcsp3: str, holes: frozenset[str] = frozenset(), stop: StopSignal | None = None) -> MiniZincModel:
    """The XCSP3 text `xcsp3` as MiniZinc; `holes` are the ids of array cells that hold no variable.

    Raises:
        Untranslatable: the model holds something this translation does not take (the message names it).
        ReadingStopped: `stop` was set before the end (it is looked at before each constraint and within large
            tables).
    """
    try:
        root = ElementTree.fromstring(xcsp3)
    except ElementTree.ParseError as error:
        raise Untranslatable(f"a model file that is not XCSP3 ({error})") from None
    writer = _Writer(holes)
    writer.stop = stop
    writer.declare(root.find("variables"))
    for element in root.find("constraints") if root.find("constraints") is not None else ():
        if stop is not None and stop.is_set():
            raise ReadingStopped
        writer.constraint(element)
    objectives = root.find("objectives")
    if objectives is not None and len(objectives) != 1:
        raise Untranslatable("several objectives")
    objective = writer.objective(objectives[0]) if objectives is not None else ""
    return MiniZincModel(writer.text(objective), tuple(writer.used), objective)


def identifier(vid: str) -> str:
    """The MiniZinc name of the XCSP3 variable `vid`: `x[2][3]` -> `Vx_2_3`, `a_b` -> `Va__b`."""
    name, _, rest = vid.partition("[")
    return "V" + name.replace("_", "__") + "".join(f"_{i}" for i in re.findall(r"\d+", rest))


def domain_text(spans: Intervals) -> str:
    """A MiniZinc set for the domain: `1..9`, `{1,3,5}`, or a union of ranges."""
    if len(spans) == 1:
        return f"{spans[0][0]}..{spans[0][1]}"
    if size(spans) <= 20:
        return "{" + ",".join(str(v) for low, high in spans for v in range(low, high + 1)) + "}"
    return " union ".join(f"{low}..{high}" for low, high in spans)


class _Writer(Declarations):
    """Writes one MiniZinc constraint per XCSP3 constraint, noting the variables they involve."""

    def __init__(self, holes: frozenset[str]):
        super().__init__(holes)
        self.used: dict[str, None] = {}  # the variables involved, in the order first met
        self.includes: set[str] = set()
        self.tables: dict[tuple, str] = {}  # (supports, column domains) -> the array or predicate that holds them
        self.lines: list[str] = []

    def text(self, objective: str) -> str:
        declarations = [f"var {domain_text(self.domains[vid])}: {identifier(vid)};" for vid in self.used]
        shown = f"show([{', '.join(identifier(vid) for vid in self.used)}])" if self.used else '"[]"'
        output = f'output [{shown}, "\\n"'
        if objective:
            output += f', show({OBJECTIVE}), "\\n"'
        solve = f"solve {objective} {OBJECTIVE};" if objective else "solve satisfy;"
        return "\n".join(
            [
                *(f'include "{name}.mzn";' for name in sorted(self.includes)),
                *declarations,
                *self.lines,
                solve,
                output + "];",
                "",
            ]
        )

    def post(self, text: str) -> None:
        self.lines.append(f"constraint {text};")

    # lists and terms

    def var(self, vid: str) -> str:
        if vid not in self.domains:
            raise Untranslatable(f"the undeclared variable {vid}")
        if not self.domains[vid]:
            raise Untranslatable(f"the empty domain of {vid}")
        self.used.setdefault(vid)
        return identifier(vid)

    def condition(self, left: str, found: typed.Condition) -> str:
        """`left` compared as the XCSP3 condition says: `(le,y)`, `(in,1..5)`, `(notin,{1,3})`."""
        operator = found.operator
        if found.of_values:
            inside = f"({left} in {domain_text(found.operand) if found.operand else '{}'})"
            return inside if operator == "in" else f"(not {inside})"
        if operator not in COMPARISONS:
            raise Untranslatable(f"the condition operator {operator}")
        return f"({left} {_INFIX[operator]} {self.term(found.operand)})"

    # expressions

    def term(self, node) -> str:
        """The integer expression `node` in MiniZinc."""
        if isinstance(node, int):
            return f"({node})" if node < 0 else str(node)
        if isinstance(node, str):
            return self.var(node)
        op, args = node
        if op in BOOLEAN:
            return f"bool2int({self.literal(node)})"
        if op in ("add", "mul") and args:
            return "(" + f" {_INFIX[op]} ".join(self.term(a) for a in args) + ")"
        if op in ("sub", "div", "mod") and len(args) == 2:
            return f"({self.term(args[0])} {_INFIX[op]} {self.term(args[1])})"
        if op == "neg" and len(args) == 1:
            return f"(-{self.term(args[0])})"
        if op == "abs" and len(args) == 1:
            return f"abs({self.term(args[0])})"
        if op == "dist" and len(args) == 2:
            return f"abs({self.term(args[0])} - {self.term(args[1])})"
        if op == "sqr" and len(args) == 1:
            inner = self.term(args[0])
            return f"({inner} * {inner})"
        if op == "pow" and len(args) == 2:
            return f"pow({self.term(args[0])}, {self.term(args[1])})"
        if op in ("min", "max") and args:
            return f"{op}([{', '.join(self.term(a) for a in args)}])"
        if op == "if" and len(args) == 3:
            return f"(if {self.literal(args[0])} then {self.term(args[1])} else {self.term(args[2])} endif)"
        raise Untranslatable(f"the operator {op}")

    def literal(self, node) -> str:
        """The Boolean expression `node` in MiniZinc (a 0/1 integer stands for false/true)."""
        if isinstance(node, int):
            if node not in (0, 1):
                raise Untranslatable("an integer other than 0 or 1 used as a condition")
            return "true" if node else "false"
        if isinstance(node, str):
            name = self.var(node)
            if not boolean(self.domains[node]):
                raise Untranslatable(f"the integer variable {node} used as a condition")
            return f"({name} = 1)"
        op, args = node
        if op in COMPARISONS and len(args) == 2:
            return f"({self.term(args[0])} {_INFIX[op]} {self.term(args[1])})"
        if op == "eq" and len(args) > 2:
            first = self.term(args[0])
            return "(" + " /\\ ".join(f"{first} = {self.term(a)}" for a in args[1:]) + ")"
        if op == "not" and len(args) == 1:
            return f"(not {self.literal(args[0])})"
        if op in ("and", "or") and args:
            return "(" + f" {_INFIX[op]} ".join(self.literal(a) for a in args) + ")"
        if op == "imp" and len(args) == 2:
            return f"({self.literal(args[0])} -> {self.literal(args[1])})"
        if op == "xor" and args:
            return "(" + " xor ".join(self.literal(a) for a in args) + ")"
        if op == "iff" and len(args) >= 2:
            items = [self.literal(a) for a in args]
            return "(" + " /\\ ".join(f"({a} <-> {b})" for a, b in zip(items, items[1:])) + ")"
        if op in ("in", "notin") and len(args) == 2 and isinstance(args[1], tuple) and args[1][0] == "set":
            members = args[1][1]
            if not all(isinstance(m, int) for m in members):
                raise Untranslatable("`in` with something other than a set of integers")
            allowed = "{" + ",".join(str(m) for m in sorted(set(members))) + "}"
            inside = f"({self.term(args[0])} in {allowed})"
            return inside if op == "in" else f"(not {inside})"
        raise Untranslatable(f"the operator {op} used as a condition")

    # constraints

    def constraint(self, element) -> None:
        for tag, constraint in read_each(element, self):
            writer = _TYPED_WRITERS.get(type(constraint))
            if writer is None:
                raise Untranslatable(f"the constraint <{tag}>")
            writer(self, constraint)

    def _intension(self, constraint: typed.Intension) -> None:
        node = constraint.tree
        divisors = [self.term(d) for d in _divisors(node)]  # as ACE, no tuple divides by zero
        self.post(" /\\ ".join([*(f"{d} != 0" for d in divisors), self.literal(node)]))

    def _extension(self, constraint: typed.Extension) -> None:
        scope = [self.term(item) for item in constraint.items]
        if constraint.values is not None:
            allowed = domain_text(constraint.values) if constraint.values else "{}"
            self.post(f"{scope[0]} in {allowed}" if constraint.supports else f"not ({scope[0]} in {allowed})")
            return
        if not constraint.supports:
            for row in constraint.rows:
                self.post(_some_differs(scope, row))
            return
        table_name = self.table(constraint, [self.domains[vid] for vid in constraint.items])
        if table_name == "":  # no tuple allowed
            self.post("false")
        elif table_name.startswith("kx_rows"):
            self.post(f"{table_name}([{', '.join(scope)}])")
        else:
            self.includes.add("table")
            self.post(f"table([{', '.join(scope)}], {table_name})")

    def table(self, constraint: typed.Extension, columns: list[Intervals]) -> str:
        """The name of a MiniZinc array holding the supports of `constraint` over `columns`, `*` expanded;
        declared once for all the tables written alike over the same domains (a group's members share one); ""
        when there is no tuple. Past MAX_STAR_TUPLES once `*` is expanded, it names a predicate instead, true
        when some tuple matches (`*` matching anything)."""
        key = (constraint.text, tuple(columns))
        if key not in self.tables:
            rows = constraint.rows
            if not rows:
                self.tables[key] = ""
            elif constraint.starred and expanded_size(rows, columns, MAX_STAR_TUPLES) > MAX_STAR_TUPLES:
                name = self.tables[key] = f"kx_rows{len(self.tables)}"
                cells = [f"v[{k + 1}]" for k in range(len(columns))]
                self.lines.append(
                    f"predicate {name}(array[int] of var int: v) = "
                    + " \\/ ".join(_matches(cells, row) for row in rows)
                    + ";"
                )
            else:
                name = self.tables[key] = f"kx_table{len(self.tables)}"
                body = self._table_body(expand_rows(rows, columns) if constraint.starred else rows)
                self.lines.append(f"array[int, int] of int: {name} = [| {body} |];")
        return self.tables[key]

    def _table_body(self, rows: Sequence[tuple[int, ...]]) -> str:
        """The rows as the body of a MiniZinc 2d array (`1, 2 | 3, 4`), written a chunk at a time: a large
        table looks at the reading's stop signal as it goes."""
        chunks = []
        for start in range(0, len(rows), ROWS_CHUNK):
            if self.stop is not None and self.stop.is_set():
                raise ReadingStopped
            chunks.append(" | ".join(", ".join(map(str, row)) for row in rows[start : start + ROWS_CHUNK]))
        return " | ".join(chunks)

    def _all_different_matrix(self, constraint: typed.AllDifferentMatrix) -> None:
        for line in [*constraint.rows, *constraint.columns]:
            self.all_different([self.term(item) for item in line], constraint.excepted)

    def _all_different_lists(self, constraint: typed.AllDifferentLists) -> None:
        """No two lists equal, unless they are a tuple excepted."""
        items = [[self.term(item) for item in listed] for listed in constraint.lists]
        skip = sorted(constraint.excepted or ())
        for k, first in enumerate(items):
            for second in items[k + 1 :]:
                differ = [f"{a} != {b}" for a, b in zip(first, second)]
                excepted_here = ["(" + " /\\ ".join(f"{a} = {v}" for a, v in zip(first, row)) + ")" for row in skip]
                self.post("(" + " \\/ ".join(differ + excepted_here) + ")")

    def _all_different(self, constraint: typed.AllDifferent) -> None:
        self.all_different([self.term(item) for item in constraint.items], constraint.excepted)

    def all_different(self, items: list[str], excepted: frozenset[int] | None) -> None:
        """`items` all different, unless their value is one of `excepted` (None: no except)."""
        if excepted is not None:
            skip = "{" + ",".join(str(v) for v in sorted(excepted)) + "}"
            for k, a in enumerate(items):
                for b in items[k + 1 :]:
                    self.post(f"{a} in {skip} \\/ {a} != {b}")
            return
        self.includes.add("all_different")
        self.post(f"all_different([{', '.join(items)}])")

    def _all_equal_lists(self, constraint: typed.AllEqualLists) -> None:
        raise Untranslatable("an allEqual of several lists")

    def _all_equal(self, constraint: typed.AllEqual) -> None:
        if constraint.excepted is not None:
            raise Untranslatable("<allEqual> with except")
        items = [self.term(item) for item in constraint.items]
        self.post(" /\\ ".join(f"{items[0]} = {other}" for other in items[1:]) or "true")

    def _ordered(self, constraint: typed.Ordered) -> None:
        items = [self.term(item) for item in constraint.items]
        gaps = [self.term(gap) for gap in constraint.lengths or ()]
        pairs = [
            f"{a}{f' + {gaps[k]}' if gaps else ''} {_INFIX[constraint.operator]} {b}"
            for k, (a, b) in enumerate(zip(items, items[1:]))
        ]
        self.post(" /\\ ".join(pairs) or "true")

    def _lex(self, constraint: typed.Lex) -> None:
        for group in constraint.groups:
            lists = [[self.term(item) for item in listed] for listed in group]
            for first, second in zip(lists, lists[1:]):
                self.post(self.lex(first, second, constraint.operator))

    def lex(self, first: list[str], second: list[str], operator: str) -> str:
        if operator in ("gt", "ge"):
            first, second, operator = second, first, _SWAPPED[operator]
        name = "lex_less" if operator == "lt" else "lex_lesseq"
        self.includes.add(name)
        return f"{name}([{', '.join(first)}], [{', '.join(second)}])"

    def _sum(self, constraint: typed.Sum) -> None:
        items = [self.term(item) for item in constraint.items]
        weights = [self.term(weight) for weight in constraint.coeffs or ()]
        total = " + ".join(f"{w} * {x}" for w, x in zip(weights, items)) if weights else " + ".join(items)
        self.post(self.condition(f"({total or 0})", constraint.condition))

    def _count(self, constraint: typed.Count) -> None:
        items = [self.term(item) for item in constraint.items]
        counted = [self.term(value) for value in constraint.values]
        marks = ["bool2int(" + " \\/ ".join(f"{x} = {v}" for v in counted) + ")" for x in items]
        self.post(self.condition(f"({' + '.join(marks) or 0})", constraint.condition))

    def _n_values(self, constraint: typed.NValues) -> None:
        if constraint.excepted:
            raise Untranslatable("<nValues> with except")
        items = [self.term(item) for item in constraint.items]
        self.post(self.condition(self.distinct_values(items), constraint.condition))

    def distinct_values(self, items: list[str]) -> str:
        """The number of distinct values among `items`, through the predicate form of `nvalue` (the function
        form of Debian's MiniZinc does not compile with its Gecode library)."""
        self.includes.add("nvalue")
        return f"let {{ var 0..{len(items)}: n; constraint nvalue(n, [{', '.join(items)}]) }} in n"

    def _cardinality(self, constraint: typed.Cardinality) -> None:
        items = [self.term(item) for item in constraint.items]
        counted = [self.term(value) for value in constraint.values]
        for value, occurrence in zip(counted, constraint.occurs):
            total = " + ".join(f"bool2int({x} = {value})" for x in items) or "0"
            if isinstance(occurrence, range):
                self.post(f"({total}) in {occurrence.start}..{occurrence.stop - 1}")
            else:
                self.post(f"({total}) = {self.term(occurrence)}")
        if constraint.closed:
            for x in items:
                self.post("(" + " \\/ ".join(f"{x} = {v}" for v in counted) + ")")

    def _extremum(self, constraint: typed.Extremum) -> None:
        name = "minimum" if constraint.least else "maximum"
        if constraint.index is not None:
            raise Untranslatable(f"<{name}> with an index")
        items = [self.term(item) for item in constraint.items]
        self.post(self.condition(f"{name[:3]}([{', '.join(items)}])", constraint.condition))

    def _matrix_element(self, constraint: typed.MatrixElement) -> None:
        rows = [[self.term(item) for item in row] for row in constraint.rows]
        first, second = self.term(constraint.row), self.term(constraint.column)
        starts = [constraint.start_row, constraint.start_column]
        cells = ", ".join(", ".join(row) for row in rows)
        shape = f"{starts[0]}..{starts[0] + len(rows) - 1}, {starts[1]}..{starts[1] + len(rows[0]) - 1}"
        self.element(f"array2d({shape}, [{cells}])[{first}, {second}]", constraint)

    def _element(self, constraint: typed.Element) -> None:
        if constraint.rank != "any":
            raise Untranslatable(f"<element> with the rank {constraint.rank}")
        if constraint.index is None:
            raise Untranslatable("<element> without <index>")
        items, start = [self.term(item) for item in constraint.items], constraint.start
        index = self.term(constraint.index)
        self.element(f"array1d({start}..{start + len(items) - 1}, [{', '.join(items)}])[{index}]", constraint)

    def element(self, picked: str, constraint: typed.Element | typed.MatrixElement) -> None:
        """The item `picked` equals the constraint's value, or meets its condition."""
        if constraint.value is not None:
            self.post(f"{picked} = {self.term(constraint.value)}")
        else:
            self.post(self.condition(picked, constraint.condition))

    def _channel(self, constraint: typed.Channel) -> None:
        first, start = [self.term(item) for item in constraint.first], constraint.start
        if constraint.second is None and constraint.value is not None:  # a 0/1 list and the index of its 1
            value = self.term(constraint.value)
            self.post("(" + " + ".join(first) + ") = 1")
            for k, x in enumerate(first):
                self.post(f"({x} = 1) <-> ({value} = {k + start})")
        elif constraint.second is None:
            for i, x in enumerate(first):
                self.post(f"{x} in {start}..{start + len(first) - 1}")
                for j, y in enumerate(first):
                    self.post(f"({x} = {j + start}) <-> ({y} = {i + start})")
        else:
            second, other = [self.term(item) for item in constraint.second], constraint.second_start
            arrow = "<->" if len(first) == len(second) else "->"
            for i, x in enumerate(first):
                self.post(f"{x} in {other}..{other + len(second) - 1}")
                for j, y in enumerate(second):
                    self.post(f"({x} = {j + other}) {arrow} ({y} = {i + start})")

    def _circuit(self, constraint: typed.Circuit) -> None:
        if constraint.size is not None:
            raise Untranslatable("<circuit> with a size")
        items, start = [self.term(item) for item in constraint.items], constraint.start
        self.includes.add("subcircuit")
        self.post(f"subcircuit(array1d({start}..{start + len(items) - 1}, [{', '.join(items)}]))")
        # XCSP3's circuit has at least two nodes; MiniZinc's subcircuit may also be empty (every node a loop)
        self.post("(" + " \\/ ".join(f"{x} != {k + start}" for k, x in enumerate(items)) + ")")

    def _no_overlap(self, constraint: typed.NoOverlap) -> None:
        boxes = [[self.term(t) for t in box] for box in constraint.origins]
        sizes = [[self.term(t) for t in side] for side in constraint.lengths]
        for a in range(len(boxes)):
            for b in range(a + 1, len(boxes)):
                apart = [f"{boxes[a][d]} + {sizes[a][d]} <= {boxes[b][d]}" for d in range(len(boxes[a]))] + [
                    f"{boxes[b][d]} + {sizes[b][d]} <= {boxes[a][d]}" for d in range(len(boxes[a]))
                ]
                if constraint.zero_ignored:
                    apart += [f"{length} = 0" for length in (*sizes[a], *sizes[b])]
                self.post("(" + " \\/ ".join(apart) + ")")

    def _cumulative(self, constraint: typed.Cumulative) -> None:
        if constraint.ends is not None:
            raise Untranslatable("<cumulative> with ends or machines")
        origins, lengths, heights = (
            [self.term(t) for t in found] for found in (constraint.origins, constraint.lengths, constraint.heights)
        )
        if constraint.condition.operator != "le":
            raise Untranslatable(f"<cumulative> with the condition {constraint.condition.operator}")
        self.includes.add("cumulative")
        # a task of length 0 uses nothing (MiniZinc's cumulative would still compare its height with the limit)
        used = [f"bool2int({length} > 0) * {height}" for length, height in zip(lengths, heights)]
        self.post(
            f"cumulative([{', '.join(origins)}], [{', '.join(lengths)}], [{', '.join(used)}], "
            f"{self.term(constraint.condition.operand)})"
        )

    def _bin_packing(self, constraint: typed.BinPacking) -> None:
        if constraint.condition is None:
            raise Untranslatable("<binPacking> with limits or loads")
        items = [self.term(item) for item in constraint.items]
        weights = [self.term(size) for size in constraint.sizes]
        bins = sorted(
            {
                v
                for vid in constraint.items
                if isinstance(vid, str)
                for low, high in self.domains.get(vid, ())
                for v in range(low, high + 1)
            }
        )
        for b in bins:
            load = " + ".join(f"{w} * bool2int({x} = {b})" for w, x in zip(weights, items))
            self.post(self.condition(f"({load})", constraint.condition))

    def _flow(self, constraint: typed.Flow) -> None:
        flows = [self.term(flow) for flow in constraint.flows]
        for node, held in zip(constraint.nodes, constraint.balance):
            out = " + ".join(f for f, (tail, _) in zip(flows, constraint.arcs) if tail == node) or "0"
            into = " + ".join(f for f, (_, head) in zip(flows, constraint.arcs) if head == node) or "0"
            self.post(f"({out}) - ({into}) = {self.term(held)}")
        if constraint.weights is not None:
            total = " + ".join(f"{self.term(w)} * {f}" for w, f in zip(constraint.weights, flows))
            self.post(self.condition(f"({total or 0})", constraint.condition))

    def _clause(self, constraint: typed.Clause) -> None:
        literals = [f"{self.term(vid)} = 1" for vid in constraint.positive]
        literals += [f"{self.term(vid)} = 0" for vid in constraint.negative]
        self.post(" \\/ ".join(f"({literal})" for literal in literals) or "false")

    def _knapsack(self, constraint: typed.Knapsack) -> None:
        items = [self.term(item) for item in constraint.items]
        for factors, held in ((constraint.weights, constraint.weight), (constraint.profits, constraint.profit)):
            total = " + ".join(f"{self.term(f)} * {x}" for f, x in zip(factors, items))
            self.post(self.condition(f"({total or 0})", held))

    def _automaton(self, constraint: typed.Automaton) -> None:
        items = [self.term(item) for item in constraint.items]
        self.automaton(items, list(constraint.transitions), constraint.start, list(constraint.finals))

    def automaton(self, items: list[str], arcs: list[tuple[str, int, str]], start: str, finals: list[str]) -> None:
        """The items read by the automaton: a state variable between each two items, a table per item."""
        states = {
            name: k for k, name in enumerate(dict.fromkeys([start, *finals, *(s for a in arcs for s in (a[0], a[2]))]))
        }
        if not arcs:
            self.post("false")
            return
        self.includes.add("table")
        table = " | ".join(f"{states[tail]}, {value}, {states[head]}" for tail, value, head in arcs)
        last = len(states) - 1
        chain = [str(states[start])] + [f"q[{k}]" for k in range(1, len(items))]
        finish = "{" + ",".join(str(states[f]) for f in finals) + "}"
        steps = [
            f"table([{chain[k]}, {x}, {chain[k + 1] if k + 1 < len(items) else 'q_end'}], [| {table} |])"
            for k, x in enumerate(items)
        ]
        self.post(
            f"let {{ array[1..{max(1, len(items) - 1)}] of var 0..{last}: q; var {finish}: q_end }} in "
            + " /\\ ".join(steps)
        )

    def _precedence(self, constraint: typed.Precedence) -> None:
        """Each value first appears after the value before it (MiniZinc's `value_precede_chain`) and, when
        covered, every value appears."""
        items, ordered = [self.term(item) for item in constraint.items], constraint.values
        self.includes.add("value_precede_chain")
        self.post(f"value_precede_chain([{', '.join(map(str, ordered))}], [{', '.join(items)}])")
        if constraint.covered:
            for value in ordered:
                self.post("(" + " \\/ ".join(f"{x} = {value}" for x in items) + ")")

    def _instantiation(self, constraint: typed.Instantiation) -> None:
        items = [self.term(item) for item in constraint.items]
        self.post(" /\\ ".join(f"{x} = {v}" for x, v in zip(items, constraint.values)) or "true")

    # objective

    def objective(self, element) -> str:
        goal = typed.read_objective(element, self)
        if goal.kind == "expression":
            target = self.term(goal.items[0])
        else:
            items = [self.term(item) for item in goal.items]
            weights = [self.term(coeff) for coeff in goal.coeffs or ()]
            if goal.kind == "sum":
                target = " + ".join(f"{w} * {x}" for w, x in zip(weights, items)) if weights else " + ".join(items)
            elif goal.kind in ("minimum", "maximum") and not weights:
                target = f"{goal.kind[:3]}([{', '.join(items)}])"
            elif goal.kind == "nValues" and not weights:
                target = self.distinct_values(items)
            else:
                raise Untranslatable(f"an objective of type {goal.kind}")
        self.lines.append(f"var int: {OBJECTIVE} = {target or 0};")
        return "minimize" if goal.minimize else "maximize"


def _divisors(node) -> list:
    """The divisors of every `div` and `mod` in the expression."""
    if not isinstance(node, tuple):
        return []
    op, args = node
    found = [args[1]] if op in ("div", "mod") and len(args) == 2 and not isinstance(args[1], int) else []
    return found + [d for a in args for d in _divisors(a)]


def _some_differs(scope: list[str], row: tuple) -> str:
    parts = [f"{x} != {v}" for x, v in zip(scope, row) if v != "*"]
    return "(" + " \\/ ".join(parts) + ")" if parts else "false"


def _matches(scope: list[str], row: tuple) -> str:
    parts = [f"{x} = {v}" for x, v in zip(scope, row) if v != "*"]
    return "(" + " /\\ ".join(parts) + ")" if parts else "true"


_TYPED_WRITERS = {
    typed.Intension: _Writer._intension,
    typed.Extension: _Writer._extension,
    typed.AllDifferent: _Writer._all_different,
    typed.AllDifferentLists: _Writer._all_different_lists,
    typed.AllDifferentMatrix: _Writer._all_different_matrix,
    typed.AllEqual: _Writer._all_equal,
    typed.AllEqualLists: _Writer._all_equal_lists,
    typed.Sum: _Writer._sum,
    typed.Knapsack: _Writer._knapsack,
    typed.Flow: _Writer._flow,
    typed.Clause: _Writer._clause,
    typed.BinPacking: _Writer._bin_packing,
    typed.Count: _Writer._count,
    typed.NValues: _Writer._n_values,
    typed.Cardinality: _Writer._cardinality,
    typed.Ordered: _Writer._ordered,
    typed.Lex: _Writer._lex,
    typed.Instantiation: _Writer._instantiation,
    typed.Extremum: _Writer._extremum,
    typed.Element: _Writer._element,
    typed.MatrixElement: _Writer._matrix_element,
    typed.Channel: _Writer._channel,
    typed.Circuit: _Writer._circuit,
    typed.Precedence: _Writer._precedence,
    typed.Automaton: _Writer._automaton,
    typed.NoOverlap: _Writer._no_overlap,
    typed.Cumulative: _Writer._cumulative,
}
