"""The kit under ipywidgets 7.7.1, as Colab ships it: `%%puzzle` runs in a real kernel and every step
carries its static forms beside the widget.

ipywidgets 7.7.1 is installed from the package registry into a folder put first on the kernel's
PYTHONPATH, so the kernel imports it instead of the environment's ipywidgets 8.
"""

from __future__ import annotations

import os
import subprocess
import sys

import nbclient
import nbformat
import pytest

from sanitized_html import sanitizer_problems

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
CELLS = [
    "import ipywidgets\nprint(ipywidgets.__version__)\n%load_ext kernelext\nfrom pycsp3 import *",
    "%%puzzle sudoku\nx = VarArray(size=[4, 4], dom=range(1, 5))",
    "%%puzzle+\nsatisfy(AllDifferent(x[i]) for i in range(4))\nsatisfy(AllDifferent(x[:, j]) for j in range(4))",
]


@pytest.fixture(scope="module")
def ipywidgets7(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ipywidgets7")
    install = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(folder),
                              "ipywidgets==7.7.1", "ipython_genutils"], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, f"could not install ipywidgets 7.7.1:\n{install.stderr[-2000:]}"
    return folder


def test_puzzle_steps_show_static_grids_under_ipywidgets_7(ipywidgets7, tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS])
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute(env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(ipywidgets7), os.environ.get("PYTHONPATH", "")])))
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
