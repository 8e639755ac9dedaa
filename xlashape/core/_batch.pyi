"""Stub for the compiled batch glue (xlashape/core/_batch.pyx)."""

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import DTypeLike, NDArray

from ._plan import LayoutPlan

RAISE: int
WRAP: int
CLIP: int
MODES: dict[str, int]
MAX_THREADS: int
POOL_THREADED: bool
LEVELS: tuple[str, ...]
PREFETCH_MODES: tuple[str, ...]

def get_default_threads() -> int: ...
def set_default_threads(threads: int) -> None: ...
def check_threads(threads: object) -> int: ...
def cpu_level() -> str: ...
def best_cpu_level() -> str: ...
def select_cpu_level(level: str | None) -> str: ...
def stream_bytes() -> int: ...
def set_stream_bytes(nbytes: int) -> None: ...
def align_bytes() -> int: ...
def set_align_bytes(nbytes: int) -> None: ...
def prefetch_mode() -> str: ...
def set_prefetch_mode(mode: str) -> None: ...
def pool_info() -> dict[str, Any]: ...
def traffic(src: NDArray[np.int64], dst: NDArray[np.int64]) -> None: ...
def cpu_limit() -> int: ...
def set_cpu_limit(cpus: int) -> int: ...
def _set_handoff_costs(wake_ns: float, worker_ns: float) -> None: ...
def _handoff(
    work_ns: float,
    awake: tuple[float, float],
    asleep: tuple[float, float],
    awake_workers: int,
    items: int,
    min_chunk: int,
    cap: int,
) -> tuple[int, int]: ...
def _handoff_model_ns(
    work_ns: float,
    awake: tuple[float, float],
    asleep: tuple[float, float],
    awake_workers: int,
    threads: int,
) -> float: ...
def _rate_estimate(samples: Sequence[float], prior: float) -> float: ...

RESULT_CACHE_MIN_BYTES: int
RESULT_CACHE_MAX_BUFFERS: int

def configure_result_cache(max_bytes: int, max_buffers: int) -> None: ...
def result_cache_stats() -> dict[str, int | bool]: ...
def as_index_array(
    values: object, what: str, *, allow_bool: bool = False, numpy_rules: bool = False
) -> NDArray[np.integer]: ...
def mode_codes(mode: str | Sequence[str], rank: int) -> bytes | None: ...
def check_out(
    out: object,
    shape: tuple[int, ...],
    inputs: Sequence[object] = (),
    *,
    dtype: DTypeLike = ...,
    what: str = "out",
    contiguous: bool = False,
) -> NDArray[np.int64]: ...
def ravel_array(
    plan: LayoutPlan,
    indices: NDArray[np.integer],
    modes: bytes | None = None,
    out: NDArray[np.int64] | None = None,
    threads: int | None = None,
    sources: object = (),
) -> NDArray[np.int64]: ...
def ravel_columns(
    plan: LayoutPlan,
    columns: Sequence[NDArray[np.integer]],
    modes: bytes | None = None,
    out: NDArray[np.int64] | None = None,
    threads: int | None = None,
    sources: object = (),
) -> NDArray[np.int64]: ...
def unravel(
    plan: LayoutPlan,
    linear: NDArray[np.integer],
    out: NDArray[np.int64],
    threads: int | None = None,
) -> NDArray[np.int64]: ...
