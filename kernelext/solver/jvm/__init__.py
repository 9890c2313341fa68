"""The solvers that run in a Java VM (ACE, Choco): Java found, the jars, one warm ACE in a worker, cold runs."""
