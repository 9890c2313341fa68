"""The kit's own reasoning, in pure Python (no solver, no Java: the same in a browser): constraints read as rules
that filter their variables' candidates, propagated, and searched depth first."""
