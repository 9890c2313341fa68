"""Temporary folders: a kernel that shuts down leaves none, and those of killed kernels are reaped."""

from __future__ import annotations

import os
import subprocess
import sys

import nbclient
import nbformat
from conftest import ctrl_c_kept

from kernelext.scratch import reap_stale_folders, scratch_folder


def dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait(timeout=120)
    return process.pid


def test_folders_of_processes_that_are_gone_are_reaped_and_others_kept(tmp_path):
    dead = tmp_path / f"kernelext-{dead_pid()}-model-abc"
    live = tmp_path / f"kernelext-{os.getpid()}-model-def"
    other = tmp_path / "kernelext-notapid"
    for folder in (dead, live, other):
        (folder / "inner").mkdir(parents=True)
    assert reap_stale_folders(tmp_path) == [dead]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, other.name])


def test_scratch_folders_carry_the_owner_pid():
    with scratch_folder("model") as folder:
        assert os.path.basename(folder).startswith(f"kernelext-{os.getpid()}-model-")


def test_a_kernel_that_shuts_down_leaves_no_folder_and_reaps_those_of_killed_kernels(tmp_path):
    stale = tmp_path / f"kernelext-{dead_pid()}-model-x"
    (stale / "model.xml").parent.mkdir()
    (stale / "model.xml").write_text("<instance/>")
    cells = [
        "%load_ext kernelext\nfrom pycsp3 import *",
        "%%puzzle t\nx = VarArray(size=[2, 2], dom=range(2))",
        "%%puzzle+\nsatisfy(AllDifferent(x[0]))",
        "%puzzle domains",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    with ctrl_c_kept():
        client.execute(env=dict(os.environ, TMPDIR=str(tmp_path)))  # runs the cells, then shuts the kernel down
    assert "status: SAT" in nb.cells[2].outputs[-1]["data"]["text/plain"], nb.cells[2].outputs
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith("kernelext-")]
