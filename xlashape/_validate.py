"""Small checks shared by the model classes and the facades."""

from __future__ import annotations

import operator
from collections.abc import Iterable

import numpy as np

INT64_MAX = int(np.iinfo(np.int64).max)


def as_int(value: object, what: str) -> int:
    """``value`` as a Python int; TypeError naming ``what`` otherwise.

    Booleans are refused: ``True`` is not a meaningful size or index here.
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} must be an integer, got the boolean {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]  # TypeError is the check
    except TypeError:
        raise TypeError(
            f"{what} must be an integer, got {type(value).__name__} {value!r}"
        ) from None


def as_int_tuple(values: Iterable[object], what: str) -> tuple[int, ...]:
    """A sequence of integers as a tuple of Python ints, naming bad entries."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(
            f"{what} must be a sequence of integers, got {type(values).__name__}"
        )
    return tuple(as_int(v, f"{what}[{i}]") for i, v in enumerate(values))


def require_integer_dtype(dtype: np.dtype, what: str) -> None:
    """TypeError naming ``what`` unless ``dtype`` is a signed or unsigned
    integer type: the one "must hold integers" check of the package."""
    if np.dtype(dtype).kind not in "iu":
        raise TypeError(f"{what} must hold integers, got an array of dtype {dtype}")


def normalize_dimension(dimension: object, rank: int) -> int:
    """A dimension number, negative counting from the end as in Python."""
    d = as_int(dimension, "dimension number")
    if not -rank <= d < rank:
        raise IndexError(
            f"dimension number {d} is out of range for a rank-{rank} shape; "
            f"expected {-rank} <= dimension < {rank}"
            if rank
            else f"dimension number {d} is out of range: a rank-0 shape has "
            "no dimensions"
        )
    return d + rank if d < 0 else d
