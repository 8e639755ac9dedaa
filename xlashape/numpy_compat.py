"""Drop-in replacements for ``numpy.ravel_multi_index`` and
``numpy.unravel_index``.

They return what NumPy returns (values, dtypes, broadcasting, scalars for
scalars) and raise the same exception types, and go further: ``order`` may be
any ``minor_to_major`` tuple, ``padded_dims`` gives padded layouts, errors
name the row, dimension and value, uint64 indices are never wrapped, and the
work runs in the compiled kernels on ``threads`` threads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsIndex, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _batch, convert
from ._validate import as_int_tuple
from .layout import Layout
from .shape import Shape

__all__ = ["ravel_multi_index", "unravel_index"]

Order = str | Sequence[int] | None


def _shape(dims: Any, order: Order, padded_dims: Sequence[int] | None) -> Shape:
    """The Shape that ``dims``, ``order`` and ``padded_dims`` describe."""
    dimensions = as_int_tuple(np.atleast_1d(dims).tolist() if np.ndim(dims) == 0 else dims, "dims")
    rank = len(dimensions)
    minor_to_major: Sequence[int]
    if order is None or (isinstance(order, str) and order == "C"):
        minor_to_major = range(rank - 1, -1, -1)
    elif isinstance(order, str) and order == "F":
        minor_to_major = range(rank)
    elif isinstance(order, str):
        raise ValueError(f"only 'C' or 'F' order, or a minor_to_major tuple, is permitted (got {order!r})")
    else:
        minor_to_major = order
    try:
        return Shape("s64", dimensions, Layout(minor_to_major, () if padded_dims is None else padded_dims))
    except OverflowError as e:  # NumPy says ValueError for dims too large
        raise ValueError(f"invalid dims {dimensions}: {e}") from None


def _columns(multi_index: Any, rank: int) -> list[np.ndarray]:
    """NumPy's ``multi_index``: a sequence of ``rank`` integer array_likes."""
    if isinstance(multi_index, np.ndarray):
        items = list(multi_index) if multi_index.ndim else [multi_index]
    else:
        try:
            items = list(multi_index)
        except TypeError:
            items = [multi_index]
    if len(items) != rank:
        raise ValueError(f"parameter multi_index must be a sequence of length {rank}, got {len(items)}")
    return [_batch.as_index_array(c, f"multi_index[{i}]", allow_bool=True, numpy_rules=True)
            for i, c in enumerate(items)]  # fmt: skip


@overload
def ravel_multi_index(
    multi_index: Sequence[SupportsIndex],
    dims: SupportsIndex | Sequence[SupportsIndex],
    mode: str | Sequence[str] = ...,
    order: Order = ...,
    *,
    out: None = ...,
    padded_dims: Sequence[int] | None = ...,
    threads: int | None = ...,
) -> np.intp: ...
@overload
def ravel_multi_index(
    multi_index: ArrayLike,
    dims: SupportsIndex | Sequence[SupportsIndex],
    mode: str | Sequence[str] = ...,
    order: Order = ...,
    *,
    out: NDArray[np.int64] | None = ...,
    padded_dims: Sequence[int] | None = ...,
    threads: int | None = ...,
) -> NDArray[np.intp] | np.intp: ...
def ravel_multi_index(
    multi_index: object,
    dims: object,
    mode: str | Sequence[str] = "raise",
    order: Order = "C",
    *,
    out: np.ndarray | None = None,
    padded_dims: Sequence[int] | None = None,
    threads: int | None = None,
) -> Any:
    """Like :func:`numpy.ravel_multi_index`, under any layout.

    ``order`` is 'C', 'F' or a ``minor_to_major`` tuple (most minor
    dimension first); ``padded_dims`` gives each dimension's padded width.
    ``out``, an int64 array of the broadcast shape, receives the result.
    Returns an intp array, or an intp scalar for scalar input.
    """
    shape = _shape(dims, order, padded_dims)
    codes = convert.mode_codes(mode, shape.rank)
    if isinstance(multi_index, np.ndarray) and multi_index.ndim == 2 and multi_index.shape[0] == shape.rank:
        # (rank, N): its transpose is an (N, rank) batch, read in place; for
        # the common ``a.T`` of a C-ordered (N, rank) array, row by row.
        rows = _batch.as_index_array(multi_index, "multi_index", allow_bool=True, numpy_rules=True).T
        return _batch.ravel_array(shape._plan, rows, codes, out, threads)
    columns = np.broadcast_arrays(*_columns(multi_index, shape.rank))
    if not columns:  # rank 0: the one multi-index () is at 0
        if out is None:
            return np.intp(0)
        _batch.check_out(out, (), ()).fill(0)
        return out
    result_shape = columns[0].shape
    flat_out = None if out is None else _flat_out(out, result_shape)
    result = _batch.ravel_columns(shape._plan, [c.reshape(-1) for c in columns], codes, flat_out, threads)
    if out is not None:
        return out
    return result.reshape(result_shape)[()] if result_shape == () else result.reshape(result_shape)


def _flat_out(out: object, shape: tuple[int, ...]) -> np.ndarray:
    """``out`` as a flat view; it must be a C-contiguous array of ``shape``."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a NumPy array, got {type(out).__name__}")
    if out.shape != shape:
        raise ValueError(f"out must have shape {shape}, got {out.shape}")
    if not out.flags.c_contiguous:
        raise ValueError("out must be C-contiguous")
    return out.reshape(-1)


@overload
def unravel_index(
    indices: SupportsIndex,
    shape: SupportsIndex | Sequence[SupportsIndex],
    order: Order = ...,
    *,
    out: None = ...,
    padded_dims: Sequence[int] | None = ...,
    threads: int | None = ...,
) -> tuple[np.intp, ...]: ...
@overload
def unravel_index(
    indices: ArrayLike,
    shape: SupportsIndex | Sequence[SupportsIndex],
    order: Order = ...,
    *,
    out: NDArray[np.int64] | None = ...,
    padded_dims: Sequence[int] | None = ...,
    threads: int | None = ...,
) -> tuple[NDArray[np.intp], ...] | tuple[np.intp, ...]: ...
def unravel_index(
    indices: object,
    shape: object,
    order: Order = "C",
    *,
    out: np.ndarray | None = None,
    padded_dims: Sequence[int] | None = None,
    threads: int | None = None,
) -> Any:
    """Like :func:`numpy.unravel_index`, under any layout.

    ``order`` is 'C', 'F' or a ``minor_to_major`` tuple; ``padded_dims``
    gives each dimension's padded width, and an index on padding is an
    error. Returns a tuple of ``rank`` intp arrays shaped like ``indices``
    (intp scalars for a scalar). ``out``, an int64 array of shape
    ``(rank,) + indices.shape``, receives them; the tuple holds its rows.
    """
    target = _shape(shape, order, padded_dims)
    linear = _batch.as_index_array(indices, "indices", allow_bool=True, numpy_rules=True)
    rank = target.rank
    if rank == 0 and linear.ndim:
        raise ValueError("multiple indices are not supported for 0d arrays")
    if out is None:
        rows = np.empty((rank,) + linear.shape, dtype=np.int64)
    else:
        _flat_out(out, (rank,) + linear.shape)
        rows = out
    # The kernel fills an (N, rank) view: here the transpose of (rank, N).
    flat = rows.reshape(rank, linear.size)
    if out is not None:  # dtype, writability and overlap; a new array needs none
        _batch.check_out(flat.T, (linear.size, rank), (linear,))
    _batch.unravel(target._plan, linear.reshape(-1), flat.T, threads)
    if linear.ndim == 0:
        return tuple(row[()] for row in rows)
    return tuple(rows)
