"""The pictures as pure functions: a compiled model (XCSP3 text) and a solution in, a description out, and its
text, static HTML and SVG forms (no solver, no widget)."""

from __future__ import annotations

import json
import types

import pytest
from sanitized_html import sanitizer_problems

from kernelext import plugins, views
from kernelext.errors import ViewNotApplicable
from kernelext.views import gantt, graph, packing, route
from kernelext.widgets.drawing_forms import drawing_html, drawing_text
from kernelext.widgets.drawing_svg import drawing_svg
from kernelext.xcsp.subsets import read_model

pytestmark = pytest.mark.timeout(60)

SHOP = """
<array id="s" size="[2][2]"> 0..20 </array>
</variables><constraints>
<noOverlap><origins> s[0][0] s[1][0] </origins><lengths> 3 2 </lengths></noOverlap>
<noOverlap><origins> s[0][1] s[1][1] </origins><lengths> 2 4 </lengths></noOverlap>
<intension> le(add(s[0][0],3),s[0][1]) </intension>
"""
PROJECT = """
<array id="t" size="[3]"> 0..9 </array>
</variables><constraints>
<cumulative><origins> t[] </origins><lengths> 2 3 2 </lengths><heights> 2 2 1 </heights>
<condition> (le,3) </condition></cumulative>
"""
BOXES = """
<array id="x" size="[3]"> 0..2 </array>
<array id="y" size="[3]"> 0..3 </array>
</variables><constraints>
<noOverlap><origins> (x[0],y[0])(x[1],y[1])(x[2],y[2]) </origins><lengths> (2,1)(2,2)(1,1) </lengths></noOverlap>
"""
COLOURING = """
<array id="c" size="[4]"> 0..2 </array>
</variables><constraints>
<group><intension> ne(%0,%1) </intension><args> c[0] c[1] </args><args> c[1] c[2] </args>
<args> c[2] c[3] </args><args> c[0] c[2] </args></group>
"""
CIRCUIT = """
<array id="succ" size="[4]"> 0..3 </array>
</variables><constraints>
<circuit> succ[] </circuit>
"""


@pytest.fixture
def model(tmp_path):
    def read(body: str, objective: str = ""):
        path = tmp_path / "model.xml"
        path.write_text(f'<instance format="XCSP3" type="CSP"><variables>{body}</constraints>{objective}</instance>')
        return read_model(path)

    return read


def marked(description: dict, mark: str) -> list[str]:
    return [s.get("text") or s["shape"] for s in description["shapes"] if mark in s.get("marks", ())]


def test_each_picture_recognises_its_own_model_only(model):
    found = {
        name: model(body)
        for name, body in [
            ("shop", SHOP),
            ("project", PROJECT),
            ("boxes", BOXES),
            ("colouring", COLOURING),
            ("circuit", CIRCUIT),
        ]
    }
    assert {name: views.detect_picture(m, {}) for name, m in found.items()} == {
        "shop": "gantt",
        "project": "gantt",
        "boxes": "packing",
        "colouring": "graph",
        "circuit": "route",
    }


@pytest.mark.parametrize("where", ["element", "list"])
def test_a_circuit_counted_from_one_is_drawn_as_the_same_tour(model, where):
    listed = "<list> succ[] </list>" if where == "list" else "succ[]"
    body = CIRCUIT.replace("0..3", "1..4").replace("<circuit> succ[] </circuit>", f"<circuit>{listed}</circuit>")
    body = (
        body.replace("<list>", '<list startIndex="1">')
        if where == "list"
        else body.replace("<circuit>", '<circuit startIndex="1">')
    )
    tour = route.describe(model(body), {}, {f"succ[{i}]": (i + 1) % 4 + 1 for i in range(4)}, None)
    assert "tour: 0 → 1 → 2 → 3 → 0" in tour["lines"]


def test_all_pairs_of_an_array_different_is_no_graph(model):
    pairs = "".join(f"<args> q[{i}] q[{j}] </args>" for i in range(4) for j in range(i + 1, 4))
    queens = model(
        f'<array id="q" size="[4]"> 0..3 </array></variables><constraints>'
        f"<group><intension> ne(%0,%1) </intension>{pairs}</group>"
    )
    assert views.detect_picture(queens, {}) is None


def test_gantt_rows_bars_axis_and_makespan(model):
    drawn = gantt.describe(model(SHOP), {}, {"s[0][0]": 0, "s[1][0]": 3, "s[0][1]": 3, "s[1][1]": 5}, None)
    assert drawn["lines"] == [
        "Gantt chart: 2 resources, 4 tasks, makespan 9",
        "s[*][0]: s[0][0] 0→3, s[1][0] 3→5",
        "s[*][1]: s[0][1] 3→5, s[1][1] 5→9",
    ]
    assert not marked(drawn, "conflict") and {"0", "9"} <= {s["text"] for s in drawn["shapes"] if s["shape"] == "label"}


def test_undecided_tasks_are_faint_and_starred(model):
    drawn = gantt.describe(model(SHOP), {}, {"s[0][0]": 0, "s[1][0]": None, "s[0][1]": 3, "s[1][1]": None}, None)
    assert sorted(marked(drawn, "faint")) == ["s[1][0] *", "s[1][1] *"]
    assert "s[1][0] * (length 2)" in drawn["lines"][1] and "2 placed" in drawn["lines"][0]
    unsolved = gantt.describe(model(SHOP), {}, None, None)
    assert len(marked(unsolved, "faint")) == 4


def test_task_lengths_may_be_variables(model):
    body = SHOP.replace("<lengths> 3 2 </lengths>", "<lengths> d[0] d[1] </lengths>")
    shop = model('<array id="d" size="[2]"> 1..4 </array>' + body)
    solution = {"s[0][0]": 0, "s[1][0]": 4, "s[0][1]": 4, "s[1][1]": 8, "d[0]": 4, "d[1]": None}
    drawn = gantt.describe(shop, {}, solution, None)
    assert "s[0][0] 0→4, s[1][0] * (length *)" in drawn["lines"][1]
    assert marked(drawn, "faint") == ["s[1][0] *"]


def test_overlapping_tasks_are_marked_and_touching_ones_are_not(model):
    shop = model(SHOP)
    drawn = gantt.describe(shop, {}, {"s[0][0]": 0, "s[1][0]": 2, "s[0][1]": 3, "s[1][1]": 5}, None)
    assert sorted(marked(drawn, "conflict")) == ["s[0][0]", "s[1][0]"]
    assert "s[1][0] 2→4 (overlaps)" in drawn["lines"][1]


def test_cumulative_profile_over_its_capacity_is_marked(model):
    project = model(PROJECT)
    fine = gantt.describe(project, {}, {"t[0]": 0, "t[1]": 2, "t[2]": 0}, None)
    assert "(capacity 3), peak 3:" in fine["lines"][1] and not marked(fine, "conflict")
    over = gantt.describe(project, {}, {"t[0]": 0, "t[1]": 1, "t[2]": 0}, None)
    assert "peak 5 (over the capacity)" in over["lines"][1] and marked(over, "conflict")


def test_a_changed_task_is_marked(model):
    shop = model(SHOP)
    before = {"s[0][0]": 0, "s[1][0]": 3, "s[0][1]": 3, "s[1][1]": 5}
    drawn = gantt.describe(shop, {}, {**before, "s[1][1]": 6}, before)
    assert marked(drawn, "changed") == ["s[1][1]"] and "s[1][1] 6→10 (changed)" in drawn["lines"][2]


def test_machines_from_the_data_name_the_rows_and_bad_machines_are_ignored(model):
    shop = model(SHOP)
    named = gantt.describe(shop, {"machines": ["lathe", "mill"]}, None, None)
    assert named["lines"][1].startswith("lathe: ") and named["lines"][2].startswith("mill: ")
    for bad in (["lathe"], [[0, "x"], {"a": 1}], "lathe", [[None]], [[[0, 1], [2]], [[1], [0]]]):
        assert gantt.describe(shop, {"machines": bad}, None, None)["lines"][1].startswith("s[*][0]: ")


def test_packing_marks_overlaps_and_sets_unplaced_rectangles_apart(model):
    boxes = model(BOXES)
    drawn = packing.describe(boxes, {}, {"x[0]": 0, "y[0]": 0, "x[1]": 1, "y[1]": 0, "x[2]": None, "y[2]": 3}, None)
    assert drawn["lines"][0] == "Packing: 3 rectangles in 4 x 5, 2 placed, 2 overlapping"
    assert sorted(marked(drawn, "conflict")) == ["0", "1"] and marked(drawn, "faint") == ["2 *"]
    aside = next(s for s in drawn["shapes"] if "faint" in s["marks"])
    container = drawn["shapes"][0]
    assert aside["x"] >= container["x"] + container["w"]
    assert "2: 1 x 1, not placed (*)" in drawn["lines"]


def test_packing_y_grows_upwards_from_the_bottom_left_corner(model):
    drawn = packing.describe(model(BOXES), {}, {"x[0]": 0, "y[0]": 0, "x[1]": 2, "y[1]": 3, "x[2]": 0, "y[2]": 1}, None)
    container = drawn["shapes"][0]
    low, high = (next(s for s in drawn["shapes"] if s["shape"] == "box" and s["text"] == name) for name in "01")
    assert low["y"] + low["h"] == container["y"] + container["h"]  # y = 0: on the container's bottom edge
    assert high["y"] == container["y"] and high["y"] < low["y"]  # y = 3, height 2: on the top edge of 5


def test_tasks_of_a_job_share_a_colour(model):
    drawn = gantt.describe(model(SHOP), {}, {"s[0][0]": 0, "s[1][0]": 3, "s[0][1]": 3, "s[1][1]": 5}, None)
    fills = {s["text"]: s["fill"] for s in drawn["shapes"] if s["shape"] == "box" and s["text"].startswith("s[")}
    assert fills["s[0][0]"] == fills["s[0][1]"] != fills["s[1][0]"] == fills["s[1][1]"], fills


def test_packing_container_from_the_data_and_bad_containers_ignored(model):
    boxes = model(BOXES)
    assert "in 5 x 6" in packing.describe(boxes, {"container": [5, 6]}, None, None)["lines"][0]
    assert "in 5 x 6" in packing.describe(boxes, {"width": 5, "height": 6}, None, None)["lines"][0]
    for bad in ({"container": [5]}, {"container": "big"}, {"width": 5}, {"width": "5", "height": 6}):
        assert "in 4 x 5" in packing.describe(boxes, bad, None, None)["lines"][0]


def test_a_broken_edge_is_marked_only_when_both_ends_are_decided(model):
    colouring = model(COLOURING)
    drawn = graph.describe(colouring, {}, {"c[0]": 0, "c[1]": 1, "c[2]": 1, "c[3]": None}, None)
    assert len(marked(drawn, "conflict")) == 1
    assert "broken: c[1] - c[2] (c[1] = 1, c[2] = 1)" in drawn["lines"]
    assert "c[3] = *: c[2]" in drawn["lines"]
    fine = graph.describe(colouring, {}, {"c[0]": 0, "c[1]": 1, "c[2]": 2, "c[3]": 0}, None)
    assert not marked(fine, "conflict")


def test_graph_edges_from_the_data_when_no_constraint_links_the_nodes(model):
    free = model(
        '<array id="v" size="[3]"> 0..5 </array></variables><constraints><sum><list> v[] </list>'
        "<condition> (le,9) </condition></sum>"
    )
    assert not graph.recognise(free, {"edges": [[0, 1]]})
    drawn = graph.describe(free, {"adjacency": [[0, 1, 0], [1, 0, 1], [0, 1, 0]]}, None, None)
    assert drawn["lines"][0].startswith("Graph: 3 nodes, 2 edges")
    with pytest.raises(ViewNotApplicable, match="no|none"):
        graph.describe(free, {"edges": [[0, 7], "ab"]}, None, None)


def test_route_legs_partial_tours_and_two_legs_into_one_stop(model):
    circuit = model(CIRCUIT)
    whole = route.describe(
        circuit, {"coords": [[0, 0], [2, 0], [2, 2], [0, 2]]}, {f"succ[{i}]": (i + 1) % 4 for i in range(4)}, None
    )
    assert "tour: 0 → 1 → 2 → 3 → 0" in whole["lines"] and "on the data's coordinates" in whole["lines"][0]
    partial = route.describe(
        circuit, {"coords": [[0, 0], [1, 1]]}, {"succ[0]": 1, "succ[1]": 2, "succ[2]": None, "succ[3]": 2}, None
    )
    assert "on a circle" in partial["lines"][0] and "3 legs decided" in partial["lines"]
    assert [s["text"] for s in partial["shapes"] if "faint" in s["marks"]] == ["2"]
    assert len(marked(partial, "conflict")) == 2 and "2: succ[2] = * (two legs in)" in partial["lines"]


def test_a_route_by_positions_draws_the_legs_between_decided_neighbours(model):
    body = '<array id="p" size="[4]"> 0..3 </array></variables><constraints><allDifferent> p[] </allDifferent>'
    positions = model(body, '<objectives><minimize type="sum"> p[] </minimize></objectives>')
    assert views.detect_picture(positions, {}) == "route"
    drawn = route.describe(positions, {"names": ["A", "B", "C", "D"]}, {"p[0]": 2, "p[1]": 0, "p[3]": 1}, None)
    assert drawn["lines"][1] == "2 legs decided" and "p[0] = 2 (C)" in drawn["lines"]
    assert [s["text"] for s in drawn["shapes"] if "faint" in s["marks"]] == ["3"]
    whole = route.describe(positions, {}, {"p[0]": 2, "p[1]": 0, "p[2]": 3, "p[3]": 1}, None)
    assert whole["lines"][0].endswith("tour length 6") and whole["lines"][1] == "tour: 2 → 0 → 3 → 1 → 2"
    assert not views.detect_picture(model(body), {})  # no objective reads the positions: no route


def test_a_forced_picture_that_does_not_apply_says_why_in_one_line(model):
    for module in (gantt, graph, route, packing):
        with pytest.raises(ViewNotApplicable) as raised:
            module.describe(model(BOXES if module is not packing else COLOURING), {}, None, None)
        assert "\n" not in str(raised.value) and len(str(raised.value)) < 200


@pytest.mark.parametrize("body", [SHOP, PROJECT, BOXES, COLOURING, CIRCUIT])
def test_static_forms_survive_the_sanitizer_and_repeat_byte_for_byte(model, body):
    found = model(body)
    module = views.picture_for(views.detect_picture(found, {}))
    ids = list(found.declarations.domains)
    solution = {vid: k % 2 for k, vid in enumerate(ids)}
    drawn = module.describe(found, {}, solution, None)
    assert json.loads(json.dumps(drawn)) == drawn
    markup = drawing_html(drawn)
    assert not any(tag in markup for tag in ("<svg", "<style", "<script"))
    assert sanitizer_problems(markup) == []
    again = module.describe(model(body), {}, dict(solution), None)
    assert drawing_html(again) == markup and drawing_text(again) == drawing_text(drawn)
    assert drawing_svg(again) == drawing_svg(drawn) and drawing_svg(drawn).count("<svg") == 1


def test_an_installed_view_joins_the_registry(monkeypatch):
    flow = types.ModuleType("flow")
    flow.SUMMARY, flow.DATA_NAMES = "flows", ()
    flow.recognise = lambda model, data: True
    flow.describe = lambda model, data, solution, previous: {}
    broken = types.SimpleNamespace(name="Broken", value="nowhere:broken", load=lambda: object())
    entry = types.SimpleNamespace(name="Flow", value="mycourse.flow", load=lambda: flow)
    monkeypatch.setattr(plugins, "entry_points", lambda group: [entry, broken] if group == views.PICTURES.group else [])
    with pytest.warns(UserWarning, match="not a picture module"):
        assert list(views.PICTURES.modules()) == ["gantt", "packing", "route", "graph", "flow"]
    with pytest.warns(UserWarning):
        assert views.picture_for("FLOW") is flow and views.picture_for("gantt") is gantt
