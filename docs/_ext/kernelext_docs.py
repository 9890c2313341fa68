"""Sphinx extension of kernelext's documentation.

- `puzzle-commands`, `puzzle-help` and `puzzle-config` directives: the magics' reference, generated from the
  kit's code when the pages are built (the commands' table in `kernelext.magic.commands`, the `%%puzzle?` help
  that IPython builds from the magics' docstrings and `magic_arguments`, the `%config PuzzleMagics` traits),
  so that it cannot drift from what the kernel says;
- each classroom notebook's page links to the same notebook in the `kernelext-lite` site built beside the
  pages (`lite/`, see the publishing guide), by a relative address;
- a notebook of notebooks/ without its link in docs/notebooks/ is a build warning (an error under -W);
- links between notebooks, and from notebooks/README.md (included in the notebooks' index), reach their pages:
  Sphinx follows the links of docs/notebooks/ to notebooks/, and MyST resolves relative links from there.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

LOGGER = logging.getLogger(__name__)
LITE = "lite/lab/index.html"  # the browser site's JupyterLab, beside the pages
LITE_FOLDER = "notebooks"  # where `kernelext-lite build` puts the classroom notebooks in the site


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


class PuzzleCommands(SphinxDirective):
    """The `%puzzle COMMAND` line commands, as a table, from `kernelext.magic.commands.COMMANDS`."""

    def run(self):
        from kernelext.magic.commands import COMMANDS, HELP

        rows = [(f"`%puzzle {command.usage}`", command.summary) for command in COMMANDS.values()]
        rows.append((f"`%puzzle {HELP[0]}`", HELP[1]))
        return self._table(["command", "what it does"], rows)

    def _table(self, header: list[str], rows: list[tuple[str, str]]) -> list[nodes.Node]:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(_cell(text) for text in row) + " |" for row in rows]
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="kernelext.magic.commands"), self.content_offset, container)
        return container.children


class PuzzleConfig(PuzzleCommands):
    """The `%config PuzzleMagics.NAME` settings, from the magics' configurable traits."""

    def run(self):
        from kernelext.magic.magics import PuzzleMagics

        rows = [
            (f"`%config PuzzleMagics.{name} = {trait.default_value!r}`", trait.help)
            for name, trait in sorted(PuzzleMagics.class_traits(config=True).items())
        ]
        return self._table(["setting (its default)", "what it sets"], rows)


class PuzzleHelp(SphinxDirective):
    """What `%%puzzle?` (argument `puzzle`) or `%%puzzle+?` (argument `puzzle+`) shows, as IPython builds it."""

    required_arguments = 1

    def run(self):
        from kernelext.magic.magics import PuzzleMagics

        magics = {"puzzle": (PuzzleMagics.puzzle, "%puzzle"), "puzzle+": (PuzzleMagics.puzzle_step, "%puzzle_step")}
        if self.arguments[0] not in magics:
            raise self.error(f"puzzle-help takes one of {', '.join(magics)}")
        function, usage_name = magics[self.arguments[0]]
        lines = function.__doc__.strip("\n").splitlines()
        if lines and lines[0].strip() == "::":  # magic_arguments' usage block: shown as the magic is typed
            lines = lines[1:]
        text = "\n".join(line[8:] if line.startswith(" " * 8) else line for line in lines).strip("\n")
        text = text.replace(f"  {usage_name} ", f"  %%{self.arguments[0]} ", 1)
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def _lite_link(app: Sphinx, doctree: nodes.document) -> None:
    """On a notebook's page, under its title: a link to the same notebook in the browser site."""
    docname = app.env.docname
    if not docname.startswith("notebooks/") or Path(app.env.doc2path(docname)).suffix != ".ipynb":
        return
    name = docname.split("/", 1)[1]
    up = "../" * docname.count("/")
    href = f"{up}{LITE}?path={LITE_FOLDER}/{name}.ipynb"
    link = nodes.reference("", "Open this notebook in the browser", refuri=href, internal=False)
    para = nodes.paragraph(
        "",
        "",
        link,
        nodes.Text(" (the kernelext-lite site beside these pages: run its cells with nothing installed)."),
        classes=["lite-link"],
    )
    section = next(iter(doctree.findall(nodes.section)), None)
    title = next(iter(section.findall(nodes.title)), None) if section is not None else None
    if title is not None:
        section.insert(section.index(title) + 1, para)
    else:
        doctree.insert(0, para)


def _links_into_notebooks(app: Sphinx, doctree: nodes.document) -> None:
    """A link MyST resolved to notebooks/NAME (outside the pages' folder) points at the page notebooks/NAME."""
    classroom = (Path(app.srcdir).parent / "notebooks").resolve()
    for node in doctree.findall(addnodes.pending_xref):
        target = Path(node.get("reftarget", ""))
        if node.get("reftype") == "myst" and target.is_absolute() and target.parent == classroom:
            docname = f"notebooks/{target.name}"
            if docname in app.env.found_docs:
                node["reftarget"] = docname


def _check_notebook_links(app: Sphinx) -> None:
    """Every classroom notebook has its page: a link docs/notebooks/NAME.ipynb to notebooks/NAME.ipynb."""
    source = Path(app.srcdir)
    classroom = {path.name for path in (source.parent / "notebooks").glob("*.ipynb")}
    linked = {path.name for path in (source / "notebooks").glob("*.ipynb")}
    for name in sorted(classroom - linked):
        LOGGER.warning("notebooks/%s has no page: ln -s ../../notebooks/%s docs/notebooks/%s", name, name, name)
    for name in sorted(linked - classroom):
        LOGGER.warning("docs/notebooks/%s links to no classroom notebook", name)


def setup(app: Sphinx) -> dict:
    app.add_directive("puzzle-commands", PuzzleCommands)
    app.add_directive("puzzle-config", PuzzleConfig)
    app.add_directive("puzzle-help", PuzzleHelp)
    app.connect("doctree-read", _lite_link)
    app.connect("doctree-read", _links_into_notebooks)
    app.connect("builder-inited", _check_notebook_links)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
