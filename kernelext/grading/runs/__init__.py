"""Graded runs: a model on one instance, in a sandboxed warm process that forks a child per run."""
