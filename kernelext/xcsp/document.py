"""XCSP3 text parsed into elements and written back: the one place the kit parses a compiled model's XML."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

from kernelext.errors import Untranslatable

Element = ElementTree.Element


def parse_file(path: Path | str) -> Element:
    """The root element of the XCSP3 file at `path`; Untranslatable when it is not XML."""
    try:
        return ElementTree.parse(path).getroot()
    except ElementTree.ParseError as error:
        raise Untranslatable(f"a model file that is not XCSP3 ({error})") from None


def parse_text(text: str | bytes) -> Element:
    """The element an XCSP3 text holds; Untranslatable when it is not XML."""
    try:
        return ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise Untranslatable(f"a text that is not XCSP3 ({error})") from None


def written(element: Element) -> str:
    """The element as XCSP3 text."""
    return ElementTree.tostring(element, encoding="unicode")


def indentation(element: Element, depth: int) -> int:
    """The most bytes pretty-printing adds around `element` at `depth` (the root is at depth 0) and inside it."""
    children = list(element)
    around = (2 * depth + 1) * (2 if children else 1)
    return around + sum(indentation(child, depth + 1) for child in children)
