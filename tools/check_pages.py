"""Check that the documentation's pages fit the window, in a real browser.

For each page and window width (1280 and 1920 px by default), headless
Chromium lays the built page out and a script in the page reports:

- **cut off**: an element whose content is wider than its box while the
  box hides what overflows (``overflow: hidden`` or ``clip``), and a page
  wider than the window;
- **scrolls**: a box that scrolls sideways (``overflow: auto`` or
  ``scroll``): allowed, for wide pictures, but listed;
- **broken words**: a word of a table cell, a code box or a navigation
  entry that the layout split over two lines: a run of letters and digits,
  where ``_``, ``.`` and a CamelCase name's capitals begin new words.

Each page's screenshot at each width is written too, for a person to look
at. Exits 1 if any page has something cut off or a broken word.

Needs Chromium (Debian: ``apt-get install chromium``). Run after building
the docs, from the repository root::

    sphinx-build -W docs docs/_build/html
    python tools/check_pages.py docs/_build/html --shots page_screenshots
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

# The pages a new user meets: the API index, two function pages, the
# largest class page, a guide page and the performance page.
PAGES = [
    "api.html",
    "generated/xlashape.ravel.html",
    "generated/xlashape.relayout.html",
    "generated/xlashape.ShapeUtil.html",
    "guide/linear_buffers.html",
    "performance.html",
]
WIDTHS = (1280, 1920)
HEIGHT = 1400

# Runs once the page has loaded; writes its findings, as JSON, into the
# body's data-page-check attribute, which --dump-dom then prints.
PROBE = """
<script>
window.addEventListener("load", () => {
  const found = {cut: [], scrolls: [], broken: []};
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "");
  const text = (el) => el.textContent.trim().replace(/\\s+/g, " ").slice(0, 60);
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1) {
    found.cut.push({element: "the page", text: root.scrollWidth + " px wide in a " + window.innerWidth + " px window"});
  }
  for (const el of document.querySelectorAll("body *")) {
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") continue;
    if (el.scrollWidth <= el.clientWidth + 1 || el.clientWidth === 0) continue;
    if (style.overflowX === "hidden" || style.overflowX === "clip") {
      found.cut.push({element: name(el), text: text(el)});
    } else if (style.overflowX === "auto" || style.overflowX === "scroll") {
      const right = el.getBoundingClientRect().right;
      const wide = [...el.querySelectorAll("*")].filter(d => d.getBoundingClientRect().right > right + 1);
      const what = wide.length ? wide[wide.length - 1] : el;
      found.scrolls.push({element: name(el) + " (" + name(what) + ")", text: text(what)});
    } else if (el.matches("td, th")) {
      found.cut.push({element: name(el) + " (spills into the next cell)", text: text(el)});
    }
  }
  const words = document.querySelectorAll("td, th, pre, nav a, .bd-toc a, .toctree-wrapper a");
  for (const box of words) {
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (match[0].length > 1 && tops.size > 1) found.broken.push({element: name(box), text: match[0]});
      }
    }
  }
  document.body.setAttribute("data-page-check", JSON.stringify(found));
});
</script>
"""


def chromium() -> str:
    """The Chromium command; exits with a message where none is installed."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if found := shutil.which(name):
            return found
    sys.exit("no Chromium found: install it (Debian: apt-get install chromium)")


def run_chromium(*args: str) -> str:
    command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", *args]
    return subprocess.run(command, check=True, capture_output=True, text=True, timeout=180).stdout


def check(page: Path, width: int) -> dict[str, list[dict[str, str]]]:
    """What the probe found in ``page`` laid out ``width`` px wide."""
    probed = page.with_name(f".check-{page.name}")
    text = page.read_text(encoding="utf-8")
    probed.write_text(text.replace("</body>", PROBE + "</body>", 1), encoding="utf-8")
    try:
        dom = run_chromium("--hide-scrollbars", f"--window-size={width},{HEIGHT}",
                           "--virtual-time-budget=10000", "--dump-dom", probed.resolve().as_uri())
    finally:
        probed.unlink()
    match = re.search(r'data-page-check="([^"]*)"', dom)
    if match is None:
        raise RuntimeError(f"{page}: the probe did not run")
    result: dict[str, list[dict[str, str]]] = json.loads(html.unescape(match.group(1)))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="the built HTML (docs/_build/html)")
    parser.add_argument("--shots", type=Path, help="write each page's screenshot at each width here")
    parser.add_argument("--pages", nargs="*", default=PAGES, help="pages to check, relative to SITE")
    args = parser.parse_args(argv)
    failed = False
    for relative in args.pages:
        page = args.site / relative
        for width in WIDTHS:
            found = check(page, width)
            bad = found["cut"] + found["broken"]
            failed |= bool(bad)
            print(f"{relative} at {width} px: {len(found['cut'])} cut off, "
                  f"{len(found['broken'])} broken words, {len(found['scrolls'])} scrolling boxes")
            for kind in ("cut", "broken", "scrolls"):
                for item in found[kind][:10]:
                    print(f"    {kind}: {item['element']}: {item['text']!r}")
            if args.shots:
                args.shots.mkdir(parents=True, exist_ok=True)
                png = args.shots / f"{relative.replace('/', '_').removesuffix('.html')}-{width}.png"
                run_chromium(f"--window-size={width},{HEIGHT}",  # scroll bars shown, as a person sees them
                             f"--screenshot={png.resolve()}", page.resolve().as_uri())
    print("pages fit" if not failed else "some pages do not fit: see above")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
