// The walkthrough stepper's view: "step k of n", previous / next buttons and a slider over the pages.
// Every page (static HTML built in Python) arrives with the widget; browsing never talks to the kernel.
// Keyboard: with the widget or one of its buttons focused, Left / Right step and Home / End jump to the
// start / the end (the slider keeps its own keys); "step k of n" and the caption are announced politely.
// Each page's text form ("texts") is folded under its grid.

const STEP_KEYS = ["ArrowLeft", "ArrowRight", "Home", "End"];

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
  const details = element("details", "kx-text");
  const text = element("pre", "kx-text-body");
  details.append(element("summary", "", "", "Text form"), text);
  root.tabIndex = 0;
  root.setAttribute("role", "group");
  slider.type = "range";
  slider.min = "0";
  slider.setAttribute("aria-label", "step");
  for (const live of [count, caption]) live.setAttribute("aria-live", "polite");
  count.setAttribute("aria-atomic", "true");
  bar.append(previous, slider, next, count);
  root.append(title, bar, caption, page, details);
  el.appendChild(root);
  let index = 0;

  function show(k) {
    const pages = model.get("pages") || [];
    const last = Math.max(pages.length - 1, 0);
    index = Math.min(Math.max(k, 0), last);
    title.textContent = model.get("title") || "";
    root.setAttribute("aria-label", model.get("label") || model.get("title") || "walkthrough");
    slider.max = String(last);
    slider.value = String(index);
    slider.setAttribute("aria-valuetext", `step ${index} of ${last}`);
    for (const [button, end] of [
      [previous, index === 0],
      [next, index === last],
    ]) {
      if (end && document.activeElement === button) root.focus();  // a disabled button would drop the focus
      button.disabled = end;
    }
    count.textContent = `step ${index} of ${last}`;
    caption.textContent = (model.get("captions") || [])[index] || "";
    page.innerHTML = pages[index] || "";  // pencil_html's static table
    text.textContent = (model.get("texts") || [])[index] || "";
    details.hidden = !text.textContent;
  }

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || !STEP_KEYS.includes(event.key)) return;
    event.stopPropagation();  // the notebook's own shortcuts stay out of it
    if (event.target === slider) return;  // the slider steps by itself
    event.preventDefault();
    const goal = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: Infinity }[event.key];
    show(goal);
  }

  previous.onclick = () => show(index - 1);
  next.onclick = () => show(index + 1);
  slider.oninput = () => show(Number(slider.value));
  root.addEventListener("keydown", onKey);
  const redraw = () => show(index);
  const events = ["change:title", "change:label", "change:pages", "change:texts", "change:captions"];
  for (const name of events) model.on(name, redraw);
  show(0);
  return () => {
    for (const name of events) model.off(name, redraw);
    root.removeEventListener("keydown", onKey);
  };
}

export default { render };
