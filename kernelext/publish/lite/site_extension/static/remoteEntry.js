// The kit's plugins for its browser site, written as the module-federation container the JupyterLite app loads
// (no build step). Three plugins:
// - early kernel: the notebook the page opens (`?path=x.ipynb`) gets its session, and so its kernel, as soon as
//   the plugins are activated, so Pyodide starts while JupyterLab draws; the notebook's panel finds that session
//   by its path and connects to it instead of starting its own.
// - stop: on every kernel interrupt (the Stop button, Kernel > Interrupt Kernel, the I,I shortcut) it posts
//   {kernelextStop} to that kernel's worker before JupyterLite's own handling. JupyterLite's Pyodide kernel has
//   no interrupt of its own; the kit's Python listens for this message while it waits for a solver, and
//   between the steps of its own searches (kernelext/solver/browser_stop.py).
// - offline: once the site's service worker controls the page, every file the site lists in
//   kernelext-offline.json that its cache lacks, or holds in another version, is put in it, so the next visit
//   works with no network; the worker answers from its cache without downloading again.
(() => {
  const NAME = "@kernelext/site-extension";
  const ROOT = document.currentScript.src.split("/extensions/")[0] + "/";
  const CACHE = "precache"; // the cache JupyterLite's service worker keeps
  const MANIFEST = "kernelext-offline.json"; // every file of the site, with its SHA-256
  const KEPT = ROOT + "kernelext-offline-kept.json"; // the cache's own copy of the list it was last made whole by
  const WARM_DELAY = 10000; // ms after the app is restored: the first visit's kernel starts first
  const CLOCK_SLACK = 60000; // ms the server's clock may lag the browser's
  const KEEP = {cache: "no-cache", headers: {"X-Kernelext-Keep": "1"}}; // the plugin's requests, to the server
  let shared = null;

  async function sharedModule(name) {
    const versions = shared && shared[name];
    const newest = versions && Object.keys(versions).sort().pop();
    if (!newest) throw new Error(`${NAME}: the site shares no ${name}`);
    return (await versions[newest].get())();
  }

  function stopPlugin(IKernelClient) {
    return {
      id: `${NAME}:stop`,
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

  function registered(kernelSpecs) {
    const done = () => kernelSpecs.factories.has(kernelSpecs.defaultKernelName);
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => done() && (kernelSpecs.changed.disconnect(check), resolve());
      kernelSpecs.changed.connect(check);
    });
  }

  // The notebook's session as JupyterLab's own would start it (its path, its file name, the default kernel), once
  // the kernel's factory is registered and the service worker is there (without it the kernel would not see the
  // notebook's files; a browser without service workers never has one). Whether the notebook exists is asked
  // meanwhile (the contents are slow to answer this early): a session for a page that opens no notebook is shut
  // down.
  async function startSession(app, path, kernelSpecs, serviceWorkers, startNew) {
    const notebook = app.serviceManager.contents
      .get(path, {content: false})
      .then((model) => model.type === "notebook", () => false);
    const worker = serviceWorkers && "serviceWorker" in navigator ? serviceWorkers.ready.catch(() => null) : null;
    await Promise.all([registered(kernelSpecs), worker]);
    const kernel = {name: kernelSpecs.defaultKernelName};
    const session = await startNew({path, name: path.split("/").pop(), type: "notebook", kernel});
    const id = session.id;
    // Only the kernel is kept: the panel makes its own connection, and a second one would answer the kernel's
    // widgets with a close (it has no comm target for them), so they would not draw.
    session.dispose();
    if (!(await notebook)) await app.serviceManager.sessions.shutdown(id);
  }

  function earlyKernelPlugin(IKernelSpecs, IServiceWorkerManager) {
    return {
      id: `${NAME}:early-kernel`,
      description: "Starts the kernel of the notebook the page opens while JupyterLab draws.",
      autoStart: true,
      requires: [IKernelSpecs],
      optional: [IServiceWorkerManager],
      activate: (app, kernelSpecs, serviceWorkers) => {
        const path = new URLSearchParams(location.search).get("path");
        if (!path || !path.endsWith(".ipynb")) return;
        const sessions = app.serviceManager.sessions;
        const startNew = sessions.startNew.bind(sessions);
        const started = startSession(app, path, kernelSpecs, serviceWorkers, startNew).catch((error) =>
          console.warn(`${NAME}: the kernel starts with the notebook instead (${error})`),
        );
        // The notebook's panel connects to a running session with its path; one that looked before this start
        // was done asks for a new session, which waits for it and is given it, so no second kernel starts.
        sessions.startNew = async (options, connectOptions = {}) => {
          if (options.path === path) {
            await started;
            const model = Array.from(sessions.running()).find((running) => running.path === path);
            if (model) return sessions.connectTo({...connectOptions, model});
          }
          return startNew(options, connectOptions);
        };
      },
    };
  }

  function controlled() {
    const workers = navigator.serviceWorker;
    if (workers.controller) return Promise.resolve();
    return new Promise((resolve) => workers.addEventListener("controllerchange", resolve, {once: true}));
  }

  async function sha256(response) {
    const digest = await crypto.subtle.digest("SHA-256", await response.arrayBuffer());
    return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  // Makes the cache hold every file the site lists, as the site now serves it. The list gives each file's
  // SHA-256: once the cache was made whole against the same list, presence is enough; against another list (the
  // site was rebuilt), every cached file is hashed; the first time, a file the worker cached during this visit
  // (the server dated it since the page opened) is taken as it is. Only a file missing or changed is fetched. The worker lets these requests through to the network; the
  // browser asks the server whether its own copy is current (a file the page loaded before the worker took it
  // over comes back as "not modified", not downloaded again).
  async function keepForOffline(opened) {
    const fresh = (response) => Date.parse(response.headers.get("date") || "") >= opened - CLOCK_SLACK;
    const listed = await fetch(ROOT + MANIFEST, KEEP);
    if (!listed.ok) return;
    const text = await listed.text();
    const cache = await caches.open(CACHE);
    const kept = await cache.match(KEPT);
    const first = kept === undefined;
    const same = !first && (await kept.text()) === text;
    let fetched = 0;
    for (const [path, hash] of Object.entries(JSON.parse(text))) {
      const url = new URL(path, ROOT).href;
      const cached = await cache.match(url, {ignoreSearch: true});
      if (cached && (same || (first && fresh(cached)) || (await sha256(cached)) === hash)) continue;
      const response = await fetch(url, KEEP);
      if (!response.ok) throw new Error(`${path} answered ${response.status}`);
      await cache.put(url, response);
      fetched += 1;
    }
    await cache.put(KEPT, new Response(text));
    document.body.dataset.kernelextFetched = String(fetched);
    document.body.dataset.kernelextOffline = "ready";
  }

  function offlinePlugin() {
    return {
      id: `${NAME}:offline`,
      description: "Keeps every file of the site in the service worker's cache, for offline visits.",
      autoStart: true,
      activate: (app) => {
        if (!("serviceWorker" in navigator) || !("caches" in window)) return;
        const opened = Date.now();
        app.restored
          .then(() => new Promise((resolve) => setTimeout(resolve, WARM_DELAY)))
          .then(controlled)
          .then(() => keepForOffline(opened))
          .catch((error) => console.warn(`${NAME}: the site is not kept for offline use (${error})`));
      },
    };
  }

  const container = {
    init: (scope) => { shared = scope; },
    get: async (module) => {
      if (module !== "./extension") throw new Error(`${NAME} has no module ${module}`);
      const { IKernelClient, IKernelSpecs } = await sharedModule("@jupyterlite/services");
      const { IServiceWorkerManager } = await sharedModule("@jupyterlite/apputils");
      const early = earlyKernelPlugin(IKernelSpecs, IServiceWorkerManager);
      const plugins = [early, stopPlugin(IKernelClient), offlinePlugin()];
      return () => ({ __esModule: true, default: plugins });
    },
  };
  (self._JUPYTERLAB = self._JUPYTERLAB || {})[NAME] = container;
})();
