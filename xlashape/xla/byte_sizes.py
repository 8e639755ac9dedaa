"""XLA's byte counts: an element type's width, an array's elements, its
byte strides, and ``ArraySize``'s first-tile estimate of a tiled buffer.

``ShapeUtil.byte_size_of`` counts the whole buffer, every level of tiling
followed as XLA's "Tiled layout" page defines it. XLA's own ``ArraySize``
(here :func:`array_size`) looks at the first tile only and assumes the
others add no padding; the two agree whenever that holds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from .._validate import as_int, as_int_tuple
from ..model.layout import Tile
from ..model.primitive_type import PrimitiveType
from ..shapes.shape import Shape
from ..shapes.shape_equality import require_any_shape
from ..shapes.shape_text import require_shape
from ..shapes.tuple_shape import AnyShape, TupleShape
from .layout_queries import linear_index
from .split_sizes import check_split_configs, max_split_size

__all__ = [
    "array_data_size",
    "array_size",
    "byte_size_of_elements",
    "byte_size_of_elements_recursive",
    "byte_size_of_primitive_type",
    "byte_size_of_tuple_index_table",
    "byte_strides",
    "byte_strides_is_major_to_minor",
    "element_size_in_bits",
    "unpacked_byte_strides",
]


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


def element_size_in_bits(shape: Shape) -> int:
    """Bits one element takes in the buffer: the layout's
    ``element_size_in_bits`` where it is set, else 8 times the type's byte
    size (XLA's ``ElementSizeInBits``).

    Examples
    --------
    >>> xs.ShapeUtil.element_size_in_bits("s4[8]{0:E(4)}"), xs.ShapeUtil.element_size_in_bits("s4[8]")
    (4, 8)
    """
    shape = require_shape(shape)
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


def unpacked_byte_strides(shape: Shape) -> tuple[int, ...]:
    """Each dimension's stride in bytes, each element counted at its type's
    whole byte size whatever ``element_size_in_bits`` packs it into (XLA's
    ``UnpackedByteStrides``): the byte size times the widths of the more
    minor dimensions (padded widths for a 2017 padded layout). Tiles are
    ignored, as in XLA.

    Examples
    --------
    >>> xs.ShapeUtil.unpacked_byte_strides(xs.ShapeUtil.parse_shape_string("s4[2,8]{0,1:E(4)}"))
    (1, 2)
    """
    shape = require_shape(shape)
    strides = [0] * shape.rank
    stride = byte_size_of_primitive_type(shape.element_type)
    widths = shape.padded_dimensions
    for dim in shape.layout.minor_to_major:
        strides[dim] = stride
        stride *= widths[dim]
    return tuple(strides)


def byte_strides(shape: Shape) -> tuple[int, ...] | None:
    """Each dimension's stride in bytes, as XLA's ``ByteStrides`` computes it:
    :func:`unpacked_byte_strides`, or None where the layout packs elements
    into a size that is not whole bytes (``element_size_in_bits`` not a
    multiple of 8).

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
    return unpacked_byte_strides(shape)


def array_size(shape: Shape) -> int:
    """Bytes of an array's buffer as XLA's ``ArraySize`` estimates them: only
    the first tile pads (each of the most minor dimensions it covers is
    rounded up to the tile's size there), and later tiles are assumed to
    add no padding. A ``*`` in the first tile takes the second tile's size
    at that position, or XLA's default packing ``max(1, 32 // bits)``.
    Untiled shapes give :func:`byte_size_of_elements`. As XLA's, split
    dimensions count their largest piece (``LayoutUtil.max_split_size``)
    and the count rounds up to the tail padding alignment ``L(n)``.

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
    check_split_configs(shape, "array_size")
    first = tiles[0].dimensions
    m2m = shape.layout.minor_to_major
    count = 1
    for position in range(max(len(first), shape.rank)):
        size = max_split_size(shape, m2m[position]) if position < shape.rank else 1
        if position < len(first):
            tile = first[len(first) - 1 - position]
            if tile == Tile.COMBINE:
                second = tiles[1].dimensions if len(tiles) > 1 else ()
                tile = (
                    second[len(second) - 1 - position]
                    if position < len(second)
                    else max(1, 32 // element_size_in_bits(shape))
                )
            size = -(-size // tile) * tile
        count *= size
    alignment = shape.layout.tail_padding_alignment_in_elements
    return _bytes_for(-(-count // alignment) * alignment, shape)


def array_data_size(shape: Shape) -> int:
    """Bytes up to and including the last element (the one at every index
    its dimension's size less 1), as XLA's ``ArrayDataSize`` finds its
    offset with ``LayoutUtil::LinearIndex`` (first tile only): the buffer
    less the padding after the last element. 0 for an array with no
    elements, which has no last element.

    Raises
    ------
    ValueError
        As :func:`xlashape.xla.layout_queries.linear_index`: for a 2017 padded
        layout or a first tile with ``*``.

    Examples
    --------
    >>> xs.ShapeUtil.array_data_size("f32[3,5]{1,0:T(2,2)}"), xs.ShapeUtil.array_size("f32[3,5]{1,0:T(2,2)}")
    (84, 96)
    """
    shape = require_shape(shape)
    if shape.element_count == 0:
        return 0
    return _bytes_for(linear_index(shape, [d - 1 for d in shape.dimensions]) + 1, shape)


def byte_strides_is_major_to_minor(
    byte_strides: Iterable[int], dims: Iterable[int], element_type: PrimitiveType | int | str
) -> bool:
    """Whether ``byte_strides`` are those of a dense row-major array of
    ``dims`` and ``element_type`` (XLA's
    ``LayoutUtil::ByteStridesIsMajorToMinor``), as NumPy's C order has them.

    Raises
    ------
    ValueError
        Where ``byte_strides`` and ``dims`` differ in length.

    Examples
    --------
    >>> xs.LayoutUtil.byte_strides_is_major_to_minor([12, 4], [2, 3], "f32")
    True
    >>> xs.LayoutUtil.byte_strides_is_major_to_minor(np.zeros((2, 3), np.float32).T.strides, [3, 2], "f32")
    False
    """
    strides, sizes = as_int_tuple(byte_strides, "byte_strides"), as_int_tuple(dims, "dims")
    if len(strides) != len(sizes):
        raise ValueError(
            f"byte_strides has {len(strides)} entries and dims {len(sizes)}; expected one stride per dimension"
        )
    stride = byte_size_of_primitive_type(element_type)
    for s, n in zip(reversed(strides), reversed(sizes)):
        if s != stride:
            return False
        stride *= n
    return True


def byte_size_of_elements_recursive(shape: AnyShape) -> int:
    """Bytes of the elements of every array inside ``shape``, as
    :func:`byte_size_of_elements` counts them; tokens take none (XLA's
    ``ByteSizeOfElementsRecursive``).

    Raises
    ------
    ValueError
        For an opaque value, which has no elements to count (XLA's
        ``CHECK``).

    Examples
    --------
    >>> xs.ShapeUtil.byte_size_of_elements_recursive("(f32[2,3], (s8[5], token[]))")
    29
    """
    whole = require_any_shape(shape)
    pending: list[AnyShape] = [whole]
    total = 0
    while pending:
        current = pending.pop()
        if isinstance(current, TupleShape):
            pending.extend(current)
        elif isinstance(current, Shape):
            total += byte_size_of_elements(current)
        elif current.element_type != PrimitiveType.TOKEN:
            raise ValueError(f"byte_size_of_elements_recursive: {current} has no elements to count, in {whole}")
    return total


def byte_size_of_tuple_index_table(shape: TupleShape, pointer_size: int) -> int:
    """Bytes of a tuple's table of pointers to its elements: ``pointer_size``
    times the element count (XLA's ``ByteSizeOfTupleIndexTable``).

    Raises
    ------
    TypeError
        For a shape that is not a tuple.
    ValueError
        For a ``pointer_size`` below 1.

    Examples
    --------
    >>> xs.ShapeUtil.byte_size_of_tuple_index_table("(f32[2], s8[], token[])", 8)
    24
    """
    whole = require_any_shape(shape)
    if not isinstance(whole, TupleShape):
        raise TypeError(f"byte_size_of_tuple_index_table takes a tuple shape, got {whole}")
    size = as_int(pointer_size, "pointer_size")
    if size < 1:
        raise ValueError(f"pointer_size must be > 0, got {size}")
    return size * len(whole)
