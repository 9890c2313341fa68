"""The search tree of a solve: its decisions (x = a), refutations (x != a), failures and solutions.

`record_tree` runs the kit's own search (`kernelext.solver.kit.search`: pure Python, the same in a browser)
and builds its tree; everything else here is pure: building the tree from the recorded events, the grid at a
node, and a side-by-side comparison of two trees (kernelext.widgets.tree_forms draws them).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from kernelext.errors import PuzzleUsageError
from kernelext.grid import ArrayInfo, Grid
from kernelext.insight.pencil_marks import declared_domains, side_by_side
from kernelext.pycsp3_glue import model_state, operators
from kernelext.solver.compiled import holes_of
from kernelext.solver.kit.search import read_rules, search
from kernelext.xcsp.check import Checker
from kernelext.xcsp.subsets import read_model

DEFAULT_NODES = 500
KINDS = ("root", "decision", "refutation", "failure", "solution")


@dataclass(frozen=True)
class TreeNode:
    """One node: the decision that led to it from its parent, and what became of it.

    Attributes:
        id: its number, in the order the search reached it (the root is 0).
        parent: its parent's id (None for the root).
        variable, value: the decision's variable and value (None for the root).
        positive: True for a decision `variable = value`, False for a refutation `variable != value`.
        kind: "root", "decision", "refutation", "failure" (propagation failed there) or "solution".
        size: how many values the variable had when the decision was taken (1: forced).
        path: the assignments (variable, value) the decisions from the root to this node made.
        solution: for a solution node, every variable's value in that solution (else empty).
    """

    id: int
    parent: int | None
    variable: str | None
    value: int | None
    positive: bool
    kind: str
    size: int
    path: tuple[tuple[str, int], ...]
    solution: tuple[tuple[str, int], ...] = ()

    @property
    def text(self) -> str:
        if self.variable is None:
            return "root"
        return f"{self.variable} {'=' if self.positive else '≠'} {self.value}"


@dataclass(frozen=True)
class SearchTree:
    """The nodes of a recorded search, root first.

    Attributes:
        nodes: every node, by id.
        truncated: the search was stopped before its end; the tree is its beginning only.
        limit: the decision limit the search was recorded with.
        stats: the search's own counts (nodes with the root, decisions with refutations, failures, solutions).
        stopped: why it was stopped when truncated: "nodes" (at `limit` decisions), "time" or "interrupt".
    """

    nodes: tuple[TreeNode, ...]
    truncated: bool = False
    limit: int = DEFAULT_NODES
    stats: dict = field(default_factory=dict, compare=False)
    stopped: str = "nodes"

    @property
    def size(self) -> int:
        """Nodes below the root (every decision and refutation recorded)."""
        return len(self.nodes) - 1

    @property
    def decisions(self) -> int:
        """Decisions and refutations on variables with more than one value."""
        return sum(1 for node in self.nodes[1:] if node.size > 1)

    @property
    def failures(self) -> tuple[int, ...]:
        return tuple(node.id for node in self.nodes if node.kind == "failure")

    @property
    def solutions(self) -> tuple[int, ...]:
        return tuple(node.id for node in self.nodes if node.kind == "solution")

    @property
    def depth(self) -> int:
        return max(len(self.path_ids(node.id)) - 1 for node in self.nodes)

    @property
    def note(self) -> str:
        """A sentence saying that the tree is cut short, or ""."""
        if not self.truncated:
            return ""
        why = {"time": "when the time limit ran out (more with --timeout)", "interrupt": "by an interrupt"}.get(
            self.stopped, f"after {self.limit} decisions"
        )
        return f"Stopped {why}: only the beginning of the search is shown."

    def children(self, node_id: int) -> tuple[int, ...]:
        return children_of(self.nodes).get(node_id, ())

    def path_ids(self, node_id: int) -> tuple[int, ...]:
        """The ids from the root down to `node_id`."""
        ids = []
        current = node_id
        while current is not None:
            ids.append(current)
            current = self.nodes[current].parent
        return tuple(reversed(ids))

    def summary(self) -> str:
        text = (
            f"search tree: {_counted(self.size, 'node')}, {_counted(len(self.failures), 'failure')}, "
            f"{_counted(len(self.solutions), 'solution')}, depth {self.depth}"
        )
        return f"{text}\n{self.note}" if self.truncated else text


def _counted(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def build_tree(
    events, *, truncated: bool = False, limit: int = DEFAULT_NODES, stats: dict | None = None, stopped: str = "nodes"
) -> SearchTree:
    """The tree the recorded `events` describe (see `kernelext.solver.kit.search.Recording`).

    A decision hangs under the current node; a refutation `x != a` under the parent of the decision
    `x = a` it refutes; "x" marks the current node failed, "s" a solution (with its values).
    """
    nodes: list[dict] = [
        dict(id=0, parent=None, variable=None, value=None, positive=True, kind="root", size=0, path=())
    ]
    stack = [0]
    for event in events:
        tag = event[0]
        if tag in ("+", "-"):
            _, variable, value, size = event
            if tag == "-":
                while len(stack) > 1 and not _decides(nodes[stack[-1]], variable, value):
                    stack.pop()
                if len(stack) > 1:
                    stack.pop()
            parent = nodes[stack[-1]]
            path = parent["path"] + ((variable, value),) if tag == "+" else parent["path"]
            nodes.append(
                dict(
                    id=len(nodes),
                    parent=parent["id"],
                    variable=variable,
                    value=value,
                    positive=tag == "+",
                    kind="decision" if tag == "+" else "refutation",
                    size=size,
                    path=path,
                )
            )
            stack.append(len(nodes) - 1)
        elif tag == "x":
            nodes[stack[-1]]["kind"] = "failure"
        elif tag == "s":
            nodes[stack[-1]].update(kind="solution", solution=tuple(sorted(event[1].items())))
    return SearchTree(tuple(TreeNode(**node) for node in nodes), truncated, limit, dict(stats or {}), stopped)


def _decides(node: dict, variable: str, value: int) -> bool:
    return node["positive"] and node["variable"] == variable and node["value"] == value


def children_of(nodes: tuple[TreeNode, ...]) -> dict[int, tuple[int, ...]]:
    children: dict[int, list[int]] = {}
    for node in nodes[1:]:
        children.setdefault(node.parent, []).append(node.id)
    return {key: tuple(value) for key, value in children.items()}


def record_tree(
    source, *, nodes: int = DEFAULT_NODES, sols: int | str = "all", timeout: float | None = None
) -> SearchTree:
    """Search the solutions while recording the search tree, up to `nodes` decisions, with the kit's own
    reasoning (`kernelext.solver.kit.search`: propagation of every constraint read as a rule at each node).

    Arguments:
        source: a PuzzleSession (its model as it stands) or the path of an XCSP3 file.
        nodes: the most decisions (and refutations) to record; the search stops there (`truncated`).
        sols: how many solutions to look for (an int, or "all").
        timeout: seconds before the search stops (the session's timeout by default, else 10); an interrupt
            stops it too. Either keeps the tree so far, `truncated`.
    A constraint the kit's reasoning does not read as a rule is not propagated; it is checked (kernelext.xcsp.check)
    where every variable is fixed, so that every solution node is a solution.
    Raises PuzzleUsageError when the model has no constraint.
    """
    if isinstance(source, (str, Path)):
        path, declared, holes, timeout = Path(source), None, frozenset(), timeout or 10.0
    else:
        if not source.anything_to_solve():
            raise PuzzleUsageError("This puzzle has no constraints yet: there is no search to show.")
        path, declared, timeout = source.compile(), declared_domains(), timeout or source.timeout
        holes = holes_of(model_state.solution_cells())
    deadline = time.monotonic() + timeout
    with operators.plain_operators():  # pycsp3's `in` on sets is slow, and the search needs none of it
        model = read_rules(read_model(path), declared)
        broken = Checker.of_file(path, holes).broken if model.left_out else None
        recording = search(
            model, nodes=nodes, sols=None if sols == "all" else int(sols), deadline=deadline, broken=broken
        )
    return build_tree(
        recording.events,
        truncated=recording.truncated,
        limit=nodes,
        stats=recording.stats,
        stopped=recording.stopped or "nodes",
    )


def grid_at(tree: SearchTree, node_id: int, info: ArrayInfo) -> Grid:
    """The grid of `info`'s array at a node: the assignments on its path (a solution's every value at a
    solution node), `*` elsewhere; the cell of the node's own decision marked changed."""
    node = tree.nodes[node_id]
    assigned = dict(node.solution or node.path)
    rows, cols = info.grid_shape
    values = [[None] * cols for _ in range(rows)]
    changed = set()
    for variable, (r, c) in info.positions().items():
        values[r][c] = assigned.get(variable)
        if variable == node.variable and node.positive:
            changed.add((r, c))
    return Grid(info.name, tuple(map(tuple, values)), info.holes(), frozenset(changed))


def compare_trees(a: SearchTree, b: SearchTree, names: tuple[str, str] = ("a", "b")) -> str:
    """Two trees' sizes side by side as a text table."""
    rows = [
        ("nodes", a.size, b.size),
        ("failures", len(a.failures), len(b.failures)),
        ("solutions", len(a.solutions), len(b.solutions)),
        ("depth", a.depth, b.depth),
        ("complete", "no" if a.truncated else "yes", "no" if b.truncated else "yes"),
    ]
    return side_by_side(rows, names)
