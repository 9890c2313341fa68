"""The documentation site: built with Sphinx (warnings as errors) and the browser site beside it, offline, into a
temporary folder, then opened in Debian's Chromium served from 127.0.0.1 with every other host unreachable.

Checked: the Sudoku notebook's page shows its grids as tables of digits; the magics' reference (generated from
the code) lists `%%puzzle+` and every line command; no page asks anything of another host; and every relative
link and resource of every built page exists, the links into the browser site (`lite/`) included, since the
test builds that site too (from the parts `kernelext-lite fetch` cached: nothing is downloaded). The source
tree is left as it was. A screenshot of the Sudoku page goes to test-artifacts/docs/.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from local_web import CHROMIUM, launch, outside, served

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
ARTIFACTS = ROOT / "test-artifacts" / "docs"
BUILD_TIMEOUT = 600  # seconds, each build
LINKING = {"a": "href", "link": "href", "script": "src", "img": "src", "iframe": "src", "source": "src"}

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]


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


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The pages built as the README says, into a temporary folder, with the browser site in html/lite/."""
    tmp = tmp_path_factory.mktemp("docs")
    html = tmp / "html"
    before = source_tree()
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
    assert source_tree() == before, "the build wrote into docs/"
    return html


class Links(HTMLParser):
    """The addresses a page links to or loads, and the ids it defines."""

    def __init__(self):
        super().__init__()
        self.addresses: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag in LINKING and attrs.get(LINKING[tag]):
            self.addresses.append(attrs[LINKING[tag]])


def parsed(page: Path) -> Links:
    links = Links()
    links.feed(page.read_text(encoding="utf-8"))
    return links


def test_every_internal_link_of_every_page_exists(site):
    pages = [page for page in site.rglob("*.html") if "lite" not in page.relative_to(site).parts[:1]]
    assert len(pages) > 20, pages
    ids = {}
    broken, lite_links = [], 0
    for page in pages:
        for address in parsed(page).addresses:
            parts = urlsplit(address)
            if parts.scheme or address.startswith("//"):
                continue  # another host: not a file of the site (the browser test checks nothing is loaded)
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file() or site.resolve() not in target.parents:
                broken.append(f"{page.relative_to(site)}: {address}")
                continue
            if parts.path.endswith("lite/lab/index.html"):  # the notebook it opens is in the browser site
                lite_links += 1
                notebook = parse_qs(parts.query).get("path", [""])[0]
                if not (site / "lite" / "files" / notebook).is_file():
                    broken.append(f"{page.relative_to(site)}: {address} (no {notebook} in the browser site)")
            if parts.fragment and target.suffix == ".html" and "lite" not in target.relative_to(site.resolve()).parts:
                if target not in ids:
                    ids[target] = parsed(target).ids
                if parts.fragment not in ids[target]:
                    broken.append(f"{page.relative_to(site)}: {address} (no #{parts.fragment})")
    assert not broken, "broken links:\n" + "\n".join(broken)
    assert lite_links >= len(list((ROOT / "notebooks").glob("*.ipynb"))), lite_links


def test_pages_show_the_notebooks_grids_and_the_generated_reference(site):
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), "Debian's chromium is missing: apt-get install -y chromium"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    requested = []
    with served(site, ready="index.html") as base, sync_playwright() as p:
        browser = launch(p, only_local=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(30_000)
            page.on("request", lambda request: requested.append(request.url))

            page.goto(base + "notebooks/sudoku.html", wait_until="load")
            grids = page.evaluate("""() => [...document.querySelectorAll(".cell_output table[title]")].map((t, i) => {
                const box = t.getBoundingClientRect();
                const digits = [...t.querySelectorAll("td")].filter((td) => /^\\s*[1-9]\\s*$/.test(td.innerText));
                return {index: i, title: t.title, visible: t.checkVisibility(), width: box.width, height: box.height,
                        digits: digits.length};
            })""")
            shown = [g for g in grids if g["visible"] and g["width"] > 100 and g["height"] > 100 and g["digits"] >= 17]
            assert shown, f"no grid of digits drawn on the Sudoku page: {grids[:5]}"
            grid = page.locator(".cell_output table[title]").nth(shown[0]["index"])
            grid.evaluate("(table) => table.scrollIntoView({block: 'center', behavior: 'instant'})")
            page.screenshot(path=str(ARTIFACTS / "notebook-sudoku.png"), full_page=False)
            assert "Open this notebook in the browser" in page.inner_text("body")

            page.goto(base + "reference/magics.html", wait_until="load")
            text = page.inner_text("article")
            for expected in (
                "%%puzzle+",
                "%puzzle walkthrough",
                "%puzzle check",
                "--solver NAME",
                "PuzzleMagics.timeout",
            ):
                assert expected in text, f"{expected} missing from the magics' reference"
            page.screenshot(path=str(ARTIFACTS / "magics-reference.png"), full_page=False)
        finally:
            browser.close()
    assert requested and not outside(requested), f"pages asked another host: {outside(requested)[:5]}"
