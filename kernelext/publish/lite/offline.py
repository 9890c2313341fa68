"""A built site made to work offline after its first visit, to keep a student's work, and to ask the network only
for what changed.

JupyterLite's service worker can keep what it serves in a cache (`enableServiceWorkerCache`), but as shipped it
forgets to after the browser restarts it, keys a file by its query string too (`lab/index.html?path=x.ipynb`
and `chunk.js?v=HASH` are then missing offline), never keeps the files under `api/` (the notebooks' listings,
the translations), and downloads again every file it answers from its cache (40 MB and more at every visit, on a
classroom's wifi). Exact edits fix that (`api/drive` and `api/stdin`, the kernel's requests, are answered
before): the worker answers from its cache first, and lets the plugin's requests (marked by a header) through to
the network.
A build against another JupyterLite fails rather than ship a site that silently is not offline.

The site's plugin (`site_extension/`) keeps the cache whole and current: `kernelext-offline.json` lists every
file with its SHA-256, and a file the cache lacks, or holds with another hash, is fetched again (on the first
visit, what the worker fetched during it is taken as it is).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from kernelext.errors import KernelextError

MANIFEST = "kernelext-offline.json"
# Directory addresses a visit may open, beside the files themselves.
PAGES = ("./", "lab/", "notebooks/", "tree/")
SERVICE_WORKER_EDITS = (
    # the cache setting read when the worker starts, not only when it is first activated
    ("let enableCache=!1;", 'let enableCache="true"===new URL(location.href).searchParams.get("enableCache");'),
    # a file is the same file whatever its query string (`?v=HASH`, `?path=x.ipynb`): a static site ignores it
    ("a=await t.match(e);", "a=await t.match(e,{ignoreSearch:!0});"),
    # the notebooks' listings and the translations are static files of the site too: kept like the others
    ('||t.pathname.includes("/api/")}', "}"),
    # a file in the cache is answered from it, without downloading it again (the plugin keeps it current)
    ("a?e.waitUntil(refetch(t)):(", "a||("),
    # the plugin's own requests (marked by a header) go to the network, through the browser's HTTP cache
    (
        "if(!enableCache)return await fetch(t);",
        'if(!enableCache||t.headers.has("x-kernelext-keep"))return await fetch(t);',
    ),
)


class OfflineError(KernelextError):
    """The site's service worker is not the one these edits were made for."""


def keep_for_offline(site: Path) -> None:
    """Edit the built `site`'s service worker, and list every file its plugin keeps for offline visits."""
    worker = site / "service-worker.js"
    text = worker.read_text()
    for old, new in SERVICE_WORKER_EDITS:
        if text.count(old) != 1:
            raise OfflineError(
                f"{worker.name} is not JupyterLite 0.8.6's (no single `{old}`): the site would not work offline."
            )
        text = text.replace(old, new)
    worker.write_text(text)
    files = {
        path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(site.rglob("*"))
        if path.is_file() and path.suffix != ".map" and path.name != MANIFEST
    }
    pages = {page: files[f"{page}index.html".removeprefix("./")] for page in PAGES}
    (site / MANIFEST).write_text(json.dumps(pages | files, indent=0))


def config_data() -> dict:
    """What `jupyter-lite.json` needs for this: the service worker's cache on."""
    return {"enableServiceWorkerCache": True}
