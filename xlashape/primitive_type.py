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
        """Bytes per element; None for TUPLE, OPAQUE and TOKEN."""
        return _BYTE_SIZES[self]

    @property
    def text(self) -> str:
        """The lowercase name used in shape strings, such as 'f32'."""
        return self.name.lower()

    @property
    def is_array(self) -> bool:
        """Whether arrays can hold this type (all but TUPLE, OPAQUE, TOKEN)."""
        return _BYTE_SIZES[self] is not None

    @property
    def numpy_dtype(self) -> np.dtype | None:
        """The matching NumPy dtype, or None where NumPy has none."""
        name = _NUMPY_NAMES.get(self)
        return None if name is None else np.dtype(name)

    @classmethod
    def from_text(cls, text: str) -> PrimitiveType:
        """The type whose lowercase name is ``text`` (``"f32"`` gives F32)."""
        try:
            return _BY_TEXT[text]
        except (KeyError, TypeError):
            raise ValueError(
                f"unknown element type {text!r}; expected one of "
                + ", ".join(sorted(_BY_TEXT))
            ) from None

    @classmethod
    def from_dtype(cls, dtype: np.typing.DTypeLike) -> PrimitiveType:
        """The type matching a NumPy dtype (``float32`` gives F32)."""
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
        """Accept a PrimitiveType, its number, its text name or a NumPy dtype."""
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
    """What fills the padding positions of a padded layout."""

    INVALID_PAD = 0
    ZERO_PAD = 1
    ONE_PAD = 2
    LOWEST_PAD = 3
    HIGHEST_PAD = 4
    UNKNOWN_PAD = 5

    @classmethod
    def coerce(cls, value: PaddingValue | int) -> PaddingValue:
        """A PaddingValue or its number; ValueError naming the value otherwise."""
        try:
            if isinstance(value, bool):
                raise ValueError
            return cls(value)
        except ValueError:
            raise ValueError(f"padding_value must be a PaddingValue (0 to 5), got {value!r}") from None
