"""Stub for the compiled batch calls (xlashape/shapes/_convert.pyx)."""

from collections.abc import Sequence
from typing import Any, TypeVar, overload

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from .shape import Shape

# The results' dtypes: int64, or 32 bits where every value fits.
_S = TypeVar("_S", np.int64, np.int32, np.uint32)

@overload
def ravel(
    indices: ArrayLike,
    shape: Shape | str,
    *,
    mode: str | Sequence[str] = "raise",
    out: None = None,
    threads: int | None = None,
    dtype: None = None,
) -> NDArray[np.int64]: ...
@overload
def ravel(
    indices: ArrayLike,
    shape: Shape,
    *,
    mode: str | Sequence[str] = "raise",
    out: NDArray[_S],
    threads: int | None = None,
    dtype: DTypeLike | None = None,
) -> NDArray[_S]: ...
@overload
def ravel(
    indices: ArrayLike,
    shape: Shape,
    *,
    mode: str | Sequence[str] = "raise",
    out: None = None,
    threads: int | None = None,
    dtype: type[_S],
) -> NDArray[_S]: ...
@overload
def ravel(
    indices: ArrayLike,
    shape: Shape,
    *,
    mode: str | Sequence[str] = "raise",
    out: None = None,
    threads: int | None = None,
    dtype: DTypeLike,
) -> NDArray[Any]: ...
@overload
def unravel(
    offsets: ArrayLike,
    shape: Shape | str,
    *,
    out: None = None,
    threads: int | None = None,
    dtype: None = None,
) -> NDArray[np.int64]: ...
@overload
def unravel(
    offsets: ArrayLike,
    shape: Shape,
    *,
    out: NDArray[_S],
    threads: int | None = None,
    dtype: DTypeLike | None = None,
) -> NDArray[_S]: ...
@overload
def unravel(
    offsets: ArrayLike,
    shape: Shape,
    *,
    out: None = None,
    threads: int | None = None,
    dtype: type[_S],
) -> NDArray[_S]: ...
@overload
def unravel(
    offsets: ArrayLike,
    shape: Shape,
    *,
    out: None = None,
    threads: int | None = None,
    dtype: DTypeLike,
) -> NDArray[Any]: ...
