"""The job shop exercise's answer check (exercises/job_shop/checks.py): right schedules pass; a broken order,
two tasks at once on a machine, a schedule longer than the optimum and a wrong shape each say what is wrong."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(60)

FOLDER = Path(__file__).resolve().parents[2] / "exercises" / "job_shop"
SPEC = importlib.util.spec_from_file_location("job_shop_checks", FOLDER / "checks.py")
checks = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(checks)
SMALL = json.loads((FOLDER / "public" / "small.json").read_text())
# durations [[3, 2, 2], [2, 1, 4], [4, 3, 1]], machines [[0, 1, 2], [1, 0, 2], [2, 1, 0]]: an optimal schedule
OPTIMAL = [[0, 3, 8], [0, 3, 4], [0, 5, 8]]


def check(answer):
    return checks.check_schedule(answer, SMALL["data"], SMALL["expected"])


def test_an_optimal_schedule_passes():
    assert SMALL["expected"]["optimum"] == 10
    assert check(OPTIMAL) == ""


@pytest.mark.parametrize(
    "answer, said",
    [
        ([[0, 2, 8], [0, 3, 4], [0, 5, 8]], "job 0: task 1 starts at 2, before task 0 ends (3)"),
        ([[0, 3, 8], [0, 3, 4], [0, 4, 8]], "machine 1 runs job 0's task 1 and job 2's task 1 at once (at time 4)"),
        ([[0, 3, 9], [0, 3, 4], [0, 5, 8]], "the schedule ends at 11; the shortest ends at 10"),
        ([[0, 3, 8], [0, 3, 4]], "the start times should be 3x3, one per task"),
        ([[-1, 3, 8], [0, 3, 4], [0, 5, 8]], "a task starts before time 0"),
    ],
)
def test_a_wrong_schedule_says_what_is_wrong(answer, said):
    assert check(answer) == said
