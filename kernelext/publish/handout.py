"""Notebooks that travel: outputs every front end can show without a kernel.

A step's output carries a live grid widget and its static forms (an HTML table, text). A widget can only
be drawn from a running kernel or from widget state saved in the notebook; otherwise JupyterLab and
Notebook 7 show "Error displaying widget: model not found" instead of falling back to the static form,
and `nbconvert --to html` loads the widget's renderer from the internet.

- `drop_dead_widget_views` removes the widget views that can no longer be drawn (their state is not saved)
  from outputs that have a static form to fall back to. It runs on every save from JupyterLab and
  Notebook 7 (see kernelext.publish.server), so a teacher's own notebook reopens with its grids.
- `prepare` readies a notebook for a class: no widget views or widget state at all, the kernelspec as
  JupyterLab writes it (so that opening the notebook does not mark it modified). `kernelext-handout`
  runs it on files, optionally executing them first.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from pathlib import Path

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def _outputs(nb: dict):
    for cell in nb.get("cells", ()):
        yield from cell.get("outputs", ()) if cell.get("cell_type") == "code" else ()


def saved_widget_models(nb: dict) -> set[str]:
    """The ids of the widget models whose state the notebook carries."""
    widgets = (nb.get("metadata") or {}).get("widgets") or {}
    return set((widgets.get(WIDGET_STATE) or {}).get("state") or {})


def drop_dead_widget_views(nb: dict) -> int:
    """Remove, from outputs that also carry `text/html`, the widget views whose model state is not saved.

    Returns how many views were removed. Other outputs are left alone.
    """
    saved, dropped = saved_widget_models(nb), 0
    for output in _outputs(nb):
        data = output.get("data") or {}
        view = data.get(WIDGET_VIEW)
        if view is not None and "text/html" in data and (view or {}).get("model_id") not in saved:
            del data[WIDGET_VIEW]
            dropped += 1
    return dropped


def prepare(nb: dict) -> dict:
    """Ready `nb` (a notebook as JSON) for handing out, in place: every widget view and the saved widget
    state removed (outputs keep their HTML and text forms), the kernelspec as JupyterLab writes it."""
    for output in _outputs(nb):
        (output.get("data") or {}).pop(WIDGET_VIEW, None)
    metadata = nb.setdefault("metadata", {})
    metadata.pop("widgets", None)
    if (metadata.get("kernelspec") or {}).get("name", "python3") == "python3":
        metadata["kernelspec"] = dict(KERNELSPEC)
    return nb


def execute(path: Path, timeout: int) -> dict:
    """Run every cell of the notebook at `path` in a fresh kernel, in the notebook's folder."""
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    handler = signal.getsignal(signal.SIGINT)
    try:
        client.execute()
    finally:  # nbclient removes its own Ctrl-C handler by setting Python's default, whatever was there before
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, handler)
    return json.loads(nbformat.writes(nb))  # plain JSON again, as `prepare` takes it


def _text(nb: dict) -> str:
    """The notebook as nbformat (and so JupyterLab) writes it."""
    import nbformat

    text = nbformat.writes(nbformat.from_dict(nb))
    return text if text.endswith("\n") else text + "\n"


def main(argv: list[str] | None = None) -> int:
    """`kernelext-handout NOTEBOOK...`: prepare notebooks for a class, in place (see `prepare`)."""
    parser = argparse.ArgumentParser(
        prog="kernelext-handout",
        description=(
            "Prepare notebooks for a class: remove live widget views and widget state, keep the static grids "
            "(HTML tables and text) that every front end shows without a kernel."
        ),
    )
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--execute", action="store_true", help="run every cell first (in the notebook's folder)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds a cell may run with --execute")
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 and name the notebooks that are not ready"
    )
    args = parser.parse_args(argv)
    not_ready = []
    for path in args.notebooks:
        original = path.read_text(encoding="utf-8")
        nb = execute(path, args.timeout) if args.execute else json.loads(original)
        ready = _text(prepare(nb))
        if args.check:
            if json.loads(original) != json.loads(ready):
                not_ready.append(path)
            continue
        if ready != original:
            path.write_text(ready, encoding="utf-8")
        print(f"{path}: ready")
    for path in not_ready:
        print(f"{path}: has live widget views or widget state; run kernelext-handout {path}", file=sys.stderr)
    return 1 if not_ready else 0


if __name__ == "__main__":
    sys.exit(main())
