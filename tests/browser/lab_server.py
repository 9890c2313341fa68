"""A real Jupyter server (JupyterLab and Notebook 7) and Debian's chromium, for the browser tests.

The server runs from this environment with its own config, data, runtime and settings folders, so the
notary (which notebooks are trusted) and the front-end settings belong to the test alone.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from local_web import CHROMIUM, free_port

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@dataclass
class Server:
    base: str
    token: str
    env: dict

    def url(self, path: str) -> str:
        return f"{self.base}/{path}?token={self.token}"

    def api(self, path: str, method: str = "GET", body: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.url(path), data=data, method=method, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            text = answer.read()
        return json.loads(text) if text else None

    def stop_kernels(self) -> None:
        """Shut down every kernel the server runs. A kernel still starting or ending as the list is asked makes
        the server answer 500 for a moment (asked again, a second later), and one may end before it is shut down."""
        for attempt in range(1, 6):
            try:
                kernels = self.api("api/kernels")
                break
            except urllib.error.HTTPError as error:
                if error.code != 500 or attempt == 5:
                    raise
                time.sleep(1)
        for kernel in kernels:
            try:
                self.api(f"api/kernels/{kernel['id']}", method="DELETE")
            except urllib.error.HTTPError as error:
                if error.code != 404:  # 404: it ended meanwhile
                    raise


def write_settings(settings: Path, plugin: str, values: dict) -> None:
    """A JupyterLab user setting, e.g. plugin "@jupyterlab/notebook-extension/tracker"."""
    path = settings / f"{plugin}.jupyterlab-settings"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(values))


@contextlib.contextmanager
def jupyter_server(tmp_path: Path, root: Path, settings: dict | None = None):
    """A JupyterLab server on 127.0.0.1 serving `root`; yields a Server. `settings`: plugin -> values."""
    settings_dir = tmp_path / "settings"
    write_settings(
        settings_dir, "@jupyterlab/apputils-extension/notification", {"fetchNews": "false", "checkForUpdates": False}
    )
    for plugin, values in (settings or {}).items():
        write_settings(settings_dir, plugin, values)
    port, token = free_port(), secrets.token_hex(16)
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
        JUPYTER_DATA_DIR=str(tmp_path / "data"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(settings_dir),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "ws"),
    )
    log_path = tmp_path / "lab.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "jupyter",
                "lab",
                "--no-browser",
                "--allow-root",
                "--ServerApp.ip=127.0.0.1",
                f"--ServerApp.port={port}",
                f"--IdentityProvider.token={token}",
                f"--ServerApp.root_dir={root}",
                "--ServerApp.terminals_enabled=False",
                "--LabApp.expose_app_in_browser=True",
                "--JupyterNotebookApp.expose_app_in_browser=True",  # Notebook 7 pages: window.jupyterapp too
                "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            ],
            cwd=root,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        server = Server(f"http://127.0.0.1:{port}", token, env)
        try:
            deadline = time.monotonic() + 180  # a busy machine may take long to start JupyterLab
            while True:
                try:
                    server.api("api/status")
                    break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        pytest.fail("JupyterLab did not start:\n" + log_path.read_text()[-2000:])
                    time.sleep(0.2)
            yield server
        finally:
            try:
                server.api("api/shutdown", method="POST")
                process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=60)


def require_browser():
    """Playwright's sync API; fails (never skips) when Playwright or Debian's chromium is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is missing: pip install playwright (it drives Debian's chromium, no download)")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)")
    ARTIFACTS.mkdir(exist_ok=True)
    return sync_playwright


def open_notebook(page, url: str) -> None:
    """Open a notebook's JupyterLab `url` and wait for its kernel to be connected and idle."""
    page.goto(url)
    page.wait_for_function(
        """() => {
        const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
        const kernel = panel && panel.sessionContext && panel.sessionContext.session
            && panel.sessionContext.session.kernel;
        return kernel && kernel.connectionStatus === "connected" && kernel.status === "idle";
    }""",
        timeout=60_000,
    )
