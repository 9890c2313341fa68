"""The solver made visible, as algorithms that draw nothing: explanations, pencil marks, search trees, walkthroughs."""
