"""``xlashape show SHAPE``: the logical array, the padded array and the
linear memory as the spec draws them, then strides and sizes."""

from __future__ import annotations

import argparse
import math
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from ..model.layout import Layout
from ..pictures import layout_picture
from ..pictures.layout_picture import elide
from ..shapes import convert
from ..shapes.shape import Shape
from ..xla.index_util import IndexUtil
from ..xla.layout_util import LayoutUtil
from ..xla.shape_util import ShapeUtil
from . import tile_picture
from .common import (
    DEFAULT_PADDING,
    EXIT_OK,
    EXIT_USAGE,
    PADDING,
    CommandError,
    Parser,
    add_command,
    add_shape_arguments,
    shape_from,
)

# `show` elision: an axis longer than 2 * EDGE + 1 shows EDGE items at each
# end and GAP between them; where the lines would not fit in WIDTH columns,
# fewer (each picture's edges, largest first).
WIDTH = 100
GRID_EDGES = (3, 2, 1)  # rows and columns of a picture
SLICE_EDGE = 2  # 2-D slices of a picture of rank > 2
MEMORY_EDGES = (10, 8, 6, 4, 3, 2, 1)  # cells of the linear memory
TILE_EDGES = (12, 8, 6, 4, 3, 2, 1)  # cells at each end of a tile of the tile grid
TILE_MEMORY_EDGES = (24, 16, 12, 8, 6, 4, 3, 2, 1)  # and of a tile in memory
GAP = "..."

SUMMARY = "Draw a shape's array and linear memory as the spec does."
EPILOG = """\
examples:
  $ xlashape show "f32[2,3]{0,1}"
  draws the array a b c / d e f and its column-major memory: a d b e c f

  $ xlashape show "f32[2,3]{0,1}" --padded 3,5
  draws the spec's padded example; its linear memory line is
  a d 0 b e 0 c f 0 0 0 0 0 0 0

  $ xlashape show "bf16[16,256]{1,0:T(8,128)(2,1)}" --svg layout.svg
  writes the picture in colour: each cell coloured by its place in memory,
  linear memory as a strip, padding hatched, tile borders drawn

Elements are named a..z, aa, ab, ... in row-major (logical) order. Padding
cells are drawn as 0 (zero, the spec's picture), 1 (one), L (lowest),
H (highest) or ? (unknown). Rank > 2 arrays are drawn as 2-D slices labelled
by their leading indices, such as [1,:,:]. Long axes, many slices and long
memory show their first and last few items around "...", tiled axes the
first and last tiles; every line fits in 100 columns.
"""


def add_parser(commands: argparse._SubParsersAction[Parser]) -> None:
    """Add ``show`` to the ``xlashape`` subcommands."""
    parser = add_command(commands, "show", SUMMARY, EPILOG, _show)
    add_shape_arguments(parser)
    parser.add_argument(
        "--svg", metavar="FILE", help="write the picture as SVG to FILE (- for stdout) instead of text"
    )
    parser.add_argument(
        "--html", metavar="FILE", help="write the picture as an HTML page to FILE (- for stdout) instead of text"
    )


def _element_name(number: int) -> str:
    """The name of the element ``number`` (row-major): a..z, then aa..zz,
    then aaa and so on, like spreadsheet columns."""
    name = ""
    number += 1
    while number:
        number, letter = divmod(number - 1, 26)
        name = chr(ord("a") + letter) + name
    return name


def _cell_names(shape: Shape, coords: np.ndarray, pad: str) -> list[str]:
    """Names of the cells at (N, rank) ``coords`` within the padded widths:
    the element's name, or ``pad`` where a coordinate is past its dimension."""
    inside = np.all(coords < np.array(shape.dimensions, dtype=np.int64), axis=1)
    row_major = Shape(shape.element_type, shape.dimensions)
    numbers = convert.ravel(coords[inside], row_major)
    names = iter([_element_name(n) for n in numbers.tolist()])
    return [next(names) if ok else pad for ok in inside.tolist()]


def _axis(size: int, edge: int) -> list[tuple[int] | None]:
    """:func:`~xlashape.pictures.layout_picture.elide` as 1-tuples, ready to join into
    multi-indices."""
    return [None if i is None else (i,) for i in elide(size, edge)]


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


def _fitted(draw: Callable[[int], list[str]], edges: Sequence[int]) -> tuple[int, list[str]]:
    """The first of ``edges`` (largest first) for which ``draw(edge)``'s
    lines fit in WIDTH columns (the last edge otherwise), and those lines."""
    for edge in edges:
        lines = draw(edge)
        if max(map(len, lines), default=0) <= WIDTH:
            break
    return edge, lines


def _wrapped(lines: list[str]) -> list[str]:
    """``lines`` with any longer than WIDTH (a field holding a long shape
    or long strides) wrapped, the rest indented under the field's value."""
    return [
        part
        for line in lines
        for part in (textwrap.wrap(line, WIDTH, subsequent_indent=" " * 16) if len(line) > WIDTH else [line])
    ]


def _picture(shape: Shape, extent: tuple[int, ...], pad: str) -> list[str]:
    """The array over ``extent`` (the dimensions, or the padded widths), one
    line per row as the spec draws it; rank > 2 as labelled 2-D slices;
    long axes elided to fit in WIDTH columns."""
    return _fitted(lambda edge: _slices(shape, extent, pad, edge), GRID_EDGES)[1]


def _slices(shape: Shape, extent: tuple[int, ...], pad: str, edge: int) -> list[str]:
    """:func:`_picture` with ``edge`` rows and columns at each end of a long
    axis."""
    if 0 in extent:
        return ["(no elements)"]
    rank = len(extent)
    lead = extent[: max(rank - 2, 0)]
    lead_shape = Shape(shape.element_type, lead)
    heads = [
        None if k is None else IndexUtil.linear_index_to_multidimensional_index(lead_shape, k)
        for k in elide(math.prod(lead), SLICE_EDGE)
    ]
    rows = _axis(extent[-2], edge) if rank >= 2 else [()]
    cols = _axis(extent[-1], edge) if rank >= 1 else [()]
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


def _memory_line(shape: Shape, pad: str, edge: int) -> str:
    """The linear memory in the spec's notation, such as
    ``a d 0 b e 0 c f 0 0 0 0 0 0 0``; of long memory the first and last
    ``edge`` cells."""
    positions = elide(shape.buffer_size, edge)
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
    grid = _fitted(lambda edge: tile_picture.tile_grid(shape, _element_name, pad, edge), TILE_EDGES)[1]
    memory = _fitted(lambda edge: [tile_picture.memory_line(shape, _element_name, pad, edge)], TILE_MEMORY_EDGES)[1]
    return [
        f"shape:          {ShapeUtil.human_string_with_layout(shape)}",
        f"layout:         {{{','.join(map(str, shape.layout.minor_to_major))}}} (minor to major), tiles {tiles}",
        "",
        f"logical array ({_extent_text(shape.dimensions)}):",
        *_picture(shape, shape.dimensions, pad),
        "",
        f"tiles {first} over the two most minor dimensions, padded to whole tiles ({pad})"
        + (", elided:" if any(GAP in line for line in grid) else ":"),
        *grid,
        "",
        f"linear memory ({_plural(size, 'element')}, | between tiles {first}"
        + ("; elided):" if GAP in memory[0] else "):"),
        *memory,
        "",
        f"tiled array:    {_extent_text(shape.tiled_dimensions)} (tile counts, then within-tile sizes)",
        f"element count:  {ShapeUtil.elements_in(shape)}",
        f"buffer size:    {_plural(size, 'element')}, tile padding included",
        f"byte size:      {_plural(ShapeUtil.byte_size_of(shape), 'byte')}",
    ]


def _describe(shape: Shape, padding: str = DEFAULT_PADDING) -> list[str]:
    """The lines ``xlashape show`` prints for ``shape``, each at most WIDTH
    columns; ``padding`` names the --padding-value whose symbol draws
    padding cells."""
    pad = PADDING[padding][1]
    if shape.layout.tiles:
        return _wrapped(_describe_tiled(shape, pad))
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
    edge, memory = _fitted(lambda edge: [_memory_line(shape, pad, edge)], MEMORY_EDGES)
    elided = f"; the first and last {edge} shown" if size > 2 * edge + 1 else ""
    lines += [
        "",
        f"linear memory ({_plural(size, 'element')}{elided}):",
        *memory,
        "",
        f"strides:        [{', '.join(map(str, shape.strides))}] elements",
        f"element count:  {ShapeUtil.elements_in(shape)}",
        f"buffer size:    {_plural(size, 'element')}, padding included",
        f"byte size:      {_plural(ShapeUtil.byte_size_of(shape), 'byte')}",
    ]
    return _wrapped(lines)


def _write(path: str, text: str) -> None:
    """``text`` into the file ``path``, or to stdout for ``-``."""
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise CommandError(f"cannot write {path}: {e.strerror or e}") from None


def _show(args: argparse.Namespace) -> int:
    shape = shape_from(args)
    if shape.is_unbounded_dynamic:
        raise CommandError(
            f"{shape} has an unbounded dimension ('?'), so no buffer to draw; "
            "give its bound instead, such as f32[<=16,3]",
            EXIT_USAGE,
        )
    if args.svg is None and args.html is None:
        print("\n".join(_describe(shape, args.padding_value or DEFAULT_PADDING)))
    if args.svg is not None:
        _write(args.svg, layout_picture.svg(shape) + "\n")
    if args.html is not None:
        _write(args.html, layout_picture.html(shape))
    return EXIT_OK
