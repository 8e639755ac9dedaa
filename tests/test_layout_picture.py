"""Layout pictures (xlashape.pictures.layout_picture, Shape._repr_html_): the SVG's
structure read back with xml.etree. Oracles: the pure-Python reference
(xlashape.reference) for every offset and padding slot, relative luminance
(sRGB) for the colours' order, and cell sets derived by hand from the
elision rule (the first and last tiles, the first and last cells of each).
"""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET

import hypothesis.strategies as st
import pytest
from hypothesis import given
from strategies import big_shapes, shapes, tiled_shapes

import xlashape as xs
from xlashape import Layout, Shape, ShapeUtil, reference
from xlashape.errors import IndexOutOfBoundsError
from xlashape.pictures import layout_picture
from xlashape.pictures.layout_picture import elide, elide_tiled

SVG = "{http://www.w3.org/2000/svg}"
MAX_BYTES = 200_000
INDEX = re.compile(r"^\(([\d, ]*)\): (?:offset (\d+)|padding)$")
SLOT = re.compile(r"^offset (\d+): (?:\(([\d, ]*)\)|padding)$")


def parse(shape: Shape) -> ET.Element:
    """The SVG of ``shape`` as Jupyter gets it (``_repr_html_``), parsed."""
    return ET.fromstring(shape._repr_html_())


def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def rects(root: ET.Element, kind: str) -> list[ET.Element]:
    return [r for r in root.iter(f"{SVG}rect") if r.get("class") == kind]


def title(element: ET.Element) -> str:
    found = element.find(f"{SVG}title")
    assert found is not None
    return found.text or ""


def cells(root: ET.Element, kind: str) -> list[tuple[tuple[int, ...], int | None, str]]:
    """(index, offset or None, fill) of each grid cell of ``kind``."""
    found = []
    for rect in rects(root, kind):
        match = INDEX.match(title(rect))
        assert match, title(rect)
        index = tuple(int(i) for i in match[1].split(", ")) if match[1] else ()
        found.append((index, None if match[2] is None else int(match[2]), rect.get("fill", "")))
    return found


def oracle_slot(shape: Shape, offset: int) -> tuple[int, ...] | None:
    try:
        return reference.multi_index_at(shape, offset)
    except IndexOutOfBoundsError:
        return None


def assert_true_to_the_reference(shape: Shape, root: ET.Element) -> None:
    """Every cell's offset is the reference's, padding cells lie outside the
    dimensions, colours rise with the offset, numbers are the offsets, and
    every memory slot holds what the reference puts there."""
    elements = cells(root, "xs-cell")
    for index, offset, _ in elements:
        assert offset == reference.linear_index_of(shape, index), index
    for index, offset, fill in cells(root, "xs-pad"):
        assert offset is None and fill.startswith("url(#")
        assert any(i >= d for i, d in zip(index, shape.dimensions)), index
    ordered = sorted((offset, luminance(fill)) for _, offset, fill in elements)
    for (a, la), (b, lb) in itertools.pairwise(ordered):
        assert lb >= la - 1e-3, (a, b)  # a sequential map: lighter later (to its 8-bit rounding)
    span = (ordered[-1][0] - ordered[0][0]) / max(1, shape.buffer_size - 1) if ordered else 0
    if len(ordered) > 10 and span > 0.9:  # elements from one end of the buffer to the other
        assert ordered[-1][1] - ordered[0][1] > 0.5
    numbers = [t.text for g in root.iter(f"{SVG}g") if g.get("text-anchor") == "middle" for t in g]
    if numbers:
        assert numbers == [str(offset) for _, offset, _ in elements]
    for kind in ("xs-slot", "xs-slot-pad"):
        for rect in rects(root, kind):
            match = SLOT.match(title(rect))
            assert match, title(rect)
            held = oracle_slot(shape, int(match[1]))
            if kind == "xs-slot-pad":
                assert held is None, match[0]
            else:
                assert held == tuple(int(i) for i in match[2].split(", ") if i), match[0]


def shown_indices(root: ET.Element) -> tuple[list[int], list[int]]:
    """The rows and columns a rank-2 grid shows."""
    indices = [index for kind in ("xs-cell", "xs-pad") for index, _, _ in cells(root, kind)]
    return sorted({i[0] for i in indices}), sorted({i[1] for i in indices})


def paths(root: ET.Element, width: str) -> list[str]:
    """The moves of the tile-border paths of stroke ``width`` (grid first,
    then memory strip)."""
    return [p.get("d", "") for p in root.iter(f"{SVG}path") if p.get("stroke-width") == width]


# -- the three pictures ------------------------------------------------------
def drawn(text: str) -> tuple[ET.Element, list[int], list[int]]:
    """The SVG of the shape ``text`` in its HTML page (the notebook's
    picture), checked against the reference; its shown rows and columns."""
    shape = ShapeUtil.parse_shape_string(text)
    page = layout_picture.html(shape)
    picture = page[page.index("<svg") : page.index("</svg>") + len("</svg>")]
    assert picture == shape._repr_html_()
    root = ET.fromstring(picture)
    assert_true_to_the_reference(shape, root)
    return root, *shown_indices(root)


def test_padded_column_major_picture_is_the_spec_example():
    # The spec's 2x3 column-major array padded to 3x5: memory a d 0 b e 0 c f 0 0 0 0 0 0 0.
    root, rows, cols = drawn("f32[2,3]{0,1:PAD(3,5)}")
    assert len(rects(root, "xs-cell")) == 6 and len(rects(root, "xs-pad")) == 15 - 6
    assert (rows, cols) == ([0, 1, 2], [0, 1, 2, 3, 4])
    strip = rects(root, "xs-slot") + rects(root, "xs-slot-pad")
    pads = sorted(int(SLOT.match(title(r))[1]) for r in rects(root, "xs-slot-pad"))
    assert len(strip) == 15 and pads == [2, 5, 8, 9, 10, 11, 12, 13, 14]
    # colours in memory order: down the columns
    by_index = {index: fill for index, _, fill in cells(root, "xs-cell")}
    order = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    lums = [luminance(by_index[i]) for i in order]
    assert lums == sorted(lums) and len(set(lums)) == 6


def test_tiled_f32_picture_shows_first_and_last_tiles_and_the_padding():
    root, rows, cols = drawn("f32[10,200]{1,0:T(8,128)}")
    # rows: two whole tiles of 8 (16 drawn, 10 real); columns: the first and
    # last 4 of each tile of 128, and the last element (199) and first padding (200)
    assert rows == list(range(16))
    assert cols == [0, 1, 2, 3, 124, 125, 126, 127, 128, 129, 130, 131, 199, 200, 252, 253, 254, 255]
    padding = sum(1 for r in rows for c in cols if r >= 10 or c >= 200)
    assert len(rects(root, "xs-pad")) == padding == 6 * 18 + 10 * 5
    assert len(rects(root, "xs-cell")) == 16 * 18 - padding
    # the (8,128) borders: one across the grid (rows 7|8) and one down it (columns 127|128)
    grid_borders = paths(root, "2.5")[0]
    assert grid_borders.count("V") == 1 and grid_borders.count("H") == 1
    assert rects(root, "xs-slot-pad"), "the strip shows padding slots"


def test_tiled_bf16_picture_draws_both_tile_levels():
    root, rows, cols = drawn("bf16[16,256]{1,0:T(8,128)(2,1)}")
    assert rows == list(range(16))
    assert cols == [0, 1, 2, 3, 124, 125, 126, 127, 128, 129, 130, 131, 252, 253, 254, 255]
    assert len(rects(root, "xs-cell")) == 16 * 16 and not rects(root, "xs-pad")
    # (2,1): a thin border under every second row but the tiles' own (rows 7|8)
    thin = paths(root, "1.2")
    assert thin[0].count("H") == 7 and "V" not in thin[0]
    # memory: all four tiles (the first two and the last two), 8 slots at each end of each
    slots = {int(SLOT.match(title(r))[1]) for r in rects(root, "xs-slot")}
    ends = [range(8), range(1016, 1032), range(2040, 2056), range(3064, 3080), range(4088, 4096)]
    assert slots == {k for run in ends for k in run}
    # a tick at each border between pairs of slots: before an even slot or after an odd one
    ticks = {s for s in slots if s % 2 == 0 and s > 0} | {s + 1 for s in slots if s % 2 == 1 and s + 1 < 4096}
    assert len(thin) == 2 and thin[1].count("M") == len(ticks)
    text = "".join(root.itertext())
    assert "tiles (8,128)" in text and "tiles (2,1)" in text and "no padding" in text


# -- captions: figures the library computes ----------------------------------
@pytest.mark.parametrize(
    "text, figures",
    [
        # 8 x 128 x 256 elements; dimension 0 (8) padded to 128 by the tile
        ("f32[8,128,256]{0,2,1:T(8,128)}", ["262,144 elements in 4,194,304 slots: 16x", "16,777,216 bytes"]),
        ("f32[2,3]{0,1:PAD(3,5)}", ["6 elements in 15 slots: 2.50x", "60 bytes, 36 bytes of them padding (60.0%)"]),
        ("s4[1024]{0:E(4)}", ["1,024 elements in 1,024 slots, 4 bits each, 2 to a byte", "512 bytes, no padding"]),
    ],
)
def test_caption_states_elements_slots_bytes_and_padding(text, figures):
    shape = ShapeUtil.parse_shape_string(text)
    caption = "".join(parse(shape).itertext())
    elements, slots = ShapeUtil.elements_in(shape), shape.buffer_size
    assert f"{elements:,} elements in {slots:,} slots" in caption
    assert f"{ShapeUtil.byte_size_of(shape):,} bytes" in caption
    for figure in figures:
        assert figure in caption


def test_rank_4_padded_permuted_slices_in_memory_order():
    shape = ShapeUtil.parse_shape_string("f32[3,5,4,6]{1,3,0,2:PAD(4,7,4,8)}")
    root = parse(shape)
    assert_true_to_the_reference(shape, root)
    labels = [t.text for t in root.iter(f"{SVG}text") if (t.text or "").startswith("[")]
    # grid: dimensions 1 (rows) and 3 (columns); slices over 2 then 0, the
    # first two and the last (a padding slice: dimension 0 is padded to 4)
    assert labels == ["[0,:,0,:]", "[1,:,0,:]", "[3,:,3,:]  (padding)"]
    assert len(rects(root, "xs-cell")) == 2 * 5 * 6 and len(rects(root, "xs-pad")) == 3 * 7 * 8 - 60


def test_scalar_empty_and_unbounded_shapes():
    scalar = parse(ShapeUtil.parse_shape_string("f32[]"))
    assert len(rects(scalar, "xs-cell")) == 1 and len(rects(scalar, "xs-slot")) == 1
    empty = parse(ShapeUtil.parse_shape_string("f32[0,3]"))
    assert not rects(empty, "xs-cell") and "(no elements)" in "".join(empty.itertext())
    all_padding = parse(Shape("f32", (0, 3), Layout((1, 0), padded_dimensions=(2, 3))))
    assert not rects(all_padding, "xs-cell") and len(rects(all_padding, "xs-pad")) == 6
    unbounded = ShapeUtil.parse_shape_string("f32[?,784]")
    assert unbounded._repr_html_() is None
    with pytest.raises(ValueError, match="unbounded"):
        layout_picture.svg(unbounded)


def test_html_page_holds_the_svg_and_escapes_the_title():
    shape = ShapeUtil.parse_shape_string("f32[<=16,3]")
    page = layout_picture.html(shape)
    assert page.startswith("<!DOCTYPE html>") and "<title>f32[&lt;=16,3]{1,0}</title>" in page
    assert layout_picture.svg(shape) in page
    ET.fromstring(layout_picture.svg(shape))  # well-formed despite the '<'


# -- size, whatever the shape --------------------------------------------------
BIG = [
    "f32[1024,1024]{1,0:T(8,128)}",
    "bf16[16,256]{1,0:T(8,128)(2,1)}",
    "f32[100000,100000,1000]{2,1,0:PAD(100001,100000,1024)}",
    "s8[3037000499,3037000499]{0,1}",
    "f32[9,9,9,9,9,9,9,9]{3,7,1,5,0,4,2,6}",
    "f32[1000,1000,1000,1000,1000,1000]{0,1,2,3,4,5}",
    "bf16[4096,4096,16]{0,2,1:T(8,128)(2,1)}",
    "f32[65537,65537]{1,0:T(2,*,128)}",
    "s4[123456,456]{1,0:T(2,128)E(4)}",
]


@pytest.mark.parametrize("text", BIG)
def test_big_shapes_are_drawn_small(text):
    picture = layout_picture.svg(ShapeUtil.parse_shape_string(text))
    assert len(picture.encode()) < MAX_BYTES
    ET.fromstring(picture)


@given(big_shapes())
def test_any_shape_is_drawn_under_200_kb(shape):
    picture = layout_picture.svg(shape)
    assert len(picture.encode()) < MAX_BYTES


@given(st.one_of(shapes(max_rank=4), tiled_shapes()))
def test_small_shapes_are_true_to_the_reference(shape):
    assert_true_to_the_reference(shape, ET.fromstring(layout_picture.svg(shape)))


# -- elision -------------------------------------------------------------------
def test_elide():
    assert elide(7, 3) == list(range(7))
    assert elide(8, 3) == [0, 1, 2, None, 5, 6, 7]
    assert elide(100, 2, 1) == [0, 1, None, 99]
    assert elide(0, 2) == []


@given(
    st.integers(0, 5000), st.integers(1, 300), st.integers(1, 30), st.integers(0, 2),
    st.lists(st.integers(0, 5000), max_size=3),
)  # fmt: skip
def test_elide_tiled_keeps_each_shown_tile_ends(size, tile, edge, lead, keep):
    items = elide_tiled(size, tile, edge, lead, keep)
    shown = [k for k in items if k is not None]
    if size <= 2 * edge + 1:
        assert items == list(range(size))
        return
    assert shown == sorted(set(shown)) and shown[0] >= 0 and shown[-1] < size
    # None exactly between positions that are not neighbours
    for a, b, c in zip(items, items[1:], items[2:]):
        if b is None:
            assert a is not None and c is not None and c > a + 1
        elif a is not None:
            assert b == a + 1
    # exactly: the first count + lead tiles and the last count (count tiles
    # make edge cells), each whole or its first and last edge cells; and keep
    count, tiles = max(1, edge // tile), -(-size // tile)
    chosen = range(tiles) if tiles <= 2 * count + lead + 1 else [*range(count + lead), *range(tiles - count, tiles)]
    expected = {k for k in keep if k < size}
    for t in chosen:
        cells = range(t * tile, min((t + 1) * tile, size))
        expected |= set(cells) if len(cells) <= 2 * edge + 1 else {*cells[:edge], *cells[-edge:]}
    assert set(shown) == expected


def test_repr_html_is_the_svg():
    shape = xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T(2,2)}")
    assert shape._repr_html_() == layout_picture.svg(shape)
    # XLA's Figure 1: 15 elements in 24 slots, borders every 2 rows and columns
    root = parse(shape)
    assert len(rects(root, "xs-cell")) == 15 and len(rects(root, "xs-pad")) == 24 - 15
    assert math.prod(shape.tiled_dimensions) == len(rects(root, "xs-slot")) + len(rects(root, "xs-slot-pad"))
