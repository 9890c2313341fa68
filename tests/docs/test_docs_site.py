"""The documentation site (built once by tests/docs_site.py: the pages with Sphinx, warnings as errors, and
the browser site beside them, offline), opened in Debian's Chromium served from 127.0.0.1 with every other
host unreachable.

Checked: the Sudoku notebook's page shows its grids as tables of digits and links to the browser site; the
magics' reference (generated from the code) lists `%%puzzle+` and every line command; no code block runs past
its right edge (long command lines wrap); no page asks anything of another host; axe-core's WCAG 2.1 A/AA rules
find nothing on any page. A screenshot of the Sudoku
page goes to test-artifacts/docs/. Every page's links are checked by tests/docs/test_links.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from axe import count, described, violations
from local_web import CHROMIUM, launch, outside, served

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "docs"
WRAPPED = ["quickstart-teachers.html", "reference/magics.html", "install.html"]  # pages with long command lines
CUT = """() => [...document.querySelectorAll("div.highlight pre")]
    .filter((pre) => [pre, pre.closest("div.highlight")].some((box) => box.scrollWidth > box.clientWidth + 1))
    .map((pre) => pre.innerText.split("\\n").sort((a, b) => b.length - a.length)[0].slice(0, 80))"""

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]


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

            page.set_viewport_size({"width": 800, "height": 900})  # narrower than the longest lines
            for address in WRAPPED:
                page.goto(base + address, wait_until="load")
                assert page.locator("div.highlight pre").count(), f"{address}: no code block"
                cut = page.evaluate(CUT)
                assert not cut, f"{address}: code blocks cut at the right edge, e.g. {cut}"
        finally:
            browser.close()
    assert requested and not outside(requested), f"pages asked another host: {outside(requested)[:5]}"


def test_axe_finds_no_wcag_21_aa_violation_on_any_page(site):
    from playwright.sync_api import sync_playwright

    pages = sorted(
        str(path.relative_to(site))
        for path in site.rglob("*.html")
        if not {"lite", "_static", "_sources"} & set(path.relative_to(site).parts)
    )
    assert len(pages) > 20, f"only {len(pages)} pages built"
    found: dict[str, str] = {}
    with served(site, ready="index.html") as base, sync_playwright() as p:
        browser = launch(p, only_local=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(30_000)
            for address in pages:
                page.goto(base + address, wait_until="load")
                problems = violations(page)
                if problems:
                    found[address] = f"{count(problems)} elements: {described(problems, 3)}"
        finally:
            browser.close()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "axe.txt").write_text(f"{len(pages)} pages checked, {len(found)} with violations\n")
    assert not found, "\n".join(f"{address}: {text}" for address, text in list(found.items())[:8])
