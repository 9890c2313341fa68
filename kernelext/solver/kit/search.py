"""The kit's own reasoning over a whole model, in pure Python (no solver, no Java: the same in a browser).

The model's constraints are read as rules (`kernelext.solver.kit.reading`); each rule
filters the candidates of its variables (most exactly: generalized arc consistency on that one constraint).
`fixpoint` propagates every rule until none narrows more: the pencil marks. `search` explores the solutions
depth first with that propagation at every node, binary branching on the first variable of smallest domain,
values in increasing order, and records the events `kernelext.insight.search_tree.build_tree` takes.
Draws nothing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from kernelext.errors import ReadingStopped
from kernelext.solver.browser_stop import passed
from kernelext.solver.kit.propagation import MEMORY, TimeUp
from kernelext.solver.kit.reading import rule_of
from kernelext.solver.kit.rules import AllDifferentList, Rule
from kernelext.xcsp.subsets import XcspModel, XmlConstraint
from kernelext.xcsp.values import StopSignal

Candidates = dict[str, frozenset[int]]
REVISED_AGAIN = (AllDifferentList,)  # rules whose filtering may find more after its own removals


@dataclass(frozen=True)
class RuleModel:
    """A model's constraints read as rules, and the candidates its variables start with.

    Attributes:
        rules: the rules of the constraints read, in model order.
        texts: each rule's constraint, readable (`allDifferent(x[0][])`).
        left_out: the constraints not read as a rule (a form the kit's reasoning does not take).
        start: each variable of the rules, its declared values.
        order: the rules' variables in the order the model declares them.
    """

    rules: tuple[Rule, ...]
    texts: tuple[str, ...]
    left_out: tuple[XmlConstraint, ...]
    start: Mapping[str, frozenset[int]]
    order: tuple[str, ...]

    @property
    def left_out_kinds(self) -> tuple[str, ...]:
        """The kinds of the constraints left out (`nValues`, `circuit`...), each once, in model order."""
        return tuple(dict.fromkeys(kind_of(c) for c in self.left_out))


def kind_of(constraint: XmlConstraint) -> str:
    """The kind of a constraint: its XCSP3 element's name (`intension`, `allDifferent`, `nValues`...)."""
    return constraint.element.tag


def read_rules(
    model: XcspModel,
    declared: Mapping[str, Iterable[int]] | None = None,
    also: Iterable[str] = (),
    stop: StopSignal | None = None,
) -> RuleModel:
    """The rules of `model`'s constraints; `declared` gives the variables' values (variable id -> values, in
    declaration order), the model's own declarations where it says nothing; the variables `also` (an
    objective's) are searched too, when no constraint holds them. Raises ReadingStopped once `stop` is set
    (looked at before each constraint and inside large tables)."""
    rules, texts, left_out = [], [], []
    model.declarations.stop = stop
    try:
        for constraint in model.constraints:
            if stop is not None and stop.is_set():
                raise ReadingStopped
            rule = rule_of(constraint, model.declarations)
            if rule is None:
                left_out.append(constraint)
            else:
                rules.append(rule)
                texts.append(constraint.text)
    finally:
        model.declarations.stop = None
    used = dict.fromkeys([*(v for rule in rules for v in rule.scope), *(v for c in left_out for v in c.scope), *also])
    known = {v: frozenset(values) for v, values in (declared or {}).items()}
    if any(v not in known for v in used):
        known = {**_declarations(model), **known}
    order = tuple(v for v in known if v in used)
    return RuleModel(tuple(rules), tuple(texts), tuple(left_out), {v: known[v] for v in order}, order)


def _declarations(model: XcspModel) -> dict[str, frozenset[int]]:
    """The values of every variable the model's `<variables>` declares, by id, in declaration order."""
    return {
        v: frozenset(value for low, high in spans for value in range(low, high + 1))
        for v, spans in model.declarations.domains.items()
    }


class Propagator:
    """The rules of a model, narrowing candidates until a deadline (TimeUp past it); what a rule leaves of given
    candidates is remembered (a search asks the same at many nodes)."""

    def __init__(self, rules: Sequence[Rule], deadline: float):
        self.rules = tuple(rules)
        self.deadline = deadline
        self.filtered: dict = {}
        self.watching: dict[str, tuple[int, ...]] = {}
        self.bound: tuple[int, ...] = ()  # the index of the bound rule (`bind`), once there is one
        for index, rule in enumerate(self.rules):
            self._watch(index, rule)

    def _watch(self, index: int, rule: Rule) -> None:
        for variable in dict.fromkeys(rule.scope):
            self.watching[variable] = (*self.watching.get(variable, ()), index)

    def bind(self, rule: Rule) -> None:
        """Propagate `rule` too from now on, in place of the rule bound before (an objective's bound, tightened
        at each better solution: its scope stays the same)."""
        if not self.bound:
            self.bound = (len(self.rules),)
            self.rules += (rule,)
            self._watch(self.bound[0], rule)
        else:
            self.rules = (*self.rules[:-1], rule)
            self.filtered = {key: kept for key, kept in self.filtered.items() if key[0] != self.bound[0]}

    def narrow(self, domains: Candidates, queue: Iterable[int], *, wipe: bool = False) -> int | None:
        """Narrow `domains` in place with the rules `queue` and those they wake, until none narrows more; the
        index of a rule that left no value (None when none did). With `wipe`, a rule with no solution left
        empties its variables (else they stay as they were when it failed). What was narrowed before a TimeUp
        stays narrowed."""
        pending = deque(dict.fromkeys(queue))
        queued = dict.fromkeys(pending)
        while pending:
            if passed(self.deadline):
                raise TimeUp
            index = pending.popleft()
            del queued[index]
            rule = self.rules[index]
            after = self.filter(index, tuple(domains[v] for v in rule.scope))
            if after is None:
                if wipe:
                    for variable in rule.scope:
                        domains[variable] = frozenset()
                return index
            emptied = False
            for variable, kept in zip(rule.scope, after):
                narrowed = domains[variable] & kept  # a variable twice in a scope keeps what both allow
                if narrowed == domains[variable]:
                    continue
                domains[variable] = narrowed
                emptied = emptied or not narrowed
                for other in self.watching[variable]:
                    if other not in queued and (other != index or isinstance(rule, REVISED_AGAIN)):
                        pending.append(other)
                        queued[other] = None
            if emptied:
                return index
        return None

    def filter(self, index: int, before: tuple[frozenset[int], ...]) -> tuple[frozenset[int], ...] | None:
        """What rule `index` leaves of the candidates `before` of its scope (None: no solution of it)."""
        key = index, before
        found = self.filtered.get(key, key)
        if found is key:
            if len(self.filtered) >= MEMORY:
                self.filtered.clear()
            found = self.filtered[key] = self.rules[index].filter(before)
        return found


@dataclass(frozen=True)
class Fixpoint:
    """The candidates left once every rule is propagated (the pencil marks).

    Attributes:
        domains: each variable of the rules, its values left (empty where propagation wiped it out).
        failed: the constraint that could not hold any more ("" when none).
        complete: False when time ran out first (the values narrowed until then are kept: still a superset of
            the values of the solutions).
        left_out: the kinds of the constraints not read (left out of the propagation).
    """

    domains: Candidates
    failed: str = ""
    complete: bool = True
    left_out: tuple[str, ...] = ()

    @property
    def note(self) -> str:
        """What a reader of these pencil marks should know beyond them, in a few words ("" for nothing)."""
        parts = [f"{self.failed} cannot hold"] if self.failed else []
        if not self.complete:
            parts.append("cut short by the time limit (more with --timeout): propagation may remove more")
        if self.left_out:
            parts.append(f"left out: constraints of kind {', '.join(self.left_out)} (the kit does not read them)")
        return "; ".join(parts)


def fixpoint(model: RuleModel, deadline: float) -> Fixpoint:
    """Every rule of `model` propagated from the declared values until none narrows more (or the deadline)."""
    propagator = Propagator(model.rules, deadline)
    domains = dict(model.start)
    try:
        failed = propagator.narrow(domains, range(len(model.rules)), wipe=True)
    except TimeUp:
        return Fixpoint(domains, complete=False, left_out=model.left_out_kinds)
    return Fixpoint(domains, model.texts[failed] if failed is not None else "", True, model.left_out_kinds)


@dataclass(frozen=True)
class Recording:
    """A search recorded as events for `build_tree`.

    Attributes:
        events: ["+", variable, value, size] a decision (`size`: how many values the variable had), ["-", ...] its
            refutation, ["x"] the last node failed, ["s", {variable: value}] it is a solution.
        stopped: why the search ended before its end: "nodes" (the decision limit), "time", "interrupt"; ""
            when it ended (the whole tree, or as many solutions as asked).
        stats: the search's counts: nodes (the root included), decisions (decisions and refutations), failures,
            solutions.
    """

    events: tuple
    stopped: str = ""
    stats: dict = field(default_factory=dict)

    @property
    def truncated(self) -> bool:
        return bool(self.stopped)


def search(
    model: RuleModel,
    *,
    nodes: int,
    sols: int | None = None,
    deadline: float,
    broken: Callable[[dict], str | None] | None = None,
    record: bool = True,
    better: Callable[[dict], Rule] | None = None,
) -> Recording:
    """Search `model`'s solutions depth first, recording at most `nodes` decisions and refutations.

    At each node every rule is propagated; the first variable of smallest domain (more than one value) is
    decided `x = a` for its smallest value a, then refuted `x != a`. A node where every variable is fixed is a
    solution when `broken` (the model's check: the text of a constraint the assignment breaks, or None) finds
    nothing, else a failure: so the constraints not read as rules (`RuleModel.left_out`) are kept too.

    Arguments:
        nodes: the most decisions and refutations to record.
        sols: stop after this many solutions (None: all).
        deadline: a `time.monotonic()` time; the search stops there.
        broken: the model's check; needed when some constraint is left out.
        record: False keeps only the solutions' events (a solve needs no tree).
        better: branch and bound: given each solution, the rule that only better solutions satisfy (an
            objective's bound); it is propagated at every node from then on, and the search goes on until no
            better solution is left (`sols` is then ignored): the last solution is an optimum when the search
            ends.
    """
    propagator = Propagator(model.rules, deadline)
    events: list[list] = []
    log = events.append if record else lambda event: None  # a solution's event is always kept
    counts = {"nodes": 1, "decisions": 0, "failures": 0, "solutions": 0}
    stopped = ""
    stack: list[tuple[str, str, int, int, Candidates]] = []  # branches to explore, the next one last

    def reached(domains: Candidates) -> bool:
        """Record a node whose propagation succeeded: a solution, or its two branches to come. True when
        enough solutions were found."""
        open_ = [v for v in model.order if len(domains[v]) > 1]
        if not open_:
            assignment = {v: min(domains[v]) for v in model.order}
            if broken is not None and broken(assignment) is not None:
                log(["x"])
                counts["failures"] += 1
                return False
            events.append(["s", assignment])
            counts["solutions"] += 1
            if better is not None:
                propagator.bind(better(assignment))
                return False
            return sols is not None and counts["solutions"] >= sols
        variable = min(open_, key=lambda v: len(domains[v]))  # the first of the smallest
        value, size = min(domains[variable]), len(domains[variable])
        stack.append(("-", variable, value, size, domains))
        stack.append(("+", variable, value, size, domains))
        return False

    try:
        root = dict(model.start)
        if propagator.narrow(root, range(len(model.rules))) is not None:
            log(["x"])
            counts["failures"] += 1
        elif not reached(root):
            while stack:
                if counts["decisions"] >= nodes:
                    stopped = "nodes"
                    break
                sign, variable, value, size, parent = stack.pop()
                log([sign, variable, value, size])
                counts["decisions"] += 1
                counts["nodes"] += 1
                child = dict(parent)
                child[variable] = frozenset((value,)) if sign == "+" else parent[variable] - {value}
                woken = (*propagator.watching.get(variable, ()), *propagator.bound)  # a bound may be newer
                if not child[variable] or propagator.narrow(child, woken) is not None:
                    log(["x"])
                    counts["failures"] += 1
                elif reached(child):
                    break
    except TimeUp:
        stopped = "time"
    except KeyboardInterrupt:
        stopped = "interrupt"
    return Recording(tuple(events), stopped, counts)
