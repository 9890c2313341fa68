"""Subsets of a model's constraints solved by CP-SAT in memory, what explanations and walkthroughs ask many times
over, with no file written. The questions are asked of one model of every constraint, each enforced by a literal
of its own, read once (a constraint added later is read into it): a subset is the literals assumed, and a
walkthrough's candidates are held as the variables' domains. A subset asked alone (`unsat`, QuickXplain's
checks) is read into a model of its own, only past the constraints it shares with the one before."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import partial

from kernelext.solver.cpsat.module import required_cp_model
from kernelext.solver.cpsat.reader import EnforcedReading, Reading
from kernelext.solver.cpsat.search import run_search
from kernelext.solver.portfolio import usable_cores
from kernelext.xcsp.document import parse_text

# CP-SAT's work before its search, needless on the small models explanations ask about: a 9x9 Sudoku less some
# of its constraints is decided 2 to 3 times faster without it (benchmarks/explanations.py)
QUICK = {"cp_model_presolve": False, "linearization_level": 0, "symmetry_level": 0, "cp_model_probing_level": 0}


class ConstraintSubsets:
    """Constraints (XCSP3 elements, as text) over the declarations `variables` (the `<variables>` element, as
    text), numbered in the order added; `holes` the ids of array cells that hold no variable.

    Raises Untranslatable for a text that is not XCSP3."""

    def __init__(self, variables: str, holes: frozenset[str]):
        self.variables = parse_text(variables)
        self.holes = holes
        self.elements: list = []
        self.reading = Reading()
        self._enforced: EnforcedReading | None = None

    def add(self, constraints: Sequence[str]) -> None:
        """Parse `constraints` (XCSP3 elements, as text), numbered after those added before."""
        self.elements += parse_text(f"<constraints>{''.join(constraints)}</constraints>")

    def unsat(self, ids: Sequence[int], seconds: float) -> bool | None:
        """Whether the constraints `ids` alone have no solution; None when `seconds` ran out first.

        Raises:
            BackendUnsupported: a constraint CP-SAT's reading does not translate.
            KeyboardInterrupt: Stop ended the search.
        """
        found = self.solution(ids, seconds)
        return None if found is None else found is False

    def solution(self, ids: Sequence[int], seconds: float) -> dict[str, int] | bool | None:
        """A solution of the constraints `ids` alone (the values of their variables, by id), read into a model
        of their own; False when there is none; None when `seconds` ran out first. Raises as `unsat`."""
        deadline = time.perf_counter() + seconds
        translated = self.reading.translated(self.variables, [self.elements[k] for k in ids], self.holes)
        unsat, _, solver = _solved(translated.model, deadline)
        if unsat is not False:
            return False if unsat else None
        return {vid: solver.Value(variable) for vid, variable in translated.variables.items()}

    def minimal_conflict(
        self, background: Sequence[int], items: Sequence[tuple[int, ...]], seconds: float
    ) -> list[tuple[int, ...]] | None:
        """A minimal list of `items` (tuples of constraint ids) that has no solution with the constraints
        `background`, found with CP-SAT's unsat cores (`_deletion`) in the model of every constraint (`_whole`);
        None when `seconds` ran out first, or there is a solution.

        Raises:
            BackendUnsupported: a constraint CP-SAT's reading does not translate.
            KeyboardInterrupt: Stop ended the search.
        """
        deadline = time.perf_counter() + seconds
        whole = self._whole()
        literals = [whole.literals[ids[0]] if len(ids) == 1 else _together(whole, ids) for ids in items]
        kept = _deletion(whole.model, [whole.literals[k] for k in background], literals, deadline)
        return None if kept is None else [items[p] for p in kept]

    def conflict_within(
        self, ids: Sequence[int], domains: Mapping[str, Collection[int]], seconds: float, below: int | None = None
    ) -> list[int] | None:
        """A minimal list of the constraints `ids` (earlier ones kept first) that has no solution where each
        variable of `domains` takes one of its values; None when `seconds` ran out first, or there is one.
        Once `below` of them are known to be needed, the list as it stands (one with no solution, maybe not
        minimal). Asked of every constraint added, read once into one model (`_whole`). Raises as
        `minimal_conflict`."""
        deadline = time.perf_counter() + seconds
        whole = self._whole()
        with _held(whole, domains):
            kept = _deletion(whole.model, [], [whole.literals[k] for k in ids], deadline, below)
        return None if kept is None else [ids[p] for p in kept]

    def solution_within(
        self, ids: Sequence[int], domains: Mapping[str, Collection[int]], seconds: float
    ) -> dict[str, int] | bool | None:
        """A solution of the constraints `ids` where each variable of `domains` takes one of its values (the
        values of the model's variables, by id); False when there is none; None when `seconds` ran out first.
        Asked as `conflict_within` is."""
        deadline = time.perf_counter() + seconds
        whole = self._whole()
        with _held(whole, domains):
            whole.model.ClearAssumptions()
            whole.model.AddAssumptions([whole.literals[k] for k in ids])
            unsat, _, solver = _solved(whole.model, deadline)
        if unsat is not False:
            return False if unsat else None
        return {vid: solver.Value(variable) for vid, variable in whole.variables.items()}

    def _whole(self) -> EnforcedReading:
        """Every constraint added, each enforced by a literal of its own (by its number), in one model: those
        added since the last question are read into it."""
        if self._enforced is None:
            self._enforced = EnforcedReading(self.variables, self.holes)
        whole = self._enforced
        if len(whole.literals) < len(self.elements):
            try:
                whole.add([[element] for element in self.elements[len(whole.literals) :]])
            except BaseException:  # a reading cut short is not kept
                self._enforced = None
                raise
        return whole


def _together(whole: EnforcedReading, ids: Sequence[int]):
    """A new literal of `whole` that enforces each of its constraints `ids` (so stands for them together)."""
    literal = whole.model.NewBoolVar("")
    for k in ids:
        whole.model.AddImplication(literal, whole.literals[k])
    return literal


@contextmanager
def _held(whole: EnforcedReading, domains: Mapping[str, Collection[int]]) -> Iterator[None]:
    """The model of `whole` with each variable of `domains` (that it has) held to those values, as declared
    after."""
    proto = whole.model.Proto().variables
    declared = {}
    try:
        for vid, values in domains.items():
            variable = whole.variables.get(vid)
            if variable is not None:
                domain = proto[variable.Index()].domain
                declared[vid] = list(domain)
                domain.clear()
                domain.extend(_intervals(sorted(values)))
        yield
    finally:
        for vid, bounds in declared.items():
            domain = proto[whole.variables[vid].Index()].domain
            domain.clear()
            domain.extend(bounds)


def _intervals(values: list[int]) -> list[int]:
    """Sorted `values` as a CP-SAT domain: the bounds of each run of consecutive values, flat."""
    flat: list[int] = []
    for value in values:
        if flat and flat[-1] == value - 1:
            flat[-1] = value
        else:
            flat += [value, value]
    return flat


def _deletion(model, fixed: list, literals: list, deadline: float, below: int | None = None) -> list[int] | None:
    """The positions of a minimal list of `literals` that, with the `fixed` ones, leaves `model` without a
    solution; None when `deadline` came first, or there is a solution. Once `below` literals are known to be
    needed, the positions of the list as it stands (without a solution, maybe not minimal).

    The literals are dropped one at a time, the latest first, each core found on the way leaving out the
    literals it does not need. Where the kernel may use two cores, the two latest are tried at once, each in a
    copy of the model. KeyboardInterrupt when Stop ended a search."""
    second = model.Clone() if usable_cores() > 1 else None

    def core_of(positions: list[int], on=model, stop: threading.Event | None = None) -> list[int] | bool | None:
        """The positions of `positions` in a core (a list), False when they have a solution, None: unknown;
        asked of the model `on` (the model, or its copy)."""
        on.ClearAssumptions()
        on.AddAssumptions([*fixed, *(literals[p] for p in positions)])
        unsat, core, _ = _solved(on, deadline, stop)
        return [p for p in positions if literals[p].Index() in core] if unsat else unsat

    candidates = core_of(list(range(len(literals))))
    if candidates is None or candidates is False:
        return None
    kept: list[int] = []  # literals every conflict among the candidates needs
    while candidates:
        if below is not None and len(kept) >= below:
            return sorted(kept + candidates)
        tried = candidates.pop()
        following = candidates[-1] if second is not None and candidates else None
        if following is None:
            found, also = core_of(kept + candidates), None
        else:  # the literal after `tried` left out at once, with `tried` kept
            found, also = _at_once(
                partial(core_of, kept + candidates), partial(core_of, kept + candidates[:-1] + [tried], second)
            )
        if found is None:
            return None
        if found is False:
            kept.append(tried)
        else:
            candidates = [p for p in candidates if p in found]
        if also is False and following in candidates:  # needed in a larger set: needed in this smaller one
            candidates.remove(following)
            kept.append(following)
        elif isinstance(also, list) and found is False:  # asked of the set as it stands (`tried` kept): a core
            candidates = [p for p in candidates if p in also]
    return sorted(kept)


def _at_once(first: Callable[[], object], second: Callable[[threading.Event], object]) -> tuple[object, object]:
    """`first()` here and `second(stop)` on a thread, both answers; `stop` is set should `first` fail (Stop)."""
    answer: list = [None]
    stop = threading.Event()

    def run() -> None:
        try:
            answer[0] = second(stop)
        except Exception:  # its search failed: no answer, as when it runs out of time
            answer[0] = None

    helper = threading.Thread(target=run, daemon=True)
    helper.start()
    try:
        found = first()
    except BaseException:
        stop.set()
        raise
    finally:
        helper.join()
    return found, answer[0]


def _solved(model, deadline: float, stop: threading.Event | None = None) -> tuple[bool | None, frozenset[int], object]:
    """Whether `model` has no solution (None when `deadline` came first, or `stop` was set), the indices of its
    assumption literals that suffice for that, and the solver (its values, when there is a solution).
    KeyboardInterrupt when Stop ended the search."""
    solver = required_cp_model().CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False
    solver.parameters.max_time_in_seconds = max(0.001, deadline - time.perf_counter())
    for name, value in QUICK.items():
        setattr(solver.parameters, name, value)
    status, stopped = run_search(solver, model, deadline=deadline, stop=stop)
    if stopped == "interrupted":
        raise KeyboardInterrupt
    name = solver.StatusName(status) if status is not None else "UNKNOWN"
    if name == "INFEASIBLE":
        return True, frozenset(solver.SufficientAssumptionsForInfeasibility()), solver
    return (False if name in ("FEASIBLE", "OPTIMAL") else None), frozenset(), solver
