"""Stub for the compiled half of IndexUtil (xlashape/xla/_index.pyx)."""

from collections.abc import Sequence
from typing import SupportsIndex, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..shapes.shape import Shape

@overload
def multidimensional_index_to_linear_index(
    shape: Shape | str,
    multi_index: Sequence[SupportsIndex],
    *,
    out: NDArray[np.int64] | None = None,
    threads: int | None = None,
) -> int: ...
@overload
def multidimensional_index_to_linear_index(
    shape: Shape | str,
    multi_index: ArrayLike,
    *,
    out: NDArray[np.int64] | None = None,
    threads: int | None = None,
) -> int | NDArray[np.int64]: ...
@overload
def linear_index_to_multidimensional_index(
    shape: Shape | str,
    linear_index: SupportsIndex,
    *,
    out: NDArray[np.int64] | None = None,
    threads: int | None = None,
) -> tuple[int, ...]: ...
@overload
def linear_index_to_multidimensional_index(
    shape: Shape | str,
    linear_index: ArrayLike,
    *,
    out: NDArray[np.int64] | None = None,
    threads: int | None = None,
) -> tuple[int, ...] | NDArray[np.int64]: ...
