"""XCSP3's global constraints posted into a CP-SAT model (the part of kernelext.solver.cpsat.reader that
reads them).

Each is posted exactly as XCSP3 defines it, with the meaning `kernelext/xcsp/to_minizinc.py` gives it (both
are checked against brute force). Every auxiliary variable is a function of the model's own variables (a
literal is tied to its condition both ways), so that enumerating solutions never repeats one.
"""

from __future__ import annotations

import itertools

import kernelext.xcsp.constraints as typed
from kernelext.solver.errors import BackendUnsupported

_SWAPPED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


class GlobalConstraints:
    """The handlers of XCSP3's global constraints: `_<tag>` for an element, and those `TYPED_HANDLERS` names for
    the typed model's objects (kernelext.xcsp.constraints); for a reader that offers `model`, `cp`, `term`,
    `literal`, `equals`, `is_true`, `as_var`, `bounds`, `post_condition`, `tokens`,
    `domains` and `expand` (see kernelext.solver.cpsat.reader._Reader)."""

    # lists

    def _all_different_matrix(self, constraint: typed.AllDifferentMatrix) -> None:
        for line in [*constraint.rows, *constraint.columns]:
            self.all_different([self.term(item) for item in line], constraint.excepted)

    def _all_different_lists(self, constraint: typed.AllDifferentLists) -> None:
        """No two lists equal, unless they are a tuple excepted."""
        items = [[self.term(item) for item in listed] for listed in constraint.lists]
        skip = sorted(constraint.excepted or ())
        for first, second in itertools.combinations(items, 2):
            differ = [self.is_true("ne", a, b) for a, b in zip(first, second)]
            excepted_here = [self.conjunction([self.equals_value(a, v) for a, v in zip(first, row)]) for row in skip]
            self.model.AddBoolOr(differ + excepted_here)

    def _all_different(self, constraint: typed.AllDifferent) -> None:
        self.all_different([self.term(item) for item in constraint.items], constraint.excepted)

    def all_different(self, items: list, excepted: frozenset[int] | None) -> None:
        """`items` all different, unless their value is one of `excepted` (None: no except)."""
        if excepted is None:
            self.model.AddAllDifferent(items)
            return
        skip = sorted(excepted)
        for a, b in itertools.combinations(items, 2):  # equal only on a value excepted
            self.model.Add(a != b).OnlyEnforceIf(self.within(a, skip).Not())

    def _all_equal_lists(self, constraint: typed.AllEqualLists) -> None:
        """Every list equal."""
        vectors = [[self.term(item) for item in listed] for listed in constraint.lists]
        if len({len(vector) for vector in vectors}) != 1:
            raise BackendUnsupported("an allEqual of lists of different lengths")
        for other in vectors[1:]:
            for a, b in zip(vectors[0], other):
                self.model.Add(a == b)

    def _all_equal(self, constraint: typed.AllEqual) -> None:
        items = [self.term(item) for item in constraint.items]
        if constraint.excepted is None:
            for other in items[1:]:
                self.model.Add(items[0] == other)
            return
        skip = sorted(constraint.excepted)
        for a, b in itertools.combinations(items, 2):  # differ only where one takes a value excepted
            self.model.AddBoolOr([self.within(a, skip), self.within(b, skip), self.is_true("eq", a, b)])

    def _ordered(self, constraint: typed.Ordered) -> None:
        items = [self.term(item) for item in constraint.items]
        gaps = [self.term(gap) for gap in constraint.lengths] if constraint.lengths is not None else [0] * len(items)
        for gap, (a, b) in zip(gaps, zip(items, items[1:])):
            self.post_comparison(constraint.operator, a + gap, b)

    def _instantiation(self, constraint: typed.Instantiation) -> None:
        for item, value in zip(constraint.items, constraint.values):
            self.model.Add(self.term(item) == value)

    def _lex(self, constraint: typed.Lex) -> None:
        for group in constraint.groups:
            lists = [[self.term(item) for item in listed] for listed in group]
            for first, second in zip(lists, lists[1:]):
                self.lex(first, second, constraint.operator)

    def lex(self, first: list, second: list, operator: str) -> None:
        """`first` before `second` in lexicographic order (`lt`, `le`), or after (`gt`, `ge`)."""
        if operator in ("gt", "ge"):
            first, second, operator = second, first, _SWAPPED[operator]
        if len(first) != len(second):
            raise BackendUnsupported("a lex of lists of different lengths")
        prefix = self.model.NewConstant(1)  # true while the lists are equal so far
        for a, b in zip(first, second):
            self.model.Add(a <= b).OnlyEnforceIf(prefix)
            prefix = self.conjunction([prefix, self.is_true("eq", a, b)])
        if operator == "lt":
            self.model.AddBoolOr([prefix.Not()])

    # counting

    def _sum(self, constraint: typed.Sum) -> None:
        self.post_condition(self.weighted(constraint.items, constraint.coeffs), constraint.condition)

    def weighted(self, items: tuple, coeffs: tuple | None):
        """The sum of the items (terms) times the coefficients (numbers or variables), or of the items alone."""
        weights = [1] * len(items) if coeffs is None else coeffs
        if len(weights) != len(items):
            raise BackendUnsupported("a sum whose coefficients do not match its list")
        return sum(
            self.term(("mul", (w, x))) if not isinstance(w, int) else w * self.term(x) for w, x in zip(weights, items)
        )

    def _count(self, constraint: typed.Count) -> None:
        marks = [self.one_of(self.term(item), list(constraint.values)) for item in constraint.items]
        self.post_condition(sum(marks), constraint.condition)

    def one_of(self, item, counted: list):
        """A literal true exactly when `item` equals one of `counted` (numbers or variables)."""
        if all(isinstance(v, int) for v in counted):
            return self.within(item, counted)
        return self.disjunction([self.is_true("eq", item, self.term(v)) for v in counted])

    def _n_values(self, constraint: typed.NValues) -> None:
        items = [self.term(item) for item in constraint.items]
        self.post_condition(self.distinct(items, constraint.excepted), constraint.condition)

    def distinct(self, items: list, skip: set = frozenset()):
        """The number of distinct values among `items`, those of `skip` left out."""
        seen = sorted({v for item in items for v in self.values_of(item)} - set(skip))
        return sum(self.disjunction([self.equals_value(item, v) for item in items]) for v in seen)

    def _cardinality(self, constraint: typed.Cardinality) -> None:
        items = [self.term(item) for item in constraint.items]
        counted = list(constraint.values)
        for value, occurrence in zip(counted, constraint.occurs):
            total = sum(
                self.is_true("eq", item, self.term(value))
                if not isinstance(value, int)
                else self.equals_value(item, value)
                for item in items
            )
            if isinstance(occurrence, range):
                self.model.AddLinearConstraint(total, occurrence.start, occurrence.stop - 1)
            else:
                self.model.Add(total == self.term(occurrence))
        if constraint.closed:
            for item in items:
                self.model.AddBoolOr([self.one_of(item, counted)])

    def _extremum(self, constraint: typed.Extremum) -> None:
        """The least or greatest item meets the condition."""
        if constraint.index is not None:
            raise BackendUnsupported(f"<{'minimum' if constraint.least else 'maximum'}> with an index")
        items = [self.term(item) for item in constraint.items]
        self.post_condition(self.extremum("min" if constraint.least else "max", items), constraint.condition)

    def extremum(self, which: str, items: list):
        """A new variable equal to the least (`min`) or greatest (`max`) of `items`."""
        spans = [self.bounds_of(item) for item in items]
        result = self.model.NewIntVar(min(s[0] for s in spans), max(s[1] for s in spans), "")
        (self.model.AddMinEquality if which == "min" else self.model.AddMaxEquality)(result, items)
        return result

    def _arg_extremum(self, constraint: typed.ArgExtremum) -> None:
        """The index of the least or greatest item (the first, the last, or any of them: `rank`) satisfies the
        condition."""
        items, start, rank = [self.term(item) for item in constraint.items], constraint.start, constraint.rank
        best = self.extremum("min" if constraint.least else "max", items)
        reached = [self.is_true("eq", item, best) for item in items]
        if rank in ("first", "last"):
            order = range(len(items)) if rank == "first" else range(len(items) - 1, -1, -1)
            chosen, earlier = {}, []
            for k in order:
                chosen[k] = self.conjunction([reached[k], *(lit.Not() for lit in earlier)])
                earlier.append(reached[k])
            reached = [chosen[k] for k in range(len(items))]
        holds = [
            self.conjunction([lit, self.condition_literal(k + start, constraint.condition)])
            for k, lit in enumerate(reached)
        ]
        self.model.AddBoolOr(holds)

    # indexing

    def _matrix_element(self, constraint: typed.MatrixElement) -> None:
        rows = [[self.term(item) for item in row] for row in constraint.rows]
        row = self.term(constraint.row) - constraint.start_row
        column = self.term(constraint.column) - constraint.start_column
        self.model.AddLinearConstraint(row, 0, len(rows) - 1)
        self.model.AddLinearConstraint(column, 0, len(rows[0]) - 1)
        self.element(row * len(rows[0]) + column, [item for line in rows for item in line], constraint)

    def _element(self, constraint: typed.Element) -> None:
        if constraint.rank != "any":
            raise BackendUnsupported(f"<element> with the rank {constraint.rank}")
        if constraint.index is None:
            raise BackendUnsupported("<element> without <index>")
        items = [self.term(item) for item in constraint.items]
        self.element(self.term(constraint.index) - constraint.start, items, constraint)

    def element(self, index, items: list, constraint: typed.Element | typed.MatrixElement) -> None:
        """The item at `index` (from 0) equals the constraint's value, or meets its condition."""
        if constraint.value is not None:
            target = self.term(constraint.value)
        else:
            spans = [self.bounds_of(item) for item in items]
            target = self.model.NewIntVar(min(s[0] for s in spans), max(s[1] for s in spans), "")
        self.model.AddElement(index, items, target)
        if constraint.value is None:
            self.post_condition(target, constraint.condition)

    def _channel(self, constraint: typed.Channel) -> None:
        first, start = [self.as_var(node) for node in constraint.first], constraint.start
        if constraint.second is None and constraint.value is not None:  # a 0/1 list and the index of its 1
            value = self.term(constraint.value)
            self.model.Add(sum(first) == 1)
            for k, x in enumerate(first):
                self.model.Add(self.equals(x, 1) == self.is_true("eq", value, k + start))
        elif constraint.second is None:
            for i, x in enumerate(first):
                self.model.AddLinearConstraint(x, start, start + len(first) - 1)
                for j, y in enumerate(first):
                    self.model.Add(self.equals(x, j + start) == self.equals(y, i + start))
        else:
            second, other = [self.as_var(node) for node in constraint.second], constraint.second_start
            for i, x in enumerate(first):
                self.model.AddLinearConstraint(x, other, other + len(second) - 1)
                for j, y in enumerate(second):
                    if len(first) == len(second):
                        self.model.Add(self.equals(x, j + other) == self.equals(y, i + start))
                    else:
                        self.model.AddImplication(self.equals(x, j + other), self.equals(y, i + start))

    def _precedence(self, constraint: typed.Precedence) -> None:
        """Each value first appears after the value before it; with `covered`, every value appears."""
        items, ordered = [self.term(item) for item in constraint.items], constraint.values
        for before, after in zip(ordered, ordered[1:]):
            for k, item in enumerate(items):
                earlier = [self.equals_value(other, before) for other in items[:k]]
                self.model.AddBoolOr([self.equals_value(item, after).Not(), *earlier])
        if constraint.covered:
            for value in ordered:
                self.model.AddBoolOr([self.equals_value(item, value) for item in items])

    # graphs

    def _circuit(self, constraint: typed.Circuit) -> None:
        """XCSP3's circuit: the nodes that do not point to themselves form one cycle of at least two nodes."""
        items, start = [self.as_var(node) for node in constraint.items], constraint.start
        edges, loops = [], []
        for i, x in enumerate(items):
            self.model.AddLinearConstraint(x, start, start + len(items) - 1)
            for value in self.values_of(x):
                if start <= value < start + len(items):
                    edges.append((i, value - start, self.equals(x, value)))
            loops.append(self.equals(x, i + start))
        self.model.AddCircuit(edges)
        if constraint.size is not None:
            self.model.Add(sum(lit.Not() for lit in loops) == self.term(constraint.size))
        self.model.AddBoolOr([lit.Not() for lit in loops])

    def _flow(self, constraint: typed.Flow) -> None:
        """Each arc's flow: what leaves a node less what enters it is its balance (nodes in increasing order); the
        weighted flow meets the condition."""
        flows = [self.term(flow) for flow in constraint.flows]
        for node, held in zip(constraint.nodes, constraint.balance):
            out = sum(f for f, (tail, _) in zip(flows, constraint.arcs) if tail == node)
            into = sum(f for f, (_, head) in zip(flows, constraint.arcs) if head == node)
            self.model.Add(out - into == self.term(held))
        if constraint.weights is not None:
            self.post_condition(self.weighted(constraint.flows, constraint.weights), constraint.condition)

    # scheduling and packing

    def _no_overlap(self, constraint: typed.NoOverlap) -> None:
        boxes = [[self.term(t) for t in box] for box in constraint.origins]
        sizes = [[self.term(t) for t in side] for side in constraint.lengths]
        if all(isinstance(s, int) and s > 0 for box in sizes for s in box) and len(boxes[0]) <= 2:
            intervals_ = [
                [self.model.NewFixedSizeIntervalVar(o, s, "") for o, s in zip(box, size)]
                for box, size in zip(boxes, sizes)
            ]
            if len(boxes[0]) == 1:
                self.model.AddNoOverlap([i[0] for i in intervals_])
            else:
                self.model.AddNoOverlap2D([i[0] for i in intervals_], [i[1] for i in intervals_])
            return
        for a, b in itertools.combinations(range(len(boxes)), 2):  # apart along some axis (or a length is 0)
            apart = []
            for d in range(len(boxes[a])):
                apart += [
                    self.is_true("le", boxes[a][d] + sizes[a][d], boxes[b][d]),
                    self.is_true("le", boxes[b][d] + sizes[b][d], boxes[a][d]),
                ]
            if constraint.zero_ignored:
                apart += [self.is_true("eq", length, 0) for length in (*sizes[a], *sizes[b])]
            self.model.AddBoolOr(apart)

    def _cumulative(self, constraint: typed.Cumulative) -> None:
        origins, lengths, heights = (
            [self.term(t) for t in found] for found in (constraint.origins, constraint.lengths, constraint.heights)
        )
        if constraint.ends is not None:
            for origin, length, end in zip(origins, lengths, constraint.ends):
                self.model.Add(origin + length == self.term(end))
        operator = constraint.condition.operator
        if operator not in ("le", "lt"):
            raise BackendUnsupported(f"<cumulative> with the condition {operator}")
        limit = self.term(constraint.condition.operand)
        if any(self.bounds_of(h)[0] < 0 for h in heights) or any(self.bounds_of(n)[0] < 0 for n in lengths):
            raise BackendUnsupported("<cumulative> with negative lengths or heights")
        tasks = [self.model.NewIntervalVar(o, n, self.as_var_term(o + n), "") for o, n in zip(origins, lengths)]
        self.model.AddCumulative(tasks, heights, limit - 1 if operator == "lt" else limit)

    def _bin_packing(self, constraint: typed.BinPacking) -> None:
        """Each bin's load (the sizes of the items put in it): under its limit, equal to its load, or meeting the
        condition; bins are the values the items can take (numbered from 0 for limits and loads)."""
        items = [self.term(item) for item in constraint.items]
        weights = [self.term(size) for size in constraint.sizes]
        if constraint.capacities is not None:
            capacities = [self.term(capacity) for capacity in constraint.capacities]
            for item in items:
                self.model.AddLinearConstraint(item, 0, len(capacities) - 1)
            for b, capacity in enumerate(capacities):
                load = sum(w * self.equals_value(item, b) for w, item in zip(weights, items))
                self.model.Add(load == capacity if constraint.exact else load <= capacity)
            return
        bins = sorted({v for item in items for v in self.values_of(item)})
        for b in bins:
            load = sum(w * self.equals_value(item, b) for w, item in zip(weights, items))
            self.post_condition(load, constraint.condition)

    def _clause(self, constraint: typed.Clause) -> None:
        self.model.AddBoolOr(
            [self.equals_value(self.var(vid), 1) for vid in constraint.positive]
            + [self.equals_value(self.var(vid), 0) for vid in constraint.negative]
        )

    def _knapsack(self, constraint: typed.Knapsack) -> None:
        self.post_condition(self.weighted(constraint.items, constraint.weights), constraint.weight)
        self.post_condition(self.weighted(constraint.items, constraint.profits), constraint.profit)

    # automata

    def _automaton(self, constraint: typed.Automaton) -> None:
        items = [self.term(item) for item in constraint.items]
        self.automaton(items, list(constraint.transitions), constraint.start, list(constraint.finals))

    def automaton(self, items: list, transitions: list[tuple[str, int, str]], start: str, finals: list[str]) -> None:
        """The items read by the automaton, made deterministic first (sets of states), so that each word has
        one run."""
        if not transitions:
            self.model.AddBoolOr([])
            return
        following: dict[tuple[str, int], set[str]] = {}
        for tail, value, head in transitions:
            following.setdefault((tail, value), set()).add(head)
        alphabet = sorted({value for _, value, _ in transitions})
        numbered = {frozenset([start]): 0}
        queue, deterministic = [frozenset([start])], []
        while queue:
            states = queue.pop()
            for value in alphabet:
                heads = frozenset(h for s in states for h in following.get((s, value), ()))
                if heads:
                    if heads not in numbered:
                        numbered[heads] = len(numbered)
                        queue.append(heads)
                    deterministic.append((numbered[states], value, numbered[heads]))
        accepting = [n for states, n in numbered.items() if states & set(finals)]
        self.model.AddAutomaton([self.as_var_term(item) for item in items], 0, accepting, deterministic)


TYPED_HANDLERS = {
    typed.AllDifferent: GlobalConstraints._all_different,
    typed.AllDifferentLists: GlobalConstraints._all_different_lists,
    typed.AllDifferentMatrix: GlobalConstraints._all_different_matrix,
    typed.AllEqual: GlobalConstraints._all_equal,
    typed.AllEqualLists: GlobalConstraints._all_equal_lists,
    typed.Sum: GlobalConstraints._sum,
    typed.Knapsack: GlobalConstraints._knapsack,
    typed.BinPacking: GlobalConstraints._bin_packing,
    typed.Flow: GlobalConstraints._flow,
    typed.Clause: GlobalConstraints._clause,
    typed.Count: GlobalConstraints._count,
    typed.NValues: GlobalConstraints._n_values,
    typed.Cardinality: GlobalConstraints._cardinality,
    typed.Ordered: GlobalConstraints._ordered,
    typed.Lex: GlobalConstraints._lex,
    typed.Instantiation: GlobalConstraints._instantiation,
    typed.Element: GlobalConstraints._element,
    typed.MatrixElement: GlobalConstraints._matrix_element,
    typed.Channel: GlobalConstraints._channel,
    typed.Circuit: GlobalConstraints._circuit,
    typed.Extremum: GlobalConstraints._extremum,
    typed.ArgExtremum: GlobalConstraints._arg_extremum,
    typed.Precedence: GlobalConstraints._precedence,
    typed.Automaton: GlobalConstraints._automaton,
    typed.NoOverlap: GlobalConstraints._no_overlap,
    typed.Cumulative: GlobalConstraints._cumulative,
}
