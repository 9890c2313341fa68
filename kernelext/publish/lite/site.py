"""Build the static site: JupyterLite with Pyodide, every wheel the kernel loads, MiniZinc's WebAssembly and the
notebooks, all served from the site itself.

The kernel preloads every package at start (Pyodide's lock lists exactly the site's wheels), so a notebook needs
no install step; notebooks name the browser's kernel, so none asks which kernel to use.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

from kernelext.errors import KernelextError
from kernelext.publish.handout import prepare
from kernelext.publish.lite import offline
from kernelext.publish.lite.bytecode import add_bytecode
from kernelext.publish.lite.lock import write_lock
from kernelext.publish.lite.parts import Parts
from kernelext.publish.lite.wheels import kit_wheel, standins_wheel, trimmed

KERNEL_SETTINGS = "@jupyterlite/pyodide-kernel-extension:kernel"
BROWSER_KERNELSPEC = {"display_name": "Python (Pyodide)", "language": "python", "name": "python"}
MINIZINC_FILES = ("minizinc.mjs", "minizinc-worker.js", "minizinc.wasm", "minizinc.data")
PYODIDE_FILES = (
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide.mjs",
    "pyodide.js",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
BUILD_TIMEOUT = 900  # seconds for `jupyter lite build`
PYODIDE_PATH = Path("static/pyodide/pyodide.mjs")  # where the site serves Pyodide, and the kernel finds it
APPS = ("lab", "notebooks", "tree")  # JupyterLab, and Notebook 7's pages
# The widgets' front-end extensions, as installed in this environment (and nothing else it may hold).
LABEXTENSIONS = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
EXTENSIONS = ("@jupyter-widgets/jupyterlab-manager", "anywidget")
KERNEL_EXTENSION = "@jupyterlite/pyodide-kernel-extension"  # in the kernel's wheel, with its own kernel wheels
# The kit's own front-end plugins: Stop reaches the kernel's worker (kernelext.solver.browser_stop); the site is
# kept for offline visits (kernelext.publish.lite.offline).
SITE_EXTENSION = Path(__file__).parent / "site_extension"
# A student's edits and outputs are saved into the browser's storage every few seconds (JupyterLab: 120 s).
AUTOSAVE = {"@jupyterlab/docmanager-extension:plugin": {"autosave": True, "autosaveInterval": 5}}


class BuildError(KernelextError):
    """The site could not be built (the message says why)."""


def build_site(out: Path, sources: list[Path], parts: Parts) -> Path:
    """Build the site into `out` (emptied first) from the notebooks and folders in `sources`."""
    out = out.resolve()  # `jupyter lite build` runs in another folder
    with tempfile.TemporaryDirectory(prefix="kernelext-lite-") as work:
        lite, kernel = Path(work) / "lite", _kernel_extension(parts.kernel, Path(work) / "kernel")
        pyodide = Path(work) / "pyodide"
        _unpack(parts.pyodide, pyodide, PYODIDE_FILES)
        wheels = _wheels(pyodide, parts, kernel / "static" / "pypi")
        unsped = add_bytecode(pyodide, wheels, parts.built)
        if unsped:
            print(f"kernelext-lite: {unsped}; the kernel compiles them at each start instead.", file=sys.stderr)
        packages = write_lock(pyodide, wheels)
        _write_settings(lite / "jupyter-lite.json", packages)
        contents = Path(work) / "contents"
        _copy_notebooks(sources, contents)
        if out.exists():
            shutil.rmtree(out)
        _jupyter_lite_build(lite, contents, out, kernel)
        shutil.copytree(pyodide, out / PYODIDE_PATH.parent)
        _unpack(parts.minizinc, out / "minizinc", MINIZINC_FILES)
    shutil.copy(out / "lab" / "favicon.ico", out / "favicon.ico")  # browsers ask the root for it
    offline.keep_for_offline(out)
    return out


def _unpack(tarball: Path, folder: Path, names: tuple[str, ...]) -> None:
    """The files `names` of an npm tarball's `package/` folder (or its `package/dist/`) into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball) as archive:
        members = {
            Path(member.name).name: member
            for member in archive.getmembers()
            if member.isfile() and Path(member.name).parent.name in ("package", "dist")
        }
        for name in names:
            (folder / name).write_bytes(archive.extractfile(members[name]).read())


def _kernel_extension(wheel: Path, folder: Path) -> Path:
    """The kernel's front-end extension, taken out of its wheel into `folder`."""
    inside = f"share/jupyter/labextensions/{KERNEL_EXTENSION}/"
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if inside in name and not name.endswith("/"):
                path = folder / name.split(inside, 1)[1]
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(archive.read(name))
    if not (folder / "package.json").exists():
        raise BuildError(f"{wheel.name} holds no {KERNEL_EXTENSION}.")
    return folder


def _wheels(folder: Path, parts: Parts, kernel_wheels: Path) -> list[Path]:
    """The site's wheels, written into `folder`: the fetched ones (without what the browser never uses),
    JupyterLite's kernel wheels, the stand-ins and the kit."""
    wheels = [trimmed(wheel, folder) for wheel in parts.wheels]
    for wheel in sorted(kernel_wheels.glob("*.whl")):
        if not wheel.name.startswith("widgetsnbextension-"):  # stand-ins of a package the kernel never imports
            wheels.append(Path(shutil.copy(wheel, folder)))
    return [*wheels, standins_wheel(folder), kit_wheel(folder)]


def _write_settings(path: Path, packages: list[str]) -> None:
    settings = {
        "pyodideUrl": f"./{PYODIDE_PATH}",
        "disablePyPIFallback": True,
        "pipliteUrls": [],
        "loadPyodideOptions": {"packages": packages},
    }
    config = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {"litePluginSettings": {KERNEL_SETTINGS: settings}, **offline.config_data()},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config, indent=2))
    (path.parent / "overrides.json").write_text(json.dumps(AUTOSAVE, indent=2))


def _copy_notebooks(sources: list[Path], contents: Path) -> None:
    """Each source (a notebook, or a folder copied whole) into `contents`, its notebooks ready for the browser."""
    contents.mkdir(parents=True)
    for source in sources:
        if source.is_dir():
            shutil.copytree(
                source,
                contents / source.name,
                ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints", "*.pyc"),
            )
        else:
            shutil.copy(source, contents / source.name)
    for notebook in contents.rglob("*.ipynb"):
        nb = prepare(json.loads(notebook.read_text()))
        nb["metadata"]["kernelspec"] = dict(BROWSER_KERNELSPEC)
        notebook.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def _jupyter_lite_build(lite: Path, contents: Path, out: Path, kernel: Path) -> None:
    extensions = [kernel, SITE_EXTENSION, *(LABEXTENSIONS / name for name in EXTENSIONS)]
    missing = [str(path) for path in extensions if not (path / "package.json").exists()]
    if missing:
        raise BuildError(f"Front-end extensions missing: {', '.join(missing)}: pip install ipywidgets anywidget.")
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lite",
        "build",
        "--lite-dir",
        str(lite),
        "--contents",
        str(contents),
        "--output-dir",
        str(out),
        "--no-sourcemaps",
        "--ignore-sys-prefix",
        "--no-unused-shared-packages",
        *(f"--apps={app}" for app in APPS),
        f"--LiteBuildConfig.federated_extensions={json.dumps([str(path) for path in extensions])}",
    ]
    try:
        run = subprocess.run(command, cwd=lite, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise BuildError(f"jupyter lite build took more than {BUILD_TIMEOUT} s.") from None
    if run.returncode != 0:
        raise BuildError(f"jupyter lite build failed: {(run.stderr or run.stdout).strip()[-600:]}")
