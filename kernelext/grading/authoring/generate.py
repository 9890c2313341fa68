"""New instances of an exercise, for a new term: `kernelext-grade generate EXERCISE --like INSTANCE --count N`.

For an exercise whose instances give cells of the answer in a clue grid (see `clue_grid`), with the reference
model alone: from an empty grid, random cells get random values the model allows until the solution is unique;
clues are then removed in a random order while it stays unique (a minimal puzzle). With a rating asked for, the
walkthrough rates it: a harder puzzle gets clues of its solution back until its rating comes down, an easier
one is dropped for a new try. Each try has its own random generator, seeded from the seed, the file's number
and the try's, so a seed gives the same files.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kernelext.grading.authoring.clue_grid import ClueGrid, Index, find_clue_grid
from kernelext.grading.authoring.instances import expected_facts
from kernelext.grading.authoring.reference_here import ReferenceHere
from kernelext.grading.format.answer_checks import ExerciseFault
from kernelext.grading.format.exercise import load_exercise
from kernelext.grid import drawable
from kernelext.insight.walkthrough.driver import walkthrough
from kernelext.insight.walkthrough.techniques import LEVELS

MAX_TRIES = 20  # puzzles made for one file before giving up (by default)
ORDERS = 3  # random orders in which a try adds clues back to bring its rating down
WALKTHROUGH_TIMEOUT = 60.0  # seconds for each walkthrough that rates a puzzle
UNRATED = "unrated"  # a puzzle the walkthrough does not solve (time ran out, or constraints it cannot read)
PROGRAM = "kernelext-grade generate"


@dataclass(frozen=True)
class Generated:
    """An instance file written: its path, how many of its cells are given, what `instances` says of it (its
    number of solutions) and its walkthrough's rating ("" when no rating was asked for)."""

    path: Path
    given: int
    cells: int
    facts: str
    rating: str

    def line(self, folder: Path) -> str:
        try:
            shown = self.path.resolve().relative_to(folder.resolve())
        except ValueError:
            shown = self.path
        rating = f"; difficulty: {self.rating}" if self.rating else ""
        return f"Wrote {shown}: {self.given} of {self.cells} cells given, {self.facts}{rating}"


class GiveUp(Exception):
    """No puzzle fits a file within the tries allowed."""


def generate(
    *,
    exercise_dir: str | Path,
    like: str | Path,
    count: int,
    rating: str | None = None,
    seed: int | None = None,
    out_dir: str | Path | None = None,
    tries: int = MAX_TRIES,
    progress: Callable[[Generated], None] | None = None,
) -> tuple[Generated, ...]:
    """Write `count` new instances shaped like `like` (an instance file of the exercise, or its name) into
    `out_dir` (default: the exercise's `hidden/`), each with one solution and, when `rating` is given (easy,
    medium, hard, unfair or extreme), a walkthrough rated so; return what was written, in order.

    Files are named `<like>-gen-<seed>-<k>.json`; `seed` defaults to the first one whose files do not exist.
    Each file is written as soon as it is made (`progress` is called with it). Raises ValueError or
    FileNotFoundError, in one line, for bad input or an exercise whose instances have no clue grid (nothing
    written), and GiveUp when no puzzle fits a file in `tries` tries (the files before it stay written).
    """
    exercise = load_exercise(exercise_dir)
    level = _level(rating)
    if count < 1:
        raise ValueError(f"--count is {count}: give how many instances to make (1 or more).")
    like_path = _like_path(exercise, like)
    try:
        content = json.loads(like_path.read_text())
    except ValueError as error:
        raise ValueError(f"{like_path} is not JSON ({error}): give an instance file of {exercise.name}.") from None
    if not isinstance(content, dict) or "data" not in content:
        raise ValueError(f'{like_path} is not an instance file: give one holding {{"data": ..., "expected": ...}}.')
    out = Path(out_dir) if out_dir is not None else exercise.folder / "hidden"
    public = out.resolve() == (exercise.folder / "public").resolve()
    stem = like_path.stem
    with ReferenceHere(exercise, hidden=not public) as reference:
        grid = _clue_grid(exercise, reference, stem, content["data"])
        if level is not None:
            _check_drawable(exercise, reference, stem, content["data"])
        seed = _free_seed(out, stem) if seed is None else seed
        paths = [out / f"{stem}-gen-{seed}-{k}.json" for k in range(1, count + 1)]
        taken = [p for p in paths if p.exists()]
        if taken:
            raise ValueError(f"{taken[0]} exists already: give another --seed, or another --out.")
        maker = _Maker(reference, grid, content["data"], level, _known_grids(exercise, out, grid), tries)
        made = []
        for k, path in enumerate(paths, start=1):
            try:
                generated = maker.make(path, f"{seed}-{k}")
            except GiveUp as error:
                wrote = f"; wrote {len(made)} of {count}" if made else ""
                raise GiveUp(
                    f"{error}{wrote}: try another --seed" + (", or another --rating" if level else "") + "."
                ) from None
            made.append(generated)
            if progress is not None:
                progress(generated)
    return tuple(made)


class _Maker:
    """Makes puzzles on one clue grid, each checked and written as `kernelext-grade instances` would."""

    def __init__(
        self, reference: ReferenceHere, grid: ClueGrid, data: dict, level: str | None, known: set[str], tries: int
    ):
        self.reference, self.grid, self.data, self.level = reference, grid, data, level
        self.known, self.tries = known, tries
        self.choices = {
            cell: values
            for cell, values in grid.choices(reference.domains("empty", grid.with_clues(data, {}))).items()
            if values
        }

    def make(self, path: Path, seed: str) -> Generated:
        """Write one puzzle to `path`, trying puzzles seeded from `seed` until one fits."""
        rated: Counter = Counter()  # the levels of the tries that did not fit
        again = 0  # tries that made a puzzle the exercise has already
        for attempt in range(self.tries):
            rng = random.Random(f"{seed}-{attempt}")
            seen: list = []
            clues, solution = self._unique(path.stem, rng, seen)
            clues = self._minimal(path.stem, clues, rng, seen)
            rating = ""
            if self.level is not None:
                clues, rating = self._rated(path.stem, clues, solution, rng)
                if clues is None:
                    rated[rating] += 1
                    continue
            data = self.grid.with_clues(self.data, clues)
            written = json.dumps(data[self.grid.key])
            if written in self.known:
                again += 1
                continue
            instance = self.reference.instance(path.stem, data)
            facts, line = expected_facts(self.reference.exercise, self.reference.check, instance)
            if facts is None:
                raise ExerciseFault(f"{path.name}: {line}")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"data": data, "expected": facts}) + "\n")
            self.known.add(written)
            return Generated(path, len(clues), len(self.grid.values(solution)), line, rating)
        tried = [f"rated {', '.join(f'{word} {n}' for word, n in rated.most_common())}"] if rated else []
        tried += [f"{again} made already"] if again else []
        wanted = f"{self.level} puzzle" if self.level else "new puzzle"
        raise GiveUp(f"no {wanted} found for {path.name} in {self.tries} tries ({'; '.join(tried)})")

    def count(self, name: str, clues: dict[Index, int], seen: list) -> tuple[int, list]:
        """How many solutions (0, 1 or 2 for more) the model has with `clues`, and those found. `seen`: the
        solutions found so far in this try (cells to values), to which those found are added; two of them that
        fit the clues say there are several without a solve."""
        fitting = [answer for answer, values in seen if all(values[c] == v for c, v in clues.items())]
        if len(fitting) >= 2:
            return 2, fitting[:2]
        answers = self.reference.solutions(name, self.grid.with_clues(self.data, clues))["answers"]
        known = {json.dumps(answer) for answer, _ in seen}
        seen += [(answer, self.grid.values(answer)) for answer in answers if json.dumps(answer) not in known]
        return len(answers), answers

    def _unique(self, name: str, rng: random.Random, seen: list) -> tuple[dict[Index, int], list]:
        """Clues with a unique solution, from an empty grid, and that solution: a random cell gets a random
        value the model allows, until the solution is unique."""
        clues: dict[Index, int] = {}
        found, answers = self.count(name, clues, seen)
        if found == 0:
            raise ExerciseFault(f"the reference model has no solution with an empty {self.grid.key}")
        free = [cell for cell in self.choices]
        while found > 1:
            if not free:
                raise ExerciseFault(f"the clues {self.grid.key} can hold do not make the solution unique")
            cell = free.pop(rng.randrange(len(free)))
            for value in rng.sample(self.choices[cell], len(self.choices[cell])):
                tried, tried_answers = self.count(name, {**clues, cell: value}, seen)
                if tried:
                    clues[cell], found, answers = value, tried, tried_answers
                    break
        return clues, answers[0]

    def _minimal(self, name: str, clues: dict[Index, int], rng: random.Random, seen: list) -> dict[Index, int]:
        """`clues` without those whose removal keeps the solution unique, tried in a random order."""
        for cell in rng.sample(sorted(clues), len(clues)):
            fewer = {c: v for c, v in clues.items() if c != cell}
            if self.count(name, fewer, seen)[0] == 1:
                clues = fewer
        return clues

    def _rated(
        self, name: str, clues: dict[Index, int], solution, rng: random.Random
    ) -> tuple[dict[Index, int] | None, str]:
        """`clues`, with as few of the solution's cells added as bring the walkthrough's rating down to the level
        asked for (cells added in up to ORDERS random orders), and that rating; (None, the level reached) when
        it cannot be had that way."""
        target = LEVELS.index(self.level)
        rating = self._rating(name, clues)
        if _rank(rating) <= target:
            return (clues, rating) if _rank(rating) == target else (None, _word(rating))
        values = self.grid.values(solution)
        for _ in range(ORDERS):
            extra = [cell for cell in rng.sample(sorted(self.choices), len(self.choices)) if cell not in clues]
            more, rating = self._added(name, clues, {c: values[c] for c in extra}, rating, target)
            if more is not None:
                return more, rating
        return None, _word(rating)

    def _added(
        self, name: str, clues: dict[Index, int], extra: dict[Index, int], rating: str, target: int
    ) -> tuple[dict[Index, int] | None, str]:
        """`clues` and the fewest first cells of `extra` whose rating is at most `target`, by bisection (the rating
        of `clues` alone, above it, is `rating`), if that rating is `target`; else None; and the rating found."""
        order = list(extra)
        ratings = {0: rating}

        def rated(more: int) -> str:
            if more not in ratings:
                ratings[more] = self._rating(name, {**clues, **{c: extra[c] for c in order[:more]}})
            return ratings[more]

        low, high = 0, len(order) - 1  # with all cells given, there is nothing left to rate
        if high <= 0 or _rank(rated(high)) > target:
            return None, rated(max(high, 0))
        while high - low > 1:  # the rating at `low` is above the level, at `high` not
            middle = (low + high) // 2
            if _rank(rated(middle)) > target:
                low = middle
            else:
                high = middle
        if _rank(rated(high)) != target:
            return None, rated(high)
        return {**clues, **{c: extra[c] for c in order[:high]}}, rated(high)

    def _rating(self, name: str, clues: dict[Index, int]) -> str:
        """The walkthrough's rating of the puzzle with `clues` ("" when it does not solve it)."""
        session = self.reference.session(name, self.grid.with_clues(self.data, clues))
        try:
            session.set_show(self.reference.exercise.answer)
            found = walkthrough(session, timeout=WALKTHROUGH_TIMEOUT)
        finally:
            session.close()
        return found.rating if found.solved else ""


def _level(rating: str | None) -> str | None:
    if rating is None:
        return None
    if rating.strip().lower() not in LEVELS:
        raise ValueError(f"--rating {rating}: unknown level; give one of {', '.join(LEVELS)}.")
    return rating.strip().lower()


def _rank(rating: str) -> int:
    """The level of a walkthrough's rating ("medium (naked pair)") as an index of LEVELS; past them if unrated."""
    return LEVELS.index(_word(rating)) if rating else len(LEVELS)


def _word(rating: str) -> str:
    return rating.split(" (")[0] if rating else UNRATED


def _like_path(exercise, like: str | Path) -> Path:
    """The instance file `like` names: a path, or the name of one of the exercise's instances."""
    path = Path(like)
    if path.is_file():
        return path
    for kind in ("public", "hidden"):
        named = exercise.folder / kind / f"{like}.json"
        if named.is_file():
            return named
    raise FileNotFoundError(
        f"No instance file {like}: give an instance JSON file of {exercise.name} (or the name of one of its instances)."
    )


def _clue_grid(exercise, reference: ReferenceHere, name: str, data) -> ClueGrid:
    """The clue grid of the instance `data`, found by solving it; ValueError when it has none (or cannot be used)."""
    reply = reference.solutions(name, data)
    if not reply["answers"]:
        raise ValueError(f"the reference model finds no solution for {name}: give an instance it solves.")
    grid = find_clue_grid(data, reply["answers"][0])
    if grid is None:
        raise ValueError(
            f"{exercise.name}'s instances have no clue grid shaped like its answer `{exercise.answer}` "
            "(a grid where 0, None or '.' is empty): nothing generated."
        )
    if exercise.sols == "all" or reply["objective"]:
        why = f"its model optimises ({reply['objective']})" if reply["objective"] else "it grades every solution"
        raise ValueError(f"{exercise.name}: {why}, and generate makes puzzles with one solution: nothing generated.")
    return grid


def _check_drawable(exercise, reference: ReferenceHere, name: str, data) -> None:
    """ValueError unless the walkthrough can rate the answer array (it draws 1-D and 2-D arrays)."""
    session = reference.session(name, data)
    try:
        info = session.array(exercise.answer)
    finally:
        session.close()
    if info is None or not drawable(info):
        dimensions = len(info.shape) if info is not None else 0
        raise ValueError(
            f"--rating needs a walkthrough, which draws 1-D and 2-D arrays, and {exercise.name}'s answer "
            f"`{exercise.answer}` has {dimensions} dimensions: leave --rating out."
        )


def _free_seed(out: Path, stem: str) -> int:
    """The first seed (from 1) whose files `<stem>-gen-<seed>-*.json` are not in `out`."""
    seed = 1
    while any(out.glob(f"{stem}-gen-{seed}-*.json")):
        seed += 1
    return seed


def _known_grids(exercise, out: Path, grid: ClueGrid) -> set[str]:
    """The clue grids of the exercise's instances and of the instance files in `out`, as JSON texts."""
    known = set()
    for path in [*exercise.folder.glob("public/*.json"), *exercise.folder.glob("hidden/*.json"), *out.glob("*.json")]:
        try:
            data = json.loads(path.read_text()).get("data")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(data, dict) and grid.key in data:
            known.add(json.dumps(data[grid.key]))
    return known
