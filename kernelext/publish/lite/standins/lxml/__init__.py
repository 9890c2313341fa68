"""The part of lxml that pycsp3 uses, on the standard library's ElementTree (the browser has no lxml)."""
