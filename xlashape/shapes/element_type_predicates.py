"""Questions about a shape's element type, as XLA's ``ShapeUtil`` asks
them: integral, floating, complex, signed, of a bit width; which of two
shapes has the type of higher precision; a complex shape's component shape.

Like XLA's, the predicates take any shape: a tuple's element type is
TUPLE, a token's TOKEN, and neither is integral, floating or complex.
"""

from __future__ import annotations

from .._validate import as_int
from ..model.primitive_type import PrimitiveType
from ..model.primitive_util import (
    bit_width,
    complex_component_type,
    higher_precision_type,
    is_complex_type,
    is_floating_point_type,
    is_integral_type,
    is_signed_integral_type,
)
from .shape import Shape
from .shape_equality import require_any_shape
from .shape_text import require_shape
from .shape_variants import change_element_type
from .tuple_shape import AnyShape, TupleShape

__all__ = [
    "complex_component_shape",
    "element_can_upcast",
    "element_has_bit_width",
    "element_is_complex",
    "element_is_floating",
    "element_is_integral",
    "element_is_integral_with_bits",
    "element_is_signed",
    "has_primitive_type",
    "higher_precision_element_type",
    "is_scalar_with_element_type",
]


def element_is_integral(shape: AnyShape) -> bool:
    """Whether the element type is an integer, signed or not (XLA's
    ``ElementIsIntegral``; PRED is not).

    Examples
    --------
    >>> xs.ShapeUtil.element_is_integral("u4[8]"), xs.ShapeUtil.element_is_integral("pred[8]")
    (True, False)
    """
    return is_integral_type(require_any_shape(shape).element_type)


def element_has_bit_width(shape: AnyShape, bits: int) -> bool:
    """Whether the shape is an array whose element type has ``bits`` bits
    (XLA's ``ElementHasBitWidth``; PRED has 1, S4 4, C64 64).

    Examples
    --------
    >>> xs.ShapeUtil.element_has_bit_width("s4[3]", 4), xs.ShapeUtil.element_has_bit_width("token[]", 0)
    (True, False)
    """
    shape, n = require_any_shape(shape), as_int(bits, "bits")
    return isinstance(shape, Shape) and bit_width(shape.element_type) == n


def element_is_integral_with_bits(shape: AnyShape, bits: int) -> bool:
    """Whether the element type is an integer of ``bits`` bits (XLA's
    ``ElementIsIntegralWithBits``).

    Examples
    --------
    >>> xs.ShapeUtil.element_is_integral_with_bits("s32[2]", 32), xs.ShapeUtil.element_is_integral_with_bits("f32[2]", 32)
    (True, False)
    """
    return element_is_integral(shape) and element_has_bit_width(shape, bits)


def element_is_signed(shape: AnyShape) -> bool:
    """Whether the element type holds negative values: a signed integer or a
    floating-point type (XLA's ``ElementIsSigned``; complex types do not
    count).

    Examples
    --------
    >>> [xs.ShapeUtil.element_is_signed(t + "[]") for t in ("s8", "u8", "bf16", "c64")]
    [True, False, True, False]
    """
    etype = require_any_shape(shape).element_type
    return is_signed_integral_type(etype) or is_floating_point_type(etype)


def element_is_complex(shape: AnyShape) -> bool:
    """Whether the element type is C64 or C128 (XLA's ``ElementIsComplex``).

    Examples
    --------
    >>> xs.ShapeUtil.element_is_complex("c128[2]"), xs.ShapeUtil.element_is_complex("f64[2]")
    (True, False)
    """
    return is_complex_type(require_any_shape(shape).element_type)


def element_is_floating(shape: AnyShape) -> bool:
    """Whether the element type is a real floating-point type (XLA's
    ``ElementIsFloating``; complex types are not).

    Examples
    --------
    >>> xs.ShapeUtil.element_is_floating("f8e4m3fn[2]"), xs.ShapeUtil.element_is_floating("c64[2]")
    (True, False)
    """
    return is_floating_point_type(require_any_shape(shape).element_type)


def has_primitive_type(shape: AnyShape, primitive_type: PrimitiveType | int | str) -> bool:
    """Whether the shape, or any shape inside its tuples, has element type
    ``primitive_type`` (XLA's ``HasPrimitiveType``; a tuple's own type is
    TUPLE).

    Examples
    --------
    >>> t = xs.ShapeUtil.parse_shape_string("(f32[2], (s8[3], token[]))")
    >>> xs.ShapeUtil.has_primitive_type(t, "s8"), xs.ShapeUtil.has_primitive_type(t, "u8")
    (True, False)
    """
    wanted = PrimitiveType.coerce(primitive_type)
    pending: list[AnyShape] = [require_any_shape(shape)]
    while pending:
        current = pending.pop()
        if current.element_type == wanted:
            return True
        if isinstance(current, TupleShape):
            pending.extend(current)
    return False


def is_scalar_with_element_type(shape: AnyShape, element_type: PrimitiveType | int | str) -> bool:
    """Whether the shape is a rank-0 array of ``element_type`` (XLA's
    ``IsScalarWithElementType``).

    Examples
    --------
    >>> xs.ShapeUtil.is_scalar_with_element_type("f32[]", "f32"), xs.ShapeUtil.is_scalar_with_element_type("f32[1]", "f32")
    (True, False)
    """
    shape, etype = require_any_shape(shape), PrimitiveType.coerce(element_type)
    return isinstance(shape, Shape) and shape.rank == 0 and shape.element_type == etype


def higher_precision_element_type(a: AnyShape, b: AnyShape) -> PrimitiveType:
    """The element type of more precision of two shapes' (XLA's
    ``HigherPrecisionElementType``): complex over real, then more range,
    more significand bits, more bits, signed over unsigned.

    Raises
    ------
    ValueError
        For two different types of the same precision (``u8`` and ``pred``
        is not such a pair; ``f8e4m3`` and ``f8e4m3fnuz`` is), or a tuple,
        token or opaque shape.

    Examples
    --------
    >>> xs.ShapeUtil.higher_precision_element_type("bf16[2]", "f16[2]")
    <PrimitiveType.BF16: 16>
    """
    return higher_precision_type(require_any_shape(a, "a").element_type, require_any_shape(b, "b").element_type)


def element_can_upcast(from_shape: AnyShape, to_shape: AnyShape) -> bool:
    """Whether ``to_shape``'s element type is the one of higher precision
    (XLA's ``ElementCanUpcast``).

    Raises
    ------
    ValueError
        As :func:`higher_precision_element_type`.

    Examples
    --------
    >>> xs.ShapeUtil.element_can_upcast("f16[2]", "f32[2]"), xs.ShapeUtil.element_can_upcast("f32[2]", "f16[2]")
    (True, False)
    """
    to_type = require_any_shape(to_shape, "to_shape").element_type
    return higher_precision_element_type(from_shape, to_shape) == to_type


def complex_component_shape(complex_shape: Shape) -> Shape:
    """The shape of a complex array's real or imaginary part: the same
    dimensions and layout with type F32 for C64, F64 for C128 (XLA's
    ``ComplexComponentShape``).

    Raises
    ------
    ValueError
        For a shape whose elements are not complex.

    Examples
    --------
    >>> print(xs.ShapeUtil.complex_component_shape("c64[3,4]{0,1}"))
    f32[3,4]{0,1}
    """
    shape = require_shape(complex_shape, "complex_shape")
    if not is_complex_type(shape.element_type):
        raise ValueError(f"complex_component_shape takes a complex shape (c64 or c128), got {shape}")
    result = change_element_type(shape, complex_component_type(shape.element_type))
    assert isinstance(result, Shape)
    return result
