"""Screenshots of layout pictures, for a person to look at.

Writes, under OUT (default ``layout_screenshots/``):

- an HTML page per shape (``xlashape.pictures.layout_picture.html``) and its
  screenshot in headless Chromium: an untiled padded shape, ``T(8,128)``
  float32 and ``T(8,128)(2,1)`` bfloat16, as the tests check them;
- with ``--notebook``: a notebook whose cells end in a Shape (the tiled
  bfloat16 shape, a padded bfloat16 one, a rank-4 padded and permuted shape
  and ``s4[1024]{0:E(4)}``), executed by ``jupyter nbconvert --execute --to
  html`` as Jupyter shows it, and its screenshot.

Needs Chromium (Debian: ``apt-get install chromium``) and, for
``--notebook``, ``pip install nbconvert nbclient ipykernel``. Run from the
repository root with xlashape importable::

    python tools/screenshot_layouts.py --notebook OUT
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import xlashape as xs
from xlashape.pictures import layout_picture

PAGES = {
    "padded": "f32[2,3]{0,1:PAD(3,5)}",
    "tiled_f32": "f32[10,200]{1,0:T(8,128)}",
    "tiled_bf16": "bf16[16,256]{1,0:T(8,128)(2,1)}",
}
NOTEBOOK = [
    "bf16[16,256]{1,0:T(8,128)(2,1)}",
    "bf16[12,200]{1,0:T(8,128)(2,1)}",
    "f32[3,5,4,6]{1,3,0,2:PAD(4,7,4,8)}",
    "s4[1024]{0:E(4)}",
]


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    sys.exit("no Chromium found: install it (Debian: apt-get install chromium)")


def screenshot(page: Path, png: Path, size: str) -> None:
    """Chromium's screenshot of ``page`` at ``size`` (WIDTH,HEIGHT)."""
    subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--screenshot={png}", f"--window-size={size}", page.resolve().as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    print(png)


def notebook(out: Path) -> Path:
    """The notebook, executed and converted to HTML; its path."""
    sources = ["import xlashape as xs"] + [f'xs.ShapeUtil.parse_shape_string("{text}")' for text in NOTEBOOK]
    cells = [
        {"id": f"cell{k}", "cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": source}
        for k, source in enumerate(sources)
    ]
    book = {
        "cells": cells, "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    }  # fmt: skip
    path = out / "layouts.ipynb"
    path.write_text(json.dumps(book, indent=1))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(xs.__file__).parents[1]), os.environ.get("PYTHONPATH", "")]))
    subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--execute", "--to", "html", str(path)],
        check=True, env=env, timeout=300,
    )  # fmt: skip
    return out / "layouts.html"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="layout_screenshots", type=Path)
    parser.add_argument("--notebook", action="store_true", help="also render and screenshot the notebook")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in PAGES.items():
        page = args.out / f"{name}.html"
        page.write_text(layout_picture.html(xs.ShapeUtil.parse_shape_string(text)))
        screenshot(page, args.out / f"{name}.png", "1280,900")
    if args.notebook:
        screenshot(notebook(args.out), args.out / "notebook.png", "1280,3200")


if __name__ == "__main__":
    main()
