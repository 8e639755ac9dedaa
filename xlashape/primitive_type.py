"""XLA's element types and padding values, with their NumPy counterparts."""

from __future__ import annotations

import enum

import numpy as np

__all__ = ["PrimitiveType", "PaddingValue"]


class PrimitiveType(enum.IntEnum):
    """An XLA element type, numbered as in ``xla_data.proto``.

    ``byte_size`` is the size of one element in bytes (``None`` for TUPLE,
    OPAQUE and TOKEN, which are not array elements), ``text`` the lowercase
    name used in shape strings (``f32``), and ``numpy_dtype`` the matching
    NumPy dtype, or ``None`` where NumPy has none (BF16, TUPLE, OPAQUE, TOKEN).

    Examples
    --------
    >>> t = xs.PrimitiveType.from_text("f32")
    >>> t.text, t.byte_size, t.numpy_dtype
    ('f32', 4, dtype('float32'))
    >>> xs.PrimitiveType.coerce(np.int16) is xs.PrimitiveType.S16
    True
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
                f"unknown element type {text!r}; expected one of "
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

        Examples
        --------
        >>> xs.PrimitiveType.from_dtype(np.float32)
        <PrimitiveType.F32: 11>
        >>> xs.PrimitiveType.from_dtype(">c16")
        <PrimitiveType.C128: 18>
        """
        dt = np.dtype(dtype)
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
            as ``"f32"``, or a NumPy dtype or scalar type.

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
        >>> [xs.PrimitiveType.coerce(v).text for v in (11, "f32", np.dtype("float32"))]
        ['f32', 'f32', 'f32']
        """
        if isinstance(value, PrimitiveType):
            return value
        if isinstance(value, str):
            return cls.from_text(value)
        if isinstance(value, int) and not isinstance(value, bool):
            try:
                return cls(value)
            except ValueError:
                raise ValueError(
                    f"unknown element type number {value}; expected 1 to 18"
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
