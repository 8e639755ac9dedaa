"""Stub for the ravel kernels (xlashape/_ravel.pyx).

Each processes rows [start, stop) and returns the first row holding an index
out of range in a 'raise' dimension, or -1.
"""

import numpy as np
from numpy.typing import NDArray

from ._plan import LayoutPlan

ROWS_PER_BLOCK: int

def ravel_rows(
    plan: LayoutPlan, indices: NDArray[np.integer], out: NDArray[np.int64], start: int, stop: int
) -> int: ...
def ravel_strided(
    plan: LayoutPlan,
    indices: NDArray[np.integer],
    modes: bytes,
    out: NDArray[np.int64],
    start: int,
    stop: int,
) -> int: ...
def ravel_column(
    plan: LayoutPlan,
    dim: int,
    column: NDArray[np.integer],
    mode: int,
    out: NDArray[np.int64],
    start: int,
    stop: int,
    first: bool,
) -> int: ...
