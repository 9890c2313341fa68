"""JVM settings for graded runs: fit ACE under the memory limit, and start it faster from a class archive."""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from pathlib import Path

from kernelext.solver.jvm.jars import ace_jar
from kernelext.solver.jvm.java import find_java

JVM_START = 1.5  # seconds kept back from a run's time limit for the solver's JVM to start and print its answer
# The JVM reserves far more address space than it uses; these keep it within a graded run's limit.
JVM_FLAGS = (
    "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=32m "
    "-XX:CompressedClassSpaceSize=32m -XX:MaxMetaspaceSize=96m -XX:-UsePerfData"
)
_TINY_MODEL = """<instance format="XCSP3" type="CSP">
  <variables><array id="x" size="[3]"> 0..2 </array></variables>
  <constraints>
    <allDifferent> x[] </allDifferent>
    <intension> lt(x[0],x[1]) </intension>
    <extension><list> x[1] x[2] </list><supports> (0,1)(1,2)(2,0) </supports></extension>
  </constraints>
</instance>
"""


def jvm_options(memory_mb: int, archive: str = "") -> str:
    """JAVA_TOOL_OPTIONS for a run limited to `memory_mb` (a quarter of it for the heap)."""
    options = f"{JVM_FLAGS} -Xmx{max(64, memory_mb // 4)}m"
    return f"{options} -XX:SharedArchiveFile={archive}" if archive else options


def ace_archive(memory_mb: int) -> str:
    """The path of a class-data archive of ACE for these options, made once in the user's cache; "" if none can be made.

    A JVM started with it loads ACE's classes from the archive: about a third less start-up time.
    """
    try:
        java, jar = str(find_java().java_executable), str(ace_jar())
    except Exception:
        return ""
    options = jvm_options(memory_mb)
    key = hashlib.sha1(f"{java}|{jar}|{os.path.getsize(jar)}|{options}".encode()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kernelext"
    archive = cache / f"ace-{key}.jsa"
    if archive.is_file():
        return str(archive)
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        model, scratch = Path(work, "tiny.xml"), Path(work, "ace.jsa")
        model.write_text(_TINY_MODEL)
        try:
            subprocess.run(
                [java, *options.split(), f"-XX:ArchiveClassesAtExit={scratch}", "-jar", jar, str(model)],
                cwd=work,
                capture_output=True,
                timeout=60,
            )
        except (OSError, subprocess.SubprocessError):
            return ""
        if not scratch.is_file():
            return ""
        os.replace(scratch, archive)
    return str(archive)
