"""A site built by `kernelext-lite`, served on 127.0.0.1 and opened in Debian's chromium with every other host
unreachable, for the browser tests of the kit in JupyterLite.

The site is built from the parts `kernelext-lite fetch` put in the cache (the README's test command fetches
them), with `--offline`: a test never downloads.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from local_web import outside

BUILD_TIMEOUT = 600
ROOT = Path(__file__).resolve().parents[2]


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
    listed_path = out / "kernelext-offline.json"  # the file's hash, as the site lists it for offline visits
    listed = json.loads(listed_path.read_text())
    listed["jupyter-lite.json"] = hashlib.sha256(config_path.read_bytes()).hexdigest()
    listed_path.write_text(json.dumps(listed))
    return out


@contextlib.contextmanager
def local_page(browser):
    """A page in a fresh context of `browser`; once done, fails if it asked any host but 127.0.0.1."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    requested: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()
    assert requested and not outside(requested), f"asked other hosts: {outside(requested)[:5]}"


# Has every widget output of cell `index` been drawn? A widget's view is drawn after its cell's run has ended: the
# output's node holds the view's node at once, empty until the view has drawn itself.
DRAWN = """(index) => {
    const cell = window.jupyterapp.shell.currentWidget.content.widgets[index];
    const views = cell.model.outputs.toJSON()
        .filter((output) => output.data && output.data["application/vnd.jupyter.widget-view+json"]).length;
    const drawn = [...cell.node.querySelectorAll(".jp-OutputArea-output:not([data-mime-type])")]
        .filter((node) => node.querySelector(":scope > .lm-Widget > *")).length;  // the view's own content
    return drawn >= views;
}"""


class LiteNotebook:
    """A notebook open in the site's JupyterLab, with its kernel started (unless `kernel` is False: then once its
    cells are loaded); runs cells one at a time."""

    def __init__(self, page, base: str, path: str, timeout: float = 120, *, kernel: bool = True):
        self.page = page
        page.goto(f"{base}lab/index.html?path={path}")
        page.wait_for_function(
            """(kernel) => {
            const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            if (!kernel) return panel && panel.context && panel.context.isReady;
            const session = panel && panel.sessionContext && panel.sessionContext.session;
            return session && session.kernel && session.kernel.status === "idle";
        }""",
            arg=kernel,
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
        self.page.wait_for_function(DRAWN, arg=index, timeout=timeout * 1000)
        return self.outputs(index)

    def run_new(self, source: str, timeout: float = 120) -> list[dict]:
        """Add a code cell holding `source` at the end of the notebook, run it; its outputs."""
        index = self.page.evaluate(
            """(source) => {
            const notebook = window.jupyterapp.shell.currentWidget.content;
            notebook.model.sharedModel.insertCell(notebook.widgets.length, {cell_type: "code", source});
            return notebook.widgets.length - 1;
        }""",
            source,
        )
        return self.run(index, timeout)

    def remove(self, index: int) -> None:
        """Delete cell `index` from the notebook."""
        self.page.evaluate(
            "(i) => window.jupyterapp.shell.currentWidget.content.model.sharedModel.deleteCell(i)", index
        )

    def file_text(self, path: str) -> str | None:
        """The text of the file at `path` in the site's file browser (its drive), None if there is none."""
        return self.page.evaluate(
            """async (path) => {
            try {
                const model = await window.jupyterapp.serviceManager.contents.get(path, {content: true});
                if (model.format === "base64") {  // as the drive keeps a file of a mimetype it does not read as text
                    return new TextDecoder().decode(Uint8Array.from(atob(model.content), (c) => c.charCodeAt(0)));
                }
                return typeof model.content === "string" ? model.content : JSON.stringify(model.content);
            } catch (error) { return null; }
        }""",
            path,
        )

    def file_bytes(self, path: str) -> bytes | None:
        """The bytes of the binary file at `path` in the site's file browser (its drive), None if there is none."""
        content = self.page.evaluate(
            """async (path) => {
            try {
                const model = await window.jupyterapp.serviceManager.contents.get(path, {content: true});
                return model.format === "base64" ? model.content : null;
            } catch (error) { return null; }
        }""",
            path,
        )
        return None if content is None else base64.b64decode(content)

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


def notebook(cells: list[str]) -> dict:
    return {
        "cells": [
            {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None}
            for source in cells
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def released_and_solved(tmp: Path) -> Path:
    """The Futoshiki exercise released to students, with a student's notebook that solves it and checks it."""
    from kernelext.grading.format.release import release

    folder = tmp / "futoshiki_exercise"
    student = release(exercise_dir=ROOT / "exercises" / "futoshiki", out_dir=folder)
    instructor = json.loads((ROOT / "exercises" / "futoshiki" / "instructor.ipynb").read_text())
    solutions = [
        "\n".join(line for line in "".join(cell["source"]).splitlines() if "### " not in line)
        for cell in instructor["cells"]
        if cell["cell_type"] == "code"
    ]
    nb = json.loads(student.read_text())
    code = [cell for cell in nb["cells"] if cell["cell_type"] == "code"]
    for cell, solution in zip(code, solutions):
        cell["source"] = solution
    nb["cells"].append(notebook(["%puzzle check"])["cells"][0])
    (folder / "solved.ipynb").write_text(json.dumps(nb))
    wrong = json.loads(json.dumps(nb))
    [cell for cell in wrong["cells"] if cell["cell_type"] == "code"][-2]["source"] = "%%puzzle+\nsatisfy(x[0][0] == 1)"
    (folder / "wrong.ipynb").write_text(json.dumps(wrong))
    return folder
