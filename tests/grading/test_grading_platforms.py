"""The platforms teachers use: nbgrader sources and layout, Gradescope/PrairieLearn results.json, HTML feedback, Dask."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from test_grading import EXERCISES, NAMES, PICROSS, make_submissions

from kernelext.grading.cli import main as cli

BIN = Path(sys.executable).parent


def test_instructor_notebooks_are_nbgrader_sources(tmp_path):
    from nbgrader.preprocessors import ClearSolutions

    for name in NAMES:  # nbgrader's own check, on every exercise
        notebook = nbformat.read(EXERCISES / name / "instructor.ipynb", as_version=4)
        ClearSolutions(enforce_metadata=True).preprocess(notebook, {})
    (tmp_path / "source" / "picross").mkdir(parents=True)
    shutil.copyfile(PICROSS / "instructor.ipynb", tmp_path / "source" / "picross" / "picross.ipynb")
    (tmp_path / "nbgrader_config.py").write_text(f"c = get_config()\nc.CourseDirectory.root = {str(tmp_path)!r}\n")
    done = subprocess.run(
        [BIN / "nbgrader", "generate_assignment", "picross", "--no-db"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    released = (tmp_path / "release" / "picross" / "picross.ipynb").read_text()
    assert "BEGIN SOLUTION" not in released and "automaton(rows[i])" not in released


def test_nbgrader_submitted_folders_are_graded_and_an_empty_folder_is_an_error(tmp_path, capsys):
    flat = tmp_path / "flat"
    make_submissions(flat, ["good", "hard_coded"])
    for student in ("good", "hard_coded"):
        folder = tmp_path / "course" / "submitted" / student / "picross"
        folder.mkdir(parents=True)
        shutil.copyfile(flat / f"{student}.ipynb", folder / "picross.ipynb")
    assert cli(["grade", str(PICROSS), str(tmp_path / "course"), str(tmp_path / "out"), "--only", "arrow"]) == 0
    captured = capsys.readouterr()
    progress = sorted(line.split(" ", 1) for line in captured.err.splitlines())  # in the order runs finish
    assert [number for number, _ in progress] == ["[1]", "[2]"]
    assert sorted(text for _, text in progress) == ["good: 2/6 points", "hard_coded: 0/6 points"]
    assert (tmp_path / "out" / "grades.csv").read_text().splitlines() == [
        "student,hidden 1,Q1,Q2,total",
        "good,2,,,2",
        "hard_coded,0,,,0",
    ]
    html = (tmp_path / "out" / "feedback" / "hard_coded.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "<td>hidden 1</td>" in html and "arrow" not in html
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit) as stopped:
        cli(["grade", str(PICROSS), str(tmp_path / "empty"), str(tmp_path / "out2")])
    assert stopped.value.code != 0
    assert "No submissions found" in capsys.readouterr().err and not (tmp_path / "out2").exists()


def test_one_submission_gives_gradescope_and_prairielearn_results(tmp_path):
    notebook = PICROSS / "instructor.ipynb"
    options = ["--only", "moon", "--only", "arrow", "--only", "rows"]
    assert cli(["results", str(PICROSS), str(notebook), str(tmp_path / "gs.json"), *options]) == 0
    gradescope = json.loads((tmp_path / "gs.json").read_text())
    assert gradescope["score"] == gradescope["max_score"] == 5
    assert [(t["name"], t["score"], t["max_score"], t["status"], t["visibility"]) for t in gradescope["tests"]] == [
        ("moon", 1, 1, "passed", "visible"),
        ("hidden 1", 2, 2, "passed", "after_due_date"),
        ("viewpoint x (rows)", 2, 2, "passed", "visible"),
    ]
    assert (
        cli(
            [
                "results",
                str(PICROSS),
                str(notebook),
                str(tmp_path / "pl.json"),
                "--platform",
                "prairielearn",
                "--only",
                "moon",
            ]
        )
        == 0
    )
    prairielearn = json.loads((tmp_path / "pl.json").read_text())
    assert prairielearn["gradable"] is True and prairielearn["score"] == 1.0
    assert prairielearn["tests"] == [
        {"name": "moon", "points": 1.0, "max_points": 1.0, "message": "", "output": "passed"}
    ]


@pytest.fixture
def dask_cluster(tmp_path):
    """A real `dask scheduler` and one `dask worker` (2 threads) on 127.0.0.1; their scheduler address."""
    cluster = tmp_path / "cluster"
    cluster.mkdir()
    started = []
    try:
        started.append(
            subprocess.Popen(
                [
                    BIN / "dask",
                    "scheduler",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    "0",
                    "--no-dashboard",
                    "--scheduler-file",
                    "scheduler.json",
                ],
                cwd=cluster,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
        deadline = time.monotonic() + 60
        while not (cluster / "scheduler.json").is_file() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads((cluster / "scheduler.json").read_text())["address"]
        started.append(
            subprocess.Popen(
                [
                    BIN / "dask",
                    "worker",
                    address,
                    "--nthreads",
                    "2",
                    "--nworkers",
                    "1",
                    "--no-dashboard",
                    "--local-directory",
                    str(cluster / "scratch"),
                ],
                cwd=cluster,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
        yield address
    finally:
        for process in reversed(started):
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=60)


def test_dask_option_grades_on_a_real_scheduler_and_worker_like_the_local_pool(dask_cluster, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_submissions(tmp_path / "in", ["good", "hard_coded", "exits"])
    common = [str(PICROSS), str(tmp_path / "in")]
    options = ["--only", "moon", "--only", "arrow", "--quiet"]
    assert cli(["grade", *common, str(tmp_path / "local"), *options]) == 0
    assert cli(["grade", *common, str(tmp_path / "dask"), *options, "--dask", dask_cluster]) == 0
    files = sorted(p.relative_to(tmp_path / "local") for p in (tmp_path / "local").rglob("*") if p.is_file())
    assert len(files) == 7  # grades.csv, and a text and an HTML feedback per student
    for path in files:
        assert (tmp_path / "local" / path).read_text() == (tmp_path / "dask" / path).read_text(), path
    assert "exit code 3" in (tmp_path / "dask" / "feedback" / "exits.txt").read_text()
    assert not (tmp_path / "dask-scratch-space").exists()
