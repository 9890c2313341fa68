"""The typed model: each constraint element read once into an immutable object, which the checker, the MiniZinc
translation and CP-SAT's reading consume instead of the element.

A term is what `expressions.py` parses: an int, a variable id, or (operator, (argument, ...)). Lists are read
with their compact forms expanded (`x[0][]`, `0x3`) and holes left out, as `Declarations.tokens` reads them.
`read` gives None for a tag that is not read here yet; its consumers then read that element themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from kernelext.errors import Untranslatable
from kernelext.xcsp.declarations import Declarations, list_text, parameters, substitute
from kernelext.xcsp.expressions import parse_expression
from kernelext.xcsp.values import Intervals, arcs, child_text, condition, intervals, tuples, values

Term = int | str | tuple
Terms = tuple[Term, ...]
_NUMBER = re.compile(r"-?\d+")


@dataclass(frozen=True)
class Condition:
    """An XCSP3 condition, `(le,y)`, `(in,1..5)` or `(notin,{1,3})`: its operator, and its operand as a term
    (comparisons) or as the values it names (`in`, `notin`). `text` is the condition as written."""

    operator: str
    operand: Term | Intervals
    text: str

    @property
    def of_values(self) -> bool:
        """True for `in` and `notin`, whose operand is a set of values."""
        return self.operator in ("in", "notin")


@dataclass(frozen=True)
class Intension:
    """A predicate: `tree`, a term, holds (is not 0). `text` is the predicate as written, e.g. `ne(x[0],x[1])`."""

    tree: Term
    text: str


@dataclass(frozen=True)
class Extension:
    """A table: the items' values are one of the `rows` (`supports`), or none of them (conflicts); `*` in a row
    matches any value. A table of one item written as values (`1 3..5`) has them as `values`, and no rows. `text`
    is the table as written: tables written alike have the same rows, which a reader may build on once."""

    items: Terms
    supports: bool
    rows: tuple[tuple[int | str, ...], ...]
    values: Intervals | None
    text: str

    @property
    def starred(self) -> bool:
        """Whether some row may hold `*` (read from the text: a scan far faster than of the rows)."""
        return "*" in self.text


@dataclass(frozen=True)
class Logic:
    """A meta-constraint: `operator` (and, or, not, iff, xor, ifThen, ifThenElse) over `parts`, each the
    constraints one child stands for (a group, a slide or a block stands for many: its part holds when all do)."""

    operator: str
    parts: tuple[tuple[Constraint, ...], ...]


@dataclass(frozen=True)
class AllDifferent:
    """No two items equal, unless their value is one of `excepted`."""

    items: Terms
    excepted: frozenset[int] | None = None


@dataclass(frozen=True)
class AllDifferentLists:
    """No two lists, all of one length, equal, unless they are one of the tuples `excepted`."""

    lists: tuple[Terms, ...]
    excepted: frozenset[tuple] | None = None


@dataclass(frozen=True)
class AllDifferentMatrix:
    """The items of each row, and of each column, all different, unless their value is one of `excepted`."""

    rows: tuple[Terms, ...]
    columns: tuple[Terms, ...]
    excepted: frozenset[int] | None = None


@dataclass(frozen=True)
class AllEqual:
    """Every item equal, those whose value is one of `excepted` left out."""

    items: Terms
    excepted: frozenset[int] | None = None


@dataclass(frozen=True)
class AllEqualLists:
    """Every list equal."""

    lists: tuple[Terms, ...]


@dataclass(frozen=True)
class Sum:
    """The items' sum, each times its coefficient when there are `coeffs` (one per item), meets `condition`."""

    items: Terms
    coeffs: Terms | None
    condition: Condition


@dataclass(frozen=True)
class Knapsack:
    """The items (how many of each) weigh, with `weights`, what `weight` allows, and earn, with `profits`, what
    `profit` asks (a `<limit>` is read as the weight's condition `(le,limit)`)."""

    items: Terms
    weights: Terms
    profits: Terms
    weight: Condition
    profit: Condition


@dataclass(frozen=True)
class BinPacking:
    """Each item is put in the bin its value names, adding its size to that bin's load. Each load meets
    `condition` (bins: the values the items can take); or, with `capacities` (bins numbered from 0), is at most
    its capacity (`<limits>`), or equals it when `exact` (`<loads>`)."""

    items: Terms
    sizes: Terms
    condition: Condition | None
    capacities: Terms | None = None
    exact: bool = False


@dataclass(frozen=True)
class Flow:
    """The items are the flows on `arcs` (tail, head): at each node, what leaves less what enters is its `balance`
    (nodes in increasing order); with `weights`, the weighted flow meets `condition`."""

    flows: Terms
    arcs: tuple[tuple[int, int], ...]
    nodes: tuple[int, ...]
    balance: Terms
    weights: Terms | None = None
    condition: Condition | None = None


@dataclass(frozen=True)
class Clause:
    """One of the `positive` variables takes 1, or one of the `negative` ones (written `not(x)`) takes 0."""

    positive: tuple[str, ...]
    negative: tuple[str, ...]


@dataclass(frozen=True)
class Count:
    """How many items equal one of `values` meets `condition`."""

    items: Terms
    values: Terms
    condition: Condition


@dataclass(frozen=True)
class NValues:
    """How many distinct values the items take, those of `excepted` left out, meets `condition`."""

    items: Terms
    excepted: frozenset[int]
    condition: Condition


@dataclass(frozen=True)
class Cardinality:
    """How many items equal each of `values`: within its range, or equal to its term (`occurs`); when `closed`,
    every item takes one of the values."""

    items: Terms
    values: Terms
    occurs: tuple[Term | range, ...]
    closed: bool


@dataclass(frozen=True)
class Ordered:
    """Each item before the next by `operator` (lt, le, gt or ge), the next at least `lengths` further when given
    (one fewer than the items)."""

    items: Terms
    operator: str
    lengths: Terms | None = None


@dataclass(frozen=True)
class Lex:
    """In each group, each list before the next in lexicographic order by `operator` (lt, le, gt or ge): the
    lists of a lex are one group, a matrix's rows one and its columns another."""

    groups: tuple[tuple[Terms, ...], ...]
    operator: str


@dataclass(frozen=True)
class Instantiation:
    """Each item equal to its value."""

    items: Terms
    values: tuple[int, ...]


@dataclass(frozen=True)
class Extremum:
    """The least item (`least`), or the greatest, meets `condition` (None: no condition); with an `index`, the
    index of such an item, counted from `start`: the first of them, the last, or any (`rank`)."""

    least: bool
    items: Terms
    condition: Condition | None
    index: Term | None = None
    rank: str = "any"
    start: int = 0


@dataclass(frozen=True)
class ArgExtremum:
    """The index (counted from `start`) of the least item (`least`), or of the greatest, meets `condition`: of the
    first such item, the last, or any (`rank`)."""

    least: bool
    items: Terms
    start: int
    rank: str
    condition: Condition


@dataclass(frozen=True)
class Precedence:
    """Each of `values` first appears among the items after the value before it; when `covered`, every one of
    them appears."""

    items: Terms
    values: tuple[int, ...]
    covered: bool


@dataclass(frozen=True)
class Automaton:
    """The items, read in turn, take the automaton from `start` to one of `finals` along its `transitions`
    (tail, value, head): a regular constraint, or an MDD (from its root to a node no arc leaves)."""

    items: Terms
    transitions: tuple[tuple[str, int, str], ...]
    start: str
    finals: tuple[str, ...]


@dataclass(frozen=True)
class NoOverlap:
    """Boxes, each its origin and its lengths along every dimension (one dimension: tasks on a line), pairwise
    apart along some dimension; a box with a zero length is left out when `zero_ignored`."""

    origins: tuple[Terms, ...]
    lengths: tuple[Terms, ...]
    zero_ignored: bool


@dataclass(frozen=True)
class Cumulative:
    """At every time, the heights of the tasks running then meet `condition`; with `ends`, each task ends at its
    origin plus its length."""

    origins: Terms
    lengths: Terms
    heights: Terms
    ends: Terms | None
    condition: Condition


@dataclass(frozen=True)
class Element:
    """The item at `index` (counted from `start`) equals `value`, or meets `condition`: the first such item, the
    last, or any (`rank`). Without an index, some item does; `reified_by` (a 0/1 variable) then says whether."""

    items: Terms
    index: Term | None
    start: int
    rank: str
    value: Term | None
    condition: Condition | None
    reified_by: str | None = None


@dataclass(frozen=True)
class MatrixElement:
    """The cell of `rows` at (`row`, `column`), counted from (`start_row`, `start_column`), equals `value` or
    meets `condition`."""

    rows: tuple[Terms, ...]
    row: Term
    column: Term
    start_row: int
    start_column: int
    value: Term | None
    condition: Condition | None


@dataclass(frozen=True)
class Channel:
    """With one list: x[i] = j -> x[j] = i, or, with a `value`, a 0/1 list whose only 1 is at index `value`. With
    two: x[i] = j -> y[j] = i (`first` no longer than `second`). Indexes count from each list's start."""

    first: Terms
    start: int
    second: Terms | None = None
    second_start: int = 0
    value: Term | None = None


@dataclass(frozen=True)
class Circuit:
    """The nodes that do not point to themselves (their successors counted from `start`) form one cycle of at
    least two nodes, of `size` nodes when given."""

    items: Terms
    start: int
    size: Term | None = None


@dataclass(frozen=True)
class Objective:
    """What a model minimizes (`minimize`), or else maximizes: an expression (`kind` "expression", its term the one
    item), or the sum, product, minimum, maximum or nValues of `items`, each weighted by its coefficient when
    `coeffs` are given. `text` is the expression, or the list, as written."""

    minimize: bool
    kind: str
    items: Terms
    coeffs: Terms | None = None
    text: str = ""


Constraint = (
    Intension
    | Extension
    | Logic
    | AllDifferent
    | AllDifferentLists
    | AllDifferentMatrix
    | AllEqual
    | AllEqualLists
    | Sum
    | Knapsack
    | BinPacking
    | Flow
    | Clause
    | Count
    | NValues
    | Cardinality
    | Ordered
    | Lex
    | Instantiation
    | Extremum
    | ArgExtremum
    | Precedence
    | Automaton
    | NoOverlap
    | Cumulative
    | Element
    | MatrixElement
    | Channel
    | Circuit
)
_ORDERS = ("lt", "le", "gt", "ge")
_PARAMETER = re.compile(r"%(\d+)")
_PLACEHOLDER = "__kx"  # a template's %i while it is parsed (no XCSP3 id starts with `_`)
_REIFICATIONS = ("reifiedBy", "hreifiedBy", "ireifiedBy")


def term(token: str) -> Term:
    """A list item as a term: `3` -> 3, `x[0]` -> "x[0]", `add(x[0],1)` -> ("add", ("x[0]", 1))."""
    if "(" in token:
        return parse_expression(token)
    return int(token) if _NUMBER.fullmatch(token) else token


def terms(declarations: Declarations, text: str) -> Terms:
    """A list's items as terms, compact forms expanded."""
    return tuple(term(token) for token in declarations.tokens(text))


def read_condition(text: str) -> Condition:
    """The XCSP3 condition `text`."""
    operator, operand = condition(text)
    if operator in ("in", "notin"):
        return Condition(operator, intervals(operand.strip().strip("{}").replace(",", " ")), text)
    return Condition(operator, term(operand), text)


def read(element, declarations: Declarations) -> Constraint | None:
    """The single constraint `element` (no group, slide or block) as a typed object; None for a tag not read
    here yet. Raises Untranslatable when a part it needs is missing or malformed, and for a constraint reified
    by a variable (`reifiedBy`, `hreifiedBy`, `ireifiedBy`; all but an element without index, which only the
    checker reads), whatever its tag."""
    reified = unread_reification(element)
    if reified:
        raise Untranslatable(f"<{element.tag}> with {reified}")
    reader = _READERS.get(element.tag)
    return reader(element, declarations) if reader is not None else None


def read_each(element, declarations: Declarations) -> Iterator[tuple[str, Constraint | None]]:
    """Each single constraint `element` stands for, as its tag and its typed object (None for a tag not read
    here yet, as `read` gives): itself, or the members of a `<group>`, `<slide>` or `<block>`, at any depth.
    A group's or slide's template is read once when it is an intension (each member's arguments put in its tree)
    or a table whose parameters are all in its list."""
    if element.tag == "block":
        for child in element:
            yield from read_each(child, declarations)
    elif element.tag in ("group", "slide"):
        arguments_of = declarations.group_arguments if element.tag == "group" else declarations.slide_windows
        template, arguments = arguments_of(element)
        if template is not None:
            yield from _members(template, arguments, declarations)
    else:
        yield element.tag, read(element, declarations)


def _members(template, arguments: list[list[str]], declarations: Declarations):
    """The members of a group or slide: `template` filled with each list of `arguments`, read. An intension's
    expression is parsed once, and so is a table whose parameters are all in its list."""
    texts, needed = [part.text or "" for part in template.iter()], parameters(template)
    if any(len(args) < needed for args in arguments):
        raise Untranslatable("a group whose arguments do not match its template")
    plain = not unread_reification(template) and not any("%..." in text for text in texts)
    if plain and template.tag == "intension" and not len(template):
        written = " ".join(texts[0].split())
        tree = parse_expression(_PARAMETER.sub(lambda m: _PLACEHOLDER + m.group(1), written))
        for args in arguments:
            bound = {f"{_PLACEHOLDER}{k}": term(arg) for k, arg in enumerate(args)}
            yield "intension", Intension(_bound(tree, bound), _filled(written, args))
    elif plain and template.tag == "extension" and all(p.tag == "list" or "%" not in (p.text or "") for p in template):
        supports, table = _table(template)
        listed = list_text(template)
        for args in arguments:
            yield "extension", _extension_of(terms(declarations, _filled(listed, args)), supports, table, declarations)
    else:
        for args in arguments:
            yield from read_each(substitute(template, args), declarations)


def _filled(text: str, args: list[str]) -> str:
    return _PARAMETER.sub(lambda m: args[int(m.group(1))], text)


def _bound(node, args: dict):
    """The parsed expression `node` with its placeholders replaced by the parsed arguments."""
    if isinstance(node, str):
        return args.get(node, node)
    if isinstance(node, tuple):
        return node[0], tuple(_bound(arg, args) for arg in node[1])
    return node


def read_objective(element, declarations: Declarations) -> Objective:
    """The `<minimize>` or `<maximize>` element as an Objective. Raises Untranslatable for another element, or for
    coefficients that do not match the list."""
    if element.tag not in ("minimize", "maximize"):
        raise Untranslatable(f"the objective <{element.tag}>")
    kind, minimize = element.get("type", "expression"), element.tag == "minimize"
    if kind == "expression":
        text = " ".join((element.text or "").split())
        return Objective(minimize, kind, (parse_expression(text),), text=text)
    text, held = " ".join(list_text(element).split()), element.find("coeffs")
    items = terms(declarations, text)
    coeffs = terms(declarations, held.text or "") if held is not None else None
    if coeffs is not None and len(coeffs) != len(items):
        raise Untranslatable(f"a <{element.tag}> whose coeffs do not match its list")
    return Objective(minimize, kind, items, coeffs, text)


def unread_reification(element) -> str | None:
    """The attribute by which `element` is reified by a variable (`reifiedBy`, `hreifiedBy`, `ireifiedBy`), or None
    when it is not, or is an element without index reified by `reifiedBy` (the one form the checker reads)."""
    reified = [name for name in _REIFICATIONS if element.get(name) is not None]
    if reified == ["reifiedBy"] and element.tag == "element" and element.find("index") is None:
        return None
    return reified[0] if reified else None


def _excepted(element) -> frozenset[int] | None:
    found = element.find("except")
    return frozenset(values(found.text or "")) if found is not None else None


def _intension(element, declarations: Declarations) -> Intension:
    function = element.find("function")
    text = ((function.text if function is not None else element.text) or "").strip()
    return Intension(parse_expression(text), text)


def _extension(element, declarations: Declarations) -> Extension:
    supports, text = _table(element)
    return _extension_of(terms(declarations, list_text(element)), supports, text, declarations)


def _table(element) -> tuple[bool, str]:
    """Whether an `<extension>` lists supports (else conflicts), and its table's text."""
    if element.get("type", "").startswith("hybrid"):
        raise Untranslatable("a hybrid table")
    supports, conflicts = element.find("supports"), element.find("conflicts")
    table = supports if supports is not None else conflicts
    if table is None:
        raise Untranslatable("a table with neither supports nor conflicts")
    return supports is not None, table.text or ""


def _extension_of(items: Terms, supports: bool, text: str, declarations: Declarations) -> Extension:
    """A table of `text` over `items`, its rows read once for all the tables written alike."""
    if not all(isinstance(item, str) for item in items):
        raise Untranslatable("a table over something other than variables")
    rows, listed = declarations.table_of(text, len(items))
    return Extension(items, supports, rows, listed, text)


def _logic(element, declarations: Declarations) -> Logic:
    parts = []
    for child in element:
        part = []
        for tag, constraint in read_each(child, declarations):
            if constraint is None:
                raise Untranslatable(f"<{tag}> inside <{element.tag}>")
            part.append(constraint)
        parts.append(tuple(part))
    low, high = _LOGIC_ARITY[element.tag]
    if not low <= len(parts) <= high:
        raise Untranslatable(f"<{element.tag}> with {len(parts)} constraints")
    return Logic(element.tag, tuple(parts))


def _all_different(element, declarations: Declarations) -> Constraint:
    if element.find("matrix") is not None:
        rows = declarations.matrix(child_text(element, "matrix"))
        return AllDifferentMatrix(
            tuple(terms(declarations, " ".join(row)) for row in rows),
            tuple(terms(declarations, " ".join(column)) for column in zip(*rows)),
            _excepted(element),
        )
    lists = element.findall("list")
    if len(lists) > 1:
        read_lists = tuple(terms(declarations, listed.text or "") for listed in lists)
        if len({len(listed) for listed in read_lists}) != 1:
            raise Untranslatable("an allDifferent of lists of different lengths")
        found = element.find("except")
        excepted = frozenset(tuples(found.text or "", len(read_lists[0]))) if found is not None else None
        return AllDifferentLists(read_lists, excepted)
    return AllDifferent(terms(declarations, list_text(element)), _excepted(element))


def _all_equal(element, declarations: Declarations) -> Constraint:
    lists = element.findall("list")
    if len(lists) > 1:
        return AllEqualLists(tuple(terms(declarations, listed.text or "") for listed in lists))
    return AllEqual(terms(declarations, list_text(element)), _excepted(element))


def _sum(element, declarations: Declarations) -> Sum:
    items, coeffs = terms(declarations, list_text(element)), element.find("coeffs")
    weights = terms(declarations, coeffs.text or "") if coeffs is not None else None
    if weights is not None and len(weights) != len(items):
        raise Untranslatable("a sum whose coefficients do not match its list")
    return Sum(items, weights, read_condition(child_text(element, "condition")))


def _knapsack(element, declarations: Declarations) -> Knapsack:
    items = terms(declarations, list_text(element))
    found = [element.find(tag) for tag in ("weights", "profits")]
    conditions = [c.text or "" for c in element.findall("condition")]
    limit = element.find("limit")
    if limit is not None:
        text = limit.text or ""
        conditions.insert(0, text if "(" in text else f"(le,{text.strip()})")
    if len(conditions) != 2 or None in found:
        raise Untranslatable("this form of <knapsack>")
    weights, profits = (terms(declarations, part.text or "") for part in found)
    if len(weights) != len(items) or len(profits) != len(items):
        raise Untranslatable("a knapsack whose weights or profits do not match its list")
    return Knapsack(items, weights, profits, read_condition(conditions[0]), read_condition(conditions[1]))


def _bin_packing(element, declarations: Declarations) -> BinPacking:
    items = terms(declarations, list_text(element))
    sizes = terms(declarations, child_text(element, "sizes"))
    if len(sizes) != len(items):
        raise Untranslatable("a binPacking whose sizes do not match its list")
    bounded = next((tag for tag in ("limits", "loads") if element.find(tag) is not None), None)
    if bounded is not None:
        return BinPacking(items, sizes, None, terms(declarations, child_text(element, bounded)), bounded == "loads")
    if element.find("condition") is None:
        raise Untranslatable("this form of <binPacking>")
    return BinPacking(items, sizes, read_condition(child_text(element, "condition")))


def _flow(element, declarations: Declarations) -> Flow:
    flows = terms(declarations, list_text(element))
    arcs = tuple(
        (int(tail), int(head))
        for tail, head in re.findall(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)", child_text(element, "arcs"))
    )
    balance = terms(declarations, child_text(element, "balance"))
    nodes = tuple(sorted({node for arc in arcs for node in arc}))
    if len(arcs) != len(flows) or len(nodes) != len(balance):
        raise Untranslatable("a flow whose arcs do not match its list or its balance")
    found = element.find("weights")
    if found is None:
        return Flow(flows, arcs, nodes, balance)
    weights = terms(declarations, found.text or "")
    if len(weights) != len(flows):
        raise Untranslatable("a flow whose weights do not match its list")
    return Flow(flows, arcs, nodes, balance, weights, read_condition(child_text(element, "condition")))


def _clause(element, declarations: Declarations) -> Clause:
    positive, negative = [], []
    for item in terms(declarations, list_text(element)):
        if isinstance(item, str):
            positive.append(item)
        elif isinstance(item, tuple) and item[0] == "not" and len(item[1]) == 1 and isinstance(item[1][0], str):
            negative.append(item[1][0])
        else:
            raise Untranslatable("this form of <clause>")
    return Clause(tuple(positive), tuple(negative))


def _count(element, declarations: Declarations) -> Count:
    return Count(
        terms(declarations, list_text(element)),
        terms(declarations, child_text(element, "values")),
        read_condition(child_text(element, "condition")),
    )


def _n_values(element, declarations: Declarations) -> NValues:
    return NValues(
        terms(declarations, list_text(element)),
        _excepted(element) or frozenset(),
        read_condition(child_text(element, "condition")),
    )


def _cardinality(element, declarations: Declarations) -> Cardinality:
    counted = terms(declarations, child_text(element, "values"))
    occurs = []
    for occurrence in declarations.tokens(child_text(element, "occurs")):
        low, dots, high = occurrence.partition("..")
        occurs.append(range(int(low), int(high) + 1) if dots else term(occurrence))
    if len(occurs) != len(counted):
        raise Untranslatable("a cardinality whose occurrences do not match its values")
    closed = element.find("values").get("closed") == "true"
    return Cardinality(terms(declarations, list_text(element)), counted, tuple(occurs), closed)


def _operator(element) -> str:
    found = child_text(element, "operator").strip()
    if found not in _ORDERS:
        raise Untranslatable(f"<{element.tag}> with the operator {found}")
    return found


def _ordered(element, declarations: Declarations) -> Ordered:
    items, lengths = terms(declarations, list_text(element)), element.find("lengths")
    gaps = terms(declarations, lengths.text or "") if lengths is not None else None
    if gaps is not None and len(gaps) != len(items) - 1:
        raise Untranslatable("an ordered whose lengths do not match its list")
    return Ordered(items, _operator(element), gaps)


def _lex(element, declarations: Declarations) -> Lex:
    operator = _operator(element)
    if element.find("limit") is not None:
        raise Untranslatable("<lex> with a limit")
    groups = declarations.lex_groups(element)
    return Lex(tuple(tuple(terms(declarations, text) for text in group) for group in groups), operator)


def _instantiation(element, declarations: Declarations) -> Instantiation:
    items, fixed = terms(declarations, list_text(element)), tuple(values(child_text(element, "values")))
    if len(fixed) != len(items):
        raise Untranslatable("an instantiation whose values do not match its list")
    return Instantiation(items, fixed)


def _extremum(element, declarations: Declarations) -> Extremum:
    least, index, held = element.tag == "minimum", element.find("index"), element.find("condition")
    items = terms(declarations, list_text(element))
    if index is None:
        return Extremum(least, items, read_condition(child_text(element, "condition")))
    condition_ = read_condition(held.text or "") if held is not None else None
    at = term((index.text or "").strip())
    return Extremum(least, items, condition_, at, index.get("rank", "any"), _start(element))


def _arg_extremum(element, declarations: Declarations) -> ArgExtremum:
    items, condition_ = terms(declarations, list_text(element)), read_condition(child_text(element, "condition"))
    return ArgExtremum(element.tag == "minimumArg", items, _start(element), element.get("rank", "any"), condition_)


def _precedence(element, declarations: Declarations) -> Precedence:
    items, listed = terms(declarations, list_text(element)), element.find("values")
    if listed is not None:
        ordered = tuple(values(listed.text or ""))
    elif all(isinstance(item, str) and item in declarations.domains for item in items):
        ordered = tuple(
            sorted({v for item in items for low, high in declarations.domains[item] for v in range(low, high + 1)})
        )
    else:
        raise Untranslatable("<precedence> over something other than variables")
    covered = element.get("covered") == "true" or (listed is not None and listed.get("covered") == "true")
    return Precedence(items, ordered, covered)


def _regular(element, declarations: Declarations) -> Automaton:
    return Automaton(
        terms(declarations, child_text(element, "list")),
        tuple(arcs(child_text(element, "transitions"))),
        child_text(element, "start").strip(),
        tuple(child_text(element, "final").split()),
    )


def _mdd(element, declarations: Declarations) -> Automaton:
    transitions = tuple(arcs(child_text(element, "transitions")))
    tails = {tail for tail, _, _ in transitions}
    finals = tuple(sorted({head for _, _, head in transitions} - tails))
    start = transitions[0][0] if transitions else ""
    return Automaton(terms(declarations, child_text(element, "list")), transitions, start, finals)


def _no_overlap(element, declarations: Declarations) -> NoOverlap:
    origins, lengths = child_text(element, "origins"), child_text(element, "lengths")
    if "(" in origins:  # boxes
        boxes = [terms(declarations, " ".join(t.split(","))) for t in re.findall(r"\(([^)]*)\)", origins)]
        sides = [terms(declarations, " ".join(t.split(","))) for t in re.findall(r"\(([^)]*)\)", lengths)]
    else:
        boxes, sides = [(t,) for t in terms(declarations, origins)], [(t,) for t in terms(declarations, lengths)]
    if len(boxes) != len(sides) or any(len(b) != len(boxes[0]) or len(e) != len(b) for b, e in zip(boxes, sides)):
        raise Untranslatable("a noOverlap whose lengths do not match its origins")
    return NoOverlap(tuple(boxes), tuple(sides), element.get("zeroIgnored", "true") != "false")


def _cumulative(element, declarations: Declarations) -> Cumulative:
    if element.find("machines") is not None:
        raise Untranslatable("<cumulative> with machines")
    origins, lengths, heights = (
        terms(declarations, child_text(element, tag)) for tag in ("origins", "lengths", "heights")
    )
    ends = terms(declarations, child_text(element, "ends")) if element.find("ends") is not None else None
    if not len(origins) == len(lengths) == len(heights) or (ends is not None and len(ends) != len(origins)):
        raise Untranslatable("a cumulative whose lists differ in length")
    return Cumulative(origins, lengths, heights, ends, read_condition(child_text(element, "condition")))


def _start(element) -> int:
    """A list's start: on its `<list>`, else on the element itself (pycsp3's short form)."""
    listed = element.find("list")
    return int((listed if listed is not None else element).get("startIndex", element.get("startIndex", "0")))


def _value_or_condition(element) -> tuple[Term | None, Condition | None]:
    held = element.find("value")
    if held is not None:
        return term((held.text or "").strip()), None
    return None, read_condition(child_text(element, "condition"))


def _element(element, declarations: Declarations) -> Element | MatrixElement:
    value, condition_ = _value_or_condition(element)
    matrix = element.find("matrix")
    if matrix is not None:
        rows = declarations.matrix(child_text(element, "matrix"))
        picked = terms(declarations, child_text(element, "index"))
        if len(picked) != 2:
            raise Untranslatable("an element of a matrix without two indexes")
        first, second = int(matrix.get("startRowIndex", "0")), int(matrix.get("startColIndex", "0"))
        read_rows = tuple(terms(declarations, " ".join(row)) for row in rows)
        return MatrixElement(read_rows, picked[0], picked[1], first, second, value, condition_)
    index = element.find("index")
    items = terms(declarations, list_text(element))
    if index is None:
        return Element(items, None, 0, "any", value, condition_, element.get("reifiedBy"))
    at = term((index.text or "").strip())
    return Element(items, at, _start(element), index.get("rank", "any"), value, condition_)


def _channel(element, declarations: Declarations) -> Channel:
    lists = element.findall("list") or [element]
    if len(lists) > 2:
        raise Untranslatable("a channel of more than two lists")
    first, start = terms(declarations, lists[0].text or ""), int(lists[0].get("startIndex", "0"))
    if len(lists) == 1:
        held = element.find("value")
        return Channel(first, start, value=term((held.text or "").strip()) if held is not None else None)
    second = terms(declarations, lists[1].text or "")
    if len(first) > len(second):
        raise Untranslatable("a channel whose first list is the longer")
    return Channel(first, start, second, int(lists[1].get("startIndex", "0")))


def _circuit(element, declarations: Declarations) -> Circuit:
    held = element.find("size")
    size = term((held.text or "").strip()) if held is not None else None
    return Circuit(terms(declarations, list_text(element)), _start(element), size)


_MANY = 10**9
_LOGIC_ARITY = {  # how many children each meta-constraint takes, at least and at most
    "and": (0, _MANY),
    "or": (0, _MANY),
    "not": (1, 1),
    "iff": (2, _MANY),
    "xor": (1, _MANY),
    "ifThen": (2, 2),
    "ifThenElse": (3, 3),
}
_READERS = {
    "intension": _intension,
    "extension": _extension,
    **dict.fromkeys(_LOGIC_ARITY, _logic),
    "allDifferent": _all_different,
    "allEqual": _all_equal,
    "sum": _sum,
    "knapsack": _knapsack,
    "binPacking": _bin_packing,
    "flow": _flow,
    "clause": _clause,
    "count": _count,
    "nValues": _n_values,
    "cardinality": _cardinality,
    "ordered": _ordered,
    "lex": _lex,
    "instantiation": _instantiation,
    "minimum": _extremum,
    "maximum": _extremum,
    "minimumArg": _arg_extremum,
    "precedence": _precedence,
    "regular": _regular,
    "mdd": _mdd,
    "noOverlap": _no_overlap,
    "cumulative": _cumulative,
    "maximumArg": _arg_extremum,
    "element": _element,
    "channel": _channel,
    "circuit": _circuit,
}
