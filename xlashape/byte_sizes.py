"""XLA's byte counts: an element type's width, an array's elements, its
byte strides, and ``ArraySize``'s first-tile estimate of a tiled buffer.

``ShapeUtil.byte_size_of`` counts the whole buffer, every level of tiling
followed as XLA's "Tiled layout" page defines it. XLA's own ``ArraySize``
(here :func:`array_size`) looks at the first tile only and assumes the
others add no padding; the two agree whenever that holds.
"""

from __future__ import annotations

import math

from .layout import Tile
from .primitive_type import PrimitiveType
from .shape import Shape, require_shape

__all__ = ["array_size", "byte_size_of_elements", "byte_size_of_primitive_type", "byte_strides"]


def byte_size_of_primitive_type(primitive_type: PrimitiveType | int | str) -> int:
    """Bytes per element of a type (XLA's ``ByteSizeOfPrimitiveType``): 1 for
    PRED and the sub-byte types, 0 for TOKEN.

    Raises
    ------
    ValueError
        For TUPLE and OPAQUE, which have no element size (XLA aborts).

    Examples
    --------
    >>> xs.ShapeUtil.byte_size_of_primitive_type("c64"), xs.ShapeUtil.byte_size_of_primitive_type("token")
    (8, 0)
    """
    etype = PrimitiveType.coerce(primitive_type)
    if etype == PrimitiveType.TOKEN:
        return 0
    size = etype.byte_size
    if size is None:
        raise ValueError(f"{etype.name} has no element byte size; only array types and TOKEN do")
    return size


def _element_bits(shape: Shape) -> int:
    """XLA's ``ElementSizeInBits``: the layout's packed size, else the type's."""
    bits = shape.layout.element_size_in_bits
    return bits if bits else 8 * byte_size_of_primitive_type(shape.element_type)


def _bytes_for(elements: int, shape: Shape) -> int:
    """``elements`` of ``shape``'s type, packed as its layout says, in whole bytes."""
    bits = shape.layout.element_size_in_bits
    if bits:
        return -(-elements * bits // 8)
    return elements * byte_size_of_primitive_type(shape.element_type)


def byte_size_of_elements(shape: Shape) -> int:
    """Bytes of an array's elements (XLA's ``ByteSizeOfElements``): the
    element count, or the product of the padded widths of a 2017 padded
    layout, times the element size, packed sub-byte elements rounded up to
    a whole byte. Tiles are not counted, as in XLA: see ``byte_size_of``
    for the whole tiled buffer and :func:`array_size` for XLA's estimate.

    Examples
    --------
    >>> xs.ShapeUtil.byte_size_of_elements(xs.Shape("f32", [10, 20]))
    800
    >>> tiled = xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T(2,2)}")
    >>> xs.ShapeUtil.byte_size_of_elements(tiled), xs.ShapeUtil.byte_size_of(tiled)
    (60, 96)
    """
    shape = require_shape(shape)
    return _bytes_for(math.prod(shape.padded_dimensions), shape)


def byte_strides(shape: Shape) -> tuple[int, ...] | None:
    """Each dimension's stride in bytes, as XLA's ``ByteStrides`` computes it:
    the element type's byte size times the widths of the more minor
    dimensions (padded widths for a 2017 padded layout). None where the
    layout packs elements into a size that is not whole bytes
    (``element_size_in_bits`` not a multiple of 8).

    Like XLA's, it ignores tiling: for a tiled layout these are the strides
    of the untiled array, not steps in its buffer (``Shape.byte_strides``
    refuses tiled shapes instead).

    Examples
    --------
    >>> xs.ShapeUtil.byte_strides(xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}"))
    (4, 8)
    >>> print(xs.ShapeUtil.byte_strides(xs.ShapeUtil.parse_shape_string("s4[8]{0:E(4)}")))
    None
    """
    shape = require_shape(shape)
    if shape.layout.element_size_in_bits % 8:
        return None
    strides = [0] * shape.rank
    stride = byte_size_of_primitive_type(shape.element_type)
    widths = shape.padded_dimensions
    for dim in shape.layout.minor_to_major:
        strides[dim] = stride
        stride *= widths[dim]
    return tuple(strides)


def array_size(shape: Shape) -> int:
    """Bytes of an array's buffer as XLA's ``ArraySize`` estimates them: only
    the first tile pads (each of the most minor dimensions it covers is
    rounded up to the tile's size there), and later tiles are assumed to
    add no padding. A ``*`` in the first tile takes the second tile's size
    at that position, or XLA's default packing ``max(1, 32 // bits)``.
    Untiled shapes give :func:`byte_size_of_elements`.

    ``ShapeUtil.byte_size_of`` follows every tile instead, as the tiled
    layout page defines the buffer; the two differ where a later tile pads
    what the first did not, as ``T(2,3)(2,2)`` below.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T(2,2)}")
    >>> xs.ShapeUtil.array_size(shape)
    96
    >>> nested = xs.ShapeUtil.parse_shape_string("f32[2,3]{1,0:T(2,3)(2,2)}")
    >>> xs.ShapeUtil.array_size(nested), xs.ShapeUtil.byte_size_of(nested)
    (24, 32)
    """
    shape = require_shape(shape)
    tiles = shape.layout.tiles
    if not tiles:
        return byte_size_of_elements(shape)
    first = tiles[0].dimensions
    m2m = shape.layout.minor_to_major
    count = 1
    for position in range(max(len(first), shape.rank)):
        size = shape.dimensions[m2m[position]] if position < shape.rank else 1
        if position < len(first):
            tile = first[len(first) - 1 - position]
            if tile == Tile.COMBINE:
                second = tiles[1].dimensions if len(tiles) > 1 else ()
                tile = (
                    second[len(second) - 1 - position]
                    if position < len(second)
                    else max(1, 32 // _element_bits(shape))
                )
            size = -(-size // tile) * tile
        count *= size
    return _bytes_for(count, shape)
