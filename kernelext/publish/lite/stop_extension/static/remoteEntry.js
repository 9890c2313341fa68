// A JupyterLab plugin, written as the module-federation container the JupyterLite app loads: it takes the
// site's shared @jupyterlite/services and, on every kernel interrupt (the Stop button, Kernel > Interrupt
// Kernel, the I,I shortcut), posts {kernelextStop} to that kernel's worker before JupyterLite's own
// handling. JupyterLite's Pyodide kernel has no interrupt of its own; kernelext's Python listens for this
// message while it waits for a solver, and between the steps of its own searches.
(() => {
  const NAME = "@kernelext/stop-extension";
  let shared = null;

  async function sharedModule(name) {
    const versions = shared && shared[name];
    const newest = versions && Object.keys(versions).sort().pop();
    if (!newest) throw new Error(`${NAME}: the site shares no ${name}`);
    return (await versions[newest].get())();
  }

  function stopPlugin(IKernelClient) {
    return {
      id: `${NAME}:plugin`,
      description: "Posts a stop message to a kernel's worker when the kernel is interrupted.",
      autoStart: true,
      requires: [IKernelClient],
      activate: (app, kernels) => {
        const interrupt = kernels.interrupt.bind(kernels);
        kernels.interrupt = async (id) => {
          const kernel = await kernels.getModel(id);
          const worker = kernel && kernel._worker;
          if (worker) worker.postMessage({kernelextStop: Date.now()});
          return interrupt(id);
        };
      },
    };
  }

  const container = {
    init: (scope) => { shared = scope; },
    get: async (module) => {
      if (module !== "./extension") throw new Error(`${NAME} has no module ${module}`);
      const { IKernelClient } = await sharedModule("@jupyterlite/services");
      const plugins = [stopPlugin(IKernelClient)];
      return () => ({ __esModule: true, default: plugins });
    },
  };
  (self._JUPYTERLAB = self._JUPYTERLAB || {})[NAME] = container;
})();
