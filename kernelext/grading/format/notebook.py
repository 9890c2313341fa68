"""Notebooks in: extract a student's model from a submission; solution regions and questions of a notebook."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from kernelext.steps.not_rule import not_rule_in

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
PLACEHOLDER = MappingProxyType({"code": "# YOUR CODE HERE", "markdown": "YOUR ANSWER HERE"})
QUESTION_TAG = "question"
_SOLUTION = re.compile(rf"^([ \t]*){re.escape(BEGIN)}.*?^[ \t]*{re.escape(END)}[^\n]*$", re.M | re.S)
_POINTS = re.compile(r"\((\d+(?:\.\d+)?) points?\)")
_HELPER_NODES = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True)
class Submission:
    """A student's model, as read from their notebook.

    Attributes:
        student: who submitted it (the notebook's file name without `.ipynb`).
        steps: the bodies of the last `%%puzzle` cell and the `%%puzzle+` cells after it, in order.
        helpers: the imports, functions and classes of the other code cells, in order.
        problem: why the model cannot be run at all ("" when it can).
        notes: cells that were left out, and why.
        not_rules: for each step, why its `%%puzzle+ --not-rule WHY` line marks it as not a rule of the
            puzzle ("" for a rule; see `kernelext.steps.not_rule`).
    """

    student: str
    steps: tuple[str, ...] = ()
    helpers: tuple[str, ...] = ()
    problem: str = ""
    notes: tuple[str, ...] = ()
    not_rules: tuple[str, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """The steps that are rules of the puzzle: the model that judges answers."""
        marks = self.not_rules or ("",) * len(self.steps)
        return tuple(step for step, mark in zip(self.steps, marks) if not mark)


def read_submission(path: str | Path, *, student: str | None = None, answer: str | None = None) -> Submission:
    """Extract the model of the notebook at `path` (see `extract_model`); a notebook that cannot be read gives a `problem`.

    Arguments:
        student: who submitted it (default: the file name without `.ipynb`).
        answer: the array the exercise asks for, which picks the model among several `%%puzzle` cells.
    """
    import nbformat

    path = Path(path)
    student = student or path.stem
    try:
        notebook = nbformat.read(path, as_version=4)
        code_cells = [str(cell.get("source", "")) for cell in notebook.cells if cell.get("cell_type") == "code"]
    except Exception as error:  # not JSON, not a notebook, unreadable file...
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        return Submission(student, problem=f"the notebook could not be read ({reason[:120]})")
    return extract_model(student, code_cells, answer=answer)


def extract_model(student: str, code_cells: list[str], *, answer: str | None = None) -> Submission:
    """Split code cells into the puzzle's steps (magic lines stripped) and helper definitions.

    The model is the last `%%puzzle NAME` cell that, with the `%%puzzle+` cells after it, declares the
    `answer` array (the last `%%puzzle NAME` cell when none does, or when `answer` is None); other
    `%%puzzle` cells are left out with a note. `%%puzzle+` cells above the first `%%puzzle NAME` cell
    (a declaration cell moved down) are run after it, with a note.
    """
    starts = [i for i, source in enumerate(code_cells) if cell_magic(source) == "%%puzzle"]
    if not starts:
        return Submission(student, problem="the notebook has no `%%puzzle NAME` cell, so there is no model to run")
    groups = {
        start: [start]
        + [
            i
            for i in range(start + 1, _next(starts, start, len(code_cells)))
            if cell_magic(code_cells[i]) == "%%puzzle+"
        ]
        for start in starts
    }
    orphans = [i for i in range(starts[0]) if cell_magic(code_cells[i]) == "%%puzzle+"]
    if orphans:
        groups[starts[0]] = groups[starts[0]][:1] + orphans + groups[starts[0]][1:]
    declaring = [
        start for start in starts if answer and any(declares(_body(code_cells[i]), answer) for i in groups[start])
    ]
    chosen = (declaring or starts)[-1]
    notes = []
    for start in starts:
        if start != chosen:
            why = (
                "a later `%%puzzle` cell starts the model again"
                if not answer
                else f"it does not declare `{answer}`"
                if start not in declaring
                else f"a later `%%puzzle` cell declares `{answer}` too"
            )
            notes.append(
                f"code cell {start + 1} (`{code_cells[start].split(chr(10))[0].strip()}`) and its steps "
                f"were left out: {why}"
            )
    if orphans and chosen == starts[0]:
        cells = ", ".join(str(i + 1) for i in orphans)
        notes.append(
            f"the `%%puzzle+` cells above the `%%puzzle` cell (code cell{'s' * (len(orphans) > 1)} {cells}) "
            "were run after it"
        )
    steps = [_body(code_cells[i]) for i in groups[chosen]]
    not_rules = [not_rule_in(code_cells[i].lstrip().split("\n", 1)[0]) for i in groups[chosen]]
    helpers = []
    for number, source in enumerate(code_cells, start=1):
        if cell_magic(source):
            continue
        try:
            helper = _definitions(source)
        except SyntaxError as error:
            notes.append(f"code cell {number} was left out: line {error.lineno}: SyntaxError: {error.msg}")
            continue
        if helper:
            helpers.append(helper)
    return Submission(student, tuple(steps), tuple(helpers), notes=tuple(notes), not_rules=tuple(not_rules))


def declares(source: str, name: str) -> bool:
    """Whether `source` assigns `name` at its top level (`x = VarArray(...)`, `x, y = ...`)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return re.search(rf"^\s*{re.escape(name)}\s*=", source, re.M) is not None
    targets = [t for node in tree.body if isinstance(node, ast.Assign) for t in node.targets]
    targets += [node.target for node in tree.body if isinstance(node, ast.AnnAssign)]
    while targets:
        target = targets.pop()
        if isinstance(target, ast.Name) and target.id == name:
            return True
        if isinstance(target, (ast.Tuple, ast.List)):
            targets += target.elts
        elif isinstance(target, ast.Starred):
            targets.append(target.value)
    return False


def _next(starts: list[int], start: int, end: int) -> int:
    return next((s for s in starts if s > start), end)


def strip_solutions(source: str, cell_type: str = "code") -> str:
    """Replace each BEGIN/END SOLUTION region (markers included) by the placeholder, keeping its indent."""
    placeholder = PLACEHOLDER.get(cell_type, PLACEHOLDER["code"])
    return _SOLUTION.sub(lambda match: match.group(1) + placeholder, source)


def questions(path: str | Path) -> tuple[tuple[str, float], ...]:
    """("Q1", points), ("Q2", points)... one per markdown cell tagged `question` in the notebook at `path`.

    The points are read from the cell's "(P points)"; a question without them is worth 0.
    """
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    tagged = [
        c for c in notebook.cells if c.cell_type == "markdown" and QUESTION_TAG in c.get("metadata", {}).get("tags", [])
    ]
    found = []
    for number, cell in enumerate(tagged, start=1):
        points = _POINTS.search(cell.source)
        found.append((f"Q{number}", float(points.group(1)) if points else 0.0))
    return tuple(found)


def cell_magic(source: str) -> str:
    """The cell magic a cell starts with ("%%puzzle", "%%puzzle+", "%%time"...), or ""."""
    first = source.lstrip().split("\n", 1)[0]
    return first.split()[0] if first.startswith("%%") else ""


def _body(source: str) -> str:
    return source.lstrip().split("\n", 1)[1] if "\n" in source.lstrip() else ""


def _definitions(source: str) -> str:
    """The top-level imports, functions and classes of a cell (IPython `%` and `!` lines dropped)."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    kept = [node for node in ast.parse("\n".join(lines)).body if isinstance(node, _HELPER_NODES)]
    blocks = []
    for node in kept:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        blocks.append("\n".join(lines[first - 1 : node.end_lineno]))
    return "\n\n".join(blocks)
