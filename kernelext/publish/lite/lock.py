"""Pyodide's lock file for a site: exactly the site's wheels, served beside Pyodide, so that the browser's
kernel loads every package from the site and never asks Pyodide's CDN."""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from pathlib import Path


def write_lock(pyodide: Path, wheels: list[Path]) -> list[str]:
    """Write `pyodide`/pyodide-lock.json naming `wheels` (already in that folder); returns the package names."""
    lock_path = pyodide / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    lock["packages"] = {}
    for wheel in wheels:
        name = _normalized(wheel.name.split("-")[0])
        lock["packages"][name] = {
            "name": name,
            "version": wheel.name.split("-")[1],
            "file_name": wheel.name,
            "install_dir": "site",
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "package_type": "package",
            "imports": _top_level(wheel),
            "depends": [],
            "unvendored_tests": False,
        }
    lock_path.write_text(json.dumps(lock, indent=1, sort_keys=True))
    return sorted(lock["packages"])


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _top_level(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        names = {name.split("/")[0].removesuffix(".py") for name in archive.namelist()}
    return sorted(name for name in names if not name.endswith((".dist-info", ".data")) and name.isidentifier())
