"""Sphinx configuration for xlashape's documentation.

Build from the repository root, with xlashape and the ``docs`` extra
installed (``pip install ".[docs]"``)::

    sphinx-build -W docs docs/_build/html

The API pages document the *installed* xlashape (its compiled modules are
not in the source tree). Nothing is fetched at build time: no intersphinx.
"""

import re
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

import xlashape
from xlashape.pictures import layout_picture

project = "xlashape"
author = "The xlashape authors"
copyright = "the xlashape authors; Apache-2.0"
version = release = xlashape.__version__

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
# shapes_and_layout.md is included by spec.md, under a title.
exclude_patterns = ["_build", "shapes_and_layout.md"]
templates_path = ["_templates"]

# MyST: heading anchors let pages link to each other's sections
# (page.md#section).
myst_heading_anchors = 3

# The API reference: one page per public name, generated at build time
# into api/generated (ignored by git).
autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"  # numpydoc's Parameters sections say the types
autodoc_member_order = "bysource"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()

html_theme = "pydata_sphinx_theme"
html_title = f"xlashape {release}"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_show_sourcelink = False
# Pages without sub-pages get no (empty) section navigation on the left.
html_sidebars: dict[str, list[str]] = {page: [] for page in
                 ("install", "xla_parity", "performance", "internals", "spec", "changelog")}
# A method's entry in a page's table of contents is its own name
# (``make_shape()``), not ``ShapeUtil.make_shape()``.
toc_object_entries_show_parents = "hide"
html_theme_options = {
    "navbar_align": "left",
    "header_links_before_dropdown": 5,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# pydata-sphinx-theme's version switcher and icon links reach the network;
# none are configured, so the build stays offline.


def _trim_code_blocks(app: Sphinx, doctree: nodes.document) -> None:
    """Drop the blank line that ends each example in the Markdown sources
    (it closes the expected output for ``python -m doctest``), so that code
    boxes do not end in an empty line."""
    for block in doctree.findall(nodes.literal_block):
        text = block.astext()
        if text.endswith("\n") and block.rawsource == text:
            block.rawsource = text.rstrip("\n")
            block.children = [nodes.Text(block.rawsource)]


class LayoutPicture(SphinxDirective):
    """``{layout-picture} SHAPE``: the layout of SHAPE (HLO text), drawn by
    the xlashape being documented when the pages are built
    (``layout_picture.svg``), inline in the HTML page."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        shape = xlashape.ShapeUtil.parse_shape_string(self.arguments[0])
        picture = layout_picture.svg(shape)
        html = f'<div class="layout-picture" style="overflow-x:auto;margin-bottom:1em">{picture}</div>'
        return [nodes.raw("", html, format="html")]


# Where long names are laid out in narrow places: the section's and the
# page's tables of contents, inline code, and the links to the previous
# and next page.
NARROW = re.compile(
    r'(<nav class="bd-docs-nav bd-links".*?</nav>'
    r'|<nav id="pst-page-toc-nav".*?</nav>'
    r'|<span class="pre">[^<]*</span>'
    r'|<p class="prev-next-title">[^<]*</p>)',
    re.S,
)
# The API index's tables, whose signatures autosummary joins with
# no-break spaces.
AUTOSUMMARY = re.compile(r'<table class="autosummary.*?</table>', re.S)


def _fitted(html: str) -> str:
    """The page with a break opportunity (``<wbr>``) after each ``_`` and
    ``.`` inside a name, and between the words of a CamelCase name, where
    long names are laid out in narrow places (``NARROW``), so that such a
    name wraps between its parts rather than in the middle of a word
    (custom.css forbids the latter); and with the API index's signatures
    free to wrap between their arguments."""

    def in_text(text: re.Match[str]) -> str:
        return re.sub(r"(?<=[_.])(?=\w)|(?<=[a-z0-9])(?=[A-Z])", "<wbr>", text.group(0))

    html = NARROW.sub(lambda part: re.sub(r">[^<]+<", in_text, part.group(1)), html)
    return AUTOSUMMARY.sub(lambda table: table.group(0).replace("\xa0", " "), html)


def _fit_pages(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        for page in Path(app.outdir).rglob("*.html"):
            text = page.read_text(encoding="utf-8")
            if (new := _fitted(text)) != text:
                page.write_text(new, encoding="utf-8")


def setup(app: Sphinx) -> None:
    app.connect("doctree-read", _trim_code_blocks)
    app.connect("build-finished", _fit_pages)
    app.add_directive("layout-picture", LayoutPicture)
