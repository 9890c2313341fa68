"""What the benchmarks that time cells share: a ready Jupyter kernel, a cell timed in it, and the kit as it
was at an earlier git revision (a worktree, imported first through PYTHONPATH)."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def ready_kernel(pythonpath: str | None = None, cwd: Path = ROOT / "notebooks"):
    """A started kernel whose first execution has answered (so that start-up is not counted)."""
    from jupyter_client.manager import start_new_kernel

    env = {**os.environ, "PYTHONPATH": pythonpath} if pythonpath else dict(os.environ)
    manager, client = start_new_kernel(kernel_name="python3", cwd=str(cwd), env=env, stderr=subprocess.DEVNULL)
    try:
        client.execute_interactive("1", timeout=60, output_hook=lambda message: None)
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def timed_cell(client, cell: str) -> float:
    """Seconds from sending `cell` to its reply (its outputs received); a failing cell raises."""
    start = time.perf_counter()
    reply = client.execute_interactive(cell, timeout=300, output_hook=lambda message: None)
    if reply["content"]["status"] != "ok":
        raise RuntimeError(f"cell failed: {cell[:60]!r}: {reply['content'].get('evalue')}")
    return time.perf_counter() - start


@contextmanager
def worktree(revision: str):
    """The repository as it was at `revision`, in a temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), revision],
            check=True,
            capture_output=True,
        )
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
