// The grid widget's view: report lines, a stepper over the solutions, the grid, the bound chart.
// The state is one trait, "description" (see kernelext/widgets/grid_widget.py), plus "index".
// Grids and the chart arrive as HTML built in Python ("pictures", "chart"): the same tables as the
// static form a saved notebook shows, so every front end draws a grid the same way.
// "explainable" adds an Explain button (one custom message; Python answers with "explanation");
// "pencil" (static HTML) adds a toggle between the grid and its pencil marks, drawn here only.
// Keyboard: with the widget or one of its controls focused, Left / Right (Home / End) step through the
// solutions; "label" names the widget for screen readers, "texts" holds each picture's text form.

const STEP_KEYS = ["ArrowLeft", "ArrowRight", "Home", "End"];

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A folded text alternative: <details><summary>Text form</summary><pre>…</pre></details>.
function textForm(text, open, onToggle) {
  const details = element("details", "kx-text");
  details.open = open;
  const summary = element("summary", "", "Text form");
  summary.dataset.kxFocus = "text";
  details.append(summary, element("pre", "kx-text-body", text));
  details.addEventListener("toggle", () => onToggle(details.open));
  return details;
}

function render({ model, el }) {
  const root = element("div", "kx-root");
  const body = element("div");
  const live = element("div", "kx-live");  // announces the solution shown
  root.setAttribute("role", "group");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-atomic", "true");
  root.append(body, live);
  el.appendChild(root);
  let showPencil = false;
  let explaining = false;
  let textOpen = false;
  let explanationOpen = false;
  let shownIndex = null;

  function go(k) {
    model.set("index", k);
    model.save_changes();
  }

  function explainParts() {
    const explanation = model.get("explanation") || {};
    const lines = explanation.lines || [];
    if (explanation.html) {
      const box = element("div", "kx-explanation");
      box.innerHTML = explanation.html;  // built by kernelext.insight.explain, its text escaped
      if (!lines.length) return [box];
      return [box, textForm(lines.join("\n"), explanationOpen, (open) => (explanationOpen = open))];
    }
    if (lines.length) return [element("pre", "kx-explanation", lines.join("\n"))];
    if (!model.get("explainable")) return [];
    const button = element("button", "kx-explain", explaining ? "Explaining…" : "Explain");
    button.dataset.kxFocus = "explain";
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
    box.dataset.kxFocus = "pencil";
    box.onchange = () => {
      showPencil = box.checked;
      draw();
    };
    label.append(box, " pencil marks");
    return label;
  }

  // The state as drawn: the solutions, the one shown, and whether the stepper is there.
  function shown() {
    const state = model.get("description") || {};
    const grids = state.pictures || [];
    const index = Math.min(model.get("index") || 0, Math.max(grids.length - 1, 0));
    const stepping = grids.length > 1 && !(Boolean(model.get("pencil")) && showPencil);
    return { state, grids, index, stepping };
  }

  function draw() {
    const { state, grids, index, stepping } = shown();
    const active = document.activeElement;
    const focused = active && body.contains(active) ? active.dataset.kxFocus || "" : null;
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
    } else if (stepping) {
      const bar = element("div", "kx-stepper");
      const previous = element("button", "kx-previous", "‹");
      const next = element("button", "kx-next", "›");
      previous.setAttribute("aria-label", "previous solution");
      next.setAttribute("aria-label", "next solution");
      previous.dataset.kxFocus = "previous";
      next.dataset.kxFocus = "next";
      previous.disabled = index === 0;
      next.disabled = index === grids.length - 1;
      previous.onclick = () => go(index - 1);
      next.onclick = () => go(index + 1);
      const more = grids.length < state.total ? ` (first ${grids.length} shown)` : "";
      bar.append(previous, element("span", "kx-count", `${index + 1} of ${state.total}${more}`), next);
      parts.push(bar);
    }
    if (grids.length && !marked) {
      parts.push(element("div", "kx-caption", (state.grids[index] || {}).name || ""));
      const grid = element("div", "kx-grid");
      grid.innerHTML = grids[index];  // built by kernelext.widgets.html_grid, its text escaped
      parts.push(grid);
      const text = (model.get("texts") || [])[index];
      if (text) parts.push(textForm(text, textOpen, (open) => (textOpen = open)));
    }
    if (state.chart) {
      const chart = element("div", "kx-chart");
      chart.innerHTML = state.chart;
      parts.push(chart);
    }
    if (state.timing) parts.push(element("div", "kx-timing", state.timing));
    body.replaceChildren(...parts);
    root.setAttribute("aria-label", model.get("label") || state.title || "grid");
    root.tabIndex = stepping ? 0 : -1;  // a tab stop only where the arrow keys do something
    if (stepping && shownIndex !== null && shownIndex !== index) {
      live.textContent = `solution ${index + 1} of ${state.total}`;
    }
    shownIndex = index;
    if (focused !== null) {  // the focused control was redrawn: focus its successor, else the widget
      const again = focused && body.querySelector(`[data-kx-focus="${focused}"]`);
      if (again && !again.disabled) again.focus();
      else root.focus();
    }
  }

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || !STEP_KEYS.includes(event.key)) return;
    const { grids, index, stepping } = shown();
    if (!stepping) return;
    event.preventDefault();
    event.stopPropagation();  // the notebook's own shortcuts stay out of it
    const last = grids.length - 1;
    const goal = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last }[event.key];
    const k = Math.min(Math.max(goal, 0), last);
    if (k !== index) go(k);
  }

  const events = ["description", "index", "explanation", "pencil", "label", "texts"].map((name) => `change:${name}`);
  draw();
  for (const name of events) model.on(name, draw);
  root.addEventListener("keydown", onKey);
  return () => {
    for (const name of events) model.off(name, draw);
    root.removeEventListener("keydown", onKey);
  };
}

export default { render };
