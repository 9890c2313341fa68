// The search tree widget's view: the tree (an SVG drawn in Python), and the grid at the selected node.
// Clicking a node sets "selected" (one message); Python answers with "svg", "caption" and "grid_html".

function element(tag, style, text) {
  const node = document.createElement(tag);
  if (style) node.style.cssText = style;
  if (text !== undefined) node.textContent = text;
  return node;
}

function render({ model, el }) {
  const root = element("div", "display:flex;gap:16px;align-items:flex-start;font-family:sans-serif");
  const picture = element("div", "overflow:auto;max-width:70%;max-height:480px;border:1px solid #ddd");
  const side = element("div", "min-width:160px");
  const caption = element("pre", "font-size:12px;margin:0 0 8px 0;white-space:pre-wrap");
  const grid = element("div");
  side.append(caption, grid);
  root.append(picture, side);
  el.appendChild(root);

  function draw() {
    picture.innerHTML = model.get("svg") || "";
    caption.textContent = model.get("caption") || "";
    grid.innerHTML = model.get("grid_html") || "";
  }

  picture.addEventListener("click", (event) => {
    const node = event.target.closest("[data-node]");
    if (!node) return;
    model.set("selected", Number(node.dataset.node));
    model.save_changes();
  });
  const events = ["change:svg", "change:caption", "change:grid_html"];
  for (const name of events) model.on(name, draw);
  draw();
  return () => {
    for (const name of events) model.off(name, draw);
  };
}

export default { render };
