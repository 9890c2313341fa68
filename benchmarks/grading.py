"""Grade 30 copies of the picross solution (12 instances, 6 of them hidden, and 3 graded parts) two ways, side by
side, and print the wall time of each and their ratio: a sandboxed process started for each run (as a remote
executor runs them), then the default pool, whose warm processes (one per slot, in its sandbox) fork a child per
run; with --base REV, also the default pool of the kit as it was at the git revision REV (a worktree, imported
first through PYTHONPATH, in a process of its own); with --dask, also on a `dask scheduler` + `dask worker`
started on 127.0.0.1 for the run.

Usage: python benchmarks/grading.py [--submissions N] [--workers N] [--base REV] [--dask]
                                    [--sandbox auto|bwrap|process]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from kernelext.grading import grade
from kernelext.solver.portfolio import usable_cores

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernels import worktree

EXERCISE = Path(__file__).resolve().parent.parent / "exercises" / "picross"
BIN = Path(sys.executable).parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=30)
    parser.add_argument("--workers", type=int, default=None, help="runs at once (default: one per core)")
    parser.add_argument("--base", metavar="REV", help="also grade with the kit as it was at this git revision")
    parser.add_argument("--dask", action="store_true", help="also grade on a local dask scheduler + worker")
    parser.add_argument("--sandbox", default="auto")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        submissions = Path(work, "submissions")
        submissions.mkdir()
        for number in range(args.submissions):
            shutil.copyfile(EXERCISE / "instructor.ipynb", submissions / f"student{number:02d}.ipynb")
        options = dict(exercise_dir=EXERCISE, submissions_dir=submissions, sandbox=args.sandbox)
        slots = args.workers or usable_cores()
        with ThreadPoolExecutor(slots) as executor:
            cold = _timed("a process per run", lambda: grade(**options, out_dir=Path(work, "cold"), executor=executor))
        if args.base:
            with worktree(args.base) as tree:
                before = _timed_at(tree, args.base, options, Path(work, "base"), args.workers)
        warm = _timed("warm processes", lambda: grade(**options, out_dir=Path(work, "pool"), workers=args.workers))
        print(
            f"warm processes: {cold / warm:.1f}x faster than a process per run; grades.csv identical: "
            f"{_same_grades(Path(work, 'cold'), Path(work, 'pool'))}"
        )
        if args.base:
            print(
                f"warm processes: {before / warm:.1f}x faster than at {args.base}; grades.csv identical: "
                f"{_same_grades(Path(work, 'base'), Path(work, 'pool'))}"
            )
        if args.dask:
            from distributed import Client

            with _cluster(Path(work, "cluster"), threads=args.workers or os.cpu_count() or 1) as address:
                with Client(address) as client:
                    client.wait_for_workers(1, timeout=60)
                    _timed("dask worker", lambda: grade(**options, out_dir=Path(work, "dask"), executor=client))
            print(f"grades.csv identical on dask: {_same_grades(Path(work, 'pool'), Path(work, 'dask'))}")


def _timed(name: str, run) -> float:
    """Run `run` (a grading) and print its wall time; the wall time."""
    start = time.perf_counter()
    results = run()
    wall = time.perf_counter() - start
    runs = sum(1 for r in results for item in r.results if item.kind != "question")
    full = sum(all(i.points == i.max_points for i in r.results if i.kind != "question") for r in results)
    print(
        f"{name}: {len(results)} submissions, {runs} runs on {os.cpu_count()} cores: {wall:.1f} s wall "
        f"({wall / runs:.2f} s per run); {full}/{len(results)} with full marks",
        flush=True,
    )
    return wall


def _timed_at(tree: Path, revision: str, options: dict, out_dir: Path, workers: int | None) -> float:
    """Grade with the default pool of the kit at `tree` (a worktree of `revision`), in a process of its own;
    print and return the wall time of the grading."""
    script = (
        f"import time\nfrom pathlib import Path\nfrom kernelext.grading import grade\nstart = time.perf_counter()\n"
        f"grade(exercise_dir=Path({str(options['exercise_dir'])!r}), "
        f"submissions_dir=Path({str(options['submissions_dir'])!r}), sandbox={options['sandbox']!r}, "
        f"out_dir=Path({str(out_dir)!r}), workers={workers!r})\nprint(time.perf_counter() - start)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=True,
    )
    wall = float(done.stdout.split()[-1])
    print(f"warm processes at {revision}: {wall:.1f} s wall", flush=True)
    return wall


def _same_grades(one: Path, other: Path) -> bool:
    return (one / "grades.csv").read_text() == (other / "grades.csv").read_text()


@contextmanager
def _cluster(folder: Path, threads: int):
    """A `dask scheduler` and one `dask worker` with `threads` threads on 127.0.0.1; yields the scheduler address."""
    folder.mkdir()
    started = [
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
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    ]
    try:
        while not (folder / "scheduler.json").is_file():
            time.sleep(0.2)
        address = json.loads((folder / "scheduler.json").read_text())["address"]
        started.append(
            subprocess.Popen(
                [
                    BIN / "dask",
                    "worker",
                    address,
                    "--nthreads",
                    str(threads),
                    "--no-dashboard",
                    "--local-directory",
                    str(folder / "scratch"),
                ],
                cwd=folder,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
        yield address
    finally:
        for process in reversed(started):
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()


if __name__ == "__main__":
    main()
