"""A site built by `kernelext-lite`, served on 127.0.0.1 and opened in Debian's chromium with every other host
unreachable, for the browser tests of the kit in JupyterLite.

The site is built from the parts `kernelext-lite fetch` put in the cache (the README's test command fetches
them), with `--offline`: a test never downloads.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from lab_server import CHROMIUM, free_port

BUILD_TIMEOUT = 600
ONLY_LOCAL = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"


def build_site(out: Path, sources: list[Path]) -> Path:
    """Build the site into `out` from the fetched parts; expose JupyterLab's app to the page (for the tests)."""
    command = [
        sys.executable,
        "-c",
        "import sys; from kernelext.publish.lite.cli import main; sys.exit(main())",
        "build",
        "--offline",
        str(out),
        *map(str, sources),
    ]
    run = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    if run.returncode != 0:
        pytest.fail(f"kernelext-lite build failed: {run.stderr.strip()[-800:]}")
    config_path = out / "jupyter-lite.json"
    config = json.loads(config_path.read_text())
    config["jupyter-config-data"]["exposeAppInBrowser"] = True
    config_path.write_text(json.dumps(config))
    return out


@contextlib.contextmanager
def served(site: Path):
    """`python -m http.server` serving `site` on 127.0.0.1; yields its base address."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(site), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(base + "jupyter-lite.json", timeout=5).close()
                break
            time.sleep(0.1)
        yield base
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)


def launch_local_only(p):
    """Debian's chromium, headless, that reaches 127.0.0.1 and no other host."""
    return p.chromium.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            ONLY_LOCAL,
        ],
    )


def outside(addresses: list[str]) -> list[str]:
    """The addresses of `addresses` on another host than 127.0.0.1 (data: and blob: addresses are local)."""
    return [
        a
        for a in addresses
        if urlsplit(a).scheme in ("http", "https", "ws", "wss") and urlsplit(a).hostname != "127.0.0.1"
    ]


class LiteNotebook:
    """A notebook open in the site's JupyterLab, with its kernel started; runs cells one at a time."""

    def __init__(self, page, base: str, path: str, timeout: float = 120):
        self.page = page
        page.goto(f"{base}lab/index.html?path={path}")
        page.wait_for_function(
            """() => {
            const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            const kernel = panel && panel.sessionContext && panel.sessionContext.session
                && panel.sessionContext.session.kernel;
            return kernel && kernel.status === "idle";
        }""",
            timeout=timeout * 1000,
        )

    def code_cells(self) -> list[int]:
        return self.page.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets
            .map((cell, index) => [cell.model.type, index]).filter(([type]) => type === "code").map(([, i]) => i)""")

    def source(self, index: int) -> str:
        return self.page.evaluate(
            "(i) => window.jupyterapp.shell.currentWidget.content.widgets[i].model.sharedModel.getSource()", index
        )

    def run(self, index: int, timeout: float = 120) -> list[dict]:
        """Run cell `index` and wait for its end; its outputs, as the notebook would save them."""
        self.page.evaluate(
            """(index) => {
            const panel = window.jupyterapp.shell.currentWidget;
            panel.content.activeCellIndex = index;
            return window.jupyterapp.commands.execute("notebook:run-cell");
        }""",
            index,
        )
        self.page.wait_for_function(
            """(index) => {
            const cell = window.jupyterapp.shell.currentWidget.content.widgets[index];
            return cell.model.executionCount !== null && !cell.node.querySelector(".jp-InputPrompt").textContent
                .includes("*");
        }""",
            arg=index,
            timeout=timeout * 1000,
        )
        return self.outputs(index)

    def outputs(self, index: int) -> list[dict]:
        return self.page.evaluate(
            "(i) => window.jupyterapp.shell.currentWidget.content.widgets[i].model.outputs.toJSON()", index
        )

    def show(self, index: int) -> None:
        """Scroll cell `index` into view."""
        self.page.evaluate(
            "(i) => window.jupyterapp.shell.currentWidget.content.widgets[i].node.scrollIntoView()", index
        )

    def grids(self, index: int) -> list[tuple[str, int]]:
        """The grids the cell's widgets drew: each table's title and its number of cells."""
        return [
            tuple(found)
            for found in self.page.evaluate(
                """(i) => {
            const node = window.jupyterapp.shell.currentWidget.content.widgets[i].node;
            return [...node.querySelectorAll(".kx-grid table[title]")].map(t => [t.title, t.querySelectorAll("td").length]);
        }""",
                index,
            )
        ]


def text(outputs: list[dict]) -> str:
    """What the outputs say: streams, errors and the text/plain of rich outputs."""
    parts = []
    for output in outputs:
        if output["output_type"] == "stream":
            parts.append("".join(output["text"]))
        elif output["output_type"] == "error":
            parts.append(f"{output['ename']}: {output['evalue']}")
        else:
            parts.append("".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def errors(outputs: list[dict]) -> list[str]:
    """The errors the outputs show: tracebacks, and IPython's one-line usage errors (printed on stderr)."""
    found = [f"{o['ename']}: {o['evalue']}" for o in outputs if o["output_type"] == "error"]
    return found + [
        "".join(o["text"]).strip()
        for o in outputs
        if o["output_type"] == "stream" and o["name"] == "stderr" and "Error" in "".join(o["text"])
    ]
