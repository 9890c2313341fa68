"""CP-SAT in the kernel's own process: the compiled model read into a CP-SAT model (globals included), and solved."""
