"""No dead ends in the documentation site: every relative link and resource of every built page (the
build tests/docs_site.py makes once) is a file of the site, and every `#anchor` an id of its target
page. Links to other hosts (http:, https:, mailto:...) are not followed. The links into the browser site
(`lite/`) are checked when it was built beside the pages, as the shared build does: each names a notebook the
site holds; without it, the pages must not link into it at all.

The count of links checked is printed and written to test-artifacts/docs/links.txt.
"""

from __future__ import annotations

import importlib.util
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "docs"
LINKING = {
    "a": "href",
    "area": "href",
    "link": "href",
    "script": "src",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "video": "src",
    "audio": "src",
}
LITE = "lite"  # the browser site's folder in the pages' folder


class Links(HTMLParser):
    """The addresses a page links to or loads, and the ids (and `<a name>`s) it defines."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.addresses: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        if tag in LINKING and attrs.get(LINKING[tag]):
            self.addresses.append(attrs[LINKING[tag]].strip())


def parsed(page: Path) -> Links:
    links = Links()
    links.feed(page.read_text(encoding="utf-8"))
    links.close()
    return links


def in_lite(site: Path, target: Path) -> bool:
    return (site / LITE) in (target, *target.parents)


def broken_links(site: Path) -> tuple[int, int, list[str]]:
    """(links checked, links into the browser site, the broken ones as `page: address (why)`) over every page
    of the site at `site` but the browser site's own."""
    site = site.resolve()
    lite_built = (site / LITE / "lab" / "index.html").is_file()
    pages = sorted(page for page in site.rglob("*.html") if not in_lite(site, page))
    ids: dict[Path, set[str]] = {}
    checked, lite_links, broken = 0, 0, []
    for page in pages:
        links = parsed(page)
        ids.setdefault(page, links.ids)
        for address in links.addresses:
            parts = urlsplit(address)
            if parts.scheme or address.startswith("//"):
                continue  # another host (or mailto:, data:): not a file of the site
            checked += 1
            where = f"{page.relative_to(site)}: {address}"
            target = Path(page.parent, unquote(parts.path)).resolve() if parts.path else page
            if site != target and site not in target.parents:
                broken.append(f"{where} (outside the site)")
                continue
            if in_lite(site, target):
                lite_links += 1
                if not lite_built:
                    broken.append(f"{where} (no browser site was built beside the pages)")
                    continue
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{where} (no such file)")
                continue
            if in_lite(site, target):
                notebook = parse_qs(parts.query).get("path", [""])[0]
                if notebook and not (site / LITE / "files" / notebook).is_file():
                    broken.append(f"{where} (no {notebook} in the browser site)")
                continue  # the browser site's own anchors are its JavaScript's
            if parts.fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = parsed(target).ids
                if unquote(parts.fragment) not in ids[target]:
                    broken.append(f"{where} (no id {parts.fragment!r} in {target.relative_to(site)})")
    return checked, lite_links, broken


@pytest.mark.slow
@pytest.mark.timeout(1200)  # the shared build (the browser site, then the pages) comes first
def test_every_relative_link_and_anchor_of_every_page_exists(site):
    checked, lite_links, broken = broken_links(site)
    pages = len([page for page in site.rglob("*.html") if not in_lite(site.resolve(), page.resolve())])
    summary = f"{checked} links checked on {pages} pages ({lite_links} into the browser site), {len(broken)} broken"
    print(summary)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "links.txt").write_text(summary + "\n" + "".join(f"{line}\n" for line in broken))
    assert pages > 20 and checked > 1000, summary
    assert not broken, summary + ":\n" + "\n".join(broken)
    notebooks = len(list((ROOT / "notebooks").glob("*.ipynb")))
    assert lite_links >= notebooks, f"{lite_links} links into the browser site for {notebooks} notebook pages"


def write(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_the_checker_finds_a_missing_file_a_missing_anchor_and_a_link_into_a_missing_browser_site(tmp_path):
    write(tmp_path / "_static" / "style.css")
    write(
        tmp_path / "index.html",
        '<html><head><link rel="stylesheet" href="_static/style.css"></head><body id="top">'
        '<a href="#top">top</a> <a href="guide/a.html#setup">ok</a> <a href="guide/a.html#gone">no id</a>'
        ' <a href="missing.html">no file</a> <a href="https://example.org/x">other host</a>'
        ' <a href="mailto:someone@example.org">mail</a> <a href="lite/lab/index.html?path=notebooks/x.ipynb">run</a>'
        ' <a href="../outside.html">outside</a></body></html>',
    )
    write(tmp_path / "guide" / "a.html", '<h2 id="setup">Set up</h2><a href="../index.html#top">back</a>')
    checked, lite_links, broken = broken_links(tmp_path)
    assert (checked, lite_links) == (8, 1)
    assert broken == [
        "index.html: guide/a.html#gone (no id 'gone' in guide/a.html)",
        "index.html: missing.html (no such file)",
        "index.html: lite/lab/index.html?path=notebooks/x.ipynb (no browser site was built beside the pages)",
        "index.html: ../outside.html (outside the site)",
    ]

    write(tmp_path / "lite" / "lab" / "index.html")
    assert broken_links(tmp_path)[2][-2:] == [
        "index.html: lite/lab/index.html?path=notebooks/x.ipynb (no notebooks/x.ipynb in the browser site)",
        "index.html: ../outside.html (outside the site)",
    ]
    write(tmp_path / "lite" / "files" / "notebooks" / "x.ipynb", "{}")
    assert len(broken_links(tmp_path)[2]) == 3


def test_the_pages_link_to_the_browser_site_only_when_it_is_there(tmp_path):
    spec = importlib.util.spec_from_file_location("kernelext_docs", ROOT / "docs" / "_ext" / "kernelext_docs.py")
    extension = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extension)
    assert extension.lite_notebooks(tmp_path) == ()
    write(tmp_path / "lite" / "files" / "notebooks" / "sudoku.ipynb", "{}")
    assert extension.lite_notebooks(tmp_path) == ()  # notebooks, but no JupyterLab to open them in
    write(tmp_path / "lite" / "lab" / "index.html")
    write(tmp_path / "lite" / "files" / "notebooks" / "amaze.ipynb", "{}")
    assert extension.lite_notebooks(tmp_path) == ("amaze", "sudoku")
    assert extension.LITE == "lite/lab/index.html" and extension.LITE_FOLDER == "notebooks"
