"""Sphinx extension of kernelext's documentation.

- `puzzle-commands`, `puzzle-help` and `puzzle-config` directives: the magics' reference, generated from the
  kit's code when the pages are built (the commands' table in `kernelext.magic.commands`, the `%%puzzle?` help
  that IPython builds from the magics' docstrings and `magic_arguments`, the `%config PuzzleMagics` traits),
  so that it cannot drift from what the kernel says;
- `support-table` directive: what the checker, CP-SAT, the MiniZinc translation and the kit's own search take of
  each form of constraint, found by giving each form to each of them (`kernelext.solver.support`);
- `grade-cli` and `exercise-json` directives: the teachers' reference of `kernelext-grade` (from its argparse
  parser, `kernelext.grading.cli.parser()`) and of `exercise.json` (from `kernelext.grading.format.exercise.FIELDS`,
  which `load_exercise` reads by); `grade_commands()` and `exercise_fields()` make their text without Sphinx;
- each classroom notebook's page links to the same notebook in the `kernelext-lite` site beside the pages
  (`lite/`, see the publishing guide), by a relative address, when that site was built into the output folder
  before the pages (and holds that notebook); without it the link is left out, as it would lead nowhere;
- myst-nb writes the notebooks it reads (and their image outputs) into `jupyter_execute/` beside the output
  folder: they go into the build's doctree folder instead (inside the output folder unless `-d` says otherwise);
- a notebook of notebooks/ without its link in docs/notebooks/ is a build warning (an error under -W);
- links between notebooks, and from notebooks/README.md (included in the notebooks' index), reach their pages:
  Sphinx follows the links of docs/notebooks/ to notebooks/, and MyST resolves relative links from there.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import NamedTuple

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


def _code(text: str) -> str:
    return f"`{text}`" if text else ""


def markdown_table(header: list[str], rows: list[tuple[str, ...]]) -> list[str]:
    """The lines of a Markdown table (cells are Markdown; a `|` in them is escaped)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(_cell(text) for text in row) + " |" for row in rows]


class Command(NamedTuple):
    """A `kernelext-grade` command as its reference shows it: name, usage line, help, and its arguments' table."""

    name: str
    usage: str
    help: str
    table: list[str]


GRADE_CLI_HEADER = ["argument", "value", "default", "choices", "what it does"]
USAGE_WIDTH = 100  # the usage lines' width, whatever the terminal that builds the pages


def grade_commands() -> list[Command]:
    """Each `kernelext-grade` command, from the parser `kernelext-grade` itself parses with."""
    from kernelext.grading.cli import parser

    top = parser()
    [subparsers] = [action for action in top._actions if isinstance(action, argparse._SubParsersAction)]
    helps = {action.dest: action for action in subparsers._get_subactions()}
    commands = []
    for name, sub in subparsers.choices.items():
        formatter = sub.formatter_class(prog=sub.prog, width=USAGE_WIDTH)
        formatter.add_usage(sub.usage, sub._actions, sub._mutually_exclusive_groups, prefix="")
        rows = [_argument_row(formatter, action) for action in sub._actions if "-h" not in action.option_strings]
        commands.append(
            Command(
                name,
                formatter.format_help().strip(),
                formatter._expand_help(helps[name]),
                markdown_table(GRADE_CLI_HEADER, rows),
            )
        )
    return commands


def _argument_row(formatter: argparse.HelpFormatter, action: argparse.Action) -> tuple[str, ...]:
    """An argument as a row: its name(s), the value it takes, its default, its choices and its help."""
    positional = not action.option_strings
    shown = action.metavar is not None or not (positional or action.choices)  # else the name or choices say it
    value = formatter._format_args(action, action.dest.upper()) if shown else ""
    if action.required or positional:
        default = "required"
    elif action.default is None or action.default == []:
        default = ""
    elif action.nargs == 0:
        default = "off" if action.default is False else "on"
    else:
        default = _code(str(action.default))
    return (
        _code(action.dest) if positional else ", ".join(_code(option) for option in action.option_strings),
        _code(value),
        default,
        ", ".join(_code(str(choice)) for choice in action.choices or ()),
        formatter._expand_help(action) if action.help else "",
    )


EXERCISE_JSON_HEADER = ["key", "type", "default", "what it means"]


def exercise_fields() -> list[str]:
    """The table of `exercise.json`'s keys, from the fields `load_exercise` reads by."""
    from kernelext.grading.format.exercise import FIELDS, Mark

    rows = [
        (
            _code(field.name),
            field.kind,
            f"*{field.default.word}*" if isinstance(field.default, Mark) else _code(json.dumps(field.default)),
            field.meaning,
        )
        for field in FIELDS
    ]
    return markdown_table(EXERCISE_JSON_HEADER, rows)


class PuzzleCommands(SphinxDirective):
    """The `%puzzle COMMAND` line commands, as a table, from `kernelext.magic.commands.COMMANDS`."""

    def run(self):
        from kernelext.magic.commands import COMMANDS, HELP

        rows = [
            (f"`%puzzle {command.usage}`", command.summary, ", ".join(f"`{o}`" for o in command.options) or "none")
            for command in COMMANDS.values()
        ]
        rows.append((f"`%puzzle {HELP[0]}`", HELP[1], "none"))
        return self._table(["command", "what it does", "options it takes"], rows)

    def _table(self, header: list[str], rows: list[tuple[str, ...]]) -> list[nodes.Node]:
        return self._markdown(markdown_table(header, rows), "kernelext.magic.commands")

    def _markdown(self, lines: list[str], source: str) -> list[nodes.Node]:
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source=source), self.content_offset, container)
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


class GradeCli(PuzzleCommands):
    """A section per `kernelext-grade` command: its usage line, its help and its arguments' table."""

    def run(self):
        sections = []
        for command in grade_commands():
            title = f"kernelext-grade {command.name}"
            section = nodes.section("", nodes.title(title, title), ids=[nodes.make_id(title)])
            section["names"].append(nodes.fully_normalize_name(title))
            self.state.document.note_implicit_target(section, section)
            section += nodes.paragraph(command.help, command.help)
            usage = nodes.literal_block(command.usage, command.usage)
            usage["language"] = "text"
            section += usage
            section.extend(self._markdown(command.table, "kernelext.grading.cli"))
            sections.append(section)
        return sections


class ExerciseJson(PuzzleCommands):
    """The keys of `exercise.json`, as a table, from `kernelext.grading.format.exercise.FIELDS`."""

    def run(self):
        return self._markdown(exercise_fields(), "kernelext.grading.format.exercise")


def support_table() -> list[str]:
    """The solvers' support table, form by form, as `kernelext.solver.support` finds it by giving each form to
    each reader."""
    from kernelext.solver.support import READERS, support_rows

    rows = [(name, *(_support_cell(cell) for cell in cells), wrong) for name, *cells, wrong in support_rows()]
    return markdown_table(["form", *(f"`{reader}`" for reader in READERS), "never given to"], rows)


def _support_cell(verdict: str) -> str:
    if verdict in ("yes", "checked at the end"):
        return verdict
    return "refused: " + verdict.replace("<", "\\<")  # `<allEqual>` is a tag's name, not HTML


class SupportTable(PuzzleCommands):
    """What each reader of a compiled model takes, from `kernelext.solver.support`."""

    def run(self):
        return self._markdown(support_table(), "kernelext.solver.support")


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


def lite_notebooks(outdir: str | Path) -> tuple[str, ...]:
    """The names of the classroom notebooks that the browser site in `outdir/lite/` holds, sorted; () when no
    site is there."""
    site = Path(outdir) / LITE.split("/", 1)[0]
    if not (Path(outdir) / LITE).is_file():
        return ()
    return tuple(sorted(path.stem for path in (site / "files" / LITE_FOLDER).glob("*.ipynb")))


def _find_lite_site(app: Sphinx, config) -> None:
    """Which notebooks the browser site beside the pages holds, as a setting: when it changes (a site built or
    removed since the last build), Sphinx reads every page again, so that no page keeps a link that leads
    nowhere, nor misses one."""
    config.kernelext_lite_notebooks = lite_notebooks(app.outdir)


def _execution_folder_in_build(app: Sphinx) -> None:
    """myst-nb's folder of notebooks and outputs (`jupyter_execute/`, beside the output folder) moved into the
    doctree folder: the build writes nothing outside the folders it was given."""
    config = getattr(app.env, "mystnb_config", None)
    if config is not None:
        app.env.mystnb_config = config.copy(output_folder=str(Path(app.doctreedir, "jupyter_execute").resolve()))


def _lite_link(app: Sphinx, doctree: nodes.document) -> None:
    """On a notebook's page, under its title: a link to the same notebook in the browser site, when the site
    built beside the pages holds it."""
    docname = app.env.docname
    if not docname.startswith("notebooks/") or Path(app.env.doc2path(docname)).suffix != ".ipynb":
        return
    name = docname.split("/", 1)[1]
    if name not in app.config.kernelext_lite_notebooks:
        return
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


def _headings_with_levels(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """The captions of a table of contents (in the sidebar and on a page) are headings to a screen reader
    (`role="heading"`): give them a level, as WCAG 2.1 (and axe's rule aria-required-attr) asks. Runs after Furo
    builds the sidebar."""
    for part in ("furo_navigation_tree", "body"):
        if context.get(part):
            context[part] = context[part].replace('role="heading">', 'role="heading" aria-level="2">')


def setup(app: Sphinx) -> dict:
    app.add_directive("puzzle-commands", PuzzleCommands)
    app.add_directive("puzzle-config", PuzzleConfig)
    app.add_directive("puzzle-help", PuzzleHelp)
    app.add_directive("grade-cli", GradeCli)
    app.add_directive("exercise-json", ExerciseJson)
    app.add_directive("support-table", SupportTable)
    app.add_config_value("kernelext_lite_notebooks", (), "env", types=frozenset({tuple}))
    app.connect("config-inited", _find_lite_site)
    app.connect("builder-inited", _execution_folder_in_build, priority=900)  # after myst-nb's own (500)
    app.connect("doctree-read", _lite_link)
    app.connect("doctree-read", _links_into_notebooks)
    app.connect("builder-inited", _check_notebook_links)
    app.connect("html-page-context", _headings_with_levels, priority=900)  # after Furo's own (500)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
