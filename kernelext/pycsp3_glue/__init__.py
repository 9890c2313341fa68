"""What the kit does to pycsp3 and Python's operators: pycsp3's global state, its `in`, its source reading."""
