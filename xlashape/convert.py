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

    Each row is a multi-index; its linear index is its offset in the
    shape's buffer, under the shape's layout and padding.

    Parameters
    ----------
    indices : array_like of int, shape (N, rank)
        The multi-indices, one per row. Any integer dtype and any strides
        (C, Fortran or sliced arrays are read in place, never copied or
        modified).
    shape : Shape
        The shape whose layout gives the offsets.
    mode : {'raise', 'wrap', 'clip'} or sequence of them, optional
        What an index outside its dimension does, once for all dimensions or
        one per dimension: 'raise' (the default) raises, 'wrap' takes it
        modulo the dimension, 'clip' moves it to the nearest end.
    out : ndarray of int64, shape (N,), optional
        Where to write the result.
    threads : int, optional
        Threads to use; None (the default) means :func:`get_num_threads`.

    Returns
    -------
    ndarray of int64, shape (N,)
        The linear indices; ``out`` if it was given.

    Raises
    ------
    IndexOutOfBoundsError
        With ``mode='raise'``, for the first row holding an index outside its
        dimension, naming the row, dimension, value and size.
    ValueError
        If ``indices`` is not (N, rank) or ``mode`` is unknown.
    TypeError
        If ``indices`` does not hold integers.

    See Also
    --------
    unravel : the inverse.
    ravel_multi_index : the same in NumPy's calling convention.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}")  # column-major
    >>> xs.ravel(np.array([[0, 0], [1, 0], [0, 1], [1, 2]]), shape)
    array([0, 1, 2, 5])
    >>> xs.ravel([[2, 0], [-1, 3]], shape, mode="clip")
    array([1, 4])
    >>> xs.ravel([[0, 0], [0, 3]], shape)
    Traceback (most recent call last):
      ...
    xlashape.errors.IndexOutOfBoundsError: index 3 is out of bounds for dimension 1 with size 3 at row 1 of the batch; multi-index (0, 3)
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

    Parameters
    ----------
    offsets : array_like of int, shape (N,)
        Linear indices (offsets in elements) into the shape's buffer, of any
        integer dtype.
    shape : Shape
        The shape whose layout gives the multi-indices.
    out : ndarray of int64, shape (N, rank), optional
        Where to write the result; any strides.
    threads : int, optional
        Threads to use; None (the default) means :func:`get_num_threads`.

    Returns
    -------
    ndarray of int64, shape (N, rank)
        One multi-index per row; ``out`` if it was given.

    Raises
    ------
    IndexOutOfBoundsError
        For the first offset outside the buffer or on padding, naming its
        row.
    ValueError
        If ``offsets`` is not 1-D.
    TypeError
        If ``offsets`` does not hold integers.

    See Also
    --------
    ravel : the inverse.
    unravel_index : the same in NumPy's calling convention.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}")  # column-major
    >>> xs.unravel(np.array([0, 1, 5]), shape)
    array([[0, 0],
           [1, 0],
           [1, 2]])
    >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], padded_dimensions=[3, 5]))
    >>> xs.unravel([4, 2], padded)
    Traceback (most recent call last):
      ...
    xlashape.errors.IndexOutOfBoundsError: ...row 1...
    """
    plan = require_shape(shape)._plan
    linear = _batch.as_index_array(offsets, "linear indices")
    if linear.ndim != 1:
        raise ValueError(f"a batch of linear indices must be 1-D, got shape {linear.shape}")
    out = _batch.check_out(out, (linear.shape[0], plan.rank), (linear,))
    return _batch.unravel(plan, linear, out, threads)
