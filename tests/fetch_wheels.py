"""Download, once and before the tests, the wheels a test installs into an environment of its own, so that it
needs no network: `python tests/fetch_wheels.py` (the README's test command runs it after `kernelext-lite fetch`).

They are ipywidgets 7.7.1, as Colab ships it, and ipython_genutils, which it imports, for
tests/test_ipywidgets7.py; that test installs them without their dependencies (the environment's own serve)
from this folder alone. They go into kernelext-lite's cache (`~/.cache/kernelext-lite`, or
`$KERNELEXT_LITE_CACHE`), in a folder of their own; the cache's place is found as the kit finds it, without
importing the kit.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

IPYWIDGETS7 = ("ipywidgets==7.7.1", "ipython_genutils==0.2.0")
COMMAND = "python tests/fetch_wheels.py"
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


def main() -> int:
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
            print(f"fetch_wheels: pip download of {' '.join(lacking)} took over {TIMEOUT} s", file=sys.stderr)
            return 1
        if run.returncode != 0 or missing():
            print(f"fetch_wheels: pip download of {' '.join(lacking)} failed:\n{run.stderr[-2000:]}", file=sys.stderr)
            return 1
    print(f"Test wheels ({', '.join(IPYWIDGETS7)}) in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
