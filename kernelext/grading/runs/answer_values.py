"""An answer array's values in a graded run: read out of a solution as nested lists, or fixed in the model."""

from __future__ import annotations


def add_fixing_step(session, fixes: list[tuple[str, tuple[int, ...], int]], *, key: str) -> None:
    """Add a step posting `array[index] == value` for each (array, index, value) of `fixes`."""
    session.namespace["_kernelext_at"] = at
    session.namespace["_kernelext_fix"] = fixes
    session.add_step(
        "satisfy(_kernelext_at(globals()[name], index) == value for name, index, value in _kernelext_fix)",
        key=key,
        solve=False,
    )


def shape_of(values) -> tuple[int, ...]:
    shape = []
    while isinstance(values, list):
        shape.append(len(values))
        values = values[0] if values else None
    return tuple(shape)


def at(values, index: tuple[int, ...]):
    for i in index:
        values = values[i]
    return values


def nested_values(info, solution) -> object:
    """The values of array `info` in `solution`, as nested lists of its shape (None for holes)."""
    if not info.shape:
        return solution.get(info.cells[0][1])
    values = _empty(info.shape)
    for index, variable in info.cells:
        row = values
        for i in index[:-1]:
            row = row[i]
        row[index[-1]] = solution.get(variable)
    return values


def _empty(shape: tuple[int, ...]) -> list:
    if len(shape) == 1:
        return [None] * shape[0]
    return [_empty(shape[1:]) for _ in range(shape[0])]


def with_singles(solution, info) -> dict:
    """`solution` with the value of each cell of `info` left out of it whose domain holds a single value."""
    return {**solution, **{name: value for name, value in _single_values(info).items() if solution.get(name) is None}}


def _single_values(info) -> dict:
    """The cells of `info` whose domain holds one value: pycsp3 leaves them out of the model when unconstrained."""
    from pycsp3.classes.main.variables import Variable

    single = {}
    for _, name in info.cells:
        values = Variable.name2obj[name].dom.all_values()
        if len(values) == 1:
            single[name] = values[0]
    return single
