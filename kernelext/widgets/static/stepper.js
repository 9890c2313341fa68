// The walkthrough stepper's view: "step k of n", previous / next buttons and a slider over the pages.
// Every page (static HTML built in Python) arrives with the widget; browsing never talks to the kernel.

function element(tag, className, style, text) {
  const node = document.createElement(tag);
  node.className = className;
  if (style) node.style.cssText = style;
  if (text !== undefined) node.textContent = text;
  return node;
}

function render({ model, el }) {
  const root = element("div", "kx-walkthrough", "font-family:sans-serif;font-size:13px");
  const title = element("div", "kx-step-title", "font-weight:bold;margin-bottom:4px");
  const bar = element("div", "kx-step-bar", "display:flex;gap:8px;align-items:center");
  const previous = element("button", "kx-step-previous", "", "‹ previous");
  const next = element("button", "kx-step-next", "", "next ›");
  const slider = element("input", "kx-step-slider", "width:240px");
  const count = element("span", "kx-step-count", "min-width:100px");
  const caption = element("div", "kx-step-caption", "margin:6px 0;white-space:pre-wrap");
  const page = element("div", "kx-step-page");
  slider.type = "range";
  slider.min = "0";
  bar.append(previous, slider, next, count);
  root.append(title, bar, caption, page);
  el.appendChild(root);
  let index = 0;

  function show(k) {
    const pages = model.get("pages") || [];
    const last = Math.max(pages.length - 1, 0);
    index = Math.min(Math.max(k, 0), last);
    title.textContent = model.get("title") || "";
    slider.max = String(last);
    slider.value = String(index);
    previous.disabled = index === 0;
    next.disabled = index === last;
    count.textContent = `step ${index} of ${last}`;
    caption.textContent = (model.get("captions") || [])[index] || "";
    page.innerHTML = pages[index] || "";  // pencil_html's static table
  }

  previous.onclick = () => show(index - 1);
  next.onclick = () => show(index + 1);
  slider.oninput = () => show(Number(slider.value));
  const redraw = () => show(index);
  const events = ["change:title", "change:pages", "change:captions"];
  for (const name of events) model.on(name, redraw);
  show(0);
  return () => {
    for (const name of events) model.off(name, redraw);
  };
}

export default { render };
