"""Small checks shared by the model classes and the facades."""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Iterable

import numpy as np

from .errors import IndexOutOfBoundsError

INT64_MAX = int(np.iinfo(np.int64).max)
# The most dimensions a Shape or Layout has: NumPy's NPY_MAXDIMS. XLA bounds a
# layout by its shape's rank; a rank past NumPy's has no array to describe.
MAX_RANK = 64
# The most tiles a layout has. XLA's layouts use one to three; each tile adds
# dimensions to the tiled array the buffer is, and the work a layout takes
# grows with them.
MAX_TILES = 64
# Text np.dtype reads as a dtype's name or type code, with a byte order. Any
# other text np.dtype evaluates (ast.literal_eval, for text with a comma),
# which raises SyntaxError and more: such text names no XLA element type.
_DTYPE_TEXT = re.compile(r"[<>=|]?[A-Za-z?][A-Za-z0-9_]*", re.ASCII)


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


def as_int_tuple(values: Iterable[object], what: str, per_dimension: bool = False) -> tuple[int, ...]:
    """A sequence of integers as a tuple of Python ints, naming bad entries.
    ``per_dimension``: one entry per dimension, so at most MAX_RANK of them
    (ValueError naming the limit; no more are read, so that an endless
    iterable ends too)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(
            f"{what} must be a sequence of integers, got {type(values).__name__}"
        )
    if per_dimension:
        if not isinstance(values, (list, tuple)):  # lists and tuples have their length
            values = tuple(itertools.islice(values, MAX_RANK + 1))
        if len(values) > MAX_RANK:
            raise ValueError(
                f"{what} has more than {MAX_RANK} entries, one per dimension; the rank "
                f"is at most Shape.MAX_RANK = {MAX_RANK} (NumPy's limit on dimensions)"
            )
    return tuple(as_int(v, f"{what}[{i}]") for i, v in enumerate(values))


def as_rank(value: object, what: str = "rank") -> int:
    """A rank as a Python int in ``[0, MAX_RANK]``; TypeError or ValueError
    naming ``what`` and the limit otherwise."""
    rank = as_int(value, what)
    if not 0 <= rank <= MAX_RANK:
        raise ValueError(
            f"{what} must be >= 0 and at most Shape.MAX_RANK = {MAX_RANK} (NumPy's "
            f"limit on dimensions), got {rank}"
        )
    return rank


def as_dtype(value: object, what: str = "dtype") -> np.dtype:
    """``np.dtype(value)``; TypeError naming ``what`` for anything NumPy
    does not read as a dtype. Text is read only as a dtype's name or type
    code (``"float32"``, ``"<f4"``), never evaluated: np.dtype's parser of
    structured dtype text raises SyntaxError and more on garbage."""
    if isinstance(value, np.dtype):
        return value
    if isinstance(value, (str, bytes)):
        text = value.decode("latin-1") if isinstance(value, bytes) else value
        if not _DTYPE_TEXT.fullmatch(text):
            raise TypeError(
                f"{what} must be a NumPy dtype, or the name or type code of one "
                f"such as 'float32' or '<f4', got {value!r}"
            )
    try:
        dtype: np.dtype = np.dtype(value)  # type: ignore[call-overload]  # TypeError is the check
    except Warning:
        raise  # a deprecated alias, under warnings turned into errors
    except Exception as e:  # np.dtype's parsers raise what they raise (TypeError, KeyError, ...)
        raise TypeError(f"{what} must be a NumPy dtype, got {type(value).__name__} {value!r}: {e}") from None
    return dtype


def require_integer_dtype(dtype: np.dtype, what: str) -> None:
    """TypeError naming ``what`` unless ``dtype`` is a signed or unsigned
    integer type: the one "must hold integers" check of the package."""
    if np.dtype(dtype).kind not in "iu":
        raise TypeError(f"{what} must hold integers, got an array of dtype {dtype}")


def normalize_dimension(dimension: object, rank: int) -> int:
    """A dimension number, negative counting from the end as in Python."""
    d = as_int(dimension, "dimension number")
    if not -rank <= d < rank:
        raise IndexOutOfBoundsError(
            f"dimension number {d} is out of range for a rank-{rank} shape; "
            f"expected {-rank} <= dimension < {rank}"
            if rank
            else f"dimension number {d} is out of range: a rank-0 shape has "
            "no dimensions"
        )
    return d + rank if d < 0 else d
