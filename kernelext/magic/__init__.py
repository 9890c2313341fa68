"""The IPython face: the %%puzzle / %%puzzle+ magics, the %puzzle commands' table, and what a notebook shows."""
