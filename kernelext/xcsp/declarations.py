"""XCSP3's variables and the lists that name them: domains by variable id, array shapes, compact lists
(`x[0][] y[1..3]`) expanded, and the templates of `group` and `slide` filled in."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ElementTree

from kernelext.errors import Untranslatable
from kernelext.xcsp.values import Intervals, StopSignal, child_text, intervals, tuples


class Declarations:
    """The variables a `<variables>` element declares.

    Arguments:
        holes: the ids of array cells that hold no variable (the file may not mark them, and a compact list
            such as `x[][]` must skip them).
    """

    def __init__(self, holes: frozenset[str] = frozenset()):
        self.holes = holes
        self.domains: dict[str, Intervals] = {}  # every declared variable id -> its intervals
        self.shapes: dict[str, tuple[int, ...]] = {}
        self._rows: dict[tuple[str, int], tuple[tuple, ...]] = {}
        self.stop: StopSignal | None = None  # looked at by a reading's long parts (a large table)

    def table_of(self, text: str, width: int) -> tuple[tuple[tuple, ...], Intervals | None]:
        """A table written `text` over `width` items: its rows (`*` kept) and None, read once for all the tables
        written alike; or, for one item written as values (`1 3..5`), no rows and the values."""
        if width == 1 and "(" not in text:
            return (), intervals(text)
        key = (text, width)
        rows = self._rows.get(key)
        if rows is None:
            rows = self._rows[key] = tuple(tuples(text, width, self.stop))
        return rows, None

    def declare(self, variables) -> None:
        for element in variables if variables is not None else ():
            if element.tag == "var":
                self.domains[element.get("id")] = self._domain_of(element, variables)
            elif element.tag == "array":
                self._declare_array(element, variables)
            else:
                raise Untranslatable(f"<{element.tag}> among the variables")

    def _domain_of(self, element, variables) -> Intervals:
        if element.get("as"):
            source = next((e for e in variables if e.get("id") == element.get("as")), None)
            if source is None:
                raise Untranslatable(f"a domain given as {element.get('as')}")
            return self._domain_of(source, variables)
        if element.get("type", "integer") != "integer":
            raise Untranslatable(f"variables of type {element.get('type')}")
        return intervals(element.text or "")

    def _declare_array(self, element, variables) -> None:
        if element.get("type", "integer") != "integer":
            raise Untranslatable(f"variables of type {element.get('type')}")
        name = element.get("id")
        shape = tuple(int(n) for n in re.findall(r"\[(\d+)\]", element.get("size", "")))
        self.shapes[name] = shape
        cells = [f"{name}{''.join(f'[{i}]' for i in index)}" for index in itertools.product(*map(range, shape))]
        if element.get("as"):  # the domain of another array, given once for all its cells
            source = next((e for e in variables if e.get("id") == element.get("as")), None)
            if source is None or len(source) or source.get("as"):
                raise Untranslatable(f"an array whose domain is given as {element.get('as')}")
            element = source
        parts = list(element)
        if not parts:
            spans = intervals(element.text or "")
            self.domains.update((cell, spans) for cell in cells)
            return
        remaining = set(cells)
        for part in parts:
            targets = (
                sorted(remaining)
                if part.get("for") == "others"
                else self.expand(part.get("for", ""), declared_only=False)
            )
            spans = intervals(part.text or "")
            for cell in targets:
                self.domains[cell] = spans
                remaining.discard(cell)

    def expand(self, text: str, declared_only: bool = True) -> list[str]:
        """The variable ids of a list such as `x[0][] y[1..3] z`, in order (holes left out unless
        `declared_only` is False)."""
        ids = []
        for token in text.split():
            if "[" not in token or ("]" in token and "[]" not in token and ".." not in token):  # one id
                if declared_only and token in self.holes:
                    continue
                if "[" in token and token.partition("[")[0] not in self.shapes:
                    raise Untranslatable(f"the list item {token}")
                ids.append(token)
                continue
            name, _, rest = token.partition("[")
            if not rest:
                ids.append(token)
                continue
            ranges = []
            for part, size in zip(re.findall(r"\[([^\]]*)\]", token), self.shapes.get(name, ())):
                low, _, high = part.partition("..")
                ranges.append(range(size) if part == "" else range(int(low), int(high) + 1) if high else (int(low),))
            if name not in self.shapes or len(ranges) != len(self.shapes[name]):
                raise Untranslatable(f"the list item {token}")
            for index in itertools.product(*ranges):
                vid = f"{name}{''.join(f'[{i}]' for i in index)}"
                if not declared_only or vid not in self.holes:
                    ids.append(vid)
        return ids

    def ids(self, reference: str) -> list[str] | None:
        """The variable ids a reference such as `x[0][]`, `x[1..2][3]` or `z` names (holes left out); None
        when it names no declared variable."""
        if "[" not in reference:
            return [reference] if reference in self.domains else None
        if reference.partition("[")[0] not in self.shapes:
            return None
        try:
            return self.expand(reference)
        except (Untranslatable, ValueError):
            return None

    def written_out(self, text: str) -> str:
        """`text` with every reference to variables written out as the ids it names, one by one."""
        return _REFERENCE.sub(lambda m: " ".join(self.ids(m.group(0)) or [m.group(0)]), text)

    def scope(self, text: str) -> list[str]:
        """The ids of the variables `text` refers to, in order (repeats kept)."""
        return [i for m in _REFERENCE.finditer(text) for i in self.ids(m.group(0)) or ()]

    def tokens(self, text: str) -> list[str]:
        """A list's items, compact forms expanded: `x[0][] 3 0x2` -> ['x[0][0]', 'x[0][1]', ..., '3', '0', '0'];
        numbers and expressions stay as they are."""
        found, domains, holes = [], self.domains, self.holes
        for token in text.split():
            if token in domains and token not in holes:  # a declared id, the most common item
                found.append(token)
                continue
            repeated = re.fullmatch(r"(-?\d+)x(\d+)", token)
            if repeated:
                found += [repeated.group(1)] * int(repeated.group(2))
            else:
                found += [token] if re.fullmatch(r"-?\d+", token) or "(" in token else self.expand(token)
        return found

    def matrix(self, text: str) -> list[list[str]]:
        """A matrix as rows of item texts, given as `(a,b)(c,d)` or as a two-dimensional part of an array
        (`x[][]`, `y[2][][1..3]`)."""
        if "(" in text:
            rows = [[t.strip() for t in row.split(",")] for row in re.findall(r"\(([^)]*)\)", text)]
        else:
            name, _, rest = text.strip().partition("[")
            parts = re.findall(r"\[([^\]]*)\]", "[" + rest)
            free = [k for k, part in enumerate(parts) if part == "" or ".." in part]
            if name not in self.shapes or len(free) != 2 or len(parts) != len(self.shapes[name]):
                raise Untranslatable(f"the matrix {text.strip()[:40]} (not two dimensions of an array)")
            low, _, high = parts[free[0]].partition("..")
            span = range(int(low), int(high) + 1) if high else range(self.shapes[name][free[0]])
            rows = [
                self.expand(
                    name + "".join(f"[{i if k == free[0] else part}]" for k, part in enumerate(parts)),
                    declared_only=False,
                )
                for i in span
            ]
        if not rows or len({len(row) for row in rows}) != 1:
            raise Untranslatable("a matrix whose rows differ in length")
        return rows

    def lex_groups(self, element) -> list[list[str]]:
        """The lists a `<lex>` orders, as groups of list texts: its `<list>`s, or its matrix's rows, then its
        columns."""
        if element.find("matrix") is not None:
            rows = self.matrix(child_text(element, "matrix"))
            return [[" ".join(row) for row in rows], [" ".join(column) for column in zip(*rows)]]
        return [[listed.text or "" for listed in element.findall("list")]]

    def group_members(self, element) -> list:
        """The constraints a `<group>` stands for: its template filled with each `<args>`."""
        template, arguments = self.group_arguments(element)
        return [substitute(template, args) for args in arguments]

    def group_arguments(self, element) -> tuple:
        """A `<group>`'s template and the arguments of each of its `<args>` (None and [] for an empty group)."""
        template, *rest = list(element) or [None]
        for args in rest:
            if args.tag != "args":
                raise Untranslatable(f"<{args.tag}> in a group")
        return template, [self.tokens(args.text or "") for args in rest]

    def slide_members(self, element) -> list:
        """The constraints a `<slide>` stands for: its template on each window of the list."""
        template, windows = self.slide_windows(element)
        return [substitute(template, window) for window in windows]

    def slide_windows(self, element) -> tuple:
        """A `<slide>`'s template and the arguments of each window: `arity` items of the list, windows
        `offset` apart, wrapping round the end when circular (a list may say it collects `arity` items)."""
        lists, template = element.findall("list"), [child for child in element if child.tag != "list"]
        if len(lists) != 1 or len(template) != 1:
            raise Untranslatable("this form of <slide>")
        items, offset, arity = (
            self.tokens(lists[0].text or ""),
            int(lists[0].get("offset", "1")),
            parameters(template[0]),
        )
        if not arity or offset < 1 or not items or lists[0].get("collect", "1") not in ("1", str(arity)):
            raise Untranslatable("this form of <slide>")
        stop = len(items) if element.get("circular") == "true" else len(items) - arity + 1
        return template[0], [
            [items[(start + k) % len(items)] for k in range(arity)] for start in range(0, stop, offset)
        ]


def parameters(template) -> int:
    """How many numbered arguments (`%0`, `%1`...) a template takes: one more than the largest number."""
    return 1 + max((int(i) for part in template.iter() for i in _PARAMETER.findall(part.text or "")), default=-1)


def substitute(element, args: list[str]):
    """A copy of a template with `%i` and `%...` replaced by the arguments."""
    after = parameters(element)

    def fill(text: str | None) -> str | None:
        if text is None or "%" not in text:
            return text
        text = text.replace("%...", " ".join(args[after:]))
        return _PARAMETER.sub(lambda m: args[int(m.group(1))], text)

    def copy(part):
        made = ElementTree.Element(part.tag, part.attrib)
        made.text, made.tail = fill(part.text), part.tail
        made.extend(copy(child) for child in part)
        return made

    return copy(element)


_PARAMETER = re.compile(r"%(\d+)")
_REFERENCE = re.compile(r"[A-Za-z_]\w*(?:\[[^\]\s]*\])*(?!\w|\()")  # `x[0][]`, `x[1..2]`, `z`; not `eq(`


def list_text(element) -> str:
    """The list of a constraint given either as its `<list>` child or as its own text."""
    listed = element.find("list")
    return child_text(element, "list") if listed is not None else element.text or ""
