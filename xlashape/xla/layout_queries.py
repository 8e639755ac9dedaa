"""XLA's ``LayoutUtil`` on one layout: constructors by order, the order
itself, consecutive dimensions, moving a dimension to the most major place,
and ``LinearIndex``'s first-tile offset."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from .._validate import as_int, as_int_tuple, as_rank
from ..errors import IndexOutOfBoundsError
from ..model.layout import Layout, Tile
from ..model.layout_edit import replace_layout
from ..shapes.shape import Shape
from ..shapes.shape_text import require_layout, require_shape

__all__ = [
    "are_dimensions_consecutive",
    "get_default_layout_for_r2",
    "get_default_layout_for_r3",
    "get_default_layout_for_r4",
    "has_ascending_layout",
    "has_descending_layout",
    "is_untiled_layout",
    "last_dim_is_minor_most",
    "layout_move_dim_to_major",
    "linear_index",
    "make_ascending_layout",
    "make_descending_layout",
    "make_layout_from_major_to_minor",
    "minor_to_major",
    "move_dim_to_minor",
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


def move_dim_to_minor(layout: Layout | Shape | str, dim: int) -> Layout:
    """The layout with dimension ``dim`` made the most minor, the others
    keeping their order and every other field kept (XLA's
    ``LayoutUtil::MoveDimToMinor``).

    Raises
    ------
    IndexError
        For a dimension not in the layout.

    Examples
    --------
    >>> print(xs.LayoutUtil.move_dim_to_minor(xs.Layout([2, 0, 1], tiles=[(8, 128)]), 1))
    {1,2,0:T(8,128)}
    """
    layout = require_layout(layout)
    d = as_int(dim, "dim")
    _positions(layout, (d,))
    return replace_layout(layout, minor_to_major=(d, *(m for m in layout.minor_to_major if m != d)))


def last_dim_is_minor_most(layout: Layout | Shape | str) -> bool:
    """Whether the last dimension is the most minor, as in the default
    layout (true for a rank-0 layout, which has no dimension to misplace).

    Examples
    --------
    >>> xs.LayoutUtil.last_dim_is_minor_most(xs.Layout([2, 0, 1])), xs.LayoutUtil.last_dim_is_minor_most(xs.Layout([0, 2, 1]))
    (True, False)
    """
    order = require_layout(layout).minor_to_major
    return not order or order[0] == len(order) - 1


def is_untiled_layout(layout: Layout | Shape | str) -> bool:
    """Whether the layout has no tiles (``T(...)``): elements lie in the
    order ``minor_to_major`` gives, with no tile padding.

    Examples
    --------
    >>> xs.LayoutUtil.is_untiled_layout(xs.Layout([1, 0])), xs.LayoutUtil.is_untiled_layout(xs.Layout([1, 0], tiles=[(8, 128)]))
    (True, False)
    """
    return not require_layout(layout).tiles



def get_default_layout_for_r2() -> Layout:
    """``{1,0}`` (XLA's ``GetDefaultLayoutForR2``).

    Examples
    --------
    >>> print(xs.LayoutUtil.get_default_layout_for_r2())
    {1,0}
    """
    return make_descending_layout(2)


def get_default_layout_for_r3() -> Layout:
    """``{2,1,0}`` (XLA's ``GetDefaultLayoutForR3``).

    Examples
    --------
    >>> print(xs.LayoutUtil.get_default_layout_for_r3())
    {2,1,0}
    """
    return make_descending_layout(3)


def get_default_layout_for_r4() -> Layout:
    """``{3,2,1,0}`` (XLA's ``GetDefaultLayoutForR4``).

    Examples
    --------
    >>> print(xs.LayoutUtil.get_default_layout_for_r4())
    {3,2,1,0}
    """
    return make_descending_layout(4)


def has_descending_layout(layout: Layout | Shape | str) -> bool:
    """Whether ``minor_to_major`` is descending, ``{n-1,...,0}`` (XLA's
    ``HasDescendingLayout``).

    Examples
    --------
    >>> xs.LayoutUtil.has_descending_layout(xs.Layout([2, 1, 0])), xs.LayoutUtil.has_descending_layout(xs.Layout([0, 1]))
    (True, False)
    """
    order = require_layout(layout).minor_to_major
    return all(a > b for a, b in itertools.pairwise(order))


def has_ascending_layout(layout: Layout | Shape | str) -> bool:
    """Whether ``minor_to_major`` is ascending, ``{0,...,n-1}`` (XLA's
    ``HasAscendingLayout``).

    Examples
    --------
    >>> xs.LayoutUtil.has_ascending_layout(xs.Layout([0, 1])), xs.LayoutUtil.has_ascending_layout(xs.Layout([1, 0]))
    (True, False)
    """
    order = require_layout(layout).minor_to_major
    return all(a < b for a, b in itertools.pairwise(order))
