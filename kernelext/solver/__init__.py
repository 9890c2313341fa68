"""Solving compiled models: one entry point (engine), one registry of backends (CP-SAT in this process, MiniZinc,
ACE warm and cold, Choco, OR-Tools through CPMpy), the choice among them (choice), and the check every answer passes."""
