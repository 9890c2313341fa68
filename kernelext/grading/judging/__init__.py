"""Judging answers: each run's verdict, the reference model as checker, a class graded on a pool, %puzzle check."""
