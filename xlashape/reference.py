"""A plain-Python implementation of the spec, the oracle and the fallback.

Written straight from "Shapes and Layout", with Python's unbounded ints and no
NumPy: the linear index is built by Horner's rule from the most major
dimension down (no strides), and a linear index is taken apart by repeated
division from the most minor dimension up. The tests compare every fast path
against it; the fast paths call it to produce their error messages and to
handle anything they do not (Python ints outside int64, non-integers).

``linear_index_of``, ``multi_index_at``, ``linear_values`` and
``buffer_size`` take a Shape, as the public functions do: they are the
tests' oracle. ``linear_index`` and ``multi_index`` are their untiled
arithmetic on the dimension sizes, the layout's ``minor_to_major`` and the
padded widths, which the compiled layout plans (holding just those three)
call for their error messages. The Shape forms cover tiled layouts too,
written from XLA's "Tiled layout" page: each tile pads, reshapes and transposes the array so
far (tiles first, then within-tile indices, ``*`` combining a dimension
with the next more minor one), and the offset is the row-major index in the
final array. Unravel undoes the tiles one by one, last first, and refuses
an offset whose position at some step lies past the extent before that
step: tile padding.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ._validate import as_int
from .errors import (
    index_out_of_bounds,
    linear_index_on_padding,
    linear_index_on_tile_padding,
    linear_index_out_of_bounds,
)

if TYPE_CHECKING:
    from .model.layout import Tile
    from .shapes.shape import Shape

__all__ = [
    "buffer_size",
    "check_length",
    "linear_index",
    "linear_index_of",
    "linear_values",
    "multi_index",
    "multi_index_at",
]


def _at_row(row: int | None) -> str:
    return "" if row is None else f" at row {row} of the batch"


def check_length(multi_index: Sequence[object], rank: int, row: int | None = None) -> None:
    """ValueError unless a multi-index has one entry per dimension."""
    if len(multi_index) != rank:
        raise ValueError(
            f"multi-index {tuple(multi_index)!r}{_at_row(row)} has "
            f"{len(multi_index)} entries, but the shape is rank {rank}"
        )


def linear_index(
    dimensions: Sequence[int],
    minor_to_major: Sequence[int],
    widths: Sequence[int],
    multi_index: Sequence[object],
    row: int | None = None,
) -> int:
    """The position of ``multi_index`` in the linear buffer."""
    check_length(multi_index, len(dimensions), row)
    index = tuple(as_int(v, f"entry {j} of the multi-index") for j, v in enumerate(multi_index))
    for dim, (value, size) in enumerate(zip(index, dimensions)):
        if not 0 <= value < size:
            raise index_out_of_bounds(value, dim, size, index, row)
    linear = 0
    for dim in reversed(minor_to_major):
        linear = linear * widths[dim] + index[dim]
    return linear


def multi_index(
    dimensions: Sequence[int],
    minor_to_major: Sequence[int],
    widths: Sequence[int],
    linear_index: object,
    row: int | None = None,
) -> tuple[int, ...]:
    """The multi-index stored at ``linear_index``; an error on padding."""
    start = as_int(linear_index, "linear index")
    size = math.prod(widths)
    if not 0 <= start < size:
        raise linear_index_out_of_bounds(start, size, row)
    index = [0] * len(dimensions)
    rest = start
    for dim in minor_to_major:
        rest, position = divmod(rest, widths[dim])
        if position >= dimensions[dim]:
            raise linear_index_on_padding(start, dim, position, dimensions[dim], widths[dim], row)
        index[dim] = position
    return tuple(index)


# -- any layout, tiled included, from a Shape ------------------------------
def _checked_index(shape: Shape, multi_index: Sequence[object], row: int | None) -> tuple[int, ...]:
    check_length(multi_index, shape.rank, row)
    index = tuple(as_int(v, f"entry {j} of the multi-index") for j, v in enumerate(multi_index))
    for dim, (value, size) in enumerate(zip(index, shape.dimensions)):
        if not 0 <= value < size:
            raise index_out_of_bounds(value, dim, size, index, row)
    return index


def _tile_step(coords: list[int], extents: list[int], sizes: tuple[int, ...]) -> list[tuple[object, ...]]:
    """Apply one tile, in place, as the page's pad-reshape-transpose does.
    Returns what undoing it needs: the combines and the tiled extents."""
    undo: list[tuple[object, ...]] = []
    while len(extents) < len(sizes):  # a tile longer than the rank: leading 1s
        extents.insert(0, 1)
        coords.insert(0, 0)
        undo.append(("lead",))
    k = len(sizes)
    first = len(extents) - k
    kept: list[int] = []
    position = first
    for size in sizes:
        if size == -1:  # '*': merge this dimension into the next more minor one
            undo.append(("combine", position, extents[position + 1]))
            coords[position + 1] += coords[position] * extents[position + 1]
            extents[position + 1] *= extents[position]
            del coords[position], extents[position]
        else:
            kept.append(size)
            position += 1
    tiled = extents[first:]
    undo.append(("tile", tuple(kept), tuple(tiled)))
    outer = [c // t for c, t in zip(coords[first:], kept)]
    inner = [c % t for c, t in zip(coords[first:], kept)]
    coords[first:] = outer + inner
    extents[first:] = [-(-e // t) for e, t in zip(tiled, kept)] + kept
    return undo


def _physical(shape: Shape, index: Sequence[int]) -> tuple[list[int], list[int]]:
    order = list(reversed(shape.layout.minor_to_major))
    return [index[d] for d in order], [shape.dimensions[d] for d in order]


def _final_extents(shape: Shape) -> list[int]:
    coords, extents = _physical(shape, [0] * shape.rank)
    for tile in shape.layout.tiles:
        _tile_step(coords, extents, tile.dimensions)
    return extents


def buffer_size(shape: Shape) -> int:
    """Elements in the shape's buffer: padded widths, or whole tiles."""
    if not shape.layout.tiles:
        return math.prod(shape.padded_dimensions)
    return math.prod(_final_extents(shape))


def linear_index_of(shape: Shape, multi_index: Sequence[object], row: int | None = None) -> int:
    """The position of ``multi_index`` in ``shape``'s buffer, any layout."""
    tiles: tuple[Tile, ...] = shape.layout.tiles
    if not tiles:
        return linear_index(
            shape.dimensions, shape.layout.minor_to_major, shape.padded_dimensions, multi_index, row
        )
    coords, extents = _physical(shape, _checked_index(shape, multi_index, row))
    for tile in tiles:
        _tile_step(coords, extents, tile.dimensions)
    linear = 0
    for coord, extent in zip(coords, extents):
        linear = linear * extent + coord
    return linear


def multi_index_at(shape: Shape, linear_index: object, row: int | None = None) -> tuple[int, ...]:
    """The multi-index stored at ``linear_index`` in ``shape``'s buffer, any
    layout; IndexOutOfBoundsError outside the buffer or on padding."""
    tiles: tuple[Tile, ...] = shape.layout.tiles
    if not tiles:
        return multi_index(
            shape.dimensions, shape.layout.minor_to_major, shape.padded_dimensions, linear_index, row
        )
    start = as_int(linear_index, "linear index")
    coords, extents = _physical(shape, [0] * shape.rank)
    steps = [_tile_step(coords, extents, tile.dimensions) for tile in tiles]
    size = math.prod(extents)
    if not 0 <= start < size:
        raise linear_index_out_of_bounds(start, size, row)
    rest = start
    for k in range(len(extents) - 1, -1, -1):
        rest, coords[k] = divmod(rest, extents[k])
    for number in range(len(steps) - 1, -1, -1):
        for action in reversed(steps[number]):
            _undo(action, coords, start, row, number, tiles[number])
    order = list(reversed(shape.layout.minor_to_major))
    index = [0] * shape.rank
    for dim, coord in zip(order, coords):
        index[dim] = coord
    return tuple(index)


def _undo(action: tuple[Any, ...], coords: list[int], start: int, row: int | None, number: int, tile: Tile) -> None:
    """Undo one step of tile ``number``, refusing positions in its padding."""
    if action[0] == "tile":
        _, sizes, tiled = action
        k = len(sizes)
        first = len(coords) - 2 * k
        outer, inner = coords[first : first + k], coords[first + k :]
        merged = [o * t + i for o, i, t in zip(outer, inner, sizes)]
        for j, (value, extent) in enumerate(zip(merged, tiled)):
            if value >= extent:
                raise linear_index_on_tile_padding(
                    start,
                    f"undoing tile {number} {tile} puts the {_ordinal(j)} dimension it "
                    f"tiles at {value}, past that dimension's extent {extent}",
                    row,
                )
        coords[first:] = merged
    elif action[0] == "combine":
        _, position, minor_extent = action
        high, low = divmod(coords[position], minor_extent)
        coords[position : position + 1] = [high, low]
    else:  # "lead": a leading dimension of size 1 that the tile added
        if coords[0] != 0:
            raise linear_index_on_tile_padding(
                start,
                f"tile {number} {tile} has more dimensions than the array, and "
                f"undoing it puts the added dimension of size 1 at {coords[0]}",
                row,
            )
        del coords[0]


def _ordinal(k: int) -> str:
    return {0: "first", 1: "second", 2: "third"}.get(k, f"{k + 1}th")


def linear_values(shape: Shape, values: Sequence[object], fill: object = 0) -> list[object]:
    """Lay out ``values`` (the array in row-major order) in ``shape``'s
    buffer, any layout; padding positions hold ``fill``."""
    buffer = [fill] * buffer_size(shape)
    positions = itertools.product(*(range(size) for size in shape.dimensions))
    for index, value in zip(positions, values, strict=True):
        buffer[linear_index_of(shape, index)] = value
    return buffer
