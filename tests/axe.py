"""axe-core in the page under test: the WCAG 2.0 and 2.1 rules, levels A and AA, on the parts the kit draws.

axe-core comes from the npm registry once (`python tests/fetch_test_parts.py`, in the README's test command) and
is read from that tarball: no test downloads it. Fails (never skips) when it is missing.
"""

from __future__ import annotations

import tarfile
from functools import cache

import pytest
from fetch_test_parts import COMMAND, axe_tarball

WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
RUN = """async ([selector, tags]) => {
    const include = selector ? [...document.querySelectorAll(selector)] : [document];
    if (!include.length) return null;
    const result = await axe.run(include, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
    return result.violations.map((v) => ({
        id: v.id, impact: v.impact,
        nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: n.failureSummary.split("\\n")[1] || ""})),
    }));
}"""


@cache
def axe_source() -> str:
    """axe.min.js, read from the fetched tarball."""
    path = axe_tarball()
    if not path.exists():
        pytest.fail(f"axe-core is not fetched: run `{COMMAND}` first.")
    with tarfile.open(path) as tarball:
        return tarball.extractfile("package/axe.min.js").read().decode()


def violations(page, selector: str | None = None) -> list[dict]:
    """axe's WCAG 2.1 A/AA violations on the page, or only inside the elements `selector` picks (all of them);
    each {"id", "impact", "nodes": [{"target", "summary"}]}. Fails when `selector` picks nothing."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    found = page.evaluate(RUN, [selector, WCAG_21_AA])
    assert found is not None, f"nothing matches {selector!r} on {page.url.split('?')[0]}: nothing to check"
    return found


# In JupyterLab (and Notebook 7, JupyterLite) the <body> is 0 px high with `overflow: hidden` (the shell is placed
# absolutely), which axe reads as hiding the whole page: it checked nothing there (0 violations on notebooks where
# nbconvert's page of the same outputs had 326). Giving the body the window's height moves nothing on screen. And
# axe judges contrast only on screen, while a notebook scrolls inside its panel: the outputs are checked a
# screenful at a time, in a tall window (one axe run per screenful; each run reads the whole page).
SEE_JUPYTERLAB = "body { height: 100vh !important; }"
TALL = 12000  # pixels: the window's height while checking (a quarter faster than 4000: fewer runs)
SCREENFULS = """async ([selector, tags]) => {
    const outputs = [...document.querySelectorAll(selector)];
    const found = [];
    for (let k = 0; k < outputs.length; ) {
        outputs[k].scrollIntoView({block: "start"});
        const bottom = window.innerHeight;
        const batch = [outputs[k++]];
        while (k < outputs.length && outputs[k].getBoundingClientRect().bottom <= bottom) batch.push(outputs[k++]);
        const result = await axe.run(batch, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
        for (const v of result.violations) found.push({
            id: v.id, impact: v.impact,
            nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: n.failureSummary.split("\\n")[1] || ""})),
        });
    }
    return found;
}"""


def notebook_violations(page, selector: str = ".jp-OutputArea-output") -> list[dict]:
    """axe's violations in every output of the notebook open in JupyterLab, Notebook 7 or JupyterLite on `page`,
    a screenful at a time. Fails when there is no output."""
    assert page.locator(selector).count(), f"nothing matches {selector!r} on {page.url.split('?')[0]}"
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    style = page.add_style_tag(content=SEE_JUPYTERLAB)
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": TALL})
    try:
        return page.evaluate(SCREENFULS, [selector, WCAG_21_AA])
    finally:
        page.set_viewport_size(size)
        style.evaluate("(element) => element.remove()")


def described(found: list[dict], limit: int = 6) -> str:
    """A few lines naming each violation and where it is, for an assertion's message."""
    lines = [
        f"{v['id']} ({v['impact']}) x{len(v['nodes'])}: {v['nodes'][0]['target']} {v['nodes'][0]['summary']}"
        for v in found
    ]
    return "\n".join(lines[:limit])


def count(found: list[dict]) -> int:
    """How many elements fail, over every rule."""
    return sum(len(v["nodes"]) for v in found)
