"""What a browser site is made of, pinned, and fetched once into a cache from the package registries.

The npm registry gives Pyodide's runtime and MiniZinc's WebAssembly (each checked against its published
sha512); PyPI gives the pure-Python wheels, resolved for Pyodide's platform. A site is then built from the cache
alone, so a teacher fetches once and builds offline.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from kernelext.errors import KernelextError

PYODIDE_PLATFORM = "pyemscripten_2026_0_wasm32"
PYODIDE_PYTHON = "3.14"
# What the browser's kernel imports: the kernel's own needs and the widgets, with their dependencies, and pycsp3
# alone (its one dependency, lxml, has no browser wheel: kernelext.publish.lite.wheels puts a stand-in in its place).
# The kit itself is added from this installation. Left out: dependencies that the browser's kernel never imports
# (checked by listing its modules after a walkthrough): the widgets' front-end packages (the site serves their
# front end), matplotlib's inline backend (no matplotlib) and ptyprocess (no processes).
BROWSER_REQUIREMENTS = (
    "ipython==9.12.0",
    "comm==0.2.3",
    "jedi==0.20.1",
    "ipywidgets==8.1.9",
    "anywidget==0.11.0",
    "micropip==0.11.1",
    "packaging==26.4",
)
WITHOUT_DEPENDENCIES = ("pycsp3==2.6.1",)
# JupyterLite's Pyodide kernel: its front-end extension and its own kernel wheels, taken from its wheel (not
# installed: its extension would also load, and fail, in the desktop's JupyterLab).
KERNEL = "jupyterlite-pyodide-kernel==0.8.6"
LEFT_OUT = ("widgetsnbextension", "jupyterlab_widgets", "matplotlib_inline", "ptyprocess")
FETCH_TIMEOUT = 600  # seconds for one download or one `pip download`


@dataclass(frozen=True)
class NpmPackage:
    """A package of the npm registry, at one version, with the integrity the registry publishes for it."""

    name: str
    version: str
    integrity: str

    @property
    def file_name(self) -> str:
        return f"{self.name}-{self.version}.tgz"

    @property
    def url(self) -> str:
        registry = os.environ.get("npm_config_registry", "https://registry.npmjs.org/").rstrip("/")
        return f"{registry}/{self.name}/-/{self.file_name}"


PYODIDE = NpmPackage(
    "pyodide",
    "314.0.7",
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==",
)
MINIZINC = NpmPackage(
    "minizinc",
    "4.5.1",
    "sha512-ExVUoX/Vqo+Ez5Tch3Wr14ktFAFDMBIiRjAmr6uZ7aXnvFO67mfgu3/cvgTZkTupGxYfVUHeRuU309QayLuhZg==",
)


class FetchError(KernelextError):
    """A part of the site is neither in the cache nor to be had from its registry."""


def default_cache() -> Path:
    """Where fetched parts are kept: $KERNELEXT_LITE_CACHE, else ~/.cache/kernelext-lite."""
    return Path(os.environ.get("KERNELEXT_LITE_CACHE") or Path.home() / ".cache" / "kernelext-lite")


@dataclass(frozen=True)
class Parts:
    """The fetched parts: the two npm tarballs, the browser's wheels and the wheel of JupyterLite's kernel; and
    the cache's folder for what builds make of them (kernelext.publish.lite.bytecode)."""

    pyodide: Path
    minizinc: Path
    wheels: tuple[Path, ...]
    kernel: Path
    built: Path


def fetch(cache: Path, *, offline: bool = False) -> Parts:
    """The site's parts from `cache`, fetching what is missing unless `offline` (then FetchError names it)."""
    return Parts(
        _npm(PYODIDE, cache, offline),
        _npm(MINIZINC, cache, offline),
        _wheels(cache, offline),
        _kernel(cache, offline),
        cache / "built",
    )


def _npm(package: NpmPackage, cache: Path, offline: bool) -> Path:
    path = cache / "npm" / package.file_name
    if path.exists() and _integrity(path.read_bytes()) == package.integrity:
        return path
    if offline:
        raise FetchError(f"{package.file_name} is not in {cache}: run `kernelext-lite fetch` with a network first.")
    try:
        with urllib.request.urlopen(package.url, timeout=FETCH_TIMEOUT) as response:
            data = response.read()
    except OSError as error:
        raise FetchError(f"Could not download {package.url} ({error}).") from None
    if _integrity(data) != package.integrity:
        raise FetchError(f"{package.url} does not match its published sha512: not used.")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _wheels(cache: Path, offline: bool) -> tuple[Path, ...]:
    pinned = (*BROWSER_REQUIREMENTS, *WITHOUT_DEPENDENCIES)
    folder = cache / "wheels" / hashlib.sha256(" ".join(pinned).encode()).hexdigest()[:12]
    done = folder / "complete"
    if not done.exists():
        if offline:
            raise FetchError(
                f"The browser's wheels are not in {cache}: run `kernelext-lite fetch` with a network first."
            )
        _pip_download(folder, BROWSER_REQUIREMENTS)
        _pip_download(folder, WITHOUT_DEPENDENCIES, "--no-deps")
        done.write_text("\n".join(pinned))
    return tuple(sorted(path for path in folder.glob("*.whl") if path.name.split("-")[0].lower() not in LEFT_OUT))


def _kernel(cache: Path, offline: bool) -> Path:
    folder = cache / "kernel"
    name, version = KERNEL.split("==")
    found = sorted(folder.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    if not found:
        if offline:
            raise FetchError(f"{KERNEL} is not in {cache}: run `kernelext-lite fetch` with a network first.")
        _pip_download(folder, (KERNEL,), "--no-deps", platform=False)
        found = sorted(folder.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    return found[0]


def _pip_download(folder: Path, requirements: tuple[str, ...], *options: str, platform: bool = True) -> None:
    pyodide = ["--platform", PYODIDE_PLATFORM, "--platform", "any", "--python-version", PYODIDE_PYTHON]
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--dest",
        str(folder),
        "--only-binary=:all:",
        *(pyodide if platform else []),
        *options,
        *requirements,
    ]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=FETCH_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise FetchError("pip download of the browser's wheels took too long.") from None
    if run.returncode != 0:
        errors = [line for line in run.stderr.splitlines() if not line.startswith("WARNING")]
        raise FetchError(f"pip download of the browser's wheels failed: {' '.join(errors)[-300:]}")
