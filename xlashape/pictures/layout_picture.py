"""Pictures of a layout: where each element of a :class:`Shape` lies in
memory, drawn as SVG (for notebooks, ``xlashape show --svg`` and the docs),
and which cells and memory slots a picture shows.

The picture has three parts:

- the array as a grid of cells, padding included (the padded widths, or the
  most minor dimensions padded to whole tiles), each element's cell coloured
  by its place in memory (a sequential colour map over the offsets shown,
  in order, so that the few shown from a huge buffer still span it) and,
  where the offsets are short enough, numbered with its offset; padding cells are hatched, tile borders are lines (thick
  for the first tile, thinner for each later one). The grid's two axes are
  the two most minor physical dimensions, in dimension order; the other
  dimensions make 2-D slices, in memory order;
- linear memory as a strip of slots, in the same colours, padding hatched,
  tile borders marked;
- a caption: the shape's text, its elements, slots and bytes, and how much
  of the buffer is padding.

Long axes are elided the same way everywhere, here and in ``xlashape show``'s
text picture: :func:`elide_tiled` keeps the first and last tiles of an axis
and the first and last cells of each tile, and a grid axis also its last
element and first padding cell (:func:`grid_axis`), so that tile borders
and where padding begins stay in the picture. A grid keeps fewer cells at
each end until it draws at most GRID_CELLS, so the SVG stays under 200 KB
whatever the shape, and takes a few milliseconds to make.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from xml.sax.saxutils import escape

import numpy as np

from ..errors import IndexOutOfBoundsError
from ..model import tiling
from ..model.layout import Layout, Tile
from ..shapes._convert import ravel
from ..shapes.shape import Shape
from ..shapes.shape_text import require_shape
from ..xla.index_util import IndexUtil
from ..xla.shape_util import ShapeUtil

__all__ = [
    "drawn_extents",
    "elide",
    "elide_tiled",
    "grid_axis",
    "html",
    "memory_unit",
    "slot_index",
    "svg",
    "tile_sizes",
]

# Cells of a grid axis and slots of the memory strip kept at each end of each
# tile (and tiles kept at each end, where tiles are small): see elide_tiled.
# A grid's edge is the first of GRID_EDGES that draws at most GRID_CELLS cells.
GRID_EDGES = (4, 3, 2, 1)
GRID_CELLS = 640
MEMORY_EDGE = 8
SLICES_HEAD, SLICES_TAIL = 2, 1  # 2-D slices kept before and after a gap
# Offsets written in grid cells up to this many digits; longer ones only in
# the cells' tooltips.
NUMBER_DIGITS = 7

# Matplotlib's viridis at 0, 1/9, ..., 1: dark to light, its lightness rising
# steadily, so that the order reads in grey too.
_VIRIDIS = (
    (0x44, 0x01, 0x54), (0x48, 0x28, 0x78), (0x3E, 0x49, 0x89), (0x31, 0x68, 0x8E),
    (0x26, 0x82, 0x8E), (0x1F, 0x9E, 0x89), (0x35, 0xB7, 0x79), (0x6E, 0xCE, 0x58),
    (0xB5, 0xDE, 0x2B), (0xFD, 0xE7, 0x25),
)  # fmt: skip

# Geometry, in pixels.
_MARGIN = 10
_CELL_HEIGHT = 20
_GAP = 14  # an elided run of cells or slots
_SLOT_WIDTH, _SLOT_HEIGHT = 10, 22
_LINE = 16  # a line of caption text
_LABEL = 11  # the index labels beside the grid and below the strip
_CHAR = 6.6  # the width of a character of 11 px text, to size the picture


# -- which cells a picture shows ---------------------------------------------
def elide(size: int, head: int, tail: int | None = None) -> list[int | None]:
    """The items ``0 .. size-1`` of an axis, or, where more than
    ``head + tail + 1`` of them, the first ``head`` and the last ``tail``
    (``tail`` defaults to ``head``) with ``None`` between.

    Examples
    --------
    >>> from xlashape.pictures.layout_picture import elide
    >>> elide(5, 2)
    [0, 1, 2, 3, 4]
    >>> elide(100, 2, 1)
    [0, 1, None, 99]
    """
    tail = head if tail is None else tail
    if size <= head + tail + 1:
        return list(range(size))
    return [*range(head), None, *range(size - tail, size)]


def elide_tiled(size: int, tile: int, edge: int, lead: int = 0, keep: Sequence[int] = ()) -> list[int | None]:
    """The positions ``0 .. size-1`` of an axis cut into tiles of ``tile``
    cells, as a picture shows them: all of them where there are at most
    ``2 * edge + 1``; otherwise the first and last tiles (as many as make
    ``edge`` cells, at least one, and ``lead`` more at the start), and of
    each tile longer than ``2 * edge + 1`` its first and last ``edge``
    cells, and the positions in ``keep`` (such as the last element and the
    first padding cell). ``None`` stands for each run left out. An untiled
    axis is ``tile=1``: its first and last ``edge`` cells.

    Examples
    --------
    >>> from xlashape.pictures.layout_picture import elide_tiled
    >>> elide_tiled(6, 2, 3)  # every cell
    [0, 1, 2, 3, 4, 5]
    >>> elide_tiled(1024, 128, 2)  # the first and last 2 cells of the first and last tiles
    [0, 1, None, 126, 127, None, 896, 897, None, 1022, 1023]
    >>> elide_tiled(40, 4, 4, lead=1, keep=[20])  # the first 2 tiles, the last one, and 20
    [0, 1, 2, 3, 4, 5, 6, 7, None, 20, None, 36, 37, 38, 39]
    """
    if size <= 2 * edge + 1:
        return list(range(size))
    count = max(1, edge // tile)
    shown = {k for k in keep if 0 <= k < size}
    for t in elide(-(-size // tile), count + lead, count):
        if t is not None:
            start = t * tile
            shown.update(start + c for c in elide(min(tile, size - start), edge) if c is not None)
    items: list[int | None] = []
    for k in sorted(shown):
        if items and items[-1] != k - 1:
            items.append(None)
        items.append(k)
    return items


def grid_axis(shape: Shape, dim: int, edge: int) -> list[int | None]:
    """The cells a grid of ``shape`` shows along dimension ``dim``: its
    :func:`drawn_extents`, elided by :func:`elide_tiled` in the first tile's
    size along it, keeping the last element and the first padding cell.

    Examples
    --------
    >>> from xlashape.pictures.layout_picture import grid_axis
    >>> grid_axis(xs.ShapeUtil.parse_shape_string("f32[3,200]{1,0:T(2,128)}"), 1, 2)
    [0, 1, None, 126, 127, 128, 129, None, 199, 200, None, 254, 255]
    """
    size, extent = shape.dimensions[dim], drawn_extents(shape)[dim]
    levels = tile_sizes(shape)
    tile = levels[0].get(dim, 1) if levels else 1
    return elide_tiled(extent, tile, edge, keep=(size - 1, size) if size < extent else ())


def tile_sizes(shape: Shape) -> list[dict[int, int]]:
    """Per tile, the tile's size along each dimension that it tiles on its
    own (a dimension ``*`` combines with another has none): the sizes of
    the borders a grid of the array can draw. Later tiles re-tile within
    the earlier ones, so they are given only where each divides the tile
    it re-tiles (the tiling has a digit form); otherwise only the first.

    Examples
    --------
    >>> from xlashape.pictures.layout_picture import tile_sizes
    >>> tile_sizes(xs.ShapeUtil.parse_shape_string("bf16[16,256]{1,0:T(8,128)(2,1)}"))
    [{1: 128, 0: 8}, {1: 1, 0: 2}]
    >>> tile_sizes(xs.ShapeUtil.parse_shape_string("f32[8,128,256]{0,2,1:T(8,128)}"))
    [{0: 128, 2: 8}]
    """
    layout = shape.layout
    m2m = layout.minor_to_major
    tiles = layout.tiles
    if len(tiles) > 1 and tiling.digits(shape.dimensions, m2m, tiles) is None:
        tiles = tiles[:1]
    levels: list[dict[int, int]] = []
    reach = len(m2m)  # positions (0: the most minor) a tile can be drawn along
    for tile in tiles:
        sizes = tile.dimensions
        level = {}
        for p in range(min(len(sizes), reach)):
            combined = Tile.COMBINE in (sizes[-1 - p], sizes[-2 - p] if p + 1 < len(sizes) else 0)
            if not combined:
                level[m2m[p]] = sizes[-1 - p]
        levels.append(level)
        reach = min(reach, len(sizes))
    return levels


def drawn_extents(shape: Shape) -> tuple[int, ...]:
    """Per dimension, the cells a grid of ``shape`` draws: the padded width,
    or the size rounded up to whole tiles of the first tile.

    Examples
    --------
    >>> from xlashape.pictures.layout_picture import drawn_extents
    >>> drawn_extents(xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1:PAD(3,5)}"))
    (3, 5)
    >>> drawn_extents(xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T(2,2)}"))
    (4, 6)
    """
    extents = list(shape.padded_dimensions)
    for dim, size in (tile_sizes(shape)[:1] or [{}])[0].items():
        extents[dim] = -(-extents[dim] // size) * size
    return tuple(extents)


def memory_unit(shape: Shape) -> int:
    """The slots of memory a picture keeps together: one tile of the first
    tile, or one row of the most minor dimension (its padded width).

    Examples
    --------
    >>> from xlashape.pictures.layout_picture import memory_unit
    >>> memory_unit(xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T(2,2)}"))
    4
    >>> memory_unit(xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1:PAD(3,5)}"))
    3
    """
    layout = shape.layout
    if layout.tiles:
        return math.prod(size for size in layout.tiles[0].dimensions if size > 0)
    m2m = layout.minor_to_major
    return max(1, shape.padded_dimensions[m2m[0]]) if m2m else 1


def slot_index(shape: Shape, offset: int) -> tuple[int, ...] | None:
    """The multi-index of the element at ``offset`` in ``shape``'s buffer,
    or None where the slot is padding.

    Examples
    --------
    >>> from xlashape.pictures.layout_picture import slot_index
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1:PAD(3,5)}")
    >>> [slot_index(shape, k) for k in range(4)]
    [(0, 0), (1, 0), None, (0, 1)]
    """
    try:
        return IndexUtil.linear_index_to_multidimensional_index(shape, offset)
    except IndexOutOfBoundsError:
        return None


# -- the SVG -------------------------------------------------------------------
# Tile borders, by tile: stroke width and dashes (later tiles as the third).
_STROKES = ((2.5, ""), (1.2, ""), (1.0, ' stroke-dasharray="3 2"'))
_NAMES = ("thick", "thin", "dashed")
_GREY = "#555"


def _colour(t: float) -> str:
    """The colour map at ``t`` in [0, 1]."""
    x = min(max(t, 0.0), 1.0) * (len(_VIRIDIS) - 1)
    i = min(int(x), len(_VIRIDIS) - 2)
    rgb = (round(a + (b - a) * (x - i)) for a, b in zip(_VIRIDIS[i], _VIRIDIS[i + 1]))
    return "#" + "".join(f"{c:02x}" for c in rgb)


def _light(colour: str) -> bool:
    """Whether dark text reads better than white on ``colour``."""
    r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b > 140


def _places(items: Sequence[int | None], start: float, width: float) -> list[float]:
    """Where each item of an elided axis begins, then where the axis ends."""
    places = [start]
    for item in items:
        places.append(places[-1] + (_GAP if item is None else width))
    return places


def _borders(items: Sequence[int | None], places: Sequence[float], size: int, extent: int) -> list[float]:
    """Where borders every ``size`` positions fall among the shown ``items``
    of an axis of ``extent`` positions."""
    found = set()
    for k, item in enumerate(items):
        if item is not None:
            if item % size == 0 and item > 0:
                found.add(places[k])
            if (item + 1) % size == 0 and item + 1 < extent:
                found.add(places[k + 1])
    return sorted(found)


def _labels(items: Sequence[int | None], places: Sequence[float], width: float) -> list[tuple[float, int]]:
    """(centre, item) for the shown items whose labels do not overlap,
    greedily from the first; the last always."""
    kept: list[tuple[float, int]] = []
    shown = [(places[k] + width / 2, item) for k, item in enumerate(items) if item is not None]
    for k, (centre, item) in enumerate(shown):
        if kept and centre - kept[-1][0] < (len(str(item)) + len(str(kept[-1][1]))) * _CHAR * 0.45 + 4:
            if k < len(shown) - 1:
                continue
            kept.pop()
        kept.append((centre, item))
    return kept


def _text(x: float, y: float, text: str, **attributes: object) -> str:
    extra = "".join(f' {name.replace("_", "-")}="{value}"' for name, value in attributes.items())
    return f'<text x="{x:g}" y="{y:g}"{extra}>{escape(text)}</text>'


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _index_text(index: Sequence[int]) -> str:
    return "(" + ", ".join(map(str, index)) + ")"


def _bits(shape: Shape) -> int:
    """Bits an element takes in the buffer."""
    return shape.layout.element_size_in_bits or 8 * (shape.element_type.byte_size or 0)


class _Grid:
    """The cells a picture of ``shape`` draws: 2-D slices over its two most
    minor physical dimensions (rows the lower-numbered one), the slices
    over the others in memory order; each axis :func:`grid_axis` with
    ``edge`` cells at each end of a long tile."""

    def __init__(self, shape: Shape, edge: int) -> None:
        self.shape = shape
        m2m = shape.layout.minor_to_major
        self.minor = sorted(m2m[:2])
        self.rows_dim = self.minor[0] if len(self.minor) == 2 else None
        self.cols_dim = self.minor[-1] if self.minor else None
        self.lead = [d for d in reversed(m2m) if d not in self.minor]  # major first
        self.extents = drawn_extents(shape)
        self.lead_extents = [self.extents[d] for d in self.lead]
        self.slices = elide(math.prod(self.lead_extents), SLICES_HEAD, SLICES_TAIL)
        self.rows = [0] if self.rows_dim is None else grid_axis(shape, self.rows_dim, edge)
        self.cols = [0] if self.cols_dim is None else grid_axis(shape, self.cols_dim, edge)

    def index(self, number: int, row: int, col: int) -> tuple[int, ...]:
        """The multi-index of a cell: slice ``number``, ``row``, ``col``."""
        at = [0] * self.shape.rank
        for d, e in zip(reversed(self.lead), reversed(self.lead_extents)):
            number, at[d] = divmod(number, e)
        if self.rows_dim is not None:
            at[self.rows_dim] = row
        if self.cols_dim is not None:
            at[self.cols_dim] = col
        return tuple(at)

    def cells(self) -> list[tuple[int, ...]]:
        return [
            self.index(s, r, c)
            for s in self.slices if s is not None
            for r in self.rows if r is not None
            for c in self.cols if c is not None
        ]  # fmt: skip

    def axes_text(self) -> str:
        dims = self.shape.dimensions
        parts = [f"dimension {d} ({dims[d]}) {way}" for d, way in ((self.rows_dim, "down"), (self.cols_dim, "across"))
                 if d is not None]  # fmt: skip
        if self.lead:
            parts.append(f"a slice per index of dimension{'s' if len(self.lead) > 1 else ''} "
                         + ", ".join(map(str, self.lead)) + " (in memory order)")  # fmt: skip
        return ", ".join(parts) or "a scalar: one element"

    def slice_name(self, number: int) -> str:
        head = self.index(number, 0, 0)
        name = ",".join(":" if d in self.minor else str(head[d]) for d in range(self.shape.rank))
        padding = any(head[d] >= self.shape.dimensions[d] for d in self.lead)
        return f"[{name}]" + ("  (padding)" if padding else "")


class _Drawing:
    """The SVG's elements, how far right they reach, and the pen's height."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.width = 0.0
        self.y = float(_MARGIN)

    def add(self, part: str, right: float = 0.0) -> None:
        self.parts.append(part)
        self.width = max(self.width, right)

    def line(self, text: str, **attributes: object) -> None:
        """A line of text below what is drawn."""
        self.y += _LINE
        self.add(_text(_MARGIN, self.y, text, **attributes), _MARGIN + len(text) * _CHAR * 1.1)


def _caption(shape: Shape, levels: list[dict[int, int]], axes: str) -> list[str]:
    """The caption's lines: the shape; its elements, slots, bytes and
    padding; the axes; what the marks mean."""
    elements, slots = ShapeUtil.elements_in(shape), shape.buffer_size
    size = ShapeUtil.byte_size_of(shape)
    layout = shape.layout
    plain = Shape(
        shape.element_type, shape.dimensions,
        Layout(layout.minor_to_major, element_size_in_bits=layout.element_size_in_bits),
    )  # fmt: skip
    padding = size - ShapeUtil.byte_size_of(plain)
    fill = f"{_count(elements, 'element')} in {_count(slots, 'slot')}"
    if elements and slots != elements:
        ratio = slots / elements
        fill += f": {ratio:.0f}x" if ratio == int(ratio) else f": {ratio:.2f}x"
    bits = _bits(shape)
    if 0 < bits < 8:
        fill += f", {bits} bits each, {8 // bits} to a byte"
    wasted = f"{_count(padding, 'byte')} of them padding ({100 * padding / size:.1f}%)" if padding else "no padding"
    marks = ["colour: order in memory, dark first"]
    if slots > elements:
        marks.append("hatched: padding")
    for number, (tile, level) in enumerate(zip(layout.tiles, levels)):
        if level:
            marks.append(f"{_NAMES[min(number, 2)]} lines: tiles {tile}")
    if 0 < bits < 8:
        marks.append("ticks: bytes")
    return [str(shape), f"{fill}; {_count(size, 'byte')}, {wasted}", axes, "; ".join(marks)]


def _draw_grid(
    out: _Drawing, grid: _Grid, offsets: dict[tuple[int, ...], int], colours: dict[int, str], pad: str
) -> None:
    """The slices of ``grid``: cells coloured (``colours`` by offset) and
    numbered, padding filled with ``pad``, tile borders drawn."""
    levels = tile_sizes(grid.shape)
    digits = len(str(max(offsets.values(), default=0)))
    numbered = digits <= NUMBER_DIGITS
    width = max(_CELL_HEIGHT, 7 * digits + 6) if numbered else _CELL_HEIGHT
    x0 = _MARGIN + max((len(str(r)) for r in grid.rows if r is not None), default=1) * _CHAR + 6
    xs_ = _places(grid.cols, x0, width)
    if not offsets and grid.shape.buffer_size == 0:
        out.line("(no elements)")
        return
    for s in grid.slices:
        if s is None:
            hidden = math.prod(grid.lead_extents) - SLICES_HEAD - SLICES_TAIL
            out.line(f"\u22ee {_count(hidden, 'slice')} not shown", fill=_GREY)
            out.y += 4
            continue
        if grid.lead:
            out.line(grid.slice_name(s), font_weight="bold")
        out.y += _LABEL + 4
        for centre, col in _labels(grid.cols, xs_, width):
            out.add(_text(centre, out.y, str(col), fill=_GREY, font_size=_LABEL - 2, text_anchor="middle"))
        top = out.y + 3
        ys = _places(grid.rows, top, _CELL_HEIGHT)
        bands, rects, numbers = [], [], []
        for left, c in zip(xs_, grid.cols):
            if c is None:
                bands.append(f'<rect x="{left:g}" y="{top:g}" width="{_GAP}" height="{ys[-1] - top:g}"/>')
        for r, y in zip(grid.rows, ys):
            if r is None:
                bands.append(f'<rect x="{x0:g}" y="{y:g}" width="{xs_[-1] - x0:g}" height="{_GAP}"/>')
                out.add(_text(x0 - 4, y + _GAP - 3, "\u22ee", fill=_GREY, text_anchor="end"))
                continue
            if grid.rows_dim is not None:
                out.add(_text(x0 - 4, y + 14, str(r), fill=_GREY, font_size=_LABEL - 2, text_anchor="end"))
            for c, left in zip(grid.cols, xs_):
                if c is None:
                    continue
                at = grid.index(s, r, c)
                box = f'x="{left:g}" y="{y:g}" width="{width}" height="{_CELL_HEIGHT}"'
                if at not in offsets:
                    rects.append(f'<rect {box} fill="{pad}" class="xs-pad"><title>{_index_text(at)}: padding</title></rect>')
                    continue
                offset = offsets[at]
                colour = colours[offset]
                tip = f"{_index_text(at)}: offset {offset}"
                rects.append(f'<rect {box} fill="{colour}" class="xs-cell"><title>{tip}</title></rect>')
                if numbered:
                    ink = "#000" if _light(colour) else "#fff"
                    numbers.append(_text(left + width / 2, y + 14, str(offset), fill=ink))
        if bands:
            out.add('<g fill="#f2f2f2">' + "".join(bands) + "</g>")
        out.add('<g stroke="#fff" stroke-width="0.5">' + "".join(rects) + "</g>", xs_[-1])
        if numbers:
            out.add(f'<g font-size="{min(11, int(width / (0.62 * digits)))}" text-anchor="middle">'
                    + "".join(numbers) + "</g>")  # fmt: skip
        for number, level in enumerate(levels):
            path = []
            if grid.cols_dim in level and level[grid.cols_dim] > 1:
                for x in _borders(grid.cols, xs_, level[grid.cols_dim], grid.extents[grid.cols_dim]):
                    path.append(f"M{x:g} {top:g}V{ys[-1]:g}")
            if grid.rows_dim in level and level[grid.rows_dim] > 1:
                for y in _borders(grid.rows, ys, level[grid.rows_dim], grid.extents[grid.rows_dim]):
                    path.append(f"M{x0:g} {y:g}H{xs_[-1]:g}")
            if path:
                stroke, dash = _STROKES[min(number, 2)]
                out.add(f'<path d="{"".join(path)}" stroke="#000" stroke-width="{stroke}"{dash} fill="none"/>')
        out.add(f'<rect x="{x0:g}" y="{top:g}" width="{xs_[-1] - x0:g}" height="{ys[-1] - top:g}" '
                'fill="none" stroke="#000"/>')  # fmt: skip
        out.y = ys[-1] + 4


def _draw_strip(
    out: _Drawing, shape: Shape, strip: list[int | None], holds: dict[int, tuple[int, ...] | None],
    colours: dict[int, str], pad: str,
) -> None:  # fmt: skip
    """Linear memory: the ``strip`` of slots, each holding ``holds[k]``
    (None: padding), coloured as the grid; tile borders and bytes marked."""
    size = shape.buffer_size
    out.line(f"linear memory: {_count(size, 'slot')}" + (", elided" if None in strip else ""))
    top = out.y + 8
    xs_ = _places(strip, _MARGIN, _SLOT_WIDTH)
    bottom = top + _SLOT_HEIGHT
    slots = []
    for k, left in zip(strip, xs_):
        if k is None:
            out.add(_text(left + _GAP / 2, top + _SLOT_HEIGHT / 2 + 4, "\u22ef", fill=_GREY, text_anchor="middle"))
            continue
        box = f'x="{left:g}" y="{top:g}" width="{_SLOT_WIDTH}" height="{_SLOT_HEIGHT}"'
        held = holds[k]
        if held is None:
            slots.append(f'<rect {box} fill="{pad}" class="xs-slot-pad"><title>offset {k}: padding</title></rect>')
        else:
            tip = f"offset {k}: {_index_text(held)}"
            slots.append(f'<rect {box} fill="{colours[k]}" class="xs-slot"><title>{tip}</title></rect>')
    if not slots:
        out.line("(empty)")
        return
    out.add('<g stroke="#fff" stroke-width="0.5">' + "".join(slots) + "</g>", xs_[-1])
    marks = []  # (slots between marks, stroke, dash, reach above, below)
    for number, level in enumerate(tile_sizes(shape)):
        if level:
            stroke, dash = _STROKES[min(number, 2)]
            marks.append((math.prod(level.values()), stroke, dash, 5 if number == 0 else 0, 5 if number == 0 else 0))
    bits = _bits(shape)
    if 0 < bits < 8:
        marks.append((8 // bits, 1.0, "", -_SLOT_HEIGHT + 4, 4))
    for unit, stroke, dash, above, below in marks:
        path = "".join(f"M{x:g} {top - above:g}V{bottom + below:g}" for x in _borders(strip, xs_, unit, size))
        if unit > 1 and path:
            out.add(f'<path d="{path}" stroke="#000" stroke-width="{stroke}"{dash} fill="none"/>')
    out.y = bottom + _LABEL + 6
    for centre, k in _labels(strip, xs_, _SLOT_WIDTH):
        out.add(_text(centre, out.y, str(k), fill=_GREY, font_size=_LABEL - 2, text_anchor="middle"))


def svg(shape: Shape) -> str:
    """The picture of ``shape``'s layout as an SVG document (text): the
    array's cells coloured by their order in memory, linear memory as a
    strip, padding and tile borders marked, and a caption. Long axes are
    elided (:func:`elide_tiled`), so that the picture stays small (under
    200 KB) for any shape; a notebook shows it through
    ``Shape._repr_html_``.

    Raises
    ------
    ValueError
        For a shape with an unbounded dynamic dimension: it has no buffer.

    Examples
    --------
    >>> from xlashape.pictures.layout_picture import svg
    >>> picture = svg(xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1:PAD(3,5)}"))
    >>> picture.startswith("<svg"), picture.count('class="xs-cell"'), picture.count('class="xs-pad"')
    (True, 6, 9)
    """
    shape = require_shape(shape)
    size = shape.buffer_size  # raises for an unbounded shape
    for edge in GRID_EDGES:
        grid = _Grid(shape, edge)
        if len(grid.cells()) <= GRID_CELLS:
            break
    inside = [i for i in grid.cells() if all(x < d for x, d in zip(i, shape.dimensions))]
    found = ravel(np.array(inside, dtype=np.int64).reshape(len(inside), shape.rank), shape).tolist()
    offsets = dict(zip(inside, found))
    strip = elide_tiled(size, memory_unit(shape), MEMORY_EDGE, lead=1)
    holds = {k: slot_index(shape, k) for k in strip if k is not None}
    order = sorted(set(found) | {k for k, held in holds.items() if held is not None})
    colours = {k: _colour(n / max(1, len(order) - 1)) for n, k in enumerate(order)}
    pattern = f"xs-pad-{zlib.crc32(str(shape).encode()):08x}"

    out = _Drawing()
    for k, line in enumerate(_caption(shape, tile_sizes(shape), grid.axes_text())):
        out.line(line, **({"font_weight": "bold"} if k == 0 else {}))
    out.y += 6
    _draw_grid(out, grid, offsets, colours, f"url(#{pattern})")
    out.y += 6
    _draw_strip(out, shape, strip, holds, colours, f"url(#{pattern})")
    width, height = out.width + _MARGIN, out.y + _MARGIN
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="12" '
        f'class="xlashape-layout"><title>{escape(str(shape))}</title>'
        f'<defs><pattern id="{pattern}" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#eee"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#999" stroke-width="2"/></pattern></defs>'
        '<rect width="100%" height="100%" fill="#fff"/>'  # dark themes keep the text readable
        + "".join(out.parts)
        + "</svg>"
    )


def html(shape: Shape) -> str:
    """:func:`svg` in a page of its own (what ``xlashape show --html``
    writes).

    Examples
    --------
    >>> from xlashape.pictures.layout_picture import html
    >>> page = html(xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T(2,2)}"))
    >>> page.startswith("<!DOCTYPE html>"), "<svg" in page
    (True, True)
    """
    title = escape(str(require_shape(shape)))
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>\n'
        f'<body style="margin:16px;font-family:sans-serif">\n{svg(shape)}\n</body></html>\n'
    )
