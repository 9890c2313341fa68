"""The kit's temporary folders: named after the process that owns them, so that the folders of a kernel
that was killed (and could not clean up) are removed by the next one."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

PREFIX = "kernelext-"
_OWNED = re.compile(rf"^{PREFIX}(\d+)-")


def scratch_folder(kind: str) -> tempfile.TemporaryDirectory:
    """A new temporary folder for `kind` (model, ace, tree...), removed when closed or at exit."""
    return tempfile.TemporaryDirectory(prefix=f"{PREFIX}{os.getpid()}-{kind}-")


def make_scratch_folder(kind: str) -> Path:
    """A new temporary folder for `kind` that its caller removes."""
    return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-{kind}-"))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def reap_stale_folders(root: str | Path | None = None) -> list[Path]:
    """Remove the kit's folders in `root` (the temporary folder) whose process is gone; return them."""
    root = Path(root or tempfile.gettempdir())
    removed = []
    try:
        entries = list(root.iterdir())
    except OSError:
        return removed
    for entry in entries:
        owner = _OWNED.match(entry.name)
        if owner and entry.is_dir() and not entry.is_symlink() and not _alive(int(owner.group(1))):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed
