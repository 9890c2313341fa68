// Run Python code in the site's own Pyodide under Node.js, with a folder of the desktop mounted at /work.
// Usage: node run_in_pyodide.mjs PYODIDE_FOLDER WORK_FOLDER CODE
const [pyodideFolder, workFolder, code] = process.argv.slice(2);
const { loadPyodide } = await import(new URL(`file://${pyodideFolder}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideFolder}/` });
pyodide.FS.mkdir("/work");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: workFolder }, "/work");
pyodide.runPython(code);
