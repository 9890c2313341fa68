"""Python's own `in` and pycsp3's, written into the built-in types' slots in turn (kernelext.pycsp3_glue.in_operator)."""

import subprocess
import sys
import textwrap

# Run in a fresh process: pycsp3 writes its `in` into the slots before the kit is imported, as when a
# notebook declares variables before `%load_ext kernelext`.
PYCSP3_FIRST = textwrap.dedent("""
    from pycsp3 import *
    x = VarArray(size=2, dom=range(4))
    from kernelext.pycsp3_glue import in_operator

    assert in_operator.pycsp3s_written()
    in_operator.write(pycsp3s=False)
    assert not in_operator.pycsp3s_written()
    assert (x[0] in {1, 2}) is False  # Python's own: a lookup of the variable, no constraint
    assert ({1, 2} in {frozenset({1, 2})}, 2 in (1, 2), [1] in [[1]], 3 in frozenset({3}), 4 in {3}) == \\
        (True, True, True, True, False)
    try:
        [1] in {1}
    except TypeError:
        pass
    else:
        raise AssertionError("a list was looked up in a set")
    with in_operator.written(pycsp3s=True):
        satisfy(x[0] in {1, 2}, x[1] in (0, 3))  # pycsp3's: two constraints
    assert not in_operator.pycsp3s_written()  # as before the block
    in_operator.write(pycsp3s=True)
    satisfy(x[0] != x[1])
    print(len(posted()))
""")


def test_python_s_own_in_is_found_after_pycsp3_wrote_its_own_and_pycsp3_s_still_posts(tmp_path):
    script = tmp_path / "pycsp3_first.py"  # pycsp3 reads its caller's source
    script.write_text(PYCSP3_FIRST)
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[0] == "3", run.stdout


def test_nothing_is_written_before_pycsp3_writes_its_own():
    code = (
        "import sys\nfrom kernelext.pycsp3_glue import in_operator\nin_operator.write(pycsp3s=False)\n"
        "assert not in_operator.pycsp3s_written() and 'pycsp3' not in sys.modules\nprint(2 in {2})"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "True", run.stderr


def _rewritten(source: str):
    import ast

    from kernelext.pycsp3_glue.in_operator import InThroughSlots

    return compile(InThroughSlots().visit(ast.parse(source)), "<test>", "exec")


def test_in_through_slots_gives_python_s_own_answers():
    source = textwrap.dedent("""
        values = [2 in {1, 2}, 3 not in (1, 2), [1] in [[1]], 'a' in 'abc', 5 in range(3), 1 not in {1: 0},
                  1 < 2 in [2], [k for k in range(4) if k in {1, 3}]]
    """)
    plain, rewritten = {}, {}
    exec(compile(source, "<test>", "exec"), plain)
    exec(_rewritten(source), rewritten)
    assert rewritten["values"] == plain["values"] == [True, True, True, True, False, False, True, [1, 3]]


def test_a_step_s_in_posts_its_table_each_time_it_runs_with_in_through_slots(monkeypatch):
    from kernelext.pycsp3_glue import in_operator, model_state
    from kernelext.steps.session import PuzzleSession

    declare = "x = VarArray(size=[6, 3], dom=range(3))"
    tables = (
        "T = {(0, ANY, 1), (1, ne(1), 2)}\nsatisfy(tuple(x[i]) in T for i in range(6))\nsatisfy(x[0][0] not in {2})"
    )
    compiled = []
    for through_slots in (False, True):
        monkeypatch.setattr(in_operator, "SPECIALISED", through_slots)
        model_state.reset()
        session = PuzzleSession("tables")
        exec("from pycsp3 import *", session.namespace)
        session.add_step(declare, solve=False)
        session.add_step(tables, solve=False)
        compiled.append(session.compile().read_text())
        session.close()
    assert compiled[0] == compiled[1]
    assert compiled[1].count("<args>") == 6 and "<conflicts> 2 </conflicts>" in compiled[1]
