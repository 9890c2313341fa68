"""Houses, the names of steps by their shape, and the difficulty rating."""

from __future__ import annotations

from sessions import sudoku_rules

from kernelext.insight.walkthrough.techniques import houses, rating, shape_name

# -- names and rating ------------------------------------------------------------------------------------------


def sudoku_houses():
    rules, positions = sudoku_rules()
    return houses(rules, positions), positions


def test_houses_are_rows_columns_and_blocks():
    house_of, _ = sudoku_houses()
    assert [house_of[i][0] for i in (0, 9, 18)] == ["row", "column", "block"] and len(house_of) == 27


def test_steps_are_named_by_their_shape_only_when_the_pattern_holds():
    house_of, positions = sudoku_houses()
    full = {v: frozenset(range(1, 10)) for v in positions}

    def without(cells, value, domains=full):
        return {**domains, **{v: domains[v] - {value} for v in cells}}

    def name(ids, before, removed_cells, value):
        after = {v: before[v] - {value} for v in removed_cells}
        return shape_name(house_of, positions, ids, before, after)

    # 5 of block 0 only in row 0: removed from row 0 outside the block (pointing)
    pointing = without([f"x[{r}][{c}]" for r in (1, 2) for c in range(3)], 5)
    assert name((0, 18), pointing, ["x[0][5]", "x[0][7]"], 5) == "locked candidates (pointing)"
    assert name((0, 18), full, ["x[0][5]", "x[0][7]"], 5) == ""  # 5 can go elsewhere in the block
    # 5 of row 0 only in block 0: removed from the block outside row 0 (claiming)
    claiming = without([f"x[0][{c}]" for c in range(3, 9)], 5)
    assert name((0, 18), claiming, ["x[1][1]", "x[2][0]"], 5) == "locked candidates (claiming)"
    # 3 of rows 1 and 4 only in columns 2 and 6: removed from those columns elsewhere (X-wing)
    xwing = without([f"x[{r}][{c}]" for r in (1, 4) for c in range(9) if c not in (2, 6)], 3)
    assert name((1, 4, 11, 15), xwing, ["x[7][2]", "x[0][6]"], 3) == "X-wing"
    assert name((1, 4, 11, 15), full, ["x[7][2]", "x[0][6]"], 3) == ""
    swordfish = without([f"x[{r}][{c}]" for r in (1, 4, 7) for c in range(3, 9)], 3)
    assert name((1, 4, 7, 9, 10, 11), swordfish, ["x[8][0]"], 3) == "swordfish"
    two_values = {"x[0][5]": full["x[0][5]"] - {5}, "x[0][6]": full["x[0][6]"] - {4}}
    assert shape_name(house_of, positions, (0, 18), pointing, two_values) == ""
    assert name((0, 1), full, ["x[0][5]"], 5) == ""


def test_rating_is_the_hardest_step():
    assert rating([("singles", 1, True), ("hidden single", 1, True)]) == "easy (singles)"
    assert rating([("singles", 1, True), ("X-wing", 4, True), ("naked pair", 1, True)]) == "hard (X-wing)"
    assert rating([("", 5, True)]) == "extreme (a step of 5 houses with no name)"
    assert rating([("", 2, True), ("naked pair", 1, True)]) == "medium (a step of 2 houses with no name)"
    assert rating([("", 2, False), ("", 1, False)]) == "medium (a step of 2 constraints)"
    assert rating([]) == ""
