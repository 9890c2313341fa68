"""kernelext: build pycsp3 models step by step in Jupyter, one cell per modelling step."""

__version__ = "0.1.0"


def load_ipython_extension(ipython):
    """Register the %puzzle / %%puzzle / %%puzzle+ magics (`%load_ext kernelext`); remove the temporary
    folders of kernels that ended without cleaning up; clean this kernel's own when it shuts down; keep
    pycsp3's `in` on built-in types for the cells' code only, and reached by every `in` of a cell
    (see kernelext.pycsp3_glue.in_operator); print pycsp3's messages without terminal colours; in a browser,
    listen for Stop (kernelext.solver.browser_stop); on the desktop, load CP-SAT's library once the cell is
    answered."""
    # Deferred, here and below: every `import kernelext.grading` (the grader, kernelext-grade) runs this file,
    # and the magics with IPython would add 0.3 s to it.
    import atexit

    from kernelext.magic.magics import PuzzleMagics
    from kernelext.pycsp3_glue import in_operator, messages
    from kernelext.scratch import reap_stale_folders
    from kernelext.solver import browser_stop, choice

    reap_stale_folders()
    magics = PuzzleMagics(shell=ipython)
    ipython.register_magics(magics)
    ipython.events.register("pre_run_cell", magics.remember_cell_id)
    ipython.events.register("pre_execute", in_operator.in_cells)
    ipython.events.register("post_execute", in_operator.between_cells)
    if in_operator.SPECIALISED:
        ipython.ast_transformers.append(in_operator.InThroughSlots())
    messages.terminal_colours(on=False)
    if choice.in_browser():  # MiniZinc's WebAssembly loads when a solve first needs it
        ipython.events.register("pre_run_cell", browser_stop.forget)
    else:
        from kernelext.solver.cpsat.module import load_library_soon

        load_library_soon()
    atexit.register(magics.close)


def current_session():
    """The PuzzleSession the notebook is building (its steps, last grid and solution), or None."""
    from IPython import get_ipython

    shell = get_ipython()
    magics = shell.magics_manager.registry.get("PuzzleMagics") if shell else None
    return magics.session if magics else None


def _jupyter_server_extension_points():
    """The Jupyter server extension (enabled on install): widget views that cannot be drawn again are
    dropped from saved notebooks, so their static grids show (see kernelext.publish.server)."""
    return [{"module": "kernelext.publish.server"}]


def unload_ipython_extension(ipython):
    """Remove the magics and stop the solver worker (`%unload_ext kernelext`)."""
    import atexit  # deferred, as in load_ipython_extension

    from kernelext.magic.magics import PuzzleMagics
    from kernelext.pycsp3_glue import in_operator, messages
    from kernelext.solver import browser_stop

    magics = ipython.magics_manager.registry.get(PuzzleMagics.__name__)
    if magics is None:
        return
    ipython.events.unregister("pre_run_cell", magics.remember_cell_id)
    ipython.events.unregister("pre_execute", in_operator.in_cells)
    ipython.events.unregister("post_execute", in_operator.between_cells)
    if browser_stop.forget in ipython.events.callbacks["pre_run_cell"]:
        ipython.events.unregister("pre_run_cell", browser_stop.forget)
    in_operator.write(pycsp3s=True)  # as stock pycsp3 leaves them
    messages.terminal_colours(on=True)
    ipython.ast_transformers[:] = [t for t in ipython.ast_transformers if not isinstance(t, in_operator.InThroughSlots)]
    atexit.unregister(magics.close)
    magics.close()
    for kind in ("line", "cell"):
        for name in ("puzzle", "puzzle+"):
            ipython.magics_manager.magics[kind].pop(name, None)
    del ipython.magics_manager.registry[PuzzleMagics.__name__]
