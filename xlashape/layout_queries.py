"""XLA's ``LayoutUtil`` on one layout: constructors by order, the order
itself, consecutive dimensions, moving a dimension to the most major place,
and ``LinearIndex``'s first-tile offset."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from ._validate import as_int, as_int_tuple, as_rank
from .errors import IndexOutOfBoundsError
from .layout import Layout, Tile
from .layout_edit import replace_layout
from .shape import Shape, require_layout, require_shape

__all__ = [
    "are_dimensions_consecutive",
    "layout_move_dim_to_major",
    "linear_index",
    "make_ascending_layout",
    "make_descending_layout",
    "make_layout_from_major_to_minor",
    "minor_to_major",
]


def make_layout_from_major_to_minor(major_to_minor: Iterable[int]) -> Layout:
    """A layout from its dimensions most major first, as JAX and NumPy list
    them (XLA's ``MakeLayoutFromMajorToMinor``).

    Examples
    --------
    >>> xs.LayoutUtil.make_layout_from_major_to_minor([0, 2, 1])
    Layout(minor_to_major=(1, 2, 0))
    """
    return Layout.from_major_to_minor(major_to_minor)


def make_descending_layout(rank: int) -> Layout:
    """``{rank-1,...,1,0}``: dimension 0 most major (XLA's
    ``MakeDescendingLayout``).

    Examples
    --------
    >>> xs.LayoutUtil.make_descending_layout(3)
    Layout(minor_to_major=(2, 1, 0))
    """
    return Layout(range(as_rank(rank) - 1, -1, -1))


def make_ascending_layout(rank: int) -> Layout:
    """``{0,1,...,rank-1}``: dimension 0 most minor, as Fortran order (XLA's
    ``MakeAscendingLayout``).

    Examples
    --------
    >>> xs.LayoutUtil.make_ascending_layout(3)
    Layout(minor_to_major=(0, 1, 2))
    """
    return Layout(range(as_rank(rank)))


def minor_to_major(shape_or_layout: Shape | Layout | str) -> tuple[int, ...]:
    """The ``minor_to_major`` of a layout, or of an array shape's layout
    (XLA's ``MinorToMajor``).

    Examples
    --------
    >>> xs.LayoutUtil.minor_to_major(xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}"))
    (0, 1)
    """
    return require_layout(shape_or_layout, "shape_or_layout").minor_to_major


def _positions(layout: Layout, dims: Iterable[int]) -> list[int]:
    order = layout.minor_to_major
    positions = []
    for d in as_int_tuple(dims, "dims", per_dimension=True):
        if d not in order:
            raise IndexOutOfBoundsError(f"dimension {d} is not in layout {layout}")
        positions.append(order.index(d))
    return positions


def are_dimensions_consecutive(layout: Layout | Shape | str, dims: Iterable[int]) -> bool:
    """Whether the given dimensions sit next to each other in the layout's
    order, in any order among themselves (XLA's
    ``AreDimensionsConsecutive``). ``layout`` may be a shape (or shape
    text), whose layout is meant.

    Examples
    --------
    >>> layout = xs.Layout([2, 0, 1, 3])
    >>> xs.LayoutUtil.are_dimensions_consecutive(layout, [1, 0]), xs.LayoutUtil.are_dimensions_consecutive(layout, [2, 1])
    (True, False)
    """
    positions = sorted(_positions(require_layout(layout), dims))
    return all(b - a == 1 for a, b in itertools.pairwise(positions))


def layout_move_dim_to_major(layout: Layout | Shape | str, dim: int) -> Layout:
    """The layout with dimension ``dim`` made the most major, the others
    keeping their order and every other field kept (XLA's
    ``LayoutUtil::MoveDimToMajor``; ``ShapeUtil.move_dim_to_major`` drops
    the other fields, as XLA's does). ``layout`` may be a shape (or shape
    text), whose layout is moved.

    Examples
    --------
    >>> print(xs.LayoutUtil.move_dim_to_major(xs.Layout([2, 0, 1], tiles=[(8, 128)]), 0))
    {2,1,0:T(8,128)}
    """
    layout = require_layout(layout)
    d = as_int(dim, "dim")
    _positions(layout, (d,))
    order = tuple(m for m in layout.minor_to_major if m != d) + (d,)
    return replace_layout(layout, minor_to_major=order)


def linear_index(shape: Shape, indices: Iterable[int]) -> int:
    """The offset of a multi-index as XLA's ``LayoutUtil::LinearIndex``
    computes it: from the first tile only, every later tile ignored, and a
    rank-1 shape's index returned as it is.

    This is XLA's fast estimate, not the full tiled offset:
    ``IndexUtil.multidimensional_index_to_linear_index`` follows every tile
    (and ``ravel`` every row of a batch), as the tiled layout page defines
    the buffer. The two agree for untiled shapes and single-tile layouts of
    rank 2 and more; they differ where later tiles reorder elements inside
    the first, as ``T(2,2)(2,1)`` does, and for rank-1 tiled shapes. A
    first tile with ``*`` is refused (ValueError): XLA multiplies the -1
    into its offsets. So is a 2017 padded layout, which XLA never had.

    Raises
    ------
    IndexOutOfBoundsError
        For an index of the wrong length or outside the shape.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[4,4]{1,0:T(2,2)(2,1)}")
    >>> xs.LayoutUtil.linear_index(shape, [1, 2]), xs.IndexUtil.multidimensional_index_to_linear_index(shape, [1, 2])
    (6, 5)
    """
    shape = require_shape(shape)
    index = as_int_tuple(indices, "indices", per_dimension=True)
    if len(index) != shape.rank or not all(0 <= i < n for i, n in zip(index, shape.dimensions)):
        raise IndexOutOfBoundsError(
            f"index {list(index)} is not inside shape {shape}: expected {shape.rank} "
            f"entries, each in [0, size) for sizes {list(shape.dimensions)}"
        )
    layout = shape.layout
    if layout.padded_dimensions:
        raise ValueError(f"linear_index follows XLA's layouts, which have no 2017 padding: {shape}")
    if shape.rank == 0:
        return 0
    if shape.rank == 1:
        return index[0]
    tile = layout.tiles[0].dimensions if layout.tiles else ()
    if Tile.COMBINE in tile:
        raise ValueError(f"linear_index: XLA's first-tile offset is not defined for a tile with '*': {shape}")
    offset, tile_multiplier, within_multiplier = 0, 1, 1
    for size in tile:
        tile_multiplier *= size
    for position, dim in enumerate(layout.minor_to_major):
        size, value = shape.dimensions[dim], index[dim]
        if position < len(tile):
            tile_size = tile[len(tile) - 1 - position]
            offset += tile_multiplier * (value // tile_size) + within_multiplier * (value % tile_size)
            tile_multiplier *= -(-size // tile_size)
            within_multiplier *= tile_size
        else:
            offset += value * tile_multiplier
            tile_multiplier *= size
    return offset
