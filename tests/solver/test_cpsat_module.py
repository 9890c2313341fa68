"""OR-Tools' CP-SAT module: `%load_ext kernelext` loads its library and numpy ahead, on a thread, and never
pandas, whose stand-in would then reach a user's `import pandas`."""

from __future__ import annotations

import subprocess
import sys

LOADED_AHEAD = """
import sys, time
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.run_line_magic("load_ext", "kernelext")
before = {name for name in ("ortools.sat.python.cp_model_helper", "numpy") if name in sys.modules}
deadline = time.monotonic() + 30
while "numpy" not in sys.modules and time.monotonic() < deadline:
    time.sleep(0.05)
time.sleep(0.2)
print("before:", sorted(before))
print("after:", sorted(n for n in ("ortools.sat.python.cp_model_helper", "numpy", "ortools.sat.python.cp_model", "pandas") if n in sys.modules))
from kernelext.solver.cpsat.module import cp_model
cp_model()
import pandas
print("pandas:", pandas.__name__, hasattr(pandas, "DataFrame"))
"""


def test_load_ext_loads_the_library_and_numpy_ahead_and_never_pandas():
    run = subprocess.run([sys.executable, "-c", LOADED_AHEAD], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    said = dict(line.split(": ", 1) for line in run.stdout.splitlines() if ": " in line)
    assert said["before"] == "[]"  # not while the cell that loads the extension runs
    assert said["after"] == "['numpy', 'ortools.sat.python.cp_model_helper']"  # cp_model (its stand-in) waits
    assert said["pandas"] == "pandas True"  # the real pandas, imported after cp_model
