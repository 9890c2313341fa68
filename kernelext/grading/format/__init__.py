"""An exercise's files as grading reads them: exercise.json, its instances and checker, notebooks in and out."""
