"""Stub for the unravel kernel (xlashape/_unravel.pyx)."""

import numpy as np
from numpy.typing import NDArray

from ._plan import LayoutPlan

def unravel(
    plan: LayoutPlan, linear: NDArray[np.integer], out: NDArray[np.int64], start: int, stop: int
) -> int: ...
