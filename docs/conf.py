"""Sphinx configuration for xlashape's documentation.

Build from the repository root, with xlashape and the ``docs`` extra
installed (``pip install ".[docs]"``)::

    sphinx-build -W docs docs/_build/html

The API pages document the *installed* xlashape (its compiled modules are
not in the source tree). Nothing is fetched at build time: no intersphinx.
"""

import xlashape

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
exclude_patterns = ["_build", "README.md"]
templates_path = ["_templates"]

# MyST: ``{math}`` and friends are not used; heading anchors let pages link
# to each other's sections as page.md#section.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

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
html_show_sourcelink = False
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# pydata-sphinx-theme's version switcher and icon links reach the network;
# none are configured, so the build stays offline.
