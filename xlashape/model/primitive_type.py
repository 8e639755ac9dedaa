"""XLA's element types and padding values, with their NumPy counterparts."""

from __future__ import annotations

import difflib
import enum
import re
import warnings

import numpy as np

from .._validate import as_dtype

__all__ = ["PrimitiveType", "PaddingValue"]


class PrimitiveType(enum.IntEnum):
    """An XLA element type, numbered as in ``xla_data.proto``.

    ``byte_size`` is the size of one element in bytes (``None`` for TUPLE,
    OPAQUE and TOKEN, which are not array elements), ``bit_width`` its width
    in bits (4 for S4: without a layout's ``element_size_in_bits`` such an
    element still takes a whole byte, as in XLA), ``text`` the lowercase
    name used in shape strings (``f32``), and ``numpy_dtype`` the matching
    NumPy dtype, or ``None`` where NumPy has none (BF16, the 8- and 4-bit
    floats, the sub-byte integers, TUPLE, OPAQUE, TOKEN). ``str()`` gives the
    text name and ``repr()`` the name and number.

    Examples
    --------
    >>> t = xs.PrimitiveType.from_text("f32")
    >>> t.text, t.byte_size, t.numpy_dtype
    ('f32', 4, dtype('float32'))
    >>> xs.PrimitiveType.coerce(np.int16) is xs.PrimitiveType.S16
    True
    >>> str(xs.PrimitiveType.F32), repr(xs.PrimitiveType.F32)
    ('f32', '<PrimitiveType.F32: 11>')
    >>> xs.PrimitiveType.S4.bit_width, xs.PrimitiveType.S4.byte_size
    (4, 1)
    """

    PRED = 1
    S8 = 2
    S16 = 3
    S32 = 4
    S64 = 5
    U8 = 6
    U16 = 7
    U32 = 8
    U64 = 9
    F16 = 10
    F32 = 11
    F64 = 12
    TUPLE = 13
    OPAQUE = 14
    C64 = 15
    BF16 = 16
    TOKEN = 17
    C128 = 18
    F8E5M2 = 19
    F8E4M3FN = 20
    S4 = 21
    U4 = 22
    F8E4M3B11FNUZ = 23
    F8E5M2FNUZ = 24
    F8E4M3FNUZ = 25
    S2 = 26
    U2 = 27
    F8E4M3 = 28
    F8E3M4 = 29
    S1 = 30
    U1 = 31
    F4E2M1FN = 32
    F8E8M0FNU = 33

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)

    @property
    def byte_size(self) -> int | None:
        """Bytes per element; None for TUPLE, OPAQUE and TOKEN.

        Examples
        --------
        >>> xs.PrimitiveType.C64.byte_size, xs.PrimitiveType.TUPLE.byte_size
        (8, None)
        """
        return _BYTE_SIZES[self]

    @property
    def bit_width(self) -> int | None:
        """Bits of information per element (XLA's ``primitive_util::BitWidth``):
        4 for S4 and U4, 1 for PRED (``numeric_limits<bool>::digits``, as
        XLA counts it); None for TUPLE, OPAQUE and TOKEN.

        Examples
        --------
        >>> xs.PrimitiveType.U2.bit_width, xs.PrimitiveType.BF16.bit_width
        (2, 16)
        """
        size = _BYTE_SIZES[self]
        return _SUB_BYTE_BITS.get(self, None if size is None else 8 * size)

    @property
    def text(self) -> str:
        """The lowercase name used in shape strings, such as 'f32'.

        Examples
        --------
        >>> xs.PrimitiveType.BF16.text
        'bf16'
        """
        return self.name.lower()

    @property
    def is_array(self) -> bool:
        """Whether arrays can hold this type (all but TUPLE, OPAQUE, TOKEN).

        Examples
        --------
        >>> xs.PrimitiveType.PRED.is_array, xs.PrimitiveType.TOKEN.is_array
        (True, False)
        """
        return _BYTE_SIZES[self] is not None

    @property
    def numpy_dtype(self) -> np.dtype | None:
        """The matching NumPy dtype, or None where NumPy has none.

        Examples
        --------
        >>> xs.PrimitiveType.U8.numpy_dtype, xs.PrimitiveType.BF16.numpy_dtype
        (dtype('uint8'), None)
        """
        name = _NUMPY_NAMES.get(self)
        return None if name is None else np.dtype(name)

    @classmethod
    def from_text(cls, text: str) -> PrimitiveType:
        """The type whose lowercase name is ``text``.

        Parameters
        ----------
        text : str
            A name as shape strings write it, such as ``"f32"``.

        Returns
        -------
        PrimitiveType

        Raises
        ------
        ValueError
            For an unknown name, listing the known ones.

        Examples
        --------
        >>> xs.PrimitiveType.from_text("s64")
        <PrimitiveType.S64: 5>
        """
        try:
            return _BY_TEXT[text]
        except (KeyError, TypeError):
            raise ValueError(
                f"unknown element type {text!r}{_suggestion(text)}; expected one of "
                + ", ".join(sorted(_BY_TEXT))
            ) from None

    @classmethod
    def from_dtype(cls, dtype: np.typing.DTypeLike) -> PrimitiveType:
        """The type matching a NumPy dtype.

        Parameters
        ----------
        dtype : dtype_like
            A NumPy dtype of either byte order.

        Returns
        -------
        PrimitiveType

        Raises
        ------
        ValueError
            For a dtype with no XLA element type (strings, objects, ...).
        TypeError
            For anything NumPy does not read as a dtype. Text is read as a
            dtype's name or type code only (``"float32"``, ``">c16"``):
            NumPy's structured dtype text (``"i4,i4"``) has no XLA element
            type, and is not evaluated.

        Examples
        --------
        >>> xs.PrimitiveType.from_dtype(np.float32)
        <PrimitiveType.F32: 11>
        >>> xs.PrimitiveType.from_dtype(">c16")
        <PrimitiveType.C128: 18>
        """
        dt = as_dtype(dtype)
        try:
            return _BY_DTYPE[dt.newbyteorder("=")]
        except KeyError:
            raise ValueError(
                f"NumPy dtype {dt} has no XLA element type; expected one of "
                + ", ".join(str(d) for d in _BY_DTYPE)
            ) from None

    @classmethod
    def coerce(cls, value: PrimitiveType | int | str | np.dtype) -> PrimitiveType:
        """A PrimitiveType from any of the forms the API accepts.

        Parameters
        ----------
        value : PrimitiveType, int, str or numpy.dtype
            The type itself, its number in ``xla_data.proto``, its name such
            as ``"f32"``, a NumPy dtype or scalar type, or the full name of
            a dtype that maps to one XLA type: NumPy's (``"float32"``,
            ``"int8"``, ``"bool"``, ``"complex64"``) or ml_dtypes'
            (``"bfloat16"``, ``"float8_e4m3fn"``, ``"int4"``). Short codes
            such as ``"f4"`` or ``"i8"`` are refused, since NumPy and XLA
            read them differently (``"i8"`` is NumPy's int64); the error
            names the XLA type NumPy means.

        Returns
        -------
        PrimitiveType

        Raises
        ------
        ValueError
            For an unknown number, name or dtype.
        TypeError
            For anything else.

        Examples
        --------
        >>> [xs.PrimitiveType.coerce(v).text for v in (11, "f32", "float32", np.float32)]
        ['f32', 'f32', 'f32', 'f32']
        >>> xs.PrimitiveType.coerce("f4")
        Traceback (most recent call last):
          ...
        ValueError: unknown element type 'f4' (NumPy reads it as float32, XLA's 'f32'); expected one of ...
        """
        if isinstance(value, PrimitiveType):
            return value
        if isinstance(value, str):
            return type_of_dtype_name(value) or cls.from_text(value)
        if isinstance(value, int) and not isinstance(value, bool):
            try:
                return cls(value)
            except ValueError:
                raise ValueError(
                    f"unknown element type number {value}; expected one of "
                    + ", ".join(str(int(t)) for t in sorted(cls))
                ) from None
        if isinstance(value, (np.dtype, type)):
            return cls.from_dtype(value)
        raise TypeError(
            "element type must be a PrimitiveType, its number, its name "
            f"such as 'f32', or a NumPy dtype; got {type(value).__name__}"
        )


_BYTE_SIZES = {
    PrimitiveType.PRED: 1,
    PrimitiveType.S8: 1,
    PrimitiveType.S16: 2,
    PrimitiveType.S32: 4,
    PrimitiveType.S64: 8,
    PrimitiveType.U8: 1,
    PrimitiveType.U16: 2,
    PrimitiveType.U32: 4,
    PrimitiveType.U64: 8,
    PrimitiveType.F16: 2,
    PrimitiveType.F32: 4,
    PrimitiveType.F64: 8,
    PrimitiveType.TUPLE: None,
    PrimitiveType.OPAQUE: None,
    PrimitiveType.C64: 8,
    PrimitiveType.BF16: 2,
    PrimitiveType.TOKEN: None,
    PrimitiveType.C128: 16,
    PrimitiveType.F8E5M2: 1,
    PrimitiveType.F8E4M3FN: 1,
    PrimitiveType.S4: 1,
    PrimitiveType.U4: 1,
    PrimitiveType.F8E4M3B11FNUZ: 1,
    PrimitiveType.F8E5M2FNUZ: 1,
    PrimitiveType.F8E4M3FNUZ: 1,
    PrimitiveType.S2: 1,
    PrimitiveType.U2: 1,
    PrimitiveType.F8E4M3: 1,
    PrimitiveType.F8E3M4: 1,
    PrimitiveType.S1: 1,
    PrimitiveType.U1: 1,
    PrimitiveType.F4E2M1FN: 1,
    PrimitiveType.F8E8M0FNU: 1,
}

# Types of fewer bits than a byte, by their width in bits (PRED's one bit, as
# XLA's BitWidth counts it, though an unpacked PRED takes a byte).
_SUB_BYTE_BITS = {
    PrimitiveType.PRED: 1,
    PrimitiveType.S1: 1,
    PrimitiveType.U1: 1,
    PrimitiveType.S2: 2,
    PrimitiveType.U2: 2,
    PrimitiveType.S4: 4,
    PrimitiveType.U4: 4,
    PrimitiveType.F4E2M1FN: 4,
}

_NUMPY_NAMES = {
    PrimitiveType.PRED: "bool",
    PrimitiveType.S8: "int8",
    PrimitiveType.S16: "int16",
    PrimitiveType.S32: "int32",
    PrimitiveType.S64: "int64",
    PrimitiveType.U8: "uint8",
    PrimitiveType.U16: "uint16",
    PrimitiveType.U32: "uint32",
    PrimitiveType.U64: "uint64",
    PrimitiveType.F16: "float16",
    PrimitiveType.F32: "float32",
    PrimitiveType.F64: "float64",
    PrimitiveType.C64: "complex64",
    PrimitiveType.C128: "complex128",
}

_BY_TEXT = {t.text: t for t in PrimitiveType}
_BY_DTYPE = {np.dtype(name): t for t, name in _NUMPY_NAMES.items()}
_BY_NUMPY_NAME = {name: t for t, name in _NUMPY_NAMES.items()}
# ml_dtypes names (what JAX's narrow types call themselves) to XLA's.
_ML_DTYPES_NAMES = [
    (re.compile(r"bfloat16"), "bf16"),
    (re.compile(r"float8_(\w+)"), "f8{}"),
    (re.compile(r"float4_(\w+)"), "f4{}"),
    (re.compile(r"uint(\d)"), "u{}"),
    (re.compile(r"int(\d)"), "s{}"),
]


def type_of_dtype_name(name: str) -> PrimitiveType | None:
    """The XLA type a NumPy or ml_dtypes dtype's full name stands for, one to
    one (``"float32"`` F32, ``"bool"`` PRED, ``"bfloat16"`` BF16, ``"int4"``
    S4); None for any other text."""
    if name in _BY_NUMPY_NAME:
        return _BY_NUMPY_NAME[name]
    for pattern, text in _ML_DTYPES_NAMES:
        match = pattern.fullmatch(name)
        if match:
            return _BY_TEXT.get(text.format(*match.groups()))
    return None


def _suggestion(text: object) -> str:
    """A hint for an unknown type name: the XLA type of the dtype NumPy
    reads it as (``"f4"``, ``"float"``), or the nearest XLA name."""
    if not isinstance(text, str):
        return ""
    try:
        with warnings.catch_warnings():  # a deprecated alias ('a') is no hint
            warnings.simplefilter("ignore", DeprecationWarning)
            dtype = as_dtype(text)
    except TypeError:  # as_dtype never evaluates text, so refuses this way only
        dtype = None
    if dtype is not None and dtype in _BY_DTYPE:
        return f" (NumPy reads it as {dtype}, XLA's {_BY_DTYPE[dtype].text!r})"
    close = difflib.get_close_matches(text.lower(), _BY_TEXT, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class PaddingValue(enum.IntEnum):
    """What fills the padding positions of a padded layout, numbered as in
    ``xla_data.proto``.

    INVALID_PAD and UNKNOWN_PAD leave the padding unspecified; see
    :func:`xlashape.padding_fill_value` for what the others put there.

    Examples
    --------
    >>> layout = xs.Layout([0, 1], [3, 5], xs.PaddingValue.LOWEST_PAD)
    >>> layout.padding_value
    <PaddingValue.LOWEST_PAD: 3>
    """

    INVALID_PAD = 0
    ZERO_PAD = 1
    ONE_PAD = 2
    LOWEST_PAD = 3
    HIGHEST_PAD = 4
    UNKNOWN_PAD = 5

    @classmethod
    def coerce(cls, value: PaddingValue | int) -> PaddingValue:
        """A PaddingValue from itself or its number.

        Parameters
        ----------
        value : PaddingValue or int
            The value, or its number from 0 to 5.

        Returns
        -------
        PaddingValue

        Raises
        ------
        ValueError
            For anything else, naming the value.

        Examples
        --------
        >>> xs.PaddingValue.coerce(1)
        <PaddingValue.ZERO_PAD: 1>
        >>> xs.PaddingValue.coerce(7)
        Traceback (most recent call last):
          ...
        ValueError: padding_value must be a PaddingValue (0 to 5), got 7
        """
        try:
            if isinstance(value, bool):
                raise ValueError
            return cls(value)
        except ValueError:
            raise ValueError(f"padding_value must be a PaddingValue (0 to 5), got {value!r}") from None
