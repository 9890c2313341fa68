"""The web the browser tests see: Debian's chromium, headless, and folders served on 127.0.0.1 (optionally with
every other host unreachable, which proves a site is self-contained)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

CHROMIUM = Path("/usr/bin/chromium")
ONLY_LOCAL = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch(p, *, only_local: bool = False):
    """Debian's chromium through Playwright `p`, headless; with `only_local`, no host but 127.0.0.1 resolves."""
    return p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS + [ONLY_LOCAL] * only_local)


def launch_profile(p, profile: Path, *, only_local: bool = False):
    """A browser context of Debian's chromium that keeps its storage in the folder `profile`, as a browser
    keeps it between restarts (same options as `launch`)."""
    return p.chromium.launch_persistent_context(
        str(profile),
        executable_path=str(CHROMIUM),
        headless=True,
        args=ARGS + [ONLY_LOCAL] * only_local,
        viewport={"width": 1400, "height": 1000},
    )


@contextlib.contextmanager
def served(folder: Path, ready: str, log: Path | None = None):
    """`python -m http.server` serving `folder` on 127.0.0.1, once it answers for the file `ready`; yields its
    base address. With `log`, the server writes there a line per request it answers."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(folder), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=log.open("w") if log else subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(base + ready, timeout=5).close()
                break
            time.sleep(0.1)
        yield base
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)


def outside(addresses: list[str]) -> list[str]:
    """The addresses of `addresses` on another host than 127.0.0.1 (data: and blob: addresses are local)."""
    return [
        a
        for a in addresses
        if urlsplit(a).scheme in ("http", "https", "ws", "wss") and urlsplit(a).hostname != "127.0.0.1"
    ]
