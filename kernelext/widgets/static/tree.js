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

// Where a node is drawn: the centre of its shape (a circle, a square, a diamond), read from its attributes.
function centre(node) {
  const shape = node.querySelector("circle, rect, polygon, ellipse") || node;
  const number = (name) => Number(shape.getAttribute(name));
  if (shape.matches("circle, ellipse")) return [number("cx"), number("cy")];
  if (shape.matches("rect")) return [number("x") + number("width") / 2, number("y") + number("height") / 2];
  const values = (shape.getAttribute("points") || "").trim().split(/[\s,]+/).map(Number);
  const xs = values.filter((_, k) => k % 2 === 0), ys = values.filter((_, k) => k % 2 === 1);
  if (!xs.length || values.some(Number.isNaN)) return null;
  return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
}

// Each node's parent: its "data-parent" if the SVG says, else the node at the upper end of the line that ends
// at it (nodes lie 6 px apart or more; the centres are found in 4 px cells).
function parentsOf(svg, nodes) {
  const parents = new Map();
  for (const node of nodes) {
    if (node.hasAttribute("data-parent")) parents.set(node.getAttribute("data-node"), node.getAttribute("data-parent"));
  }
  if (parents.size) return parents;
  const cells = new Map();
  for (const node of nodes) {
    const at = centre(node);
    if (!at) continue;
    const key = at.map((v) => Math.round(v / 4)).join();
    cells.set(key, [...(cells.get(key) || []), [at, node.getAttribute("data-node")]]);
  }
  function nodeAt(x, y) {
    const [i, j] = [x, y].map((v) => Math.round(v / 4));
    for (const key of [-1, 0, 1].flatMap((di) => [-1, 0, 1].map((dj) => `${i + di},${j + dj}`))) {
      for (const [[nx, ny], id] of cells.get(key) || []) if (Math.hypot(nx - x, ny - y) < 1) return id;
    }
    return undefined;
  }
  for (const line of svg.querySelectorAll("line")) {
    const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((name) => Number(line.getAttribute(name)));
    const parent = nodeAt(x1, y1), child = nodeAt(x2, y2);
    if (parent !== undefined && child !== undefined && parent !== child) parents.set(child, parent);
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
    parents = parentsOf(svg, all);
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
