"""Classes of element types and their precision order, as XLA's
``primitive_util`` namespace has them: integral (signed or not), floating
point, complex, and ``HigherPrecisionType``, which the ``ShapeUtil``
predicates on element types are built on.

PRED is neither integral nor floating point, as in XLA.
"""

from __future__ import annotations

from .primitive_type import PrimitiveType

__all__ = [
    "bit_width",
    "complex_component_type",
    "higher_precision_type",
    "is_complex_type",
    "is_floating_point_type",
    "is_integral_type",
    "is_signed_integral_type",
    "is_sub_byte_non_pred_type",
    "is_unsigned_integral_type",
]

T = PrimitiveType

_SIGNED = frozenset({T.S1, T.S2, T.S4, T.S8, T.S16, T.S32, T.S64})
_UNSIGNED = frozenset({T.U1, T.U2, T.U4, T.U8, T.U16, T.U32, T.U64})
_COMPONENT = {T.C64: T.F32, T.C128: T.F64}

# A floating-point type's range and precision, as numeric_limits gives them
# (max_exponent, digits) and XLA's OverflowExponent and SignificandWidth
# read them; the precision order compares range first.
_FLOAT_LIMITS = {
    T.F64: (1024, 53),
    T.F32: (128, 24),
    T.BF16: (128, 8),
    T.F16: (16, 11),
    T.F8E5M2: (16, 3),
    T.F8E4M3FN: (9, 4),
    T.F8E4M3B11FNUZ: (5, 4),
    T.F8E5M2FNUZ: (16, 3),
    T.F8E4M3FNUZ: (8, 4),
    T.F8E4M3: (8, 4),
    T.F8E3M4: (4, 5),
    T.F4E2M1FN: (3, 2),
    T.F8E8M0FNU: (128, 1),
}


def is_signed_integral_type(element_type: PrimitiveType | int | str) -> bool:
    """Whether the type is a signed integer (S1 to S64; XLA's
    ``IsSignedIntegralType``).

    Examples
    --------
    >>> from xlashape.model.primitive_util import is_signed_integral_type
    >>> is_signed_integral_type("s4"), is_signed_integral_type("u8")
    (True, False)
    """
    return PrimitiveType.coerce(element_type) in _SIGNED


def is_unsigned_integral_type(element_type: PrimitiveType | int | str) -> bool:
    """Whether the type is an unsigned integer (U1 to U64; XLA's
    ``IsUnsignedIntegralType``).

    Examples
    --------
    >>> from xlashape.model.primitive_util import is_unsigned_integral_type
    >>> is_unsigned_integral_type("u2"), is_unsigned_integral_type("pred")
    (True, False)
    """
    return PrimitiveType.coerce(element_type) in _UNSIGNED


def is_integral_type(element_type: PrimitiveType | int | str) -> bool:
    """Whether the type is an integer, signed or not (XLA's
    ``IsIntegralType``; PRED is not).

    Examples
    --------
    >>> from xlashape.model.primitive_util import is_integral_type
    >>> is_integral_type("s32"), is_integral_type("pred")
    (True, False)
    """
    t = PrimitiveType.coerce(element_type)
    return t in _SIGNED or t in _UNSIGNED


def is_floating_point_type(element_type: PrimitiveType | int | str) -> bool:
    """Whether the type is a real floating-point type, F4 to F64 (XLA's
    ``IsFloatingPointType``; complex types are not).

    Examples
    --------
    >>> from xlashape.model.primitive_util import is_floating_point_type
    >>> is_floating_point_type("bf16"), is_floating_point_type("c64")
    (True, False)
    """
    return PrimitiveType.coerce(element_type) in _FLOAT_LIMITS


def is_complex_type(element_type: PrimitiveType | int | str) -> bool:
    """Whether the type is C64 or C128 (XLA's ``IsComplexType``).

    Examples
    --------
    >>> from xlashape.model.primitive_util import is_complex_type
    >>> is_complex_type("c128"), is_complex_type("f64")
    (True, False)
    """
    return PrimitiveType.coerce(element_type) in _COMPONENT


def complex_component_type(complex_type: PrimitiveType | int | str) -> PrimitiveType:
    """The type of a complex type's real and imaginary parts: F32 for C64,
    F64 for C128 (XLA's ``ComplexComponentType``).

    Raises
    ------
    ValueError
        For a type that is not complex.

    Examples
    --------
    >>> from xlashape.model.primitive_util import complex_component_type
    >>> complex_component_type("c64")
    <PrimitiveType.F32: 11>
    """
    t = PrimitiveType.coerce(complex_type)
    if t not in _COMPONENT:
        raise ValueError(f"Primitive type is not complex: {t.name}; expected C64 or C128")
    return _COMPONENT[t]


def is_sub_byte_non_pred_type(element_type: PrimitiveType | int | str) -> bool:
    """Whether the type is narrower than a byte and not PRED: S1 to S4, U1
    to U4, F4E2M1FN (XLA's ``IsSubByteNonPredType``).

    Examples
    --------
    >>> from xlashape.model.primitive_util import is_sub_byte_non_pred_type
    >>> is_sub_byte_non_pred_type("s4"), is_sub_byte_non_pred_type("pred")
    (True, False)
    """
    t = PrimitiveType.coerce(element_type)
    return t.is_array and t != PrimitiveType.PRED and bit_width(t) < 8


def bit_width(element_type: PrimitiveType | int | str) -> int:
    """Bits of information in one element (XLA's ``primitive_util::BitWidth``):
    1 for PRED, 4 for S4, 32 for F32.

    Raises
    ------
    ValueError
        For a type that is not an array element type.

    Examples
    --------
    >>> from xlashape.model.primitive_util import bit_width
    >>> bit_width("pred"), bit_width("s4"), bit_width("c64")
    (1, 4, 64)
    """
    t = PrimitiveType.coerce(element_type)
    bits = t.bit_width
    if bits is None:
        raise ValueError(f"{t.name} is not an array element type: it has no bit width")
    return bits


def _precision_key(t: PrimitiveType) -> tuple[bool, int, int, int, bool]:
    """XLA's order of precision: complex first, then range, significand
    width, bit width, and signed over unsigned."""
    component = _COMPONENT.get(t, t)
    overflow, digits = _FLOAT_LIMITS.get(component, (-1, -1))
    return (t in _COMPONENT, overflow, digits, bit_width(component), component in _SIGNED)


def higher_precision_type(a: PrimitiveType | int | str, b: PrimitiveType | int | str) -> PrimitiveType:
    """The type of more precision (XLA's ``HigherPrecisionType``): complex
    over real, then more range, more significand bits, more bits, and
    signed over unsigned.

    Raises
    ------
    ValueError
        For two different types that tie (XLA's ``CHECK_EQ(a, b)``), or a
        type that is not an array element type.

    Examples
    --------
    >>> from xlashape.model.primitive_util import higher_precision_type
    >>> higher_precision_type("bf16", "f16"), higher_precision_type("s8", "f16")
    (<PrimitiveType.BF16: 16>, <PrimitiveType.F16: 10>)
    """
    ta, tb = PrimitiveType.coerce(a), PrimitiveType.coerce(b)
    ka, kb = _precision_key(ta), _precision_key(tb)
    if ka != kb:
        return ta if ka > kb else tb
    if ta != tb:
        raise ValueError(
            f"{ta.name} and {tb.name} have the same precision and are different "
            "types: neither is higher"
        )
    return ta
