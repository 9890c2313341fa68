// The grid widget's view: report lines, a stepper over the solutions, the grid, the bound chart.
// The state is one trait, "description" (see kernelext/widgets/grid_widget.py), plus "index".
// Grids and the chart arrive as HTML built in Python ("pictures", "chart"): the same tables as the
// static form a saved notebook shows, so every front end draws a grid the same way.
// "explainable" adds an Explain button (one custom message; Python answers with "explanation");
// "pencil" (static HTML) adds a toggle between the grid and its pencil marks, drawn here only.

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function render({ model, el }) {
  const root = element("div", "kx-root");
  el.appendChild(root);
  let showPencil = false;
  let explaining = false;

  function explainParts() {
    const explanation = model.get("explanation") || {};
    if (explanation.html) {
      const box = element("div", "kx-explanation");
      box.innerHTML = explanation.html;  // built by kernelext.insight.explain, its text escaped
      return [box];
    }
    if ((explanation.lines || []).length) return [element("pre", "kx-explanation", explanation.lines.join("\n"))];
    if (!model.get("explainable")) return [];
    const button = element("button", "kx-explain", explaining ? "Explaining…" : "Explain");
    button.disabled = explaining;
    button.onclick = () => {
      explaining = true;
      model.send({ event: "explain" });
      draw();
    };
    return [button];
  }

  function pencilToggle() {
    const label = element("label", "kx-pencil-toggle");
    const box = element("input");
    box.type = "checkbox";
    box.checked = showPencil;
    box.onchange = () => {
      showPencil = box.checked;
      draw();
    };
    label.append(box, " pencil marks");
    return label;
  }

  function draw() {
    const state = model.get("description") || {};
    const grids = state.pictures || [];
    const index = Math.min(model.get("index") || 0, Math.max(grids.length - 1, 0));
    const parts = [element("div", "kx-title", state.title || "")];
    if ((state.lines || []).length) parts.push(element("pre", "kx-lines", state.lines.join("\n")));
    parts.push(...explainParts());
    const pencil = model.get("pencil") || "";
    const marked = Boolean(pencil) && showPencil;
    if (pencil) parts.push(pencilToggle());
    if (marked) {
      const marks = element("div", "kx-pencil");
      marks.innerHTML = pencil;  // pencil_html's static table
      parts.push(marks);
    } else if (grids.length > 1) {
      const go = (k) => {
        model.set("index", k);
        model.save_changes();
      };
      const bar = element("div", "kx-stepper");
      const previous = element("button", "kx-previous", "‹");
      const next = element("button", "kx-next", "›");
      previous.disabled = index === 0;
      next.disabled = index === grids.length - 1;
      previous.onclick = () => go(index - 1);
      next.onclick = () => go(index + 1);
      const shown = grids.length < state.total ? ` (first ${grids.length} shown)` : "";
      bar.append(previous, element("span", "kx-count", `${index + 1} of ${state.total}${shown}`), next);
      parts.push(bar);
    }
    const pictures = state.pictures || [];
    if (pictures.length && !marked) {
      parts.push(element("div", "kx-caption", (state.grids[index] || {}).name || ""));
      const grid = element("div", "kx-grid");
      grid.innerHTML = pictures[index];  // built by kernelext.widgets.html_grid, its text escaped
      parts.push(grid);
    }
    if (state.chart) {
      const chart = element("div", "kx-chart");
      chart.innerHTML = state.chart;
      parts.push(chart);
    }
    if (state.timing) parts.push(element("div", "kx-timing", state.timing));
    root.replaceChildren(...parts);
  }

  const events = ["change:description", "change:index", "change:explanation", "change:pencil"];
  draw();
  for (const name of events) model.on(name, draw);
  return () => {
    for (const name of events) model.off(name, draw);
  };
}

export default { render };
