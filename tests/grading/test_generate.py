"""`kernelext-grade generate`: new instances shaped like one of an exercise's, each with one solution and, when
asked, a walkthrough rating. Everything runs for real, on copies of the shipped exercises; the solutions and
ratings of the written files are checked with sessions of their own."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from kernelext.grading.authoring.generate import GiveUp, generate
from kernelext.grading.authoring.instances import fill_instances
from kernelext.grading.cli import main as cli
from kernelext.grading.format.notebook import read_submission
from kernelext.insight.walkthrough.driver import walkthrough
from kernelext.steps.cell_code import run_source
from kernelext.steps.session import PuzzleSession

EXERCISES = ROOT / "exercises"


def copy_of(name: str, tmp_path: Path) -> Path:
    folder = tmp_path / name
    shutil.copytree(EXERCISES / name, folder)
    return folder


def files_in(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def reference_session(folder: Path, data, solver) -> PuzzleSession:
    """The instructor's model of the exercise in `folder`, with `data` bound."""
    answer = json.loads((folder / "exercise.json").read_text())["answer"]
    model = read_submission(folder / "instructor.ipynb", answer=answer)
    session = PuzzleSession("check", solver=solver)
    for helper in model.helpers:
        run_source(helper, session.namespace, echo=False)
    session.namespace["data"] = data
    for number, step in enumerate(model.steps, start=1):
        session.add_step(step, key=f"step-{number}", solve=False, first_line=2)
    return session


def solutions(folder: Path, data, solver) -> list[dict]:
    """At most two solutions of the reference model on `data`."""
    return list(reference_session(folder, data, solver).solve(sols=2, timeout=60).solutions)


def test_takuzu_instances_are_shaped_like_the_model_and_have_one_solution(tmp_path, solver):
    folder = copy_of("takuzu", tmp_path)
    model = json.loads((folder / "public" / "small.json").read_text())
    out = tmp_path / "new"
    made = generate(exercise_dir=folder, like=folder / "public" / "small.json", count=2, seed=3, out_dir=out)
    assert [m.path for m in made] == [out / "small-gen-3-1.json", out / "small-gen-3-2.json"]
    assert sorted(p.name for p in out.iterdir()) == ["small-gen-3-1.json", "small-gen-3-2.json"]
    grids = []
    for generated in made:
        content = json.loads(generated.path.read_text())
        assert content.keys() == {"data", "expected"} and content["data"].keys() == model["data"].keys()
        grid = content["data"]["grid"]
        assert len(grid) == 4 and all(isinstance(row, str) and len(row) == 4 for row in grid)
        assert set("".join(grid)) <= set(".01") and "." in "".join(grid)
        assert content["expected"] == {"n_solutions": 1}  # hidden: no solutions stored
        [solution] = solutions(folder, content["data"], solver)
        assert all(
            solution[f"x[{i}][{j}]"] == int(c) for i, row in enumerate(grid) for j, c in enumerate(row) if c != "."
        ), grid
        assert generated.given == sum(c != "." for c in "".join(grid)) and generated.cells == 16
        grids.append(grid)
    assert grids[0] != grids[1] and model["data"]["grid"] not in grids


def test_a_sudoku_grid_of_numbers_keeps_its_zeros_and_lands_in_hidden(tmp_path, solver, capsys):
    folder = copy_of("sudoku_boolean", tmp_path)
    assert (
        cli(["generate", str(folder), "--like", str(folder / "public" / "small.json"), "--count", "2", "--seed", "1"])
        == 0
    )
    said = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in said[:2]] == [
        "Wrote hidden/small-gen-1-1.json",
        "Wrote hidden/small-gen-1-2.json",
    ], said
    assert all(line.endswith("cells given, 1 solution (unique)") for line in said[:2])
    assert said[2] == f"Next: kernelext-grade validate {folder}"
    for k in (1, 2):
        content = json.loads((folder / "hidden" / f"small-gen-1-{k}.json").read_text())
        grid = content["data"]["grid"]
        assert len(grid) == 4 and all(
            len(row) == 4 and all(type(v) is int and 0 <= v <= 4 for v in row) for row in grid
        )
        assert any(0 in row for row in grid) and content["expected"] == {"n_solutions": 1}
        [solution] = solutions(folder, content["data"], solver)
        assert all(
            solution[f"y[{i}][{j}][{v - 1}]"] == 1 for i, row in enumerate(grid) for j, v in enumerate(row) if v
        ), grid


def test_kernelext_grade_instances_finds_the_written_files_filled_as_it_fills_them(tmp_path):
    folder = copy_of("takuzu", tmp_path)
    generate(exercise_dir=folder, like="small", count=2, seed=1, out_dir=folder / "public")
    written = {name: (folder / "public" / name).read_bytes() for name in ("small-gen-1-1.json", "small-gen-1-2.json")}
    stored = json.loads(written["small-gen-1-1.json"])["expected"]
    assert stored["n_solutions"] == 1 and len(stored["solutions"]) == 1  # public: its solution stored
    told, problems = fill_instances(folder)
    assert problems == [] and {f"public/{name}: 1 solution (unique)" for name in written} <= set(told)
    assert {name: (folder / "public" / name).read_bytes() for name in written} == written


def test_the_same_seed_writes_the_same_bytes_and_another_seed_other_puzzles(tmp_path):
    folder = copy_of("takuzu", tmp_path)
    runs = {name: tmp_path / name for name in ("first", "again", "other")}
    for name, seed in (("first", 5), ("again", 5), ("other", 6)):
        generate(exercise_dir=folder, like="small", count=2, seed=seed, out_dir=runs[name])
    first, again, other = (files_in(runs[name]) for name in ("first", "again", "other"))
    assert first == again and list(first) == ["small-gen-5-1.json", "small-gen-5-2.json"]
    grids = {
        name: [json.loads(text)["data"]["grid"] for text in files.values()]
        for name, files in (("first", first), ("other", other))
    }
    assert grids["first"] != grids["other"]


def test_files_there_are_never_overwritten_and_a_free_seed_is_the_default(tmp_path):
    folder = copy_of("takuzu", tmp_path)
    out = tmp_path / "new"
    generate(exercise_dir=folder, like="small", count=1, seed=1, out_dir=out)
    before = files_in(out)
    with pytest.raises(ValueError, match=r"small-gen-1-1.json exists already: give another --seed, or another --out"):
        generate(exercise_dir=folder, like="small", count=1, seed=1, out_dir=out)
    assert files_in(out) == before
    [made] = generate(exercise_dir=folder, like="small", count=1, out_dir=out)
    assert made.path == out / "small-gen-2-1.json" and files_in(out).keys() == {
        "small-gen-1-1.json",
        "small-gen-2-1.json",
    }


def test_a_rating_asked_for_is_the_walkthrough_rating_of_the_written_instance(tmp_path, solver):
    folder = copy_of("takuzu", tmp_path)
    [made] = generate(exercise_dir=folder, like="six", count=1, rating="Medium", seed=3, out_dir=tmp_path / "new")
    data = json.loads(made.path.read_text())["data"]
    session = reference_session(folder, data, solver)
    rated = walkthrough(session, timeout=60)
    assert rated.solved and rated.rating.startswith("medium (") and made.rating == rated.rating, rated.header()
    assert len(solutions(folder, data, solver)) == 1


def test_no_puzzle_of_the_level_in_the_tries_allowed_is_said_in_one_line(tmp_path):
    folder = copy_of("takuzu", tmp_path)
    out = tmp_path / "new"
    with pytest.raises(GiveUp) as raised:  # a 4x4 Takuzu is never hard
        generate(exercise_dir=folder, like="small", count=1, rating="hard", seed=1, out_dir=out, tries=2)
    said = re.fullmatch(
        r"no hard puzzle found for small-gen-1-1\.json in 2 tries \(rated (.+)\): try another "
        r"--seed, or another --rating\.",
        str(raised.value),
    )
    assert said, str(raised.value)
    tallies = [part.rsplit(" ", 1) for part in said.group(1).split(", ")]  # "easy 1, medium 1": the tries' ratings
    assert sum(int(n) for _, n in tallies) == 2 and "hard" not in dict(tallies)
    assert not out.exists()


@pytest.mark.parametrize(
    ("exercise", "like"),
    [("picross", "moon"), ("amaze", "first"), ("layout", "square"), ("futoshiki", "first"), ("star_battle", "five")],
)
def test_an_exercise_whose_clues_are_no_grid_of_its_answer_is_refused_in_one_line(tmp_path, capsys, exercise, like):
    folder = copy_of(exercise, tmp_path)
    before = files_in(folder)
    assert cli(["generate", str(folder), "--like", like, "--count", "2"]) == 2
    said = capsys.readouterr()
    answer = json.loads((folder / "exercise.json").read_text())["answer"]
    assert said.out == "" and said.err == (
        f"kernelext-grade generate: {exercise}'s instances have no clue grid shaped like its answer `{answer}` "
        "(a grid where 0, None or '.' is empty): nothing generated.\n"
    )
    assert files_in(folder) == before


@pytest.mark.parametrize(
    ("exercise", "arguments", "message"),
    [
        ("missing", ["--like", "small", "--count", "1"], "No exercise.json in {folder}: give the exercise's folder."),
        (
            "takuzu",
            ["--like", "nine", "--count", "1"],
            ("No instance file nine: give an instance JSON file of takuzu (or the name of one of its instances)."),
        ),
        ("takuzu", ["--like", "small", "--count", "0"], "--count is 0: give how many instances to make (1 or more)."),
        (
            "takuzu",
            ["--like", "small", "--count", "1", "--rating", "tricky"],
            "--rating tricky: unknown level; give one of easy, medium, hard, unfair, extreme.",
        ),
        (
            "sudoku_boolean",
            ["--like", "small", "--count", "1", "--rating", "easy"],
            (
                "--rating needs a walkthrough, which draws 1-D and 2-D arrays, and sudoku_boolean's answer `y` has 3 "
                "dimensions: leave --rating out."
            ),
        ),
    ],
    ids=["no exercise", "no instance", "count 0", "unknown rating", "rating with no drawn answer"],
)
def test_bad_input_is_said_in_one_line_and_nothing_is_written(tmp_path, capsys, exercise, arguments, message):
    folder = copy_of(exercise, tmp_path) if exercise != "missing" else tmp_path / "missing"
    before = files_in(tmp_path)
    assert cli(["generate", str(folder), *arguments]) == 2
    said = capsys.readouterr()
    assert said.out == "" and said.err == f"kernelext-grade generate: {message.format(folder=folder)}\n"
    assert files_in(tmp_path) == before
