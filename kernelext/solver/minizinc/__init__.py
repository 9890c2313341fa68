"""MiniZinc on the compiled model's translation: the system's program, or its WebAssembly in the browser."""
