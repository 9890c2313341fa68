"""What JupyterLab's and Notebook 7's HTML sanitizer keeps in an untrusted notebook, and a check of our HTML.

The lists are the parts of the sanitizer's allow-lists (JupyterLab `packages/apputils/src/sanitizer.ts`)
that the kit may use; the browser tests confirm in JupyterLab itself that grids survive.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

TAGS = {
    "table",
    "tr",
    "td",
    "th",
    "caption",
    "div",
    "span",
    "b",
    "i",
    "s",
    "br",
    "pre",
    "ul",
    "li",
    "p",
    "details",
    "summary",
    "small",
    "sub",
    "sup",
}
ATTRIBUTES = {"style", "title", "colspan", "rowspan"}
STYLES = {
    "background-color": r"#[0-9a-f]+|transparent|[a-z]+",
    "background": r"#[0-9a-f]+",
    "border-color": r"#[0-9a-f]+",
    "border": r"(\s*(\d+(\.\d+)?px|0|solid|dashed|dotted|none|#[0-9a-f]+)){1,3}",
    "border-top": None,
    "border-right": None,
    "border-bottom": None,
    "border-left": None,
    "border-collapse": r"collapse|separate",
    "border-spacing": r"0|\d+px",
    "border-radius": r"\d+(px|%)",
    "box-shadow": r"inset( (0|\d+px)){4} #[0-9a-f]+",
    "box-sizing": r"border-box|content-box",
    "color": r"#[0-9a-f]+",
    "display": r"inline-block|block|inline|table",
    "font-family": r"[A-Za-z ,-]+",
    "font-size": r"\d+px",
    "font-weight": r"bold|normal",
    "height": r"\d+px",
    "width": r"\d+px",
    "min-width": r"\d+px",
    "line-height": r"\d+(\.\d+)?(px)?",
    "margin": r"(\s*(0|\d+px|auto)){1,4}",
    "margin-right": r"\d+px",
    "padding": r"(\s*(0|\d+px)){1,4}",
    "padding-right": r"\d+px",
    "padding-bottom": r"\d+px",
    "position": r"static|relative|absolute",
    "top": r"0|\d+px",
    "left": r"0|\d+px",
    "right": r"0|\d+px",
    "bottom": r"0|\d+px",
    "text-align": r"left|right|center",
    "vertical-align": r"top|middle|bottom|baseline",
    "white-space": r"normal|pre|nowrap|pre-wrap",
    "table-layout": r"auto|fixed",
    "caption-side": r"top|bottom",
    "text-decoration": r"none|line-through",
}
for side in ("top", "right", "bottom", "left"):
    STYLES[f"border-{side}"] = STYLES["border"]


class _Check(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag not in TAGS:
            self.problems.append(f"<{tag}> is removed")
        for name, value in attrs:
            if name not in ATTRIBUTES:
                self.problems.append(f"<{tag} {name}> is removed")
            elif name == "style":
                self.problems += [f"<{tag}> {p}" for p in style_problems(value or "")]


def style_problems(style: str) -> list[str]:
    problems = []
    for declaration in filter(None, (part.strip() for part in style.split(";"))):
        name, _, value = (text.strip() for text in declaration.partition(":"))
        pattern = STYLES.get(name)
        if pattern is None:
            problems.append(f"style {name} is removed")
        elif not re.fullmatch(pattern, value, re.IGNORECASE):
            problems.append(f"style {name}:{value} is removed")
    return problems


def sanitizer_problems(markup: str) -> list[str]:
    """What the sanitizer would remove from `markup` (an empty list: it survives whole)."""
    check = _Check()
    check.feed(markup)
    check.close()
    return check.problems


def tags_in(markup: str) -> list[str]:
    check = _Check()
    check.feed(markup)
    return check.tags
