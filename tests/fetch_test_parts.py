"""Download, once and before the tests, what tests use that the kit does not ship, so that no test needs the
network: `python tests/fetch_test_parts.py` (the README's test command runs it after `kernelext-lite fetch`).

- ipywidgets 7.7.1, as Colab ships it, and ipython_genutils, which it imports, for tests/test_ipywidgets7.py;
  that test installs them without their dependencies (the environment's own serve) from this folder alone.
- axe-core, from the npm registry and checked against its published sha512, for the accessibility tests
  (tests/browser/axe.py injects it into the page under test).

They go into kernelext-lite's cache (`~/.cache/kernelext-lite`, or `$KERNELEXT_LITE_CACHE`), in a folder of
their own; the cache's place is found as the kit finds it, without importing the kit.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

IPYWIDGETS7 = ("ipywidgets==7.7.1", "ipython_genutils==0.2.0")
COMMAND = "python tests/fetch_test_parts.py"
AXE_CORE = (
    "axe-core",
    "4.14.1",
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
)
TIMEOUT = 600  # seconds for the download


def wheels_folder() -> Path:
    cache = os.environ.get("KERNELEXT_LITE_CACHE") or Path.home() / ".cache" / "kernelext-lite"
    return Path(cache) / "test-wheels"


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def missing(requirements: tuple[str, ...] = IPYWIDGETS7) -> list[str]:
    """The pinned requirements ("name==version") that have no wheel in the folder."""
    present = {tuple(path.name.split("-")[:2]) for path in wheels_folder().glob("*.whl")}
    present = {(_normalized(name), version) for name, version in present}
    return [
        requirement
        for requirement in requirements
        if (_normalized(requirement.split("==")[0]), requirement.split("==")[1]) not in present
    ]


def axe_tarball() -> Path:
    """Where axe-core's npm tarball is kept."""
    name, version, _ = AXE_CORE
    return wheels_folder() / f"{name}-{version}.tgz"


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def fetch_axe() -> int:
    """axe-core's tarball into the folder, unless it is there with the published sha512."""
    name, version, integrity = AXE_CORE
    path = axe_tarball()
    if path.exists() and _integrity(path.read_bytes()) == integrity:
        return 0
    registry = os.environ.get("npm_config_registry", "https://registry.npmjs.org/").rstrip("/")
    url = f"{registry}/{name}/-/{path.name}"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            data = response.read()
    except OSError as error:
        print(f"fetch_test_parts: could not download {url} ({error})", file=sys.stderr)
        return 1
    if _integrity(data) != integrity:
        print(f"fetch_test_parts: {url} does not match its published sha512", file=sys.stderr)
        return 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return 0


def main() -> int:
    if fetch_axe():
        return 1
    folder = wheels_folder()
    lacking = missing()
    if lacking:
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--only-binary=:all:",
            "--dest",
            str(folder),
            *lacking,
        ]
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            print(f"fetch_test_parts: pip download of {' '.join(lacking)} took over {TIMEOUT} s", file=sys.stderr)
            return 1
        if run.returncode != 0 or missing():
            print(
                f"fetch_test_parts: pip download of {' '.join(lacking)} failed:\n{run.stderr[-2000:]}", file=sys.stderr
            )
            return 1
    print(f"Test parts ({', '.join(IPYWIDGETS7)}, {AXE_CORE[0]} {AXE_CORE[1]}) in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
