"""Stub for the compiled batch calls (xlashape/_convert.pyx)."""

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from .shape import Shape

# int64, or 32 bits where every value fits (the ``dtype=`` argument).
_Result = NDArray[np.int64] | NDArray[np.int32] | NDArray[np.uint32]

def ravel(
    indices: ArrayLike,
    shape: Shape,
    *,
    mode: str | Sequence[str] = "raise",
    out: _Result | None = None,
    threads: int | None = None,
    dtype: DTypeLike | None = None,
) -> _Result: ...
def unravel(
    offsets: ArrayLike,
    shape: Shape,
    *,
    out: _Result | None = None,
    threads: int | None = None,
    dtype: DTypeLike | None = None,
) -> _Result: ...
