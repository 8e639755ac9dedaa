"""The NumPy drop-ins on other libraries' arrays (NEP 18).

``np.ravel_multi_index`` and ``np.unravel_index`` hand a call whose index
arrays have their own ``__array_function__`` to those arrays' library: a
Dask array in gives a lazy Dask array out. The drop-ins do the same, so that
swapping one in never computes a Dask array or changes a result's type:

- Dask arrays get one task per chunk, built as Dask builds its own result
  (``map_blocks``), which runs the NumPy-level drop-in on the chunk and
  computes nothing until asked: chunks of unknown size (after a boolean
  mask or ``da.flatnonzero``) stay unknown, and 0-d indices compute to
  scalars, as NumPy gives. Every argument carries over (``threads`` is per
  chunk, 1 by default, as in :mod:`xlashape.dask`) except ``out``, which a
  lazy result cannot fill. An out-of-range index raises when computed,
  naming its row in the whole array as in :mod:`xlashape.dask`.
- Any other type goes to NumPy's own function, which hands it on as NumPy
  always does; the arguments NumPy's function lacks (``out``,
  ``padded_dims``, a ``minor_to_major`` order) are refused, and ``threads``
  is not passed on.

The compiled drop-ins (``_drop_ins``) come here for such calls once their
fast paths, which take only ints, NumPy integer scalars and exact ndarrays,
have passed them by: the check costs those calls nothing.
"""

from __future__ import annotations

import functools
import importlib
import math
import sys
from typing import Any

import numpy as np

from ..shapes.shape import Shape
from . import numpy_compat

__all__ = ["ravel_multi_index", "unravel_index"]


def ravel_multi_index(
    multi_index: Any, dims: Any, mode: Any, order: Any, out: Any, padded_dims: Any, threads: Any
) -> Any:
    """:func:`xlashape.ravel_multi_index` of index arrays of another library."""
    columns = list(multi_index) if isinstance(multi_index, (tuple, list)) else None
    items = [multi_index] if columns is None else columns
    if _all_dask(items):
        _refuse_out(out, "ravel_multi_index")
        return _dask_ravel(multi_index, columns, dims, mode, order, padded_dims, threads)
    _refuse_xlashape_only("ravel_multi_index", items, order, out, padded_dims)
    return np.ravel_multi_index(multi_index, dims, mode=mode, order=order)


def unravel_index(
    indices: Any, shape: Any, order: Any, out: Any, padded_dims: Any, threads: Any
) -> Any:
    """:func:`xlashape.unravel_index` of indices of another library."""
    if _all_dask([indices]):
        _refuse_out(out, "unravel_index")
        return _dask_unravel(indices, numpy_compat.new_shape(shape, order, padded_dims), threads)
    _refuse_xlashape_only("unravel_index", [indices], order, out, padded_dims)
    return np.unravel_index(indices, shape, order=order)


def _dask_array_type() -> type | None:
    """dask.array.Array where Dask is imported (no Dask array can exist
    otherwise), else None."""
    module = sys.modules.get("dask.array")
    return getattr(module, "Array", None)


def _all_dask(items: list[Any]) -> bool:
    """Whether every item NumPy would dispatch on is a Dask array (plain
    ndarrays and ints beside them are fine)."""
    array = _dask_array_type()
    if array is None:
        return False
    foreign = [item for item in items if _dispatches(item)]
    return bool(foreign) and all(isinstance(item, array) for item in foreign)


def _dispatches(value: object) -> bool:
    """Whether NumPy hands a call on ``value`` to its type (NEP 18)."""
    method = getattr(type(value), "__array_function__", None)
    return method is not None and method is not np.ndarray.__array_function__


def _refuse_out(out: object, name: str) -> None:
    if out is not None:
        raise TypeError(
            f"xlashape.{name}: out= cannot receive a lazy Dask result; store the returned "
            "Dask array with dask.array.store instead"
        )


def _refuse_xlashape_only(name: str, items: Any, order: Any, out: Any, padded_dims: Any) -> None:
    """TypeError for an argument NumPy's ``name`` has not, when the call goes
    to it for ``items`` of another library."""
    given = [
        option
        for option, present in (
            ("out=", out is not None),
            ("padded_dims=", padded_dims is not None),
            ("a minor_to_major order", order is not None and not isinstance(order, (str, bytes))),
        )
        if present
    ]
    if given:
        kinds = sorted({type(item).__name__ for item in items if _dispatches(item)})
        raise TypeError(
            f"xlashape.{name}: the index arrays are {', '.join(kinds)}, which implement "
            f"__array_function__, so the call goes to NumPy's {name} (as NumPy would hand it "
            f"on), which takes no {' or '.join(given)}; convert them with np.asarray first"
        )


def _dask_ravel(
    multi_index: Any, columns: list[Any] | None, dims: Any, mode: Any, order: Any,
    padded_dims: Any, threads: Any,
) -> Any:
    """ravel_multi_index of Dask columns as Dask builds its own: one task per
    chunk of the columns broadcast together, running the NumPy-level drop-in
    on the blocks. Columns of unknown chunk sizes (after a boolean mask, or
    :func:`dask.array.flatnonzero`) are taken as they are: their chunks must
    match, as the blocks' shapes must when computed."""
    from .. import dask as xs_dask

    da: Any = importlib.import_module("dask.array")  # partly typed
    shape = numpy_compat.new_shape(dims, order, padded_dims)
    rank = shape.rank
    numpy_compat._check_ravel_rank(rank)
    numpy_compat._modes(mode, rank)  # a bad mode fails now, not when computed
    if columns is None:  # a (rank, N) Dask array: its rows are the columns
        columns = list(multi_index)
    if len(columns) != rank:
        raise ValueError(
            f"parameter multi_index must be a sequence of length {rank}, got "
            f"{type(multi_index).__name__} of {len(columns)}"
        )
    arrays = [da.asarray(column) for column in columns]
    for i, array in enumerate(arrays):
        numpy_compat.require_index_dtype(array.dtype, f"multi_index[{i}]")
    if not any(math.isnan(size) for array in arrays for size in array.shape):
        arrays = da.broadcast_arrays(*arrays)  # chunks made alike; needs known sizes
    ndim = max(array.ndim for array in arrays)
    return da.map_blocks(
        functools.partial(
            xs_dask._convert_blocks, _ravel_blocks, rows_of=None, axes=ndim, shape=shape,
            mode=mode, threads=_per_chunk_threads(threads),
        ),
        *arrays,
        meta=np.empty((0,) * ndim, dtype=np.int64),
        token="xlashape-ravel_multi_index",
    )


def _ravel_blocks(*blocks: np.ndarray, shape: Shape, mode: Any, threads: Any) -> Any:
    """The NumPy-level ravel_multi_index of one chunk's columns: an array,
    or for 0-d columns a scalar, as NumPy gives."""
    return numpy_compat.ravel_shaped(shape, blocks, mode, None, threads)


def _dask_unravel(indices: Any, target: Shape, threads: Any) -> tuple[Any, ...]:
    """unravel_index of a Dask array as Dask builds its own: one task per
    chunk giving the chunk's (rank, ...) stack of positions, whose rows are
    the result; so chunks of unknown size stay so, and 0-d indices give
    scalars."""
    from .. import dask as xs_dask

    numpy_compat.require_index_dtype(indices.dtype, "indices")
    rank = target.rank
    if rank == 0:  # no rows to give, as for Dask's own
        return ()
    rows = indices.map_blocks(
        functools.partial(
            xs_dask._convert_blocks, _unravel_block, axes=indices.ndim, target=target,
            threads=_per_chunk_threads(threads),
        ),
        new_axis=0,
        chunks=((rank,), *indices.chunks),
        meta=np.empty((0,) * (indices.ndim + 1), dtype=np.int64),
        token="xlashape-unravel_index",
    )
    return tuple(rows[k] for k in range(rank))


def _unravel_block(block: np.ndarray, target: Shape, threads: Any) -> np.ndarray:
    """The NumPy-level unravel_index of one chunk, its rows stacked."""
    rows = np.empty((target.rank, *block.shape), dtype=np.int64)
    numpy_compat.unravel_shaped(target, block, rows, threads)
    return rows


def _per_chunk_threads(threads: Any) -> Any:
    """``threads`` for each chunk's task, checked now: 1 by default, as in
    :mod:`xlashape.dask`."""
    from .. import dask as xs_dask

    return xs_dask._check_threads(1 if threads is None else threads)
