"""The NumPy drop-ins on other libraries' arrays (NEP 18).

``np.ravel_multi_index`` and ``np.unravel_index`` hand a call whose index
arrays have their own ``__array_function__`` to those arrays' library: a
Dask array in gives a lazy Dask array out. The drop-ins do the same, so that
swapping one in never computes a Dask array or changes a result's type:

- Dask arrays go to :mod:`xlashape.dask`, which adds one task per chunk and
  computes nothing; every argument carries over (``threads`` is per chunk,
  1 by default, as there) except ``out``, which a lazy result cannot fill.
- Any other type goes to NumPy's own function, which hands it on as NumPy
  always does; the arguments NumPy's function lacks (``out``,
  ``padded_dims``, a ``minor_to_major`` order) are refused, and ``threads``
  is not passed on.

The compiled drop-ins (``_drop_ins``) come here for such calls once their
fast paths, which take only ints, NumPy integer scalars and exact ndarrays,
have passed them by: the check costs those calls nothing.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import numpy as np

from . import _batch, numpy_compat

__all__ = ["ravel_multi_index", "unravel_index"]

_MODE_NAMES = {code: name for name, code in _batch.MODES.items()}


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
        from . import dask as xs_dask

        target = numpy_compat.new_shape(shape, order, padded_dims)
        rows = xs_dask.unravel(indices.reshape(-1), target, threads=_per_chunk(threads))
        return tuple(rows[:, k].reshape(indices.shape) for k in range(target.rank))
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


def _per_chunk(threads: Any) -> Any:
    return 1 if threads is None else threads


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
    """ravel_multi_index through :func:`xlashape.dask.ravel`: the columns
    broadcast together, stacked as (N, rank) rows, raveled chunk by chunk and
    given the broadcast shape."""
    from . import dask as xs_dask

    da: Any = importlib.import_module("dask.array")  # partly typed
    shape = numpy_compat.new_shape(dims, order, padded_dims)
    rank = shape.rank
    numpy_compat._check_ravel_rank(rank)
    codes = numpy_compat._modes(mode, rank)
    modes = "raise" if codes is None else tuple(_MODE_NAMES[code] for code in codes)
    if columns is None:  # a (rank, N) Dask array: its rows are the columns
        columns = list(multi_index)
    if len(columns) != rank:
        raise ValueError(
            f"parameter multi_index must be a sequence of length {rank}, got "
            f"{type(multi_index).__name__} of {len(columns)}"
        )
    broadcast = da.broadcast_arrays(*map(da.asarray, columns))
    rows = da.stack([column.reshape(-1) for column in broadcast], axis=1)
    offsets: Any = xs_dask.ravel(rows, shape, mode=modes, threads=_per_chunk(threads))
    return offsets.reshape(broadcast[0].shape)
