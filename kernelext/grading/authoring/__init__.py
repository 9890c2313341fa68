"""A teacher's own exercise: made from a notebook, its instances filled and generated, validated before release."""
