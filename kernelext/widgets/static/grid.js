// The grid widget's view: report lines, a stepper over the solutions, the grid, the bound plot.
// The state is one trait, "description" (see kernelext/widgets/grid_widget.py), plus "index".
// "explainable" adds an Explain button (one custom message; Python answers with "explanation");
// "pencil" (static HTML) adds a toggle between the grid and its pencil marks, drawn here only.

const SIGN_GLYPHS = { "^": "∧", v: "∨" };

function cellSize(rows, cols) {
  const side = Math.max(rows, cols);
  return side <= 12 ? 28 : side <= 20 ? 22 : 16;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function drawCell(cell) {
  const node = element("div", "kx-cell", cell.text);
  for (const name of cell.classes || []) node.classList.add("kx-" + name);
  if (cell.fill) {
    node.classList.add("kx-has-fill");
    node.style.background = cell.fill;
  }
  for (const side of cell.borders || "") node.classList.add("kx-thick-" + side);
  return node;
}

function drawGrid(grid) {
  const rows = grid.cells.length;
  const cols = rows ? grid.cells[0].length : 0;
  const rowClues = grid.row_clues || null;
  const colClues = grid.col_clues || null;
  const box = element("div", "kx-grid");
  box.style.setProperty("--kx-cell", cellSize(rows, cols) + "px");
  box.style.gridTemplateColumns = (rowClues ? "auto " : "") + `repeat(${cols}, var(--kx-cell))`;
  const cells = [];
  if (colClues) {
    if (rowClues) box.appendChild(element("div"));
    for (const clue of colClues) box.appendChild(element("div", "kx-clue kx-col-clue", clue.join("\n")));
  }
  grid.cells.forEach((row, r) => {
    if (rowClues) box.appendChild(element("div", "kx-clue kx-row-clue", (rowClues[r] || []).join(" ")));
    cells.push(row.map((cell) => box.appendChild(drawCell(cell))));
  });
  for (const sign of grid.signs || []) {
    const [[r1, c1], [r2, c2]] = sign.cells;
    const side = r1 === r2 ? "kx-sign-right" : "kx-sign-down";
    cells[r1][c1].appendChild(element("span", "kx-sign " + side, SIGN_GLYPHS[sign.text] || sign.text));
  }
  return box;
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
      box.innerHTML = explanation.html;  // built by kernelext.explain, its text escaped
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
    const grids = state.grids || [];
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
    if (grids.length && !marked) {
      const grid = grids[index];
      parts.push(element("div", "kx-caption", grid.name), drawGrid(grid));
    }
    if (state.plot) {
      const image = element("img", "kx-plot");
      image.src = state.plot;
      image.alt = "bound per solution";
      parts.push(image);
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
