"""CP-SAT's reading of a compiled model: OR-Tools loaded, the XCSP3 read into a CP-SAT model, globals included."""
