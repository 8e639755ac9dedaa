"""Stub for the compiled batch glue (xlashape/_batch.pyx)."""

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ._plan import LayoutPlan

RAISE: int
WRAP: int
CLIP: int
MODES: dict[str, int]
BLOCK: int

def as_index_array(
    values: object, what: str, *, allow_bool: bool = False, numpy_rules: bool = False
) -> NDArray[np.integer]: ...
def check_out(
    out: object, shape: tuple[int, ...], inputs: Sequence[np.ndarray]
) -> NDArray[np.int64]: ...
def ravel_array(
    plan: LayoutPlan,
    indices: NDArray[np.integer],
    modes: bytes | None = None,
    out: NDArray[np.int64] | None = None,
    threads: int | None = None,
) -> NDArray[np.int64]: ...
def ravel_columns(
    plan: LayoutPlan,
    columns: Sequence[NDArray[np.integer]],
    modes: bytes | None = None,
    out: NDArray[np.int64] | None = None,
    threads: int | None = None,
) -> NDArray[np.int64]: ...
def unravel(
    plan: LayoutPlan,
    linear: NDArray[np.integer],
    out: NDArray[np.int64],
    threads: int | None = None,
) -> NDArray[np.int64]: ...
