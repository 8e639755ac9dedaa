"""New shapes from old, as XLA's ``ShapeUtil`` makes them: the descending
layout, the same memory with a descending layout, static dimensions, and
another element type."""

from __future__ import annotations

from collections.abc import Iterable

from ..model.layout_edit import replace_layout
from ..model.primitive_type import PrimitiveType
from ..model.primitive_util import is_sub_byte_non_pred_type
from .shape import Shape
from .shape_equality import require_any_shape
from .shape_text import require_shape
from .tuple_shape import AnyShape, NonArrayShape, TupleShape

__all__ = [
    "change_element_type",
    "make_shape_with_descending_layout",
    "make_scalar_shape",
    "make_shape_with_descending_layout_and_same_physical_layout",
    "make_static_shape",
]


def make_shape_with_descending_layout(
    element_type: PrimitiveType | int | str, dimensions: Iterable[int]
) -> Shape:
    """A shape with the layout ``{n-1,...,1,0}``: dimension 0 most major,
    as NumPy's C order (XLA's ``MakeShapeWithDescendingLayout``).

    Examples
    --------
    >>> print(xs.ShapeUtil.make_shape_with_descending_layout("f32", [2, 3, 4]))
    f32[2,3,4]{2,1,0}
    """
    return Shape(element_type, dimensions)


def make_scalar_shape(element_type: PrimitiveType | int | str) -> Shape:
    """The rank-0 array shape of ``element_type`` (XLA's ``MakeScalarShape``).

    Examples
    --------
    >>> print(xs.ShapeUtil.make_scalar_shape("bf16"))
    bf16[]
    """
    return Shape(element_type, ())


def make_shape_with_descending_layout_and_same_physical_layout(shape: Shape) -> Shape:
    """The shape whose dimensions are ``shape``'s in physical order, most
    major first, with the descending layout: the same memory, read as a
    row-major array (XLA's
    ``MakeShapeWithDescendingLayoutAndSamePhysicalLayout``). Tiles, element
    size, memory space, dynamic flags and 2017 padded widths follow their
    dimensions.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3,5,7]{0,3,2,1}")
    >>> print(xs.ShapeUtil.make_shape_with_descending_layout_and_same_physical_layout(shape))
    f32[3,5,7,2]{3,2,1,0}
    """
    shape = require_shape(shape)
    layout = shape.layout
    order = layout.major_to_minor
    return Shape(
        shape.element_type,
        (shape.dimensions[d] for d in order),
        replace_layout(
            layout,
            minor_to_major=range(shape.rank - 1, -1, -1),
            padded_dimensions=tuple(layout.padded_dimensions[d] for d in order) if layout.padded_dimensions else (),
        ),
        tuple(shape.dynamic_dimensions[d] for d in order),
    )


def make_static_shape(shape: AnyShape) -> AnyShape:
    """The shape with every dimension static, through tuples (XLA's
    ``MakeStaticShape``); a bound becomes the dimension's size.

    Examples
    --------
    >>> print(xs.ShapeUtil.make_static_shape(xs.ShapeUtil.parse_shape_string("(f32[<=16,3], token[])")))
    (f32[16,3]{1,0}, token[])
    """
    shape = require_any_shape(shape)
    if isinstance(shape, TupleShape):
        return TupleShape(make_static_shape(s) for s in shape)
    if isinstance(shape, NonArrayShape):
        return shape
    return Shape(shape.element_type, shape.dimensions, shape.layout)


def change_element_type(shape: Shape | TupleShape, element_type: PrimitiveType | int | str) -> Shape | TupleShape:
    """The shape with another element type, every array of a tuple alike
    (XLA's ``ChangeElementType``). As in XLA, the layout's
    ``element_size_in_bits`` is reset to 0 unless the new type is a
    sub-byte type other than PRED (S4, U2...), which keeps it.

    Raises
    ------
    ValueError
        For a token or opaque shape, inside a tuple or not, and for a type
        that no array holds: XLA would turn them into arrays.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("s4[8]{0:E(4)}")
    >>> print(xs.ShapeUtil.change_element_type(shape, "u4"), xs.ShapeUtil.change_element_type(shape, "s8"))
    u4[8]{0:E(4)} s8[8]{0}
    """
    etype = PrimitiveType.coerce(element_type)
    whole = require_any_shape(shape)
    if isinstance(whole, TupleShape):
        return TupleShape(change_element_type(s, etype) for s in whole)  # type: ignore[arg-type]
    if isinstance(whole, NonArrayShape):
        raise ValueError(f"change_element_type changes arrays' element types, got {whole}")
    if not etype.is_array:
        raise ValueError(f"{etype.name} is not an array element type")
    layout = whole.layout
    if not is_sub_byte_non_pred_type(etype) and layout.element_size_in_bits:
        layout = replace_layout(layout, element_size_in_bits=0)
    return Shape(etype, whole.dimensions, layout, whole.dynamic_dimensions)
