"""docs/xla_parity.md stays true: every xlashape name a row gives exists,
and the Count table is recounted from the rows.

An XLA name counts as offered where its row's xlashape column names only
functions, methods or properties that exist (``ShapeUtil.delete_dimension``
or, on the section's own class, ``delete_dimension``), and no call such as
``make_shape(type, [])``, which would only compose other calls.
"""

import re
from pathlib import Path

import pytest

import xlashape

PAGE = Path(__file__).resolve().parent.parent / "docs" / "xla_parity.md"
CLASSES = ("ShapeUtil", "LayoutUtil", "IndexUtil", "Shape", "Layout", "Tile")


def _rows():
    """(class, XLA names, xlashape cell) for every table row under the
    class's ``##`` heading."""
    section = None
    for line in PAGE.read_text().splitlines():
        heading = re.match(r"## (\w+)$", line)
        if heading:
            section = heading.group(1) if heading.group(1) in CLASSES else None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if section is None or len(cells) != 3 or cells[0] in ("XLA", "---"):
            continue
        names = [] if cells[0].startswith("—") else re.findall(r"`([^`]+)`", cells[0])
        yield section, names, cells[1]


def _resolves(section: str, name: str) -> bool:
    owner: object = getattr(xlashape, section)
    if "." in name:
        owner, name = (xlashape, name.removeprefix("xlashape."))
        for part in name.split(".")[:-1]:
            owner = getattr(owner, part, None)
        name = name.split(".")[-1]
    return owner is not None and re.fullmatch(r"\w+", name) is not None and hasattr(owner, name)


def _recount():
    counts = {c: [0, 0] for c in CLASSES}
    for section, names, cell in _rows():
        offered = not cell.startswith("not offered")
        given = re.findall(r"`([^`]+)`", cell.split("|")[0])
        if offered:
            assert given, f"{section}: {names} names no xlashape function"
            for name in given:
                assert _resolves(section, name) or "(" in name, f"{section}: {name} does not exist"
            offered = all(_resolves(section, name) for name in given)
        counts[section][1] += len(names)
        counts[section][0] += len(names) if offered else 0
    return counts


def test_every_name_the_page_gives_exists_and_the_count_is_the_rows():
    counts = _recount()
    table = {}
    for line in PAGE.read_text().split("## Count", 1)[1].split("How to read it", 1)[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[1].isdigit():
            table[cells[0]] = [int(cells[1]), int(cells[2])]
    expected = {c: counts[c] for c in CLASSES}
    expected["all"] = [sum(v[0] for v in counts.values()), sum(v[1] for v in counts.values())]
    assert table == expected


def test_no_xla_name_is_listed_twice():
    seen = {}
    for section, names, _ in _rows():
        for name in names:
            assert (section, name) not in seen, f"{section}.{name} has two rows"
            seen[section, name] = True


@pytest.mark.parametrize("word", [r"issue \d+", r"\b[0-9a-f]{7,40}\b"])
def test_page_speaks_to_users(word):
    assert not re.search(word, PAGE.read_text()), f"{word} on the XLA parity page"
