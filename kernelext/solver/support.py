"""What each reader of a compiled model takes, form by form: the support table the solvers' page shows.

Each row is one form of an XCSP3 constraint (`FORMS`: every object of the typed model, kernelext.xcsp.constraints,
and every tag still read element by element), written over a few small variables. Each cell comes from giving that
form to the reader itself: the checker every answer passes, CP-SAT's reading, the translation to MiniZinc, and the
kit's own search (a form it has no rule for is checked once all its variables have values). The last column
names the solvers the kit never gives that form, as they are known to answer it wrongly (each backend's `known_wrong`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from kernelext.errors import KernelextError
from kernelext.solver.backends import BACKENDS
from kernelext.solver.cpsat.reader import read as read_for_cpsat
from kernelext.solver.kit.reading import rule_of
from kernelext.xcsp.check import Checker
from kernelext.xcsp.document import parse_text
from kernelext.xcsp.subsets import read_model
from kernelext.xcsp.to_minizinc import translate

READERS = ("checker", "cp-sat", "minizinc", "kit")
VARIABLES = (
    '<array id="x" size="[4]"> 0..3 </array><var id="y"> 0..3 </var><array id="b" size="[3]"> 0 1 </array>'
    '<array id="m" size="[2][2]"> 0..2 </array>'
)
_CONDITION = "<condition> (le,y) </condition>"
# (the form's name, the constraint): one form of each object of the typed model, and of each tag read element by element
FORMS = (
    ("allDifferent", "<allDifferent> x[] </allDifferent>"),
    ("allDifferent with except", "<allDifferent><list> x[] </list><except> 0 </except></allDifferent>"),
    ("allDifferent of lists", "<allDifferent><list> x[0] x[1] </list><list> x[2] x[3] </list></allDifferent>"),
    ("allDifferent of a matrix", "<allDifferent><matrix> m[][] </matrix></allDifferent>"),
    (
        "allDifferent of a matrix with except",
        "<allDifferent><matrix> m[][] </matrix><except> 0 </except></allDifferent>",
    ),
    ("allEqual", "<allEqual> x[] </allEqual>"),
    ("allEqual with except", "<allEqual><list> x[] </list><except> 0 </except></allEqual>"),
    ("allEqual of lists", "<allEqual><list> x[0] x[1] </list><list> x[2] x[3] </list></allEqual>"),
    ("sum", f"<sum><list> x[] </list><coeffs> 1 2 1 2 </coeffs>{_CONDITION}</sum>"),
    ("count", f"<count><list> x[] </list><values> 1 2 </values>{_CONDITION}</count>"),
    ("nValues", f"<nValues><list> x[] </list>{_CONDITION}</nValues>"),
    ("nValues with except", f"<nValues><list> x[] </list><except> 0 </except>{_CONDITION}</nValues>"),
    ("cardinality", "<cardinality><list> x[] </list><values> 0 1 </values><occurs> 1 1..2 </occurs></cardinality>"),
    ("ordered", "<ordered><list> x[] </list><operator> lt </operator></ordered>"),
    (
        "ordered with lengths",
        "<ordered><list> x[] </list><lengths> 1 0 1 </lengths><operator> le </operator></ordered>",
    ),
    ("lex", "<lex><list> x[0] x[1] </list><list> x[2] x[3] </list><operator> lt </operator></lex>"),
    ("lex of a matrix", "<lex><matrix> m[][] </matrix><operator> le </operator></lex>"),
    ("instantiation", "<instantiation><list> x[0] x[1] </list><values> 1 2 </values></instantiation>"),
    ("minimum", f"<minimum><list> x[] </list>{_CONDITION}</minimum>"),
    ("minimum with an index", "<minimum><list> x[] </list><index> y </index><condition> (eq,1) </condition></minimum>"),
    ("maximumArg", "<maximumArg rank='first'><list> x[] </list><condition> (eq,y) </condition></maximumArg>"),
    ("element", "<element><list> x[] </list><index> y </index><value> 2 </value></element>"),
    ("element with a rank", "<element><list> x[] </list><index rank='first'> y </index><value> 2 </value></element>"),
    ("element of a matrix", "<element><matrix> m[][] </matrix><index> b[0] b[1] </index><value> y </value></element>"),
    ("element without index", f"<element reifiedBy='b[0]'><list> x[] </list>{_CONDITION}</element>"),
    ("channel", "<channel> x[] </channel>"),
    ("channel of two lists", "<channel><list> x[0] x[1] </list><list> x[2] x[3] </list></channel>"),
    ("channel with a value", "<channel><list> b[] </list><value> y </value></channel>"),
    ("circuit", "<circuit> x[] </circuit>"),
    ("circuit with a size", "<circuit><list> x[] </list><size> y </size></circuit>"),
    ("intension", "<intension> lt(add(x[0],x[1]),y) </intension>"),
    ("extension", "<extension><list> x[0] x[1] </list><supports> (0,1)(1,*) </supports></extension>"),
    ("clause", "<clause> b[0] not(b[1]) </clause>"),
    ("precedence", "<precedence><list> x[] </list><values> 0 1 2 </values></precedence>"),
    ("noOverlap", "<noOverlap><origins> x[0] x[1] </origins><lengths> 2 1 </lengths></noOverlap>"),
    (
        "cumulative",
        "<cumulative><origins> x[0] x[1] </origins><lengths> 2 1 </lengths><heights> 1 2 </heights>"
        "<condition> (le,2) </condition></cumulative>",
    ),
    ("binPacking", f"<binPacking><list> x[] </list><sizes> 1 2 1 2 </sizes>{_CONDITION}</binPacking>"),
    (
        "knapsack",
        "<knapsack><list> b[] </list><weights> 1 2 3 </weights><profits> 3 2 1 </profits>"
        "<condition> (le,4) </condition><condition> (ge,3) </condition></knapsack>",
    ),
    (
        "regular",
        "<regular><list> b[] </list><transitions> (q,0,q)(q,1,r)(r,1,r) </transitions><start> q </start>"
        "<final> r </final></regular>",
    ),
    ("mdd", "<mdd><list> b[0] b[1] </list><transitions> (a,0,c)(a,1,d)(c,1,t)(d,0,t) </transitions></mdd>"),
    ("flow", "<flow><list> b[] </list><balance> 1 0 -1 </balance><arcs> (0,1)(1,2)(0,2) </arcs></flow>"),
    ("and", "<and><intension> lt(x[0],x[1]) </intension><intension> lt(x[1],x[2]) </intension></and>"),
    ("a constraint reified by a variable", "<intension reifiedBy='b[0]'> lt(x[0],x[1]) </intension>"),
)


def model_text(constraint: str) -> str:
    """A model holding `constraint` alone, over the table's variables."""
    return (
        f'<instance format="XCSP3" type="CSP"><variables>{VARIABLES}</variables>'
        f"<constraints>{constraint}</constraints></instance>\n"
    )


def verdicts(constraint: str) -> dict[str, str]:
    """What each reader says of `constraint`: "yes", or the reason it gives for refusing it ("kit" says
    "checked at the end" for a form it has no rule for)."""
    text = model_text(constraint)
    found = {}
    root = parse_text(text)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.xml"
        path.write_text(text)
        for reader, read in (
            ("checker", lambda: Checker(root.find("variables"), root.find("constraints"))),
            ("cp-sat", lambda: read_for_cpsat(path)),
            ("minizinc", lambda: translate(text)),
        ):
            try:
                read()
                found[reader] = "yes"
            except KernelextError as refused:
                found[reader] = str(refused).splitlines()[0]
        read = read_model(path)
        rules = [rule_of(single, read.declarations) for single in read.constraints]
    found["kit"] = "yes" if rules and all(rules) else "checked at the end"
    return found


def support_rows() -> list[tuple[str, ...]]:
    """The table's rows: the form, each reader's verdict, and the solvers known wrong on the form."""
    rows = []
    for name, constraint in FORMS:
        element = parse_text(constraint)
        found = verdicts(constraint)
        wrong = ", ".join(
            name for name, backend in BACKENDS.items() if any(form.matches(element) for form in backend.known_wrong)
        )
        rows.append((name, *(found[reader] for reader in READERS), wrong))
    return rows
