"""The kit as a static JupyterLite site: Pyodide, the wheels, MiniZinc's WebAssembly and the notebooks, built by
`kernelext-lite build OUT [NOTEBOOK_OR_FOLDER ...]` (kernelext.publish.lite.cli)."""
