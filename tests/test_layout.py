"""The package's layout, read from its source: one folder per part, parts (and grading's and solver's sub-packages) that import
each other one way only, folders of at most 15 modules, imports at the top of modules, and tests that mirror the
folders."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "kernelext"
MOST_TOP_LEVEL_MODULES = 6
MOST_MODULES_PER_FOLDER = 15


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def part(module: str, package: str = "kernelext") -> str:
    """The part of `package` a module belongs to: its folder right under `package`, or itself for a module right in
    it (`package` itself for its `__init__.py`)."""
    return module[len(package) + 1 :].split(".")[0] if module != package else module


def imports(path: Path, known: dict[str, Path]) -> list[tuple[ast.stmt, str, bool]]:
    """(statement, kit module imported, at the module's top level) for each import of the kit's own modules."""
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name.startswith("kernelext") and name != module_name(path):
                found.append((node, name, id(node) in top))
                break
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: {target for _, target, _ in imports(path, known)} for name, path in known.items()}


def test_the_top_level_holds_few_modules_and_the_rest_sits_in_folders():
    top_level = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(top_level) <= MOST_TOP_LEVEL_MODULES, top_level


def inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


@pytest.mark.parametrize("package", ["kernelext", "kernelext.grading", "kernelext.solver"])
def test_no_part_imports_a_part_that_imports_it_back(package):
    arrows = {
        (part(a, package), part(b, package))
        for a, targets in graph().items()
        if inside(a, package)
        for b in targets
        if inside(b, package) and part(a, package) != part(b, package)
    }
    reach = {p: {b for a, b in arrows if a == p} for p, _ in arrows}
    for start in reach:  # depth-first: a part reached again from itself is a loop
        seen, stack = set(), list(reach[start])
        while stack:
            current = stack.pop()
            assert current != start, f"the parts {start} and {current} import each other (through {seen or 'nothing'})"
            if current not in seen:
                seen.add(current)
                stack.extend(reach.get(current, ()))


def folders() -> list:
    """Each folder of the package that holds modules, named by its path in the package."""
    return [
        pytest.param(folder, id=str(folder.relative_to(PACKAGE)))
        for folder in sorted({path.parent for path in PACKAGE.rglob("*.py")})
    ]


@pytest.mark.parametrize("folder", folders())
def test_a_folder_holds_at_most_15_modules(folder):
    held = sorted(path.name for path in folder.glob("*.py") if path.name != "__init__.py")
    assert len(held) <= MOST_MODULES_PER_FOLDER, f"{folder.relative_to(ROOT)} holds {len(held)} modules: {held}"


def test_each_module_imports_the_kit_at_its_top_or_says_why_not():
    known = modules()
    deferred = []
    for path in known.values():
        text = path.read_text()
        lines = text.splitlines()
        tree = ast.parse(text)
        typing_only = {
            line
            for block in tree.body
            if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
            for line in range(block.lineno, block.end_lineno + 1)
        }
        # each line's enclosing function (an inner function comes later in the walk, and wins)
        starts = {
            line: function.lineno
            for function in ast.walk(tree)
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
            for line in range(function.lineno, function.end_lineno + 1)
        }
        for node, target, at_top in imports(path, known):
            start = starts.get(node.lineno, node.lineno)
            said = any("deferred" in line.lower() for line in lines[start - 1 : node.end_lineno])
            if not at_top and not said and node.lineno not in typing_only:
                deferred.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {target}")
    assert not deferred, "imports inside functions without a comment saying why:\n" + "\n".join(deferred)


@pytest.mark.parametrize(
    ("who", "never"),
    [
        ("kernelext.insight", ("kernelext.widgets", "kernelext.magic", "IPython")),  # algorithms draw nothing
        ("kernelext.steps", ("IPython", "kernelext.magic", "kernelext.widgets")),  # a session runs without a notebook
        ("kernelext.kinds", ("kernelext.solver",)),  # kinds describe, never solve
        ("kernelext.xcsp", ("kernelext.solver", "kernelext.steps")),  # reading XCSP3 is a leaf
        ("kernelext.views", ("kernelext.solver", "kernelext.steps", "kernelext.widgets", "IPython")),  # pure views
    ],
)
def test_the_parts_keep_to_their_jobs(who, never):
    for name, path in modules().items():
        if name == who or name.startswith(who + "."):
            text = path.read_text()
            for node in ast.walk(ast.parse(text)):
                target = (
                    node.module
                    if isinstance(node, ast.ImportFrom)
                    else node.names[0].name
                    if isinstance(node, ast.Import)
                    else None
                )
                assert not (target and target.startswith(never)), f"{name} imports {target}"


def test_algorithms_write_no_markup():
    for path in (PACKAGE / "insight").rglob("*.py"):
        text = path.read_text()
        assert not any(tag in text for tag in ("<svg", "<table", "<div", "<span", 'style="')), path


def test_every_package_has_a_test_folder_with_tests():
    missing = [
        folder.name
        for folder in sorted(PACKAGE.iterdir())
        if (folder / "__init__.py").is_file() and not list((ROOT / "tests" / folder.name).rglob("test_*.py"))
    ]
    assert not missing, f"packages without tests/NAME/: {missing}"


ARCHITECTURE = ROOT / "docs" / "architecture.md"


def named_in_architecture() -> set[str]:
    """The paths `docs/architecture.md` names in backticks: modules (`jvm/warm.py`) and folders (`runs/`)."""
    return set(re.findall(r"`([\w/]+(?:\.py|\.mjs|/))`", ARCHITECTURE.read_text()))


def tails(path: str) -> set[str]:
    """`path` and every shorter path it ends with (`solver/jvm/warm.py`, `jvm/warm.py`, `warm.py`)."""
    parts = path.split("/")
    return {"/".join(parts[k:]) for k in range(len(parts))}


def test_the_architecture_page_names_every_module_and_package():
    named = named_in_architecture()
    folders = {tail for name in named for tail in tails(name.rsplit("/", 1)[0] + "/") if "/" in name.rstrip("/")}
    unnamed = [
        path.relative_to(PACKAGE).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "__init__.py" and not tails(path.relative_to(PACKAGE).as_posix()) & named
    ]
    unnamed += [
        path.parent.relative_to(PACKAGE).as_posix() + "/"
        for path in sorted(PACKAGE.rglob("__init__.py"))
        if path.parent != PACKAGE and not tails(path.parent.relative_to(PACKAGE).as_posix() + "/") & (named | folders)
    ]
    assert not unnamed, f"docs/architecture.md does not name: {', '.join(unnamed)}"


def test_the_architecture_page_names_nothing_that_is_not_there():
    there = set()
    for path in PACKAGE.rglob("*"):
        there |= tails(path.relative_to(PACKAGE).as_posix() + ("/" if path.is_dir() else ""))
    missing = sorted(name for name in named_in_architecture() if name not in there and not (ROOT / name).exists())
    assert not missing, f"docs/architecture.md names what does not exist: {', '.join(missing)}"
