"""`kernelext-lite`: publish the classroom notebooks (or others, or a released exercise) as a static site that
runs the kit in the browser, with nothing to install."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kernelext.publish.lite.parts import FetchError, default_cache, fetch
from kernelext.publish.lite.site import BuildError, build_site
from kernelext.publish.lite.wheels import PACKAGE


def classroom_notebooks() -> Path | None:
    """The classroom notebooks: `notebooks/` here (the repository's root), or beside the kit's source."""
    for folder in (Path("notebooks"), PACKAGE.parent / "notebooks"):
        if folder.is_dir():
            return folder
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kernelext-lite", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="build the site into OUT (serve it with `python -m http.server -d OUT`)")
    build.add_argument("out", type=Path, metavar="OUT")
    build.add_argument(
        "sources",
        type=Path,
        nargs="*",
        metavar="NOTEBOOK_OR_FOLDER",
        help="notebooks and folders to put in (default: the classroom notebooks)",
    )
    build.add_argument("--offline", action="store_true", help="use fetched parts only, download nothing")
    build.add_argument("--cache", type=Path, default=None, help="where fetched parts are kept")
    get = commands.add_parser("fetch", help="download the site's parts (Pyodide, MiniZinc, wheels) into the cache")
    get.add_argument("--cache", type=Path, default=None, help="where fetched parts are kept")
    args = parser.parse_args(argv)
    cache = args.cache or default_cache()
    try:
        if args.command == "fetch":
            fetch(cache)
            print(f"Fetched into {cache}")
            return 0
        sources = args.sources or [classroom_notebooks() or Path("notebooks")]
        missing = [str(source) for source in sources if not source.exists()]
        if missing:
            parser.error(f"not found: {', '.join(missing)} (name the notebooks and folders to put in)")
        out = build_site(args.out, sources, fetch(cache, offline=args.offline))
    except (FetchError, BuildError) as error:
        print(f"kernelext-lite: {error}", file=sys.stderr)
        return 1
    size = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
    print(f"Built {out} ({size / 2**20:.0f} MB): serve it with `python -m http.server -d {out}`")
    return 0
