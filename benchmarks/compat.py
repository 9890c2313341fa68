"""Does the kit build what stock pycsp3 builds? A sweep over a checkout of the PyCSP3-models collection.

Run: python benchmarks/compat.py PATH [--only NAME ...] [--solve S]

PATH is a checkout of github.com/xcsp3team/pycsp3-models (nothing is downloaded). For each model of its
`academic`, `crafted`, `realistic` and `recreational` folders, with the first example data file of its
folder that stock pycsp3 compiles (or its default data when the folder has none):

- stock: `python Model.py -data=EXAMPLE.json -output=stock.xml`, in the model's folder;
- the kit: in one real Jupyter kernel, one model after the other, each in a namespace of its own (`%reset -f`:
  a model's own `next = ...` must not reach the next model) and in its folder (whose modules it may import),
  a cell `data = load_json_data(EXAMPLE)`,
  then the model's source pasted as it is into a `%%puzzle NAME --no-solve` cell, then `%puzzle export`.

The two XCSP3 files are compared with comments and `note` attributes left out. With `--solve S`, each model
built the same is also solved by ACE on the stock file within S seconds, and by MiniZinc (Gecode) in the kit's
session within S seconds (K with `--kit-seconds K`): translated or refused, with the reason. Where ACE finishes,
the kit's session also solves it with CP-SAT (where its reading takes the model) and with warm ACE. Every solver
that finishes (a status, and for an optimisation model a proven optimum) must give the same status and optimum.
The report also counts the models the kit draws as each picture (a Gantt chart, a graph, a route, a packing).
The kernel's memory (resident, and its peak) is printed before and after the sweep.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

CATEGORIES = ("academic", "crafted", "realistic", "recreational")
STOCK_TIMEOUT = 120
CELL_TIMEOUT = 300
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# How a picture's text form begins (kernelext.views), and its name.
PICTURE_HEADS = (("Gantt chart:", "gantt"), ("Graph:", "graph"), ("Route:", "route"), ("Packing:", "packing"))


@dataclass
class Model:
    """A model file of the collection and the example data it is compiled with (None: its default data)."""

    path: Path
    data: Path | None = None
    stock: Path | None = None
    stock_error: str = ""
    kit_error: str = ""
    difference: str = ""
    solved: dict = field(default_factory=dict)
    picture: str = ""  # the picture the kit draws the built model as (kernelext.views), "" for a grid

    @property
    def name(self) -> str:
        return self.path.stem


def models_in(root: Path, only: set[str]) -> list[Model]:
    found = []
    for category in CATEGORIES:
        for path in sorted((root / category).glob("*/*.py")):
            if not only or path.stem in only:
                found.append(Model(path))
    return found


def data_files(model: Model) -> list[Path | None]:
    """The example data files to try, those named after the model first; [None] when the folder has none."""
    files = sorted(model.path.parent.glob("*.json"), key=lambda p: (not p.stem.startswith(model.name), p.name))
    return files[:3] or [None]


def compile_stock(model: Model, out: Path) -> None:
    """Compile with stock pycsp3 (a process per model), keeping the first data file that works."""
    errors = []
    for data in data_files(model):
        target = out / f"{model.path.parent.parent.name}-{model.name}.stock.xml"
        command = [sys.executable, model.path.name, f"-output={target}"] + ([f"-data={data.name}"] if data else [])
        try:
            run = subprocess.run(command, cwd=model.path.parent, capture_output=True, text=True, timeout=STOCK_TIMEOUT)
            printed, failed = run.stdout + run.stderr, run.returncode != 0
        except subprocess.TimeoutExpired:
            printed, failed = f"no file after {STOCK_TIMEOUT} s", True
        if target.exists() and not failed:
            model.data, model.stock = data, target
            return
        partial = " (it still writes what was posted before the error)" if target.exists() else ""
        errors.append((_last_line(printed) or "no file written") + partial)
    model.stock_error = errors[-1]


def _last_line(text: str) -> str:
    lines = [ANSI.sub("", line).strip() for line in text.splitlines() if line.strip()]
    useful = [line for line in lines if "Error" in line or "error" in line] or lines
    return useful[-1][:160] if useful else ""


def canonical(path: Path):
    """An XCSP3 file as nested tuples: tags, attributes (but `note`), whitespace-normalised texts."""

    def walk(element):
        attributes = tuple(sorted((k, v) for k, v in element.attrib.items() if k != "note"))
        text = " ".join((element.text or "").split())
        return element.tag, attributes, text, tuple(walk(child) for child in element)

    return walk(ET.parse(path).getroot())


def first_difference(a, b, where: str = "") -> str:
    if a[:3] != b[:3]:
        return f"{where}/{a[0]}: stock {_short(a[:3])} / kit {_short(b[:3])}"
    for i, (x, y) in enumerate(zip(a[3], b[3])):
        if x != y:
            return first_difference(x, y, f"{where}/{a[0]}[{i}]")
    return f"{where}/{a[0]}: stock has {len(a[3])} children, kit {len(b[3])}"


def _short(part) -> str:
    text = repr(part)
    return text if len(text) < 200 else text[:200] + "..."


class Kernel:
    """A real Jupyter kernel, run cell by cell; each cell's outputs as text."""

    def __init__(self, cwd: Path):
        from jupyter_client.manager import start_new_kernel

        self.manager, self.client = start_new_kernel(kernel_name="python3", cwd=str(cwd))
        self.pid = self.manager.provisioner.process.pid

    def run(self, code: str, timeout: float = CELL_TIMEOUT) -> tuple[str, str]:
        """Run a cell: (its printed and displayed text, its error or '')."""
        texts, errors = [], []

        def hook(message):
            content, kind = message["content"], message["msg_type"]
            if kind == "stream" and content["name"] == "stderr" and "UsageError" in content["text"]:
                errors.append(content["text"].strip())
            elif kind == "stream":
                texts.append(content["text"])
            elif kind in ("display_data", "execute_result"):
                texts.append(content["data"].get("text/plain", ""))
            elif kind == "error":
                errors.append(f"{content['ename']}: {content['evalue']}")

        try:
            self.client.execute_interactive(code, output_hook=hook, timeout=timeout, store_history=False)
        except TimeoutError:
            self.manager.interrupt_kernel()
            self.client.execute_interactive("pass", timeout=60)
            errors.append(f"no answer after {timeout} s")
        return "".join(texts), "\n".join(errors)

    def memory(self) -> str:
        status = Path(f"/proc/{self.pid}/status").read_text()
        rss, peak = (int(re.search(rf"{key}:\s+(\d+)", status).group(1)) // 1024 for key in ("VmRSS", "VmHWM"))
        return f"{rss} MB resident (peak {peak} MB)"

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


def build_in_kit(kernel: Kernel, model: Model, out: Path) -> Path | None:
    load = f"data = load_json_data({str(model.data)!r})" if model.data else "data = None"
    # a namespace of its own, and the model's folder (whose modules it may import), as a script has
    _, error = kernel.run(f"%reset -f\n%cd {str(model.path.parent)!r}\nfrom pycsp3 import *\n{load}")
    source = model.path.read_text()
    if not error:
        shown, error = kernel.run(f"%%puzzle {model.name} --no-solve\n{source}")
        model.picture = next((name for head, name in PICTURE_HEADS if head in shown), "")
    target = out / f"{model.path.parent.parent.name}-{model.name}.kit.xml"
    if not error:
        _, error = kernel.run(f"%puzzle export {target}")
    if error:
        model.kit_error = " ".join(error.split())[:300]
        return None
    return target


def solve_stock(model: Model, seconds: float) -> tuple[str, str | None] | None:
    """ACE on the stock file: (status, optimum) when it finishes within `seconds`, else None."""
    from kernelext.solver.jvm.jars import ace_jar

    try:
        run = subprocess.run(
            ["java", "-jar", str(ace_jar()), str(model.stock), f"-t={seconds:g}s"],
            capture_output=True,
            text=True,
            timeout=seconds * 3 + 30,
        )
    except subprocess.TimeoutExpired:
        return None
    printed = ANSI.sub("", run.stdout)
    line = next((line for line in printed.splitlines() if line.startswith("s ")), "")
    status = {"s SATISFIABLE": "SAT", "s UNSATISFIABLE": "UNSAT", "s OPTIMUM FOUND": "OPTIMUM"}.get(line.strip())
    optimising = "<minimize" in model.stock.read_text() or "<maximize" in model.stock.read_text()
    if status is None or (status == "SAT" and optimising):
        return None  # no answer, or an optimum not proven within the limit
    bound = re.findall(r"^o\s+(-?\d+)", printed, re.M) if status == "OPTIMUM" else []
    return status, bound[-1] if bound else None


SOLVE_CELL = """\
from kernelext import current_session as _session
from kernelext.solver.errors import BackendUnsupported as _Unread
try:
    _r = _session().solve(backend={solver!r}, timeout={seconds})
    print("RESULT", _r.status.value, _r.bound if _r.status.value == "OPTIMUM" else None)
except _Unread as _reason:
    print("RESULT unread None", " ".join(str(_reason).split()))
"""
KIT_SOLVERS = ("cp-sat", "ace", "minizinc")


def solve_in_kit(kernel: Kernel, solver: str, seconds: float) -> tuple[str, str | None]:
    """(status, optimum) of the current puzzle solved by `solver` in the kernel; ("unread", reason) when
    the solver does not take the model (the default solver then goes to ACE)."""
    text, error = kernel.run(SOLVE_CELL.format(solver=solver, seconds=seconds))
    found = re.search(r"RESULT (\S+) (\S+)(?: (.*))?", text)
    if error or found is None:
        return "error: " + " ".join((error or text).split())[:160], None
    status, bound, reason = found.groups()
    if status == "unread":
        return status, reason
    return status, None if bound == "None" else bound


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="a checkout of the PyCSP3-models collection")
    parser.add_argument("--only", nargs="*", default=[], help="model names to compare (default: all)")
    parser.add_argument("--solve", type=float, metavar="S", help="also compare solving, S seconds per solve")
    parser.add_argument("--kit-seconds", type=float, metavar="K", help="the kit's time per solve (default: S)")
    parser.add_argument("--json", type=Path, help="also write every model's outcome to this file")
    args = parser.parse_args(argv)

    models = models_in(args.path.resolve(), set(args.only))
    out = Path(tempfile.mkdtemp(prefix="compat-"))
    start = time.monotonic()
    for model in models:
        compile_stock(model, out)
    built = [m for m in models if m.stock]
    print(f"{len(models)} models; stock pycsp3 compiles {len(built)} ({time.monotonic() - start:.0f} s)")

    kernel = Kernel(out)
    try:
        kernel.run("%load_ext kernelext\nfrom pycsp3 import *")
        before = kernel.memory()
        for model in built:
            kit = build_in_kit(kernel, model, out)
            if kit is not None and canonical(kit) != canonical(model.stock):
                model.difference = first_difference(canonical(model.stock), canonical(kit))
            if args.solve and kit is not None and not model.difference:
                seconds = args.kit_seconds or args.solve
                expected = solve_stock(model, args.solve)
                solvers = KIT_SOLVERS if expected is not None else ("cp-sat", "minizinc")
                model.solved = {"stock": expected} | {
                    solver: solve_in_kit(kernel, solver, seconds) for solver in solvers
                }
        after = kernel.memory()
    finally:
        kernel.close()

    report(models, built, before, after, args.solve)
    if args.json:
        args.json.write_text(
            json.dumps(
                [
                    {
                        "model": str(m.path),
                        "data": str(m.data),
                        "stock_error": m.stock_error,
                        "kit_error": m.kit_error,
                        "difference": m.difference,
                        "solved": m.solved,
                        "picture": m.picture,
                    }
                    for m in models
                ],
                indent=1,
            )
        )
    return 0 if all(not m.kit_error and not m.difference and _agree(m) for m in built) else 1


def _finished(model: Model) -> dict:
    """The answers of the solvers that finished on `model`: a status, and for an optimisation model its optimum."""
    text = model.stock.read_text()
    optimising = "<minimize" in text or "<maximize" in text
    return {
        solver: tuple(answer)
        for solver, answer in model.solved.items()
        if answer is not None and answer[0] in ("SAT", "UNSAT", "OPTIMUM") and not (optimising and answer[0] == "SAT")
    }


def _agree(model: Model) -> bool:
    """Every solver that finished gave the same status and optimum (a model a solver does not take is no
    disagreement)."""
    return len(set(_finished(model).values())) <= 1


def report(models: list[Model], built: list[Model], before: str, after: str, seconds: float | None) -> None:
    refused = [m for m in built if m.kit_error]
    different = [m for m in built if m.difference]
    print(
        f"compared {len(built)}: identical {len(built) - len(refused) - len(different)}, "
        f"refused by the kit {len(refused)}, built differently {len(different)}"
    )
    for m in refused:
        print(f"  refused   {m.path.parent.parent.name}/{m.name}: {m.kit_error}")
    for m in different:
        print(f"  different {m.path.parent.parent.name}/{m.name}: {m.difference}")
    left_out = [m for m in models if not m.stock]
    print(f"left out (stock pycsp3 fails or writes no model): {len(left_out)}")
    for m in left_out:
        print(f"  {m.path.parent.parent.name}/{m.name}: {m.stock_error}")
    if seconds:
        report_solving(built, seconds)
    report_pictures(built)
    print(f"kernel memory: before {before}; after {after}")


def report_pictures(built: list[Model]) -> None:
    """How many of the models the kit built are drawn as each picture, with a few of their names."""
    for _, name in PICTURE_HEADS:
        drawn = [m for m in built if m.picture == name]
        names = ", ".join(f"{m.path.parent.parent.name}/{m.name}" for m in drawn[:8])
        print(f"drawn as {name}: {len(drawn)}" + (f" ({names}{', ...' if len(drawn) > 8 else ''})" if drawn else ""))


def report_solving(built: list[Model], seconds: float) -> None:
    solved = [m for m in built if m.solved]
    stock = [m for m in solved if m.solved["stock"] is not None]
    print(f"solved by stock ACE within {seconds:g} s: {len(stock)}")
    for solver in ("cp-sat", "minizinc"):
        refused = [m for m in solved if m.solved[solver][0] == "unread"]
        read = len(solved) - len(refused)
        print(
            f"{solver}: reads {read} of {len(solved)} ({100 * read / max(1, len(solved)):.1f}%), refuses {len(refused)}"
        )
        reasons: dict[str, list[str]] = {}
        for m in refused:
            reasons.setdefault(m.solved[solver][1], []).append(m.name)
        for reason, names in sorted(reasons.items(), key=lambda item: -len(item[1])):
            print(f"  refused {len(names)}: {reason} ({', '.join(names)})")
    finished = {solver: sum(solver in _finished(m) for m in solved) for solver in ("stock", *KIT_SOLVERS)}
    compared = [m for m in solved if len(_finished(m)) >= 2]
    differ = [m for m in compared if not _agree(m)]
    print(f"finished within the limit: {', '.join(f'{solver} {n}' for solver, n in finished.items())}")
    print(
        f"compared (two solvers or more finished): {len(compared)}; agree {len(compared) - len(differ)}, "
        f"differ {len(differ)}"
    )
    for m in differ:
        print(f"  differ {m.name}: {m.solved}")


if __name__ == "__main__":
    sys.exit(main())
