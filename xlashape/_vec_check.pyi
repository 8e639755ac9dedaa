"""Stub for the compiled checks of the vector contract (xlashape/_vec_check.pyx)."""

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ._plan import LayoutPlan

LEVELS: dict[str, dict[str, object]]
OPS: tuple[str, ...]
OUT_BYTES: int
IN_BYTES: int

def run(
    level: str,
    op: str,
    data: np.ndarray | None = None,
    params: Sequence[int] = (),
    ok: int = 0,
    flag: int = 0,
    fill: int = 0xA5,
) -> tuple[int, NDArray[np.uint8], int, int]: ...
def ravel_rows(
    level: str,
    plan: LayoutPlan,
    rows: np.ndarray,
    out: NDArray[np.int64],
    start: int,
    stop: int,
    store: int = 0,
) -> bool: ...
def ravel_cols(
    level: str,
    plan: LayoutPlan,
    columns: list[np.ndarray],
    out: NDArray[np.int64],
    start: int,
    stop: int,
    store: int = 0,
) -> bool: ...
def ravel_cols32(
    level: str,
    plan: LayoutPlan,
    rows: np.ndarray,
    out: NDArray[np.uint32],
    start: int,
    stop: int,
    store: int = 0,
) -> bool: ...
def unravel_rows(
    level: str,
    plan: LayoutPlan,
    linear: np.ndarray,
    out: NDArray[np.int64],
    start: int,
    stop: int,
    store: int = 0,
) -> bool: ...
def unravel_rows32(
    level: str,
    plan: LayoutPlan,
    linear: np.ndarray,
    out: NDArray[np.uint32],
    start: int,
    stop: int,
    store: int = 0,
) -> tuple[int, bool]: ...
