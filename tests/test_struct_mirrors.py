"""The C structs that the .pxd files copy for Cython match the C headers.

Cython reads an extern struct's fields by name, so a field renamed,
retyped or added on one side only would compile on and drift silently. Each
mirror must list every field of the header's struct, in the header's order,
with the same type.
"""

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "xlashape"

# (struct, C header, .pxd mirror)
MIRRORS = [
    ("xs_divisor", "csrc/base/plan.h", "core/_plan.pxd"),
    ("xs_plan", "csrc/base/plan.h", "core/_plan.pxd"),
    ("xs_tile_op", "csrc/tiled/tiled.h", "core/_tiled.pxd"),
    ("xs_tiled", "csrc/tiled/tiled.h", "core/_tiled.pxd"),
    ("xs_job", "csrc/base/job.h", "core/_batch.pxd"),
]


def _normal_type(text: str) -> str:
    """One spelling of a C type: spaces only between words, Cython's
    Py_ssize_t for ptrdiff_t, and no ``struct`` tag."""
    text = re.sub(r"\bstruct\s+", "", text)
    text = text.replace("ptrdiff_t", "Py_ssize_t")
    text = re.sub(r"\s*\*\s*", "*", text)
    return " ".join(text.split())


def _split_fields(declarations: list[str]) -> list[tuple[str, str]]:
    """(name, type) for each declarator of ``type a, *b;``-style lines."""
    fields = []
    for line in declarations:
        match = re.fullmatch(r"(.*?)\s*([*\s]*\w+)((?:\s*,\s*[*\s]*\w+)*)", line.strip())
        assert match, line
        base = match.group(1)
        for declarator in [match.group(2), *match.group(3).split(",")[1:]]:
            stars = declarator.count("*")
            fields.append((declarator.replace("*", "").strip(), _normal_type(base + "*" * stars)))
    return fields


def _c_fields(header: str, struct: str) -> list[tuple[str, str]]:
    text = (PACKAGE / header).read_text()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    match = re.search(r"typedef struct(?: \w+)? \{([^{}]*)\} " + struct + ";", text)
    assert match, f"{struct} not found in {header}"
    return _split_fields([d for d in match.group(1).split(";") if d.strip()])


def _pxd_fields(pxd: str, struct: str) -> list[tuple[str, str]]:
    lines = (PACKAGE / pxd).read_text().splitlines()
    start = lines.index(f"    ctypedef struct {struct}:")
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith("        "):
            break
        body.append(line.split("#")[0])
    return _split_fields([d for d in body if d.strip()])


@pytest.mark.parametrize(("struct", "header", "pxd"), MIRRORS)
def test_pxd_mirror_matches_header(struct: str, header: str, pxd: str) -> None:
    assert _pxd_fields(pxd, struct) == _c_fields(header, struct)


def test_a_drifted_mirror_is_seen() -> None:
    fields = _c_fields("csrc/tiled/tiled.h", "xs_tiled")
    swapped = [fields[1], fields[0], *fields[2:]]
    assert swapped != _pxd_fields("core/_tiled.pxd", "xs_tiled")
    assert ("block_slots", "int") in fields and ("op", "const xs_tile_op*") in fields
