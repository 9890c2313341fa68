"""The kit under ipywidgets 7.7.1, as Colab ships it: `%%puzzle` runs in a real kernel and every step
carries its static forms beside the widget.

ipywidgets 7.7.1 is installed, without the network, from the wheels `python tests/fetch_test_parts.py` downloads
before the tests, into a folder put first on the kernel's PYTHONPATH, so the kernel imports it instead of the
environment's ipywidgets 8.
"""

from __future__ import annotations

import os
import subprocess
import sys

import nbclient
import nbformat
import pytest
from conftest import ctrl_c_kept
from fetch_test_parts import COMMAND, IPYWIDGETS7, missing, wheels_folder
from sanitized_html import sanitizer_problems

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
CELLS = [
    "import ipywidgets\nprint(ipywidgets.__version__)\n%load_ext kernelext\nfrom pycsp3 import *",
    "%%puzzle sudoku\nx = VarArray(size=[4, 4], dom=range(1, 5))",
    "%%puzzle+\nsatisfy(AllDifferent(x[i]) for i in range(4))\nsatisfy(AllDifferent(x[:, j]) for j in range(4))",
]
INSTALL_TIMEOUT = 120  # seconds for installing the local wheels


def install_ipywidgets7(folder):
    """ipywidgets 7.7.1 installed into `folder` from the fetched wheels alone; fails (never skips) without them."""
    lacking = missing(IPYWIDGETS7)
    if lacking:
        pytest.fail(f"{', '.join(lacking)} not in {wheels_folder()}: run `{COMMAND}` first", pytrace=False)
    try:
        install = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--no-index",
                "--find-links",
                str(wheels_folder()),
                "--no-deps",
                "--target",
                str(folder),
                *IPYWIDGETS7,
            ],
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"installing ipywidgets 7.7.1 from {wheels_folder()} took over {INSTALL_TIMEOUT} s", pytrace=False)
    assert install.returncode == 0, f"could not install ipywidgets 7.7.1:\n{install.stderr[-2000:]}"


def test_puzzle_steps_show_static_grids_under_ipywidgets_7(tmp_path):
    ipywidgets7 = tmp_path / "ipywidgets7"
    install_ipywidgets7(ipywidgets7)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS])
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    with ctrl_c_kept():
        client.execute(
            env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(ipywidgets7), os.environ.get("PYTHONPATH", "")]))
        )
    assert nb.cells[0].outputs[0]["text"].strip() == "7.7.1"
    for cell in nb.cells[1:]:
        [output] = cell.outputs
        data = output["data"]
        assert output["output_type"] == "display_data" and WIDGET_VIEW in data
        assert sanitizer_problems(data["text/html"]) == [] and data["text/html"].count("<td") >= 16
    final = nb.cells[2].outputs[0]["data"]
    assert "status: SAT" in final["text/plain"]
    rows = final["text/plain"].splitlines()[-4:]
    assert all(sorted(row.replace("[", " ").replace("]", " ").split()) == list("1234") for row in rows), rows
