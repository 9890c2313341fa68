"""Sphinx configuration of kernelext's documentation.

Build (offline, warnings as errors): python -m sphinx -W --keep-going -b html docs docs/_build/html
The classroom notebooks are shown with their stored outputs (nothing is executed); docs/notebooks/ holds one
symbolic link per notebook of notebooks/. The build writes only into its output folder (and the doctree folder,
inside it unless -d says otherwise): no bytecode of the kit or of _ext/, no jupyter_execute/ beside the output.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # the modules imported from here on (the kit, _ext/) leave no __pycache__ behind
DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent))  # the kit of this checkout, for the generated reference

project = "kernelext"
author = "kernelext contributors"
copyright = "kernelext contributors"

extensions = ["myst_nb", "kernelext_docs"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}

# Notebooks: shown as stored, never run. Their grids are stored as text/html (with text/plain beside it); a
# widget view cannot be drawn without its kernel, so it is left out and the HTML shows instead.
nb_execution_mode = "off"
nb_mime_priority_overrides = [("*", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}  # no widget manager loaded from a CDN
nb_merge_streams = True

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"  # system fonts, no CDN: the built pages load nothing from another host
html_title = "kernelext"
html_static_path = ["_static"]
html_css_files = ["kernelext.css"]
html_copy_source = False
html_show_sourcelink = False
smartquotes = False  # options such as --prove stay as typed
