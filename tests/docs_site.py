"""The documentation site, built once for every test of tests/docs/ that asks for it (the fixture `site`, which
tests/conftest.py makes available: a conftest.py in tests/docs/ would shadow the shared one for
`from conftest import`): the browser site first (from the parts `kernelext-lite fetch` cached: nothing is
downloaded), then the pages beside it, with Sphinx (warnings as errors), both into a temporary folder. The build must leave docs/ as it was and write nothing
beside its two folders (the pages, the doctrees)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BUILD_TIMEOUT = 600  # seconds, each build


def run(command: list[str]) -> None:
    done = subprocess.run(
        command,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, f"{' '.join(command[2:5])} failed:\n{(done.stdout + done.stderr)[-3000:]}"


def source_tree() -> dict[str, float]:
    return {
        str(path.relative_to(DOCS)): path.lstat().st_mtime
        for path in DOCS.rglob("*")
        if "_build" not in path.relative_to(DOCS).parts
    }


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The pages built as docs/install.md says, into a temporary folder, with the browser site in html/lite/
    (built first, so that each notebook's page links to it). Built once for the whole run: the first of the
    test workers (pytest-xdist) to ask builds it, in a folder they share, while the others wait."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the workers' own folders sit side by side in it
    with open(shared / "docs-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        tmp = shared / "docs-site"
        if not (tmp / "html" / "index.html").exists():
            tmp.mkdir(exist_ok=True)
            build(tmp)
    return tmp / "html"


def build(tmp: Path) -> None:
    """Build the browser site, then the pages, into `tmp`/html; check that nothing else was written."""
    html = tmp / "html"
    before = source_tree()
    run(
        [
            sys.executable,
            "-c",
            "import sys; from kernelext.publish.lite.cli import main; sys.exit(main())",
            "build",
            "--offline",
            str(html / "lite"),
        ]
    )
    started = time.monotonic()
    run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-b",
            "html",
            "-d",
            str(tmp / "doctrees"),
            str(DOCS),
            str(html),
        ]
    )
    print(f"docs built in {time.monotonic() - started:.1f} s: {len(list(html.rglob('*.html')))} pages")
    assert source_tree() == before, "the build wrote into docs/"
    assert sorted(path.name for path in tmp.iterdir()) == ["doctrees", "html"], "the build wrote beside its folders"
