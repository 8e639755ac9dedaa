"""The documentation's pages (docs/) are true: every page's examples pass
as doctests, the command-line transcripts are what the commands print, and
the API reference lists every public name.

The pages are checked here, in the test suite, rather than by Sphinx: each
passes ``python -m doctest PAGE.md`` as a reader would run it (a blank line
closes each expected output before its fence).
"""

import doctest
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from test_readme import installed_env

import xlashape

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
# Pages whose examples need an extra.
NEEDS = {"guide/dask.md": "dask.array", "guide/jax.md": "jax"}


def test_pages_are_found():
    names = {page.relative_to(DOCS).as_posix() for page in PAGES}
    assert {"index.md", "guide/layouts.md", "guide/cli.md", "api.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(DOCS).as_posix())
def test_page_examples(page):
    name = page.relative_to(DOCS).as_posix()
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    failures, _ = doctest.testfile(str(page), module_relative=False, name=name, verbose=False)
    assert failures == 0, f"{failures} failing example(s) in docs/{name}; see the output"


TRANSCRIPT = re.compile(r"```console\n\$ xlashape (show .*?)\n(.*?)```", flags=re.DOTALL)


def test_cli_page_transcripts_are_what_the_commands_print(tmp_path):
    transcripts = TRANSCRIPT.findall((DOCS / "guide" / "cli.md").read_text())
    assert len(transcripts) >= 2
    for args, printed in transcripts:
        result = subprocess.run(
            [sys.executable, "-m", "xlashape", *shlex.split(args)],
            capture_output=True, text=True, env=installed_env(), check=True,
            cwd=tmp_path,  # not the checkout, whose xlashape/ is not built
        )  # fmt: skip
        assert result.stdout.rstrip("\n") == printed.rstrip("\n"), args


def test_api_reference_lists_every_public_name():
    """Each ``.. currentmodule::`` of api.md, then the names its
    autosummary tables list under it: exactly the public names."""
    dask = pytest.importorskip("xlashape.dask")
    found = set()
    for section in (DOCS / "api.md").read_text().split(".. currentmodule:: ")[1:]:
        module = section.split("\n", 1)[0].strip()
        found |= {f"{module}.{name}" for name in re.findall(r"^   (\w+)$", section, flags=re.MULTILINE)}
    expected = {f"xlashape.{name}" for name in xlashape.__all__}
    expected |= {f"xlashape.dask.{name}" for name in dask.__all__}
    assert sorted(expected - found) == [], "missing from docs/api.md"
    assert sorted(found - expected) == [], "not public, or misspelt, in docs/api.md"


def test_api_reference_templates_exist():
    """A ``:template:`` autosummary cannot find falls back, without a
    warning, to a page with no methods; each named one must exist (named
    without ``.rst``, which would make Sphinx look outside autosummary/)."""
    names = re.findall(r":template: (\S+)", (DOCS / "api.md").read_text())
    assert names
    for name in names:
        assert (DOCS / "_templates" / "autosummary" / f"{name}.rst").exists(), name


WORK_ITEM = re.compile(r"\b[Ii]ssues? #?\d+")
# A git commit hash: 7 to 40 hexadecimal digits, at least one a letter and
# one a digit, standing alone (not a 0x literal, not part of a name).
COMMIT = re.compile(r"(?<![\w#])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?!\w)")


@pytest.mark.parametrize("page", [*PAGES, DOCS.parent / "README.md"], ids=lambda page: page.name)
def test_pages_name_no_work_items_or_commits(page):
    """User docs speak to users: no internal work-item numbers ("issue 17")
    and no commit hashes; history is the changelog's."""
    text = page.read_text()
    assert WORK_ITEM.findall(text) == [], f"{page} names work items"
    assert COMMIT.findall(text) == [], f"{page} names commits"


def test_the_work_item_and_commit_patterns_match():
    assert WORK_ITEM.findall("the tables (issue 17, later) and issue 9") == ["issue 17", "issue 9"]
    assert COMMIT.findall("against dab7386, not 0xA5 or 10000000") == ["dab7386"]
