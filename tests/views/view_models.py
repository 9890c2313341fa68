"""Models as users type them, cell by cell, for the pictures' tests."""

JOBSHOP = [
    """%%puzzle shop
durations = [[3, 2, 2], [2, 1, 4], [4, 3, 1]]
machines = [[0, 1, 2], [1, 0, 2], [2, 1, 0]]
n, m = len(durations), len(durations[0])
s = VarArray(size=[n, m], dom=range(30))
""",
    """%%puzzle+
satisfy(s[i][j] + durations[i][j] <= s[i][j + 1] for i in range(n) for j in range(m - 1))
""",
    """%%puzzle+
satisfy(
    NoOverlap(
        origins=[s[i][j] for i in range(n) for j in range(m) if machines[i][j] == k],
        lengths=[durations[i][j] for i in range(n) for j in range(m) if machines[i][j] == k],
    )
    for k in range(m)
)
""",
    """%%puzzle+
minimize(Maximum(s[i][-1] + durations[i][-1] for i in range(n)))
""",
]

RCPSP = [
    """%%puzzle project
durations = [3, 2, 4, 2, 3]
needs = [2, 1, 2, 3, 1]
capacity = 4
successors = [(0, 2), (1, 3), (2, 4)]
start = VarArray(size=5, dom=range(20))
""",
    """%%puzzle+
satisfy(
    [start[i] + durations[i] <= start[j] for i, j in successors],
    Cumulative(origins=start, lengths=durations, heights=needs) <= capacity,
)
minimize(Maximum(start[i] + durations[i] for i in range(5)))
""",
]

PACKING = [
    """%%puzzle boxes
widths, heights = [3, 2, 2, 1], [2, 2, 1, 3]
W, H = 4, 4
x = VarArray(size=4, dom=lambda i: range(W - widths[i] + 1))
y = VarArray(size=4, dom=lambda i: range(H - heights[i] + 1))
""",
    """%%puzzle+
satisfy(NoOverlap(origins=[(x[i], y[i]) for i in range(4)], lengths=[(widths[i], heights[i]) for i in range(4)]))
""",
]

MAP_COLOURING = [
    """%%puzzle map
regions = ["WA", "NT", "SA", "Q", "NSW", "V", "T"]
edges = [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4), (3, 4), (2, 5), (4, 5)]
c = VarArray(size=len(regions), dom=range(3))
""",
    """%%puzzle+
satisfy(c[i] != c[j] for i, j in edges)
""",
]

ADJACENCY_COLOURING = [
    """%%puzzle colours
adjacency = [
    [0, 1, 1, 0, 0, 1],
    [1, 0, 1, 1, 0, 0],
    [1, 1, 0, 1, 1, 0],
    [0, 1, 1, 0, 1, 0],
    [0, 0, 1, 1, 0, 1],
    [1, 0, 0, 0, 1, 0],
]
n = len(adjacency)
colour = VarArray(size=n, dom=range(n))
""",
    """%%puzzle+
satisfy(colour[i] != colour[j] for i in range(n) for j in range(i + 1, n) if adjacency[i][j])
minimize(Maximum(colour))
""",
]

TSP = [
    """%%puzzle tour
points = [(0, 0), (4, 0), (4, 3), (0, 3), (2, 5)]
n = len(points)
distances = cp_array([[abs(a - c) + abs(b - d) for (c, d) in points] for (a, b) in points])
succ = VarArray(size=n, dom=lambda i: {j for j in range(n) if j != i})
""",
    """%%puzzle+
satisfy(Circuit(succ))
minimize(Sum(distances[i][succ[i]] for i in range(n)))
""",
]

TSP_WITHOUT_COORDINATES = [
    """%%puzzle tour
distances = cp_array([[0, 3, 4, 2], [3, 0, 2, 5], [4, 2, 0, 3], [2, 5, 3, 0]])
n = len(distances)
succ = VarArray(size=n, dom=lambda i: {j for j in range(n) if j != i})
""",
    """%%puzzle+
satisfy(Circuit(succ))
minimize(Sum(distances[i][succ[i]] for i in range(n)))
""",
]

TSP_BY_POSITIONS = [
    """%%puzzle visits
distances = cp_array([[0, 3, 4, 2], [3, 0, 2, 5], [4, 2, 0, 3], [2, 5, 3, 0]])
n = len(distances)
city = VarArray(size=n, dom=range(n))
""",
    """%%puzzle+
satisfy(AllDifferent(city))
minimize(Sum(distances[city[k]][city[(k + 1) % n]] for k in range(n)))
""",
]
