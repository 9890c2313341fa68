// The search tree widget's view: the tree (an SVG drawn in Python), and the grid at the selected node.
// Clicking a node sets "selected" (one message); Python answers with "svg", "caption" and "grid_html".
// Keyboard: the nodes form an ARIA tree with one tab stop (the focused node, else the selected one, else
// the root); Down / Up go to the next / previous node in search order, Right / Left to the first child /
// the parent, Home / End to the first / last node, and Enter or Space selects the node, as a click does.
// The focus stays on that node when Python redraws the tree. "text" is the tree's text form.

const NODE = "[data-node]";

function element(tag, style, text) {
  const node = document.createElement(tag);
  if (style) node.style.cssText = style;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Each node's parent, as the SVG says (data-parent; the root has none).
function parentsOf(nodes) {
  const parents = new Map();
  for (const node of nodes) {
    if (node.hasAttribute("data-parent")) parents.set(node.getAttribute("data-node"), node.getAttribute("data-parent"));
  }
  return parents;
}

function render({ model, el }) {
  const root = element("div", "display:flex;gap:16px;align-items:flex-start;font-family:sans-serif");
  const left = element("div", "max-width:70%");
  const picture = element("div", "overflow:auto;max-height:480px;border:1px solid #ddd");
  const details = element("details");
  const text = element("div");
  const side = element("div", "min-width:160px");
  const caption = element("pre", "font-size:12px;margin:0 0 8px 0;white-space:pre-wrap");
  const grid = element("div");
  root.className = "kx-tree";
  root.setAttribute("role", "group");
  details.className = "kx-text";
  text.className = "kx-text-body";
  caption.setAttribute("aria-live", "polite");
  details.append(element("summary", "", "Text form"), text);
  left.append(picture, details);
  side.append(caption, grid);
  root.append(left, side);
  el.appendChild(root);
  let parents = new Map(); // node id -> its parent's id

  const nodes = () => [...picture.querySelectorAll(NODE)];
  const idOf = (node) => node.getAttribute("data-node");
  const byId = (id) => picture.querySelector(`[data-node="${id}"]`);

  function rove(target) {
    for (const node of nodes()) node.setAttribute("tabindex", node === target ? "0" : "-1");
  }

  // Roles, names, levels and the tab stop on the nodes Python drew.
  function decorate() {
    const svg = picture.querySelector("svg");
    const all = nodes();
    if (!svg || !all.length) return;
    svg.setAttribute("role", "tree");
    svg.setAttribute("aria-label", "search tree nodes");
    for (const item of svg.querySelectorAll("line, text")) item.setAttribute("aria-hidden", "true");
    parents = parentsOf(all);
    const selected = String(model.get("selected"));
    for (const node of all) {
      const id = idOf(node);
      const title = node.querySelector("title");
      let level = 1;
      for (let up = parents.get(id); up !== undefined && level <= all.length; up = parents.get(up)) level += 1;
      node.setAttribute("role", "treeitem");
      node.setAttribute("aria-label", `node ${id}: ${title ? title.textContent : ""}`.trim());
      node.setAttribute("aria-level", String(level));
      node.setAttribute("aria-selected", String(id === selected));
    }
    rove(byId(selected) || all[0]);
  }

  function drawTree() {
    const active = document.activeElement;
    const focused = active && picture.contains(active) && active.closest(NODE) ? idOf(active.closest(NODE)) : null;
    picture.innerHTML = model.get("svg") || "";
    decorate();
    const again = focused === null ? null : byId(focused);
    if (again) {
      rove(again);
      again.focus();
    }
  }

  function drawSide() {
    caption.textContent = model.get("caption") || "";
    grid.innerHTML = model.get("grid_html") || "";
  }

  function drawText() {
    text.textContent = model.get("text") || "";
    details.hidden = !text.textContent;
    root.setAttribute("aria-label", model.get("label") || "search tree");
  }

  function select(node) {
    model.set("selected", Number(idOf(node)));
    model.save_changes();
  }

  function onKey(event) {
    const node = event.target.closest && event.target.closest(NODE);
    if (!node || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const all = nodes();
    const at = all.indexOf(node);
    const id = idOf(node);
    const moves = {
      ArrowDown: () => all[at + 1],
      ArrowUp: () => all[at - 1],
      ArrowRight: () => all.find((other) => parents.get(idOf(other)) === id),
      ArrowLeft: () => parents.has(id) && byId(parents.get(id)),
      Home: () => all[0],
      End: () => all[all.length - 1],
    };
    if (event.key === "Enter" || event.key === " ") select(node);
    else if (!(event.key in moves)) return;
    event.preventDefault();
    event.stopPropagation();  // the notebook's own shortcuts stay out of it
    const goal = event.key in moves ? moves[event.key]() : null;
    if (goal) {
      rove(goal);
      goal.focus();
    }
  }

  picture.addEventListener("click", (event) => {
    const node = event.target.closest(NODE);
    if (node) select(node);
  });
  picture.addEventListener("keydown", onKey);
  const handlers = [
    ["change:svg", drawTree],
    ["change:caption", drawSide],
    ["change:grid_html", drawSide],
    ["change:text", drawText],
    ["change:label", drawText],
  ];
  for (const [name, handler] of handlers) model.on(name, handler);
  drawTree();
  drawSide();
  drawText();
  return () => {
    for (const [name, handler] of handlers) model.off(name, handler);
  };
}

export default { render };
