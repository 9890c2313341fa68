"""Compile a pycsp3 model and solve it with ACE (warm or cold), Choco or OR-Tools."""
