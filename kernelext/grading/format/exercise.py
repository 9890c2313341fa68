"""The exercise format: a folder with `exercise.json`, `instructor.ipynb`, `public/` and `hidden/` instances."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from kernelext.grading.format.answer_checks import REFERENCE, resolve
from kernelext.grading.format.notebook import questions

DATA_STYLES = ("json", "pycsp3")


@dataclass(frozen=True)
class Mark:
    """A default that is no value: the key must be given (`REQUIRED`), or may be left out (`OPTIONAL`)."""

    word: str


REQUIRED, OPTIONAL = Mark("required"), Mark("optional")


@dataclass(frozen=True)
class Field:
    """A key of `exercise.json`: its name (`points.public`, `parts[].probes[].fix` for nested keys), its default
    (or `REQUIRED`, `OPTIONAL`), its JSON type and what it means. The docs' reference is made from `FIELDS`."""

    name: str
    default: object
    kind: str
    meaning: str


FIELDS = (
    Field(
        "answer",
        REQUIRED,
        "string",
        "the array whose values are checked; with several `%%puzzle` cells, it picks the model",
    ),
    Field(
        "checker",
        REFERENCE,
        "string",
        '"reference" (the instructor\'s model), "FILE.py:FUNCTION" (a function in the folder) or a kind\'s check',
    ),
    Field("sols", 1, '1 or "all"', 'how many solutions a run asks for; "all": every one is checked and counted'),
    Field("unique", True, "boolean", "with sols 1, each instance must have one solution (`instances` checks it)"),
    Field(
        "data",
        "json",
        '"json" or "pycsp3"',
        "how `data` reaches the model: as dicts and lists, or as `load_json_data` gives it",
    ),
    Field("points", {"public": 1, "hidden": 1}, "object", "the points of each instance, public and hidden (give both)"),
    Field("points.public", REQUIRED, "number", "the points of each public instance"),
    Field("points.hidden", REQUIRED, "number", "the points of each hidden instance"),
    Field("time_limit", 30.0, "number", "wall-clock seconds per run, start included"),
    Field("memory_mb", 2048, "integer", "address-space limit per run, in MB (the JVM heap gets a quarter)"),
    Field("max_timeouts", 2, "integer", "a submission's runs stop after this many time-outs (0: never)"),
    Field("budget", None, "number or null", "seconds of runs a submission may use in all (null: no budget)"),
    Field("strict_indexing", False, "boolean", "an index past an array's end fails the run (pycsp3 wraps it round)"),
    Field(
        "audit_rules",
        True,
        "boolean",
        "`validate` looks for unmarked steps of the reference that refuse a right answer",
    ),
    Field("parts", [], "list of objects", "graded parts of the model, each checked by probes on one public instance"),
    Field("parts[].name", REQUIRED, "string", "the part's name: its column in grades.csv, and for `--only`"),
    Field("parts[].title", OPTIONAL, "string", "what the feedback calls the part (left out: its name)"),
    Field("parts[].points", REQUIRED, "number", "the part's points, all or nothing"),
    Field("parts[].instance", REQUIRED, "string", "the public instance the probes run on (its file name, no .json)"),
    Field("parts[].probes", REQUIRED, "list of objects", "the part passes when all its probes do"),
    Field("parts[].probes[].fix", REQUIRED, "object", 'arrays fixed to values, by name: `{"x": [[...]]}`'),
    Field("parts[].probes[].expect", REQUIRED, '"sat" or "unsat"', "whether the model must then have a solution"),
    Field("parts[].probes[].why", REQUIRED, "string", "the feedback when the model does otherwise"),
)
DEFAULTS = MappingProxyType(
    {field.name: field.default for field in FIELDS if "." not in field.name and not isinstance(field.default, Mark)}
)


@dataclass(frozen=True)
class Instance:
    """One instance: the `data` the model reads and the `expected` facts the checker may use."""

    name: str
    hidden: bool
    data: dict
    expected: dict
    points: float


@dataclass(frozen=True)
class Part:
    """A graded part of the model (a viewpoint, a channelling...), checked by probes on one public instance.

    Each probe fixes arrays to values (`{"x": [[...]]}`) and says whether the model must then have a
    solution (`"expect": "sat"`) or none (`"unsat"`); `why` is the feedback when it does not.
    """

    name: str
    title: str
    points: float
    instance: Instance
    probes: tuple[dict, ...]


@dataclass(frozen=True)
class Question:
    """A written question, marked by the teacher: its column name ("Q1") and its points."""

    name: str
    points: float


@dataclass(frozen=True)
class Exercise:
    """An exercise's configuration and instances.

    Attributes:
        name: the folder's name.
        folder: the exercise's folder.
        answer: the array holding the answer (its values go to the checker).
        checker: "reference" (the instructor's model), "FILE.py:FUNCTION" (a check in the folder) or a
            kind's answer check (see `kernelext.grading.format.answer_checks`).
        sols: how many solutions to ask for: 1, or "all" (every solution is checked, and counted
            against the instance's `expected.n_solutions`).
        time_limit: wall-clock seconds per instance (start, modelling, solving).
        memory_mb: address-space limit per instance, in MB.
        instances: the public instances, then the hidden ones, each sorted by name.
        questions: the hand-graded written questions.
        parts: the graded parts of the model.
        max_timeouts: a submission's runs stop after this many time-outs (0: never).
        budget: seconds of runs a submission may use in all (None: no budget).
        strict_indexing: an index past the end of an array fails the run (pycsp3 wraps it round otherwise).
        unique: with sols=1, each instance must have one solution (`kernelext-grade instances` checks it).
        data_style: "json" (`data` is the instance's JSON as dicts and lists) or "pycsp3" (as pycsp3's
            `load_json_data` gives it: named tuples, a single value unwrapped).
        audit_rules: `validate` looks for unmarked steps of the reference model that refuse a right answer.
    """

    name: str
    folder: Path
    answer: str
    checker: str
    sols: int | str
    time_limit: float
    memory_mb: int
    instances: tuple[Instance, ...]
    questions: tuple[Question, ...] = ()
    parts: tuple[Part, ...] = ()
    max_timeouts: int = 2
    budget: float | None = None
    strict_indexing: bool = False
    unique: bool = True
    data_style: str = "json"
    audit_rules: bool = True

    @property
    def public(self) -> tuple[Instance, ...]:
        return tuple(i for i in self.instances if not i.hidden)


def load_exercise(
    folder: str | Path,
    *,
    only: list[str] | None = None,
    public_only: bool = False,
    time_limit: float | None = None,
    memory_mb: int | None = None,
    max_timeouts: int | None = None,
    budget: float | None = None,
) -> Exercise:
    """Read an exercise folder.

    Arguments:
        only: keep just the instances and parts with these names.
        public_only: leave the hidden instances out.
        time_limit, memory_mb, max_timeouts, budget: override the configured limits.
    """
    folder = Path(folder)
    config_path = folder / "exercise.json"
    if not config_path.is_file():
        raise FileNotFoundError(f"No exercise.json in {folder}: give the exercise's folder.")
    given = json.loads(config_path.read_text())
    _refuse_unknown_keys(given, config_path)
    config = {**DEFAULTS, **given}
    if "answer" not in config:
        raise ValueError(f'{config_path}: give "answer", the name of the array that holds the answer.')
    resolve(config["checker"], folder)
    if config["data"] not in DATA_STYLES:
        raise ValueError(
            f'exercise.json: "data" is {config["data"]!r}: use "json" (dicts and lists) or '
            '"pycsp3" (as load_json_data gives it).'
        )
    kinds = ("public",) if public_only else ("public", "hidden")
    instances = tuple(
        _instance(path, kind == "hidden", config["points"][kind])
        for kind in kinds
        for path in sorted((folder / kind).glob("*.json"))
    )
    parts = tuple(_part(folder, spec, number) for number, spec in enumerate(config["parts"], start=1))
    if only is not None:
        unknown = sorted(set(only) - {i.name for i in instances} - {p.name for p in parts})
        if unknown:
            raise ValueError(f"No instance or part named {', '.join(unknown)} in {folder}.")
        instances = tuple(i for i in instances if i.name in only)
        parts = tuple(p for p in parts if p.name in only)
    instructor = folder / "instructor.ipynb"
    budget = budget if budget is not None else config["budget"]
    return Exercise(
        folder.resolve().name,
        folder,
        config["answer"],
        config["checker"],
        config["sols"],
        float(time_limit or config["time_limit"]),
        int(memory_mb or config["memory_mb"]),
        instances,
        tuple(Question(*q) for q in questions(instructor)) if instructor.is_file() else (),
        parts,
        int(config["max_timeouts"] if max_timeouts is None else max_timeouts),
        float(budget) if budget else None,
        bool(config["strict_indexing"]),
        bool(config["unique"]),
        config["data"],
        bool(config["audit_rules"]),
    )


def load_instance(name: str, folder: str | Path = "public"):
    """The data of instance `name` (`public/<name>.json` by default), to bind as `data` in a notebook.

    It comes as the exercise's `exercise.json` (beside the folder) says: dicts and lists, or, with
    `"data": "pycsp3"`, as pycsp3's `load_json_data` would give it.
    """
    path = Path(folder) / f"{name}.json"
    if not path.is_file():
        raise FileNotFoundError(f"No instance file {path}: run the notebook from the exercise's folder.")
    config = path.parent.parent / "exercise.json"
    style = json.loads(config.read_text()).get("data", "json") if config.is_file() else "json"
    return bound_data(json.loads(path.read_text())["data"], style)


def bound_data(data, style: str):
    """`data` as a model reads it: unchanged for "json", as `load_json_data` gives it for "pycsp3"."""
    if style != "pycsp3":
        return data
    from pycsp3.compiler import convert_to_namedtuples

    converted = convert_to_namedtuples(data)
    if len(converted) == 0:  # as load_json_data does
        return None
    return converted[0] if len(converted) == 1 else converted


def _part(folder: Path, spec: dict, number: int) -> Part:
    where = f"exercise.json, part {number}"
    missing = [key for key in ("name", "points", "instance", "probes") if key not in spec]
    if missing:
        raise ValueError(f"{where}: give its {', '.join(missing)}.")
    path = folder / "public" / f"{spec['instance']}.json"
    if not path.is_file():
        raise ValueError(f"{where}: its instance must be a public one; there is no {path}.")
    for probe in spec["probes"]:
        if (
            probe.get("expect") not in ("sat", "unsat")
            or not isinstance(probe.get("fix"), dict)
            or not probe.get("why")
        ):
            raise ValueError(
                f'{where}: each probe needs "fix" (arrays to values), "expect" (sat or unsat) '
                'and "why" (the feedback when the model does otherwise).'
            )
    return Part(
        spec["name"],
        spec.get("title", spec["name"]),
        float(spec["points"]),
        _instance(path, False, float(spec["points"])),
        tuple(spec["probes"]),
    )


def _instance(path: Path, hidden: bool, points: float) -> Instance:
    content = json.loads(path.read_text())
    return Instance(path.stem, hidden, content["data"], content.get("expected", {}), points)


def _refuse_unknown_keys(config: dict, path: Path) -> None:
    """A key that no `Field` names (a typo such as "time-limit") is refused, not ignored."""
    points = [config["points"]] if isinstance(config.get("points"), dict) else []
    parts = [part for part in config.get("parts") or () if isinstance(part, dict)]
    probes = [probe for part in parts for probe in part.get("probes") or () if isinstance(probe, dict)]
    for prefix, objects in (("", [config]), ("points.", points), ("parts[].", parts), ("parts[].probes[].", probes)):
        known = [f.name.removeprefix(prefix) for f in FIELDS if f.name.startswith(prefix)]
        known = [name for name in known if "." not in name]
        for key in (key for each in objects for key in each if key not in known):
            close = difflib.get_close_matches(key, known, n=1)
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            raise ValueError(f'{path}: unknown key "{prefix}{key}"{hint}; the keys are {", ".join(known)}.')
