"""Batch conversion on a Shape: ``ravel`` and ``unravel`` over NumPy arrays.

These are the array-level entry points that IndexUtil's batch path, the
NumPy drop-ins and ``xlashape.dask`` build on.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import _batch
from .shape import Shape, require_shape

__all__ = ["ravel", "unravel", "mode_codes"]


def mode_codes(mode: str | Sequence[str], rank: int) -> bytes | None:
    """One out-of-range rule per dimension, 'raise', 'wrap' or 'clip', given
    once for all dimensions or as a sequence of ``rank`` of them; as the
    kernels' codes, None when every dimension raises."""
    if mode == "raise":
        return None
    modes = [mode] * rank if isinstance(mode, str) else list(mode)
    if len(modes) != rank:
        raise ValueError(f"list of clipmodes has wrong length ({len(modes)} instead of {rank})")
    try:
        return bytes(_batch.MODES[m] for m in modes)
    except (KeyError, TypeError):
        bad = next(m for m in modes if not isinstance(m, str) or m not in _batch.MODES)
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {bad!r})") from None


def ravel(
    indices: object,
    shape: Shape,
    *,
    mode: str | Sequence[str] = "raise",
    out: np.ndarray | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """Linear indices of an (N, rank) batch of multi-indices in ``shape``.

    ``indices`` may have any integer dtype and any strides (C, Fortran or
    sliced arrays are read in place). ``mode`` says what an index outside
    its dimension does: 'raise' (IndexOutOfBoundsError naming the row,
    dimension and value), 'wrap' or 'clip', once or per dimension. Returns
    an (N,) int64 array, ``out`` if given.
    """
    plan = require_shape(shape)._plan
    rows = _batch.as_index_array(indices, "multi-indices")
    if rows.ndim != 2 or rows.shape[1] != plan.rank:
        raise ValueError(
            f"a batch of multi-indices must be an (N, {plan.rank}) array for a "
            f"rank-{plan.rank} shape, got shape {rows.shape}"
        )
    return _batch.ravel_array(plan, rows, mode_codes(mode, plan.rank), out, threads)


def unravel(
    offsets: object,
    shape: Shape,
    *,
    out: np.ndarray | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """Multi-indices of a 1-D batch of linear indices into ``shape``'s buffer.

    Returns an (N, rank) int64 array, ``out`` if given (any strides). An
    offset outside the buffer, or on padding, raises IndexOutOfBoundsError
    naming its row.
    """
    plan = require_shape(shape)._plan
    linear = _batch.as_index_array(offsets, "linear indices")
    if linear.ndim != 1:
        raise ValueError(f"a batch of linear indices must be 1-D, got shape {linear.shape}")
    out = _batch.check_out(out, (linear.shape[0], plan.rank), (linear,))
    return _batch.unravel(plan, linear, out, threads)
