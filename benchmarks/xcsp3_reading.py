"""Reading a step's XCSP3 file: the kit's reader (parsing and building the CP-SAT model), and its parsing alone
(ElementTree), against pycsp3's own parser (`pycsp3.parser.xparser.ParserXCSP3`, on which CPMpy's loader is
built) parsing alone, with no callback building anything, on every step model of the seed walkthroughs, in
turn in one run.

Run: python benchmarks/xcsp3_reading.py [--rounds N] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solve_steps import ROOT, add_only, is_step, linear_cells


def step_files(folder: Path, names: list[str]) -> list[Path]:
    """The XCSP3 file of every satisfaction step of the walkthroughs `names`, written by the kit."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    ip = InteractiveShell.instance()
    ip.run_cell("%load_ext kernelext")
    files = []
    for name in names:
        for cell in linear_cells(name):
            with capture_output():
                ip.run_cell(cell + ("\n" if is_step(cell) else ""))
            session = ip.magics_manager.registry["PuzzleMagics"].session
            if is_step(cell) and session.anything_to_solve():
                path = folder / f"{name}-{len(files)}.xml"
                session.compile(path)
                if b'type="CSP"' in path.read_bytes()[:200]:
                    files.append(path)
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    add_only(parser)
    options = parser.parse_args()
    rounds = options.rounds
    os.chdir(ROOT / "notebooks")
    from pycsp3.parser.xparser import ParserXCSP3

    from kernelext.pycsp3_glue.operators import plain_operators
    from kernelext.solver.cpsat.reader import read

    with tempfile.TemporaryDirectory() as folder, plain_operators():
        files = step_files(Path(folder), options.only)
        times: dict[str, list[float]] = {
            "kit reader (parse + CP-SAT model)": [],
            "kit parsing (ElementTree)": [],
            "pycsp3 parser (parse only)": [],
        }
        for _ in range(rounds):
            for path in files:
                start = time.perf_counter()
                read(path)
                times["kit reader (parse + CP-SAT model)"].append(time.perf_counter() - start)
                start = time.perf_counter()
                ElementTree.parse(path)
                times["kit parsing (ElementTree)"].append(time.perf_counter() - start)
                start = time.perf_counter()
                with contextlib.redirect_stdout(io.StringIO()):
                    ParserXCSP3(str(path))
                times["pycsp3 parser (parse only)"].append(time.perf_counter() - start)
    print(f"{len(files)} step models of {', '.join(options.only)}, {rounds} rounds; milliseconds per model:")
    ours = statistics.median(times["kit reader (parse + CP-SAT model)"])
    for name, found in times.items():
        median = statistics.median(found)
        print(
            f"  {name:<36} median {median * 1000:6.2f}  total {sum(found) / rounds * 1000:7.1f}  "
            f"{median / ours:.2f}x the kit reader"
        )


if __name__ == "__main__":
    sys.exit(main())
