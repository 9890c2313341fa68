"""Wheels made for the browser: the kit from this installation, the stand-ins for what pycsp3 imports and the
browser lacks (lxml, readline), and fetched wheels without the files a browser never uses."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from importlib import metadata
from pathlib import Path

STANDINS = Path(__file__).parent / "standins"
PACKAGE = Path(__file__).resolve().parents[2]  # the kit's own folder, kernelext/
STANDINS_VERSION = "1.0"
# Files of fetched wheels the browser never uses: pycsp3's Java solvers (jars a browser cannot run), and jedi's
# stubs of third-party packages and of Django, none of which the site holds (4,800 of jedi's 5,700 files, which
# every kernel start would unpack).
LEFT_OUT_SUFFIXES = (".jar",)
LEFT_OUT_PREFIXES = ("jedi/third_party/typeshed/stubs/", "jedi/third_party/django-stubs/")


def kit_wheel(folder: Path) -> Path:
    """The installed kit as a wheel in `folder`: its Python files and the widgets' scripts and styles, without
    the site builder (kernelext.publish.lite), which runs on the desktop."""
    files = {
        f"kernelext/{path.relative_to(PACKAGE).as_posix()}": path.read_bytes()
        for path in sorted(PACKAGE.rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.parts
        and path.suffix in (".py", ".js", ".css")
        and path.relative_to(PACKAGE).parts[:2] != ("publish", "lite")
    }
    return write_wheel(folder, "kernelext", metadata.version("kernelext"), files)


def standins_wheel(folder: Path) -> Path:
    """The stand-in modules `lxml` and `readline` as one wheel in `folder`."""
    files = {
        path.relative_to(STANDINS).as_posix(): path.read_bytes()
        for path in sorted(STANDINS.rglob("*.py"))
        if path.parent != STANDINS or path.name != "__init__.py"
    }
    return write_wheel(folder, "kernelext_browser_standins", STANDINS_VERSION, files)


def trimmed(wheel: Path, folder: Path) -> Path:
    """`wheel` written into `folder` without the files the browser never uses (and their lines in RECORD)."""
    with zipfile.ZipFile(wheel) as source:
        files = {
            name: source.read(name)
            for name in source.namelist()
            if not name.endswith((*LEFT_OUT_SUFFIXES, ".dist-info/RECORD")) and not name.startswith(LEFT_OUT_PREFIXES)
        }
    name, version = wheel.name.split("-")[:2]
    return write_wheel(folder, name, version, files, wheel.name)


def write_wheel(folder: Path, name: str, version: str, files: dict[str, bytes], file_name: str | None = None) -> Path:
    """A pure-Python wheel of `files` (path in the wheel -> bytes); its metadata is added unless `files` has it."""
    info = f"{name}-{version}.dist-info"
    files = dict(files)
    files.setdefault(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode())
    files.setdefault(
        f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: kernelext-lite\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = [f"{path},sha256={_digest(data)},{len(data)}" for path, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    path = folder / (file_name or f"{name}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name_in_wheel, data in files.items():
            wheel.writestr(
                zipfile.ZipInfo(name_in_wheel, date_time=(2020, 1, 1, 0, 0, 0)),
                data,
                compress_type=zipfile.ZIP_DEFLATED,
            )
    return path


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
