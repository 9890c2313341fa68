"""Make an exercise folder from a teacher's notebook: `kernelext-grade new NAME --from NOTEBOOK`.

The notebook's `%%puzzle` cells hold the solution; its first code cell binds `data` to an instance. The
folder gets the instructor notebook (solution regions marked, nbgrader's metadata, the first cell reading
`public/`), `exercise.json` (the instructor's model as the checker), `public/` and `hidden/`.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from kernelext.grading.format.answer_checks import REFERENCE
from kernelext.grading.format.notebook import BEGIN, END, QUESTION_TAG, cell_magic

SETUP = ("%load_ext kernelext", "from pycsp3 import *", "from kernelext.grading import load_instance")
_DECLARATIONS = frozenset({"VarArray", "Var"})
_PYCSP3_LOADER = re.compile(r"\bload_json_data\s*\(\s*[\"']([^\"']+\.json)[\"']")
MARK = "kernelext-data: "
_READ_DATA = (
    "MARK = "
    + repr(MARK)
    + """
import json, sys
source = "\\n".join(line for line in sys.stdin.read().splitlines() if not line.lstrip().startswith(("%", "!")))
space = {"__name__": "__main__"}
exec(compile(source, "<first cell>", "exec"), space)
print("\\n" + MARK + json.dumps(space.get("data")))
"""
)


def new_exercise(
    folder: str | Path,
    notebook: str | Path,
    *,
    answer: str | None = None,
    sols: int | str = 1,
    public: tuple[str | Path, ...] = (),
    hidden: tuple[str | Path, ...] = (),
    checker: str = REFERENCE,
) -> list[str]:
    """Make the exercise folder `folder` from `notebook`; the lines saying what was written.

    Arguments:
        answer: the array graded (default: the first array the first `%%puzzle` cell declares).
        sols: 1, or "all" (every solution is graded).
        public, hidden: more instance files (`{"data": ...}`, or the data alone), copied in.
        checker: "reference" (the instructor's model), a kind's answer check, or "PATH.py:FUNCTION" (the file
            is copied into the folder).
    """
    import nbformat

    folder, notebook = Path(folder), Path(notebook)
    if folder.exists() and any(folder.iterdir()):
        raise ValueError(f"{folder} already holds files: give a new folder.")
    checks_file = Path(checker.partition(":")[0]) if ":" in checker else None
    if checks_file is not None and not checks_file.is_file():
        raise ValueError(f"--checker {checker}: no file {checks_file}.")
    source = nbformat.read(notebook, as_version=4)
    code = [cell for cell in source.cells if cell.cell_type == "code"]
    if not code or not any(cell_magic(cell.source) == "%%puzzle" for cell in code):
        raise ValueError(f"{notebook} has no `%%puzzle NAME` cell: the model to grade must be in one.")
    style = "pycsp3" if _PYCSP3_LOADER.search(code[0].source) else "json"
    data = _data_of(code[0].source, notebook.parent, style)
    first = _instance_name(code[0].source)
    answer = answer or _declared_array(next(c.source for c in code if cell_magic(c.source) == "%%puzzle"))
    names = [first, *(Path(p).stem for p in public)]
    code[0].source = _setup_cell(code[0].source, first, names)
    _mark_solutions(source)
    for cell in code:
        cell.outputs, cell.execution_count = [], None
    source.metadata.pop("widgets", None)
    (folder / "public").mkdir(parents=True, exist_ok=True)
    (folder / "hidden").mkdir(exist_ok=True)
    nbformat.write(source, folder / "instructor.ipynb")
    if checks_file is not None:
        shutil.copyfile(checks_file, folder / checks_file.name)
        checker = f"{checks_file.name}:{checker.partition(':')[2]}"
    config = {
        "answer": answer,
        "checker": checker,
        "sols": sols,
        "points": {"public": 1, "hidden": 2},
        "time_limit": 30,
        "memory_mb": 2048,
        **({"data": style} if style != "json" else {}),
    }
    (folder / "exercise.json").write_text(json.dumps(config, indent=1) + "\n")
    _write_instance(folder / "public" / f"{first}.json", data)
    for kind, paths in (("public", public), ("hidden", hidden)):
        for path in paths:
            _write_instance(folder / kind / f"{Path(path).stem}.json", _read_instance(Path(path)))
    marked = sum(BEGIN in c.source for c in source.cells)
    told = [
        f"Wrote {folder}/instructor.ipynb: the answer array is {answer!r}, solutions marked in "
        f"{marked} cell{'s' * (marked != 1)}",
        f"Wrote {folder}/exercise.json: answers checked by "
        f"{'the instructor' + chr(39) + 's model' if checker == REFERENCE else checker}",
        f"Wrote {len(names)} public and {len(hidden)} hidden instance(s): {', '.join(names)}",
    ]
    if not hidden:
        told.append(f"Add hidden instances to {folder}/hidden/ (files like {first}.json)")
    return told + [f"Next: kernelext-grade instances {folder}"]


def _data_of(cell: str, where: Path, style: str) -> object:
    """The instance the notebook's first code cell loads: the JSON file it gives pycsp3's `load_json_data`
    (style "pycsp3"), else the `data` it binds, run in a process of its own in the notebook's folder."""
    if style == "pycsp3":
        path = where / _PYCSP3_LOADER.search(cell).group(1)
        if not path.is_file():
            raise ValueError(f"The notebook's first code cell loads {path.name}, which is not beside the notebook.")
        return json.loads(path.read_text())
    try:
        done = subprocess.run(
            [sys.executable, "-c", _READ_DATA], input=cell, capture_output=True, text=True, cwd=where, timeout=120
        )
    except subprocess.TimeoutExpired:
        raise ValueError(
            "The notebook's first code cell ran for more than 120 s: it should only read an instance."
        ) from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise ValueError(f"The notebook's first code cell failed: {last}")
    data = json.loads([line for line in done.stdout.splitlines() if line.startswith(MARK)][-1][len(MARK) :])
    if data is None:
        raise ValueError(
            "The notebook's first code cell must bind `data` to an instance (a dict of plain values), "
            'e.g. data = load_json_data("six.json").'
        )
    return data


def _instance_name(cell: str) -> str:
    """The name of the instance the first cell loads: the stem of the .json file it names, else "first"."""
    found = re.search(r"""["']([^"']+)\.json["']""", cell)
    return Path(found.group(1)).name if found else "first"


def _setup_cell(cell: str, first: str, names: list[str]) -> str:
    """The first cell, binding `data` with `load_instance` instead of as it did."""
    lines = cell.splitlines()
    try:
        tree = ast.parse("\n".join("pass" if line.lstrip().startswith(("%", "!")) else line for line in lines))
    except SyntaxError as error:
        raise ValueError(f"The notebook's first code cell does not parse: line {error.lineno}: {error.msg}") from None
    dropped = {n for node in tree.body if _binds_data(node) for n in range(node.lineno, node.end_lineno + 1)}
    kept = [line for number, line in enumerate(lines, start=1) if number not in dropped and line.strip() not in SETUP]
    loads = f'data = load_instance("{first}")  # or any other file in public/: {", ".join(names)}'
    return "\n".join([*SETUP, *kept, "", loads]).replace("\n\n\n", "\n\n")


def _binds_data(node: ast.stmt) -> bool:
    """Whether the statement binds `data` anywhere in it (`data = ...`, or inside a `with` or an `if`)."""
    return any(isinstance(n, ast.Name) and n.id == "data" and isinstance(n.ctx, ast.Store) for n in ast.walk(node))


def _declared_array(cell: str) -> str:
    """The first name the cell assigns from `VarArray(...)` or `Var(...)`."""
    body = cell.split("\n", 1)[1] if "\n" in cell else ""
    try:
        tree = ast.parse(body)
    except SyntaxError as error:
        raise ValueError(f"The `%%puzzle` cell does not parse: line {(error.lineno or 0) + 1}: {error.msg}.") from None
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "id", "") in _DECLARATIONS
            and isinstance(node.targets[0], ast.Name)
        ):
            return node.targets[0].id
    raise ValueError(
        "The `%%puzzle` cell declares no array with VarArray(...): say which one holds the answer with --answer NAME."
    )


def _mark_solutions(notebook) -> None:
    """Put each step's body and each written answer between solution markers, with nbgrader's metadata."""
    cells = notebook.cells
    step = question = 0
    for index, cell in enumerate(cells):
        if cell.cell_type == "code" and cell_magic(cell.source) in ("%%puzzle", "%%puzzle+"):
            step += 1
            magic, _, body = cell.source.partition("\n")
            if BEGIN not in body:
                cell.source = f"{magic}\n{BEGIN}\n{body.strip(chr(10))}\n{END}"
            cell.metadata["nbgrader"] = _nbgrader(f"step-{step}", solution=True)
        elif cell.cell_type == "markdown" and QUESTION_TAG in cell.metadata.get("tags", []):
            question += 1
            cell.metadata["nbgrader"] = _nbgrader(f"question-{question}", locked=True)
            points = re.search(r"\((\d+(?:\.\d+)?) points?\)", cell.source)
            following = cells[index + 1] if index + 1 < len(cells) else None
            if following is None or following.cell_type != "markdown" or BEGIN in following.source:
                continue
            following.source = f"{BEGIN}\n{following.source.strip()}\n{END}"
            following.metadata["nbgrader"] = _nbgrader(
                f"answer-{question}", solution=True, grade=True, points=float(points.group(1)) if points else 0.0
            )


def _nbgrader(
    grade_id: str, *, solution: bool = False, grade: bool = False, locked: bool = False, points: float | None = None
) -> dict:
    meta = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    return meta if points is None else {**meta, "points": points}


def _read_instance(path: Path) -> dict:
    content = json.loads(path.read_text())
    wrapped = isinstance(content, dict) and "data" in content and set(content) <= {"data", "expected"}
    return content["data"] if wrapped else content


def _write_instance(path: Path, data) -> None:
    path.write_text(json.dumps({"data": data, "expected": {}}) + "\n")
