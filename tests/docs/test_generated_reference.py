"""The teachers' generated reference, without building the pages: the `kernelext-grade` commands' page says every
command and option of the parser the command parses with, and the `exercise.json` page every key `load_exercise`
reads, from the fields it refuses any other key by."""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from kernelext.grading.cli import SUBCOMMANDS, parser
from kernelext.grading.format import exercise as exercise_module
from kernelext.grading.format.exercise import DEFAULTS, FIELDS, OPTIONAL, REQUIRED, load_exercise

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
EXAMPLE = "job_shop"  # the exercise whose exercise.json the page shows
READERS = {"config": "", "spec": "parts[].", "probe": "parts[].probes[]."}  # exercise.py's names for each level


def docs_extension():
    spec = importlib.util.spec_from_file_location("kernelext_docs", ROOT / "docs" / "_ext" / "kernelext_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def subparsers() -> dict[str, argparse.ArgumentParser]:
    [action] = [a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def row(table: list[str], name: str) -> str:
    [line] = [line for line in table if line.startswith(f"| `{name}`")]
    return line


def test_the_commands_page_shows_every_command_with_its_usage_and_help():
    commands = docs_extension().grade_commands()
    assert [c.name for c in commands] == list(SUBCOMMANDS) == list(subparsers())
    for command in commands:
        assert command.usage.startswith(f"kernelext-grade {command.name} "), command.usage
        assert command.help == SUBCOMMANDS[command.name].help.replace("%%", "%"), command.help


def test_the_commands_page_shows_every_argument_with_its_default_choices_and_help():
    commands = {c.name: c for c in docs_extension().grade_commands()}
    for name, sub in subparsers().items():
        arguments = [a for a in sub._actions if "-h" not in a.option_strings]
        table = commands[name].table
        assert len(table) == 2 + len(arguments), f"{name}: {table}"
        for action in arguments:
            shown = row(table, action.option_strings[0] if action.option_strings else action.dest)
            assert f"`{action.dest}`" in shown or all(f"`{o}`" in shown for o in action.option_strings), shown
            assert (action.help or "") in shown
            for choice in action.choices or ():
                assert f"`{choice}`" in shown
            if action.required or not action.option_strings:
                assert "| required |" in shown
            elif isinstance(action.default, str):
                assert f"`{action.default}`" in shown
            if action.metavar:
                assert action.metavar in shown
            assert all(option in commands[name].usage for option in action.option_strings)


def keys_read_by_load_exercise() -> set[str]:
    """The keys exercise.py reads from exercise.json (`config[...]`, `spec.get(...)`, `"answer" not in config`...),
    as the fields name them."""
    tree = ast.parse(Path(exercise_module.__file__).read_text())
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            reader, key = node.value.id, node.slice
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            if not isinstance(node.func.value, ast.Name) or not node.args:
                continue
            reader, key = node.func.value.id, node.args[0]
        elif isinstance(node, ast.Compare) and isinstance(node.comparators[0], ast.Name):
            reader, key = node.comparators[0].id, node.left
        else:
            continue
        if reader in READERS and isinstance(key, ast.Constant) and isinstance(key.value, str):
            keys.add(READERS[reader] + key.value)
    return keys


def test_every_key_load_exercise_reads_has_a_field_with_its_type_and_meaning():
    fields = {field.name: field for field in FIELDS}
    read = keys_read_by_load_exercise()
    assert {"answer", "checker", "data", "points", "parts", "parts[].name", "parts[].probes[].why"} <= read, read
    assert read <= set(fields), read - set(fields)
    assert {"points.public", "points.hidden"} <= set(fields)
    assert all(field.kind and field.meaning for field in FIELDS)
    table = "\n".join(docs_extension().exercise_fields())
    for field in FIELDS:
        assert f"| `{field.name}` | {field.kind} |" in table and field.meaning in table


def test_defaults_are_the_fields_that_have_one_and_stay_read_only():
    assert dict(DEFAULTS) == {
        f.name: f.default for f in FIELDS if "." not in f.name and f.default not in (REQUIRED, OPTIONAL)
    }
    assert "answer" not in DEFAULTS and DEFAULTS["time_limit"] == 30.0
    with pytest.raises(TypeError):
        DEFAULTS["sols"] = "all"


@pytest.mark.parametrize("folder", sorted(p.parent.name for p in EXERCISES.glob("*/exercise.json")))
def test_every_exercise_of_the_kit_has_only_known_keys(folder):
    assert load_exercise(EXERCISES / folder).answer


def test_an_exercise_giving_every_key_loads(tmp_path):
    folder = tmp_path / "picross"
    shutil.copytree(EXERCISES / "picross", folder)
    config = json.loads((folder / "exercise.json").read_text())
    config.update(
        {key: value for key, value in DEFAULTS.items() if key not in config},
        parts=[{**config["parts"][0], "title": "rows"}],
    )
    given = set(config) | {f"points.{k}" for k in config["points"]} | {f"parts[].{k}" for k in config["parts"][0]}
    given |= {f"parts[].probes[].{k}" for k in config["parts"][0]["probes"][0]}
    assert given == {field.name for field in FIELDS}
    (folder / "exercise.json").write_text(json.dumps(config))
    assert load_exercise(folder).parts[0].title == "rows"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"time-limit": 5}, 'unknown key "time-limit" (did you mean "time_limit"?); the keys are answer, checker, '),
        ({"points": {"public": 1, "hiden": 2}}, 'unknown key "points.hiden" (did you mean "hidden"?); the keys are '),
        ({"parts": [{"name": "rows", "tittle": "x"}]}, 'unknown key "parts[].tittle" (did you mean "title"?); the '),
        ({"parts": [{"probes": [{"expected": "sat"}]}]}, 'unknown key "parts[].probes[].expected" (did you mean "e'),
        ({"zzz": 1}, 'unknown key "zzz"; the keys are answer, checker,'),
    ],
)
def test_an_unknown_key_is_refused_in_one_line_naming_the_known_keys(tmp_path, change, said):
    (tmp_path / "exercise.json").write_text(json.dumps({"answer": "x", **change}))
    with pytest.raises(ValueError) as refused:
        load_exercise(tmp_path)
    message = str(refused.value)
    assert said in message and "\n" not in message, message
    level = said.split('"')[1].rpartition(".")[0]
    prefix = f"{level}." if level else ""
    siblings = [f.name.removeprefix(prefix) for f in FIELDS if f.name.startswith(prefix)]
    assert all(name in message for name in siblings if "." not in name), message


def test_the_exercise_json_page_shows_a_real_exercise_json():
    page = (ROOT / "docs" / "reference" / "exercise-json.md").read_text()
    assert f"../../exercises/{EXAMPLE}/exercise.json" in page
    assert (EXERCISES / EXAMPLE / "exercise.json").is_file()
