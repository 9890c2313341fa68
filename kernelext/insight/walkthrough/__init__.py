"""A whole solve deduced step by step in the kernel: constraints as rules, propagation, each step's smallest set of rules, and the techniques' names."""
