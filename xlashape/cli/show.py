"""``xlashape show SHAPE``: the logical array, the padded array and the
linear memory as the spec draws them, then strides and sizes."""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator, Sequence

import numpy as np

from .. import convert
from ..index_util import IndexUtil
from ..layout import Layout
from ..layout_util import LayoutUtil
from ..shape import Shape
from ..shape_util import ShapeUtil
from . import tile_picture
from .common import (
    DEFAULT_PADDING,
    EXIT_OK,
    PADDING,
    Parser,
    add_command,
    add_shape_arguments,
    shape_from,
)

# `show` elision: an axis longer than 2 * EDGE + 1 shows EDGE items at each
# end and GAP between them.
GRID_EDGE = 3  # rows and columns of a picture
SLICE_EDGE = 2  # 2-D slices of a picture of rank > 2
MEMORY_EDGE = 10  # cells of the linear memory
GAP = "..."

SUMMARY = "Draw a shape's array and linear memory as the spec does."
EPILOG = """\
examples:
  $ xlashape show "f32[2,3]{0,1}"
  draws the array a b c / d e f and its column-major memory: a d b e c f

  $ xlashape show "f32[2,3]{0,1}" --padded 3,5
  draws the spec's padded example; its linear memory line is
  a d 0 b e 0 c f 0 0 0 0 0 0 0

Elements are named a..z, aa, ab, ... in row-major (logical) order. Padding
cells are drawn as 0 (zero, the spec's picture), 1 (one), L (lowest),
H (highest) or ? (unknown). Rank > 2 arrays are drawn as 2-D slices labelled
by their leading indices, such as [1,:,:]. Long axes, many slices and long
memory show their first and last few items around "...".
"""


def add_parser(commands: argparse._SubParsersAction[Parser]) -> None:
    """Add ``show`` to the ``xlashape`` subcommands."""
    add_shape_arguments(add_command(commands, "show", SUMMARY, EPILOG, _show))


def _element_name(number: int) -> str:
    """The name of the element ``number`` (row-major): a..z, then aa..zz,
    then aaa and so on, like spreadsheet columns."""
    name = ""
    number += 1
    while number:
        number, letter = divmod(number - 1, 26)
        name = chr(ord("a") + letter) + name
    return name


def _shown(size: int, edge: int) -> list[int | None]:
    """0..size-1, or the first and last ``edge`` of them with None between."""
    if size <= 2 * edge + 1:
        return list(range(size))
    return [*range(edge), None, *range(size - edge, size)]


def _cell_names(shape: Shape, coords: np.ndarray, pad: str) -> list[str]:
    """Names of the cells at (N, rank) ``coords`` within the padded widths:
    the element's name, or ``pad`` where a coordinate is past its dimension."""
    inside = np.all(coords < np.array(shape.dimensions, dtype=np.int64), axis=1)
    row_major = Shape(shape.element_type, shape.dimensions)
    numbers = convert.ravel(coords[inside], row_major)
    names = iter([_element_name(n) for n in numbers.tolist()])
    return [next(names) if ok else pad for ok in inside.tolist()]


def _axis(size: int, edge: int) -> list[tuple[int] | None]:
    """:func:`_shown` as 1-tuples, ready to join into multi-indices."""
    return [None if i is None else (i,) for i in _shown(size, edge)]


def _aligned(names: list[str]) -> Iterator[str]:
    width = max(map(len, names), default=0)
    return iter([name.rjust(width) for name in names])


def _join(items: Sequence[object], cells: Iterator[str]) -> str:
    """One line: the next cell for each item, GAP for each None."""
    return " ".join(GAP if item is None else next(cells) for item in items)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _extent_text(extent: Sequence[int]) -> str:
    return " x ".join(map(str, extent)) if extent else "rank 0, one element"


def _picture(shape: Shape, extent: tuple[int, ...], pad: str) -> list[str]:
    """The array over ``extent`` (the dimensions, or the padded widths), one
    line per row as the spec draws it; rank > 2 as labelled 2-D slices."""
    if 0 in extent:
        return ["(no elements)"]
    rank = len(extent)
    lead = extent[: max(rank - 2, 0)]
    lead_shape = Shape(shape.element_type, lead)
    heads = [
        None if k is None else IndexUtil.linear_index_to_multidimensional_index(lead_shape, k)
        for k in _shown(math.prod(lead), SLICE_EDGE)
    ]
    rows = _axis(extent[-2], GRID_EDGE) if rank >= 2 else [()]
    cols = _axis(extent[-1], GRID_EDGE) if rank >= 1 else [()]
    coords = [
        head + row + col
        for head in heads
        if head is not None
        for row in rows
        if row is not None
        for col in cols
        if col is not None
    ]
    grid = np.array(coords, dtype=np.int64).reshape(len(coords), rank)
    cells = _aligned(_cell_names(shape, grid, pad))
    lines = []
    for head in heads:
        if head is None:
            lines.append(f"{GAP} ({math.prod(lead) - 2 * SLICE_EDGE} slices not shown)")
            continue
        if lead:
            lines.append("[" + ",".join(map(str, head)) + ",:,:]")
        lines.extend(GAP if row is None else _join(cols, cells) for row in rows)
    return lines


def _memory_line(shape: Shape, pad: str) -> str:
    """The linear memory in the spec's notation, such as
    ``a d 0 b e 0 c f 0 0 0 0 0 0 0``; long memory elided."""
    positions = _shown(shape.buffer_size, MEMORY_EDGE)
    if not positions:
        return "(empty)"
    # The padded widths as an unpadded shape: every position in the buffer is
    # a multi-index of it, padding included.
    box = Shape(shape.element_type, shape.padded_dimensions, Layout(shape.layout.minor_to_major))
    shown = np.array([p for p in positions if p is not None], dtype=np.int64)
    coords = convert.unravel(shown, box)
    return _join(positions, iter(_cell_names(shape, coords, pad)))


def _describe_tiled(shape: Shape, pad: str) -> list[str]:
    """What ``show`` prints for a tiled layout: XLA's Figure 1 in text."""
    tiles = "".join(map(str, shape.layout.tiles))
    size = shape.buffer_size
    first = shape.layout.tiles[0]
    return [
        f"shape:          {ShapeUtil.human_string_with_layout(shape)}",
        f"layout:         {{{','.join(map(str, shape.layout.minor_to_major))}}} (minor to major), tiles {tiles}",
        "",
        f"logical array ({_extent_text(shape.dimensions)}):",
        *_picture(shape, shape.dimensions, pad),
        "",
        f"tiles {first} over the two most minor dimensions, padded to whole tiles ({pad}):",
        *tile_picture.tile_grid(shape, _element_name, pad),
        "",
        f"linear memory ({_plural(size, 'element')}, | between tiles {first}):",
        tile_picture.memory_line(shape, _element_name, pad),
        "",
        f"tiled array:    {_extent_text(shape.tiled_dimensions)} (tile counts, then within-tile sizes)",
        f"element count:  {ShapeUtil.elements_in(shape)}",
        f"buffer size:    {_plural(size, 'element')}, tile padding included",
        f"byte size:      {_plural(ShapeUtil.byte_size_of(shape), 'byte')}",
    ]


def _describe(shape: Shape, padding: str = DEFAULT_PADDING) -> list[str]:
    """The lines ``xlashape show`` prints for ``shape``; ``padding`` names
    the --padding-value whose symbol draws padding cells."""
    pad = PADDING[padding][1]
    if shape.layout.tiles:
        return _describe_tiled(shape, pad)
    m2m = shape.layout.minor_to_major
    fastest = f": dimension {m2m[0]} varies fastest" if m2m else ""
    widths = shape.padded_dimensions
    padded = LayoutUtil.is_padded(shape)
    padding_text = f"widths [{','.join(map(str, widths))}], value {padding}, drawn as {pad}"
    # XLA's text, the padding (which it lacks) on its own line below
    layout = shape.layout.text(padding=False)
    lines = [
        f"shape:          {shape.dimensions_text()}{'' if layout == '{}' else layout}",
        f"layout:         {layout} (minor to major{fastest})",
        f"padding:        {padding_text if padded else 'none'}",
        "",
        f"logical array ({_extent_text(shape.dimensions)}):",
        *_picture(shape, shape.dimensions, pad),
    ]
    if padded:
        lines += [
            "",
            f"padded array ({_extent_text(widths)}), same layout:",
            *_picture(shape, widths, pad),
        ]
    size = shape.buffer_size
    elided = f"; the first and last {MEMORY_EDGE} shown" if size > 2 * MEMORY_EDGE + 1 else ""
    lines += [
        "",
        f"linear memory ({_plural(size, 'element')}{elided}):",
        _memory_line(shape, pad),
        "",
        f"strides:        [{', '.join(map(str, shape.strides))}] elements",
        f"element count:  {ShapeUtil.elements_in(shape)}",
        f"buffer size:    {_plural(size, 'element')}, padding included",
        f"byte size:      {_plural(ShapeUtil.byte_size_of(shape), 'byte')}",
    ]
    return lines


def _show(args: argparse.Namespace) -> int:
    print("\n".join(_describe(shape_from(args), args.padding_value or DEFAULT_PADDING)))
    return EXIT_OK
