"""XCSP3's value texts: domains, value lists, tables, conditions and child elements."""

from __future__ import annotations

import itertools
import re
from typing import Protocol

from kernelext.errors import ReadingStopped, Untranslatable

Intervals = tuple[tuple[int, int], ...]


def intervals(text: str) -> Intervals:
    """An XCSP3 domain or value list as sorted, merged intervals: `1 3 5..9` -> ((1, 1), (3, 3), (5, 9))."""
    spans = []
    for token in text.split():
        low, _, high = token.partition("..")
        try:
            spans.append((int(low), int(high) if high else int(low)))
        except ValueError:
            raise Untranslatable(f"a value that is not an integer ({token})") from None
    merged: list[list[int]] = []
    for low, high in sorted(spans):
        if merged and low <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], high)
        else:
            merged.append([low, high])
    return tuple((low, high) for low, high in merged)


def values(text: str) -> list[int]:
    """The integers of a short XCSP3 value list (coefficients, values), in the order given; `0x5` is 0 five
    times (XCSP3's compact form)."""
    found = []
    for token in text.split():
        low, _, high = token.partition("..")
        value, _, times = low.partition("x")
        try:
            if times:
                found += [int(value)] * int(times)
            else:
                found += list(range(int(low), int(high) + 1)) if high else [int(low)]
        except ValueError:
            raise Untranslatable(f"a value that is not an integer ({token})") from None
    return found


def size(spans: Intervals) -> int:
    return sum(high - low + 1 for low, high in spans)


def boolean(spans: Intervals) -> bool:
    """True when the domain is not empty and within 0..1."""
    return bool(spans) and spans[0][0] >= 0 and spans[-1][1] <= 1


def tuples(text: str, width: int, stop: StopSignal | None = None) -> list[tuple]:
    """The tuples of a table, `*` kept: `(1,*)(2,3)` -> [(1, "*"), (2, 3)]. A large table looks at `stop` as it
    goes, and raises ReadingStopped once it is set."""
    compact = "".join(text.split())
    rows = compact[1:-1].split(")(")
    if (
        width > 0
        and compact[:1] == "("
        and not compact.translate(_TABLE_CHARACTERS)
        and compact.count("(") == compact.count(")") == len(rows)
        and set(map(str.count, rows, itertools.repeat(","))) == {width - 1}
    ):  # the common form, read in one pass: integers or `*`, comma-separated, `width` to a tuple
        tokens = ",".join(rows).split(",")
        try:
            values = _integers(tokens, "*" in compact, stop)
        except ValueError:
            values = None  # a token such as `-` or `1-2`: named by the reading below
        if values is not None:
            return list(zip(*[iter(values)] * width))
    return _tuples_one_by_one(text, width)


class StopSignal(Protocol):
    """What a reading looks at to stop early: a threading.Event, or a deadline (kernelext.solver.portfolio)."""

    def is_set(self) -> bool: ...


CHUNK = 200_000  # values converted between two looks at a stop signal: a few hundredths of a second


def _integers(tokens: list[str], starred: bool, stop: StopSignal | None) -> list[int | str]:
    """The tokens as integers, `*` kept when `starred` (raises ValueError on any other token)."""
    values: list[int | str] = []
    for start in range(0, len(tokens), CHUNK):
        if stop is not None and stop.is_set():
            raise ReadingStopped
        chunk = tokens[start : start + CHUNK]
        values += (t if t == "*" else int(t) for t in chunk) if starred else map(int, chunk)
    return values


_TABLE_CHARACTERS = str.maketrans("", "", "0123456789-,()*")  # deletes what the common form of a table is made of


def _tuples_one_by_one(text: str, width: int) -> list[tuple]:
    """`tuples`, tuple by tuple: any other spelling of the values, and the message naming a wrong tuple."""
    rows = []
    for found in re.findall(r"\(([^)]*)\)", text):
        parts = [p.strip() for p in found.split(",")]
        if len(parts) != width:
            raise Untranslatable("a tuple of the wrong length")
        try:
            rows.append(tuple(p if p == "*" else int(p) for p in parts))
        except ValueError:
            raise Untranslatable(f"the tuple ({found})") from None
    return rows


def expanded_size(rows: list[tuple], columns: list[Intervals], limit: int) -> int:
    """How many tuples `rows` holds once each `*` is expanded over its column (counting stops past `limit`)."""
    total = 0
    for row in rows:
        count = 1
        for value, column in zip(row, columns):
            count *= size(column) if value == "*" else 1
        total += count
        if total > limit:
            break
    return total


def expand_rows(rows: list[tuple], columns: list[Intervals]) -> list[tuple[int, ...]]:
    """The tuples with each `*` replaced by every value of its column (duplicates dropped)."""
    expanded = {}
    for row in rows:
        choices = [
            [v for low, high in column for v in range(low, high + 1)] if value == "*" else (value,)
            for value, column in zip(row, columns)
        ]
        expanded.update(dict.fromkeys(itertools.product(*choices)))
    return list(expanded)


def condition(text: str) -> tuple[str, str]:
    """A condition `(le,y)` as its operator and operand texts: ("le", "y")."""
    found = re.fullmatch(r"\s*\(\s*(\w+)\s*,\s*(.+?)\s*\)\s*", text)
    if found is None:
        raise Untranslatable(f"the condition {text.strip()}")
    return found.group(1), found.group(2)


def child_text(element, tag: str) -> str:
    """The text of `element`'s child `tag`, which must hold no element of its own."""
    child = element.find(tag)
    if child is None:
        raise Untranslatable(f"<{element.tag}> without <{tag}>")
    if len(child):
        raise Untranslatable(f"<{tag}> with nested elements")
    return child.text or ""


def arcs(text: str) -> list[tuple[str, int, str]]:
    """An automaton's or an MDD's transitions: `(q0,1,q1)(q1,0,q1)` -> [("q0", 1, "q1"), ("q1", 0, "q1")]."""
    return [
        (tail, int(value), head)
        for tail, value, head in re.findall(r"\(\s*([^,()\s]+)\s*,\s*(-?\d+)\s*,\s*([^,()\s]+)\s*\)", text)
    ]
