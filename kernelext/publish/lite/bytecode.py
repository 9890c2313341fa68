"""The site's wheels with their bytecode, compiled by the browser's own Python (the site's Pyodide, run under
Node.js): the kernel then imports them without compiling, which takes seconds off every start.

The .pyc files are hash-based and unchecked (as Pyodide's own packages are), so an import reads them without
looking at the sources, which stay in the wheels for tracebacks. Compiled wheels are kept in the parts' cache
for the next build. Without Node.js the wheels stay as they are.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from kernelext.publish.lite.wheels import write_wheel

RUNNER = Path(__file__).with_name("run_in_pyodide.mjs")
COMPILE_TIMEOUT = 600  # seconds for Pyodide to start and compile every wheel
# Each wheel's folder under /work compiled as if installed in Pyodide's site-packages (for tracebacks' names).
COMPILE = """
import compileall, os, py_compile, sysconfig
site = sysconfig.get_paths()["purelib"]
for name in sorted(os.listdir("/work")):
    compileall.compile_dir(f"/work/{name}", stripdir=f"/work/{name}", prependdir=site, quiet=2,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
"""


def add_bytecode(pyodide: Path, wheels: list[Path], kept: Path) -> str | None:
    """Add to each of `wheels` (in place) the bytecode of its Python files, compiled by the Pyodide in the folder
    `pyodide`; returns why it could not (no Node.js, or Node.js failed), else None.

    The wheels compiled are kept in the folder `kept` (named by the wheel's and Pyodide's hashes), and taken from
    there by the next build: only a wheel that changed (the kit's) is compiled again."""
    runtime = hashlib.sha256((pyodide / "pyodide.asm.wasm").read_bytes()).hexdigest()[:12]
    keys = {
        wheel: kept / runtime / hashlib.sha256(wheel.read_bytes()).hexdigest()[:16] / wheel.name for wheel in wheels
    }
    for wheel, key in keys.items():
        if key.is_file():
            shutil.copyfile(key, wheel)
    missing = [wheel for wheel, key in keys.items() if not key.is_file()]
    why = _compile(pyodide, missing) if missing else None
    if why is None:
        for wheel in missing:  # written whole, then named: a build cut short leaves no half wheel to take
            keys[wheel].parent.mkdir(parents=True, exist_ok=True)
            partial = keys[wheel].with_suffix(".partial")
            shutil.copyfile(wheel, partial)
            partial.replace(keys[wheel])
    return why


def _compile(pyodide: Path, wheels: list[Path]) -> str | None:
    node = shutil.which("node")
    if node is None:
        return "no Node.js here to compile the wheels' bytecode"
    with tempfile.TemporaryDirectory(prefix="kernelext-bytecode-") as work:
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(Path(work) / wheel.name)
        try:
            subprocess.run(
                [node, str(RUNNER), str(pyodide.resolve()), work, COMPILE],
                check=True,
                capture_output=True,
                text=True,
                timeout=COMPILE_TIMEOUT,
            )
        except subprocess.CalledProcessError as error:
            return f"Node.js could not compile the wheels' bytecode: {(error.stderr.strip().splitlines() or ['?'])[-1]}"
        except subprocess.TimeoutExpired:
            return f"compiling the wheels' bytecode took more than {COMPILE_TIMEOUT} s"
        for wheel in wheels:
            _add_pyc_files(wheel, Path(work) / wheel.name)
    return None


def _add_pyc_files(wheel: Path, unpacked: Path) -> None:
    """Write `wheel` again with the .pyc files found in its unpacked folder."""
    with zipfile.ZipFile(wheel) as archive:
        files = {name: archive.read(name) for name in archive.namelist() if not name.endswith(".dist-info/RECORD")}
    files |= {path.relative_to(unpacked).as_posix(): path.read_bytes() for path in sorted(unpacked.rglob("*.pyc"))}
    name, version = wheel.name.split("-")[:2]
    write_wheel(wheel.parent, name, version, files, wheel.name)
