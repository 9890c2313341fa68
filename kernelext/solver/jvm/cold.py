"""Run a solver jar in a fresh Java process: the reference backend, and the one Choco uses."""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import dataclass


@dataclass(frozen=True)
class ProcessRun:
    output: str
    stopped: str  # "", "timeout" or "interrupted"


def run_java(java: str, classpath_args: list[str], args: list[str], *, timeout: float) -> ProcessRun:
    """Run `java <classpath_args> <args>` in its own process group; kill the whole group on timeout or Ctrl-C."""
    process = subprocess.Popen(
        [java, *classpath_args, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
        return ProcessRun(output, "")
    except subprocess.TimeoutExpired:
        return ProcessRun(_stop(process), "timeout")
    except KeyboardInterrupt:
        return ProcessRun(_stop(process), "interrupted")


def _stop(process: subprocess.Popen) -> str:
    """Ask the group to stop (ACE prints its best solution on SIGTERM), then kill it."""
    for sig, wait in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        try:
            output, _ = process.communicate(timeout=wait)
            return output or ""
        except subprocess.TimeoutExpired:
            continue
    return ""
