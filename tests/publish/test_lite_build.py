"""The browser site's build (kernelext.publish.lite), without a browser: what the site holds, the stand-in for lxml,
and the message when the parts were never fetched. The site in a real browser: tests/browser/test_lite_site.py."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
import textwrap
import zipfile

import pytest
from conftest import ROOT

from kernelext.publish.lite.bytecode import add_bytecode
from kernelext.publish.lite.cli import main
from kernelext.publish.lite.parts import MINIZINC, PYODIDE, default_cache
from kernelext.publish.lite.wheels import write_wheel

ROOT = ROOT
STANDINS = ROOT / "kernelext" / "publish" / "lite" / "standins"
MODEL = textwrap.dedent("""
    import sys
    if sys.argv[1] == "standin":
        sys.path.insert(0, sys.argv[2])
        import lxml.etree
        assert lxml.etree.__file__.startswith(sys.argv[2])
    from pycsp3 import *
    q = VarArray(size=6, dom=range(6))
    x = VarArray(size=[3, 3], dom=lambda i, j: {0} if i == 0 else range(5))
    b = VarArray(size=4, dom={0, 1})
    satisfy(AllDifferent(q), [abs(q[i] - q[j]) != j - i for i in range(6) for j in range(i + 1, 6)],
            Sum(x[1]) == 4, Table(scope=x[2], supports={(1, 2, 3), (2, ANY, 4)}), x[1][0] < x[2][2] + 1,
            Regular(scope=b, automaton=Automaton(start="a", final={"b"}, transitions=[("a", 0, "a"), ("a", 1, "b"),
                                                                               ("b", 0, "b")])),
            Cardinality(q, occurrences={0: 1, 1: range(1, 3)}), If(b[0] == 1, Then=x[1][1] == 2))
    minimize(Sum(q[0], x[2][1]) + Maximum(x[1]))
""")


def test_the_lxml_stand_in_compiles_the_same_xcsp3_as_lxml(tmp_path):
    script = tmp_path / "model.py"
    script.write_text(MODEL)
    texts = []
    for mode in ("lxml", "standin"):
        run = subprocess.run(
            [sys.executable, str(script), mode, str(STANDINS), f"-output={mode}.xml"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        texts.append((tmp_path / f"{mode}.xml").read_text())
    assert texts[0] == texts[1] and "<regular>" in texts[0] and "<minimize" in texts[0]


def test_building_without_the_fetched_parts_says_to_fetch_them(tmp_path, capsys):
    assert main(["build", "--offline", "--cache", str(tmp_path / "empty"), str(tmp_path / "site")]) == 1
    assert "run `kernelext-lite fetch` with a network first" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lite")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)  # OUT relative to the current folder, as a teacher types it
        assert (
            main(
                [
                    "build",
                    "--offline",
                    "site",
                    str(ROOT / "notebooks" / "amaze.ipynb"),
                    str(ROOT / "exercises" / "futoshiki" / "public"),
                ]
            )
            == 0
        ), f"fetch the parts first ({default_cache()})"
    return folder / "site"


def test_the_site_holds_pyodide_minizinc_and_exactly_the_wheels_its_lock_names(site):
    pyodide = site / "static" / "pyodide"
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())["packages"]
    wheels = sorted(path.name for path in pyodide.glob("*.whl"))
    assert sorted(entry["file_name"] for entry in lock.values()) == wheels
    for entry in lock.values():
        assert hashlib.sha256((pyodide / entry["file_name"]).read_bytes()).hexdigest() == entry["sha256"]
    assert {"kernelext", "pycsp3", "kernelext-browser-standins", "ipywidgets", "anywidget", "pyodide-kernel"} <= set(
        lock
    )
    settings = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]["litePluginSettings"]
    kernel = settings["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] and sorted(kernel["loadPyodideOptions"]["packages"]) == sorted(lock)
    assert all(
        (site / "minizinc" / name).stat().st_size
        for name in ("minizinc.mjs", "minizinc-worker.js", "minizinc.wasm", "minizinc.data")
    )
    assert (pyodide / "pyodide.asm.wasm").exists() and PYODIDE.version and MINIZINC.version


def test_the_site_carries_no_jars_and_not_the_site_builder(site):
    for wheel in (site / "static" / "pyodide").glob("*.whl"):
        names = zipfile.ZipFile(wheel).namelist()
        assert not [name for name in names if name.endswith(".jar")], wheel.name
        assert not [name for name in names if name.startswith("kernelext/publish/lite/")], wheel.name
    assert not list(site.rglob("*.jar"))


def test_every_wheel_carries_unchecked_bytecode_of_the_browser_s_python(site):
    """Compiled by the site's own Pyodide: one magic number (Python 3.14's, not this Python's), hash-based and
    unchecked, beside the sources; RECORD names each file with its hash."""
    magics = set()
    for wheel in (site / "static" / "pyodide").glob("*.whl"):
        with zipfile.ZipFile(wheel) as archive:
            names = set(archive.namelist())
            sources = [name for name in names if name.endswith(".py") and "/" in name]
            for source in sources:
                folder, stem = source.rsplit("/", 1)
                compiled = f"{folder}/__pycache__/{stem[:-3]}.cpython-314.pyc"
                assert compiled in names, f"{wheel.name}: no bytecode for {source}"
                header = archive.read(compiled)[:16]
                magics.add(header[:4])
                assert int.from_bytes(header[4:8], "little") == 1, f"{compiled} is not hash-based and unchecked"
            record = archive.read(next(name for name in names if name.endswith(".dist-info/RECORD"))).decode()
            assert all(f"{name}," in record for name in names), wheel.name
    assert len(magics) == 1 and magics != {importlib.util.MAGIC_NUMBER}


def test_a_wheel_compiled_once_is_taken_from_the_cache_by_the_next_build(site, tmp_path, monkeypatch):
    pyodide, kept = site / "static" / "pyodide", tmp_path / "kept"
    files = {"tiny/__init__.py": b"VALUE = 1\n"}
    first = write_wheel(tmp_path, "tiny", "1.0", files)
    assert add_bytecode(pyodide, [first], kept) is None
    assert "tiny/__pycache__/__init__.cpython-314.pyc" in zipfile.ZipFile(first).namelist()
    (tmp_path / "next").mkdir()
    again = write_wheel(tmp_path / "next", "tiny", "1.0", files)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))  # no Node.js: the kept wheel is all there is
    assert add_bytecode(pyodide, [again], kept) is None
    assert again.read_bytes() == first.read_bytes()


def test_without_node_the_wheels_stay_as_they_were(tmp_path, monkeypatch):
    wheel = write_wheel(tmp_path, "tiny", "1.0", {"tiny/__init__.py": b"VALUE = 1\n"})
    before = wheel.read_bytes()
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    (tmp_path / "pyodide.asm.wasm").write_bytes(b"a runtime")
    assert add_bytecode(tmp_path, [wheel], tmp_path / "kept") == "no Node.js here to compile the wheels' bytecode"
    assert wheel.read_bytes() == before and not (tmp_path / "kept").exists()  # nothing kept for the next build


def test_notebooks_open_on_the_browser_s_kernel_with_their_folders(site):
    amaze = json.loads((site / "files" / "amaze.ipynb").read_text())
    assert amaze["metadata"]["kernelspec"]["name"] == "python"
    assert sorted(path.name for path in (site / "files" / "public").iterdir()) == ["first.json", "five.json"]
