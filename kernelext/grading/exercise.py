"""The exercise format: a folder with `exercise.json`, `instructor.ipynb`, `public/` and `hidden/` instances."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from kernelext.grading.checkers import CHECKERS
from kernelext.grading.notebook import question_names

DEFAULTS = MappingProxyType({"sols": 1, "points": {"public": 1, "hidden": 1}, "time_limit": 30.0, "memory_mb": 2048})


@dataclass(frozen=True)
class Instance:
    """One instance: the `data` the model reads and the `expected` facts the checker may use."""

    name: str
    hidden: bool
    data: dict
    expected: dict
    points: float


@dataclass(frozen=True)
class Exercise:
    """An exercise's configuration and instances.

    Attributes:
        name: the folder's name.
        answer: the array holding the answer (its values go to the checker).
        checker: the name of a checker in `kernelext.grading.checkers`.
        sols: how many solutions to ask for: 1, or "all" (every solution is checked, and counted
            against the instance's `expected.n_solutions`).
        time_limit: wall-clock seconds per instance (start, modelling, solving).
        memory_mb: address-space limit per instance, in MB.
        instances: the public instances, then the hidden ones, each sorted by name.
        questions: the column names of the hand-graded written questions.
    """

    name: str
    answer: str
    checker: str
    sols: int | str
    time_limit: float
    memory_mb: int
    instances: tuple[Instance, ...]
    questions: tuple[str, ...] = ()

    @property
    def public(self) -> tuple[Instance, ...]:
        return tuple(i for i in self.instances if not i.hidden)


def load_exercise(folder: str | Path, *, only: list[str] | None = None, public_only: bool = False,
                  time_limit: float | None = None, memory_mb: int | None = None) -> Exercise:
    """Read an exercise folder.

    Arguments:
        only: keep just the instances with these names.
        public_only: leave the hidden instances out.
        time_limit, memory_mb: override the configured limits.
    """
    folder = Path(folder)
    config_path = folder / "exercise.json"
    if not config_path.is_file():
        raise FileNotFoundError(f"No exercise.json in {folder}: give the exercise's folder.")
    config = {**DEFAULTS, **json.loads(config_path.read_text())}
    if config["checker"] not in CHECKERS:
        raise ValueError(f"exercise.json: unknown checker {config['checker']!r} (known: {', '.join(CHECKERS)}).")
    kinds = ("public",) if public_only else ("public", "hidden")
    instances = tuple(_instance(path, kind == "hidden", config["points"][kind])
                      for kind in kinds for path in sorted((folder / kind).glob("*.json")))
    if only is not None:
        unknown = sorted(set(only) - {i.name for i in instances})
        if unknown:
            raise ValueError(f"No instance named {', '.join(unknown)} in {folder}.")
        instances = tuple(i for i in instances if i.name in only)
    instructor = folder / "instructor.ipynb"
    return Exercise(folder.resolve().name, config["answer"], config["checker"], config["sols"],
                    float(time_limit or config["time_limit"]), int(memory_mb or config["memory_mb"]), instances,
                    question_names(instructor) if instructor.is_file() else ())


def load_instance(name: str, folder: str | Path = "public") -> dict:
    """The data of instance `name` (`public/<name>.json` by default), to bind as `data` in a notebook."""
    path = Path(folder) / f"{name}.json"
    if not path.is_file():
        raise FileNotFoundError(f"No instance file {path}: run the notebook from the exercise's folder.")
    return json.loads(path.read_text())["data"]


def _instance(path: Path, hidden: bool, points: float) -> Instance:
    content = json.loads(path.read_text())
    return Instance(path.stem, hidden, content["data"], content.get("expected", {}), points)
