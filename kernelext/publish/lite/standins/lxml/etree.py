"""lxml.etree as pycsp3 uses it: elements, and text with lxml's pretty printing, on xml.etree.ElementTree."""

import copy
from xml.etree.ElementTree import Element, ElementTree, SubElement, indent
from xml.etree.ElementTree import XMLParser as _XMLParser
from xml.etree.ElementTree import fromstring as _fromstring
from xml.etree.ElementTree import tostring as _tostring

__all__ = ["Element", "ElementTree", "SubElement", "XMLParser", "fromstring", "tostring"]


def XMLParser(**_options):
    """A parser; lxml's options (remove_blank_text, ...) are accepted and left to the caller."""
    return _XMLParser()


def fromstring(text, parser=None):
    """The element `text` holds."""
    return _fromstring(text, parser)


def tostring(element, *, pretty_print=False, xml_declaration=False, encoding=None, **_options):
    """`element` as bytes (or str with encoding="unicode"), indented two spaces a level as lxml does with
    pretty_print, where it ends with a line break."""
    if pretty_print:
        element = copy.deepcopy(element)
        indent(element, space="  ")
    text = _tostring(element, encoding="unicode", xml_declaration=xml_declaration)
    if pretty_print:
        text += "\n"
    if encoding in ("unicode", str):
        return text
    return text.encode(encoding or "ascii", "xmlcharrefreplace")
