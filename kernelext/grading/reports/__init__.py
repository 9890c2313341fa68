"""A class's marks: submissions found, results as dataclasses, written questions' points, platforms' results.json."""
