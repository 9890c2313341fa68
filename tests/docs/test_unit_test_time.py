"""The README and the installation page give one figure for the unit tests' time (they had drifted apart)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURE = re.compile(r"about (\d+)\s+minutes on a 2-core machine")


def test_the_readme_and_the_install_page_say_the_same_unit_test_time():
    said = {name: FIGURE.findall((ROOT / name).read_text()) for name in ("README.md", "docs/install.md")}
    assert all(len(found) == 1 for found in said.values()), said
    assert said["README.md"] == said["docs/install.md"], said
