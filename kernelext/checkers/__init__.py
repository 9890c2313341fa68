"""Independent validators: the cells of a grid that break a puzzle's rules (pure Python, no solver).

Each checker takes rows of values (None where a value is unknown) and returns a set of (row, col) cells.
"""
