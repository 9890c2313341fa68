"""kernelext: build pycsp3 models step by step in Jupyter, one cell per modelling step."""

__version__ = "0.1.0"


def load_ipython_extension(ipython):
    """Register the %puzzle / %%puzzle / %%puzzle+ magics (`%load_ext kernelext`); remove the temporary
    folders of kernels that ended without cleaning up; clean this kernel's own when it shuts down; let
    IPython read each cell's text with Python's plain operators."""
    import atexit

    from kernelext.magics import PuzzleMagics
    from kernelext.scratch import reap_stale_folders

    reap_stale_folders()
    magics = PuzzleMagics(shell=ipython)
    ipython.register_magics(magics)
    ipython.events.register("pre_run_cell", magics.remember_cell_id)
    atexit.register(magics.close)
    ipython.transform_cell = _with_plain_operators(type(ipython).transform_cell.__get__(ipython))


def _with_plain_operators(transform):
    """IPython's `transform_cell`, run with Python's plain operators: it tokenizes the cell's text, and
    pycsp3's `in` on tuples and sets makes that about ten times slower (some 2 ms a cell)."""
    from kernelext.model_state import plain_operators

    def transform_cell(raw_cell: str) -> str:
        with plain_operators():
            return transform(raw_cell)

    return transform_cell


def current_session():
    """The PuzzleSession the notebook is building (its steps, last grid and solution), or None."""
    from IPython import get_ipython

    shell = get_ipython()
    magics = shell.magics_manager.registry.get("PuzzleMagics") if shell else None
    return magics.session if magics else None


def _jupyter_server_extension_points():
    """The Jupyter server extension (enabled on install): widget views that cannot be drawn again are
    dropped from saved notebooks, so their static grids show (see kernelext.server)."""
    return [{"module": "kernelext.server"}]


def unload_ipython_extension(ipython):
    """Remove the magics and stop the solver worker (`%unload_ext kernelext`)."""
    import atexit

    from kernelext.magics import PuzzleMagics

    magics = ipython.magics_manager.registry.get(PuzzleMagics.__name__)
    if magics is None:
        return
    ipython.events.unregister("pre_run_cell", magics.remember_cell_id)
    ipython.__dict__.pop("transform_cell", None)  # the class's own again
    atexit.unregister(magics.close)
    magics.close()
    for kind in ("line", "cell"):
        for name in ("puzzle", "puzzle+"):
            ipython.magics_manager.magics[kind].pop(name, None)
    del ipython.magics_manager.registry[PuzzleMagics.__name__]
