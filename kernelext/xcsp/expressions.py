"""XCSP3 functional expressions as nested tuples: `eq(x[0],add(y,1))` -> ("eq", ("x[0]", ("add", ("y", 1))))."""

from __future__ import annotations

import re

from kernelext.errors import Untranslatable

_TOKEN = re.compile(r"\s*(?:(-?\d+)|([A-Za-z_][\w]*(?:\[[^\]]*\])*)|(.))")

COMPARISONS = ("lt", "le", "gt", "ge", "eq", "ne")
LOGIC = ("and", "or", "not", "imp", "iff", "xor")
BOOLEAN = frozenset({*COMPARISONS, *LOGIC, "in", "notin"})  # operators whose value is true or false


def written_expression(tree) -> str:
    """The XCSP3 text of a tree `parse_expression` gives: ("add", ("x", 1)) -> `add(x,1)`."""
    if isinstance(tree, tuple):
        operator, args = tree
        return f"{operator}({','.join(written_expression(arg) for arg in args)})"
    return str(tree)


def parse_expression(text: str):
    """`text` as a tree: an int, a variable id (str), or (operator, (argument, ...)); `set()` may be empty.

    Raises:
        Untranslatable: `text` is not a well-formed expression.
    """
    tokens = [(number, name, other) for number, name, other in _TOKEN.findall(text.strip())]
    position = 0

    def node():
        nonlocal position
        if position >= len(tokens):
            raise Untranslatable(f"the expression {text.strip()[:60]}")
        number, name, other = tokens[position]
        position += 1
        if number:
            return int(number)
        if not name:
            raise Untranslatable(f"the expression {text.strip()[:60]}")
        if position < len(tokens) and tokens[position][2] == "(":
            position += 1
            args = []
            while True:
                if tokens[position][2] == ")" and not args and name == "set":
                    position += 1
                    break
                args.append(node())
                separator = tokens[position][2] if position < len(tokens) else ""
                position += 1
                if separator == ")":
                    break
                if separator != ",":
                    raise Untranslatable(f"the expression {text.strip()[:60]}")
            return name, tuple(args)
        return name

    try:
        parsed = node()
    except IndexError:
        raise Untranslatable(f"the expression {text.strip()[:60]}") from None
    if position != len(tokens):
        raise Untranslatable(f"the expression {text.strip()[:60]}")
    return parsed
