"""Stub for the compiled batch calls (xlashape/_convert.pyx)."""

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .shape import Shape

def ravel(
    indices: ArrayLike,
    shape: Shape | str,
    *,
    mode: str | Sequence[str] = "raise",
    out: NDArray[np.int64] | None = None,
    threads: int | None = None,
) -> NDArray[np.int64]: ...
def unravel(
    offsets: ArrayLike,
    shape: Shape | str,
    *,
    out: NDArray[np.int64] | None = None,
    threads: int | None = None,
) -> NDArray[np.int64]: ...
