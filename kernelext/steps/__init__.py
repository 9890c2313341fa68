"""A pycsp3 model built step by step: run a step's cell, lint it, replay and roll back, compile for the solvers."""
