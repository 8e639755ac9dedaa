"""Batch conversion over Dask arrays: ``ravel`` and ``unravel`` chunk by chunk.

Install with ``pip install "xlashape[dask]"``, which brings ``dask[array]``
and ``distributed``. ``import xlashape`` never imports Dask; importing this
module does.

Each function checks its arguments at once, then adds one task per row chunk
to the graph. The task runs the NumPy-level function (:func:`xlashape.ravel`
or :func:`xlashape.unravel`) on its chunk, wherever Dask runs it: in a thread
of the threaded scheduler or in a ``distributed`` worker process, which
imports xlashape and runs its compiled kernels on the (possibly read-only)
blocks it is handed. Nothing is computed until the result is.

How the NumPy-level arguments carry over:

- ``mode`` is the same, and is checked when the graph is built.
- ``out`` is not taken. A Dask array is lazy and its chunks are made on
  the workers, so there is no buffer to fill in place. To write the result
  into an existing array (a NumPy memmap, Zarr, HDF5), pass it to
  :func:`dask.array.store`.
- ``threads`` is per chunk and defaults to 1, not to the process-wide
  setting: Dask already runs one chunk per core, and more threads per chunk
  would oversubscribe them. ``None`` means :func:`xlashape.get_num_threads`
  in the process that runs the chunk.
- An out-of-range index raises :class:`xlashape.IndexOutOfBoundsError` when
  the result is computed, with the same message as the NumPy-level function
  except that the row is the row of the whole array, followed by the row
  within its chunk. If several chunks hold bad rows, the error comes from
  whichever of them fails first, which need not be the earliest. When the
  chunk sizes are unknown (after boolean indexing, say), the row is given
  within its chunk only; ``compute_chunk_sizes()`` restores global rows.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._validate import require_integer_dtype
from .core.threads import check_threads
from .errors import IndexOutOfBoundsError
from .shapes import convert
from .shapes.shape import Shape
from .shapes.shape_text import require_shape

try:
    import dask.array as da
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        'xlashape.dask needs Dask: pip install "xlashape[dask]" '
        '(or "dask[array]" and distributed)'
    ) from error

__all__ = ["ravel", "unravel"]

def _integer_batch(values: object, what: str) -> Any:  # a dask.array.Array (Dask is partly typed)
    """``values`` as a Dask array of integers: the NumPy-level TypeError for
    a non-integer batch, raised before any task runs (and, for values that
    are not a Dask array, before Dask reads them: it refuses object arrays
    with NotImplementedError)."""
    if not isinstance(values, da.Array):
        values = np.asarray(values)
        require_integer_dtype(values.dtype, what)
    array = da.asarray(values)
    require_integer_dtype(array.dtype, what)
    return array


def _check_threads(threads: int | None) -> int | None:
    """``threads`` checked now, so that a bad count fails before computing."""
    return None if threads is None else check_threads(threads)


def _global_row_error(
    error: IndexOutOfBoundsError, info: dict[str, Any], axes: int
) -> IndexOutOfBoundsError:
    """``error`` from one chunk, its row restated as a row of the whole array.

    ``info`` is the chunk's entry in Dask's ``block_info``; the chunk's first
    ``axes`` axes, read in C order, are the rows of the batch (1 for an (N,)
    or (N, rank) batch, all of them for the drop-ins' index arrays).
    """
    if error.row is None or axes == 0:  # a 0-d array is one row: its own
        return error
    location = info["array-location"][:axes]
    chunk = info["chunk-location"][:axes]
    label = f"row chunk {chunk[0]}" if axes == 1 else f"chunk {tuple(chunk)}"
    if any(math.isnan(start) for start, _ in location):
        return error.restated(
            error.row,
            f"{label} (chunk sizes unknown: call compute_chunk_sizes() for the "
            "row in the whole batch)",
        )
    within = np.unravel_index(error.row, [stop - start for start, stop in location])
    position = [int(start + offset) for (start, _), offset in zip(location, within)]
    row = int(np.ravel_multi_index(position, info["shape"][:axes]))
    return error.restated(row, f"the batch (row {error.row} of {label})")


def _convert_blocks(
    function: Callable[..., Any],
    *blocks: np.ndarray,
    block_info: dict[Any, dict[str, Any]],
    rows_of: int | None = 0,
    axes: int = 1,
    **kwargs: Any,
) -> Any:
    """``function(*blocks, **kwargs)`` for one chunk, errors naming rows of
    the whole batch: those of Dask's ``block_info[rows_of]`` (an input's
    number, or None for the output), whose first ``axes`` axes hold them."""
    try:
        return function(*blocks, **kwargs)
    except IndexOutOfBoundsError as error:
        raise _global_row_error(error, block_info[rows_of], axes).with_traceback(
            error.__traceback__
        ) from None


def _ravel_column(block: np.ndarray, shape: Shape, **kwargs: Any) -> np.ndarray:
    """:func:`xlashape.ravel` of one block, as an (n, 1) view."""
    return convert.ravel(block, shape, **kwargs)[:, None]


def _only_column(blocks: list[np.ndarray]) -> np.ndarray:
    """Column 0 of the one block that blockwise hands over, as a view."""
    (block,) = blocks
    return block[:, 0]


def ravel(
    indices: object,
    shape: Shape | str,
    *,
    mode: str | Sequence[str] = "raise",
    threads: int | None = 1,
) -> da.Array:
    """Linear indices of an (N, rank) Dask array of multi-indices in ``shape``.

    Each chunk goes through :func:`xlashape.ravel`. ``indices`` may have any
    integer dtype; anything that is not a Dask array goes through
    :func:`dask.array.asarray`. ``mode`` says what an index outside its
    dimension does: 'raise', 'wrap' or 'clip', once or per dimension.
    ``threads`` is the thread count per chunk (see the module notes: 1 by
    default; None for the worker's default). There is no ``out``: use
    :func:`dask.array.store` on the result.

    Returns a lazy (N,) int64 Dask array with the row chunks of ``indices``.
    Each block is read in place, unless the rank axis is split: then it is
    rechunked to a single chunk first, which copies. With
    'raise', computing it raises :class:`xlashape.IndexOutOfBoundsError`
    naming the row of ``indices`` that is out of range.

    Parameters
    ----------
    indices : dask.array.Array or array_like of int, shape (N, rank)
        The multi-indices, one per row.
    shape : Shape
        The shape whose layout gives the offsets.
    mode : {'raise', 'wrap', 'clip'} or sequence of them, optional
        As for :func:`xlashape.ravel`.
    threads : int or None, optional
        Threads per chunk; 1 by default.

    Returns
    -------
    dask.array.Array of int64, shape (N,)

    Raises
    ------
    ValueError, TypeError
        At once, for a wrong rank, dtype or mode.
    IndexOutOfBoundsError
        When computed, for an index out of range with ``mode='raise'``.

    Examples
    --------
    >>> import dask.array as da, xlashape.dask
    >>> shape = xs.ShapeUtil.parse_shape_string("s32[10,10]{0,1}")
    >>> indices = da.from_array(np.array([[1, 2], [3, 4], [5, 6]]), chunks=(2, 2))
    >>> xlashape.dask.ravel(indices, shape).compute(scheduler="synchronous")
    array([21, 43, 65])
    >>> bad = da.from_array(np.array([[1, 2], [3, 4], [5, 60]]), chunks=(2, 2))
    >>> xlashape.dask.ravel(bad, shape).compute(scheduler="synchronous")
    Traceback (most recent call last):
      ...
    xlashape.errors.IndexOutOfBoundsError: index 60 is out of bounds for dimension 1 with size 10 at row 2 of the batch (row 0 of row chunk 1); multi-index (5, 60)
    """
    shape = require_shape(shape)
    rank = shape.rank
    mode = mode if isinstance(mode, str) else tuple(mode)
    convert.mode_codes(mode, rank)  # a bad mode fails now, not at compute time
    array = _integer_batch(indices, "multi-indices")
    if array.ndim != 2 or array.shape[1] != rank:
        raise ValueError(
            f"a batch of multi-indices must be an (N, {rank}) array for a "
            f"rank-{rank} shape, got shape {array.shape}"
        )
    if array.numblocks[1] > 1:
        array = array.rechunk({1: -1})
    # map_blocks would copy every block to drop the rank axis: it concatenates
    # the blocks along a dropped axis, even a single one. So the kernel's
    # result keeps that axis with length 1, and blockwise, told not to
    # concatenate, takes it away as a view. Dask fuses the two steps into one
    # task per row chunk.
    columns = array.map_blocks(
        functools.partial(
            _convert_blocks, _ravel_column, shape=shape, mode=mode, threads=_check_threads(threads)
        ),
        chunks=(array.chunks[0], (1,)),
        meta=np.empty((0, 0), dtype=np.int64),
        token="xlashape-ravel-column",
    )
    return da.blockwise(
        _only_column,
        "i",
        columns,
        "ij",
        concatenate=False,
        meta=np.empty((0,), dtype=np.int64),
        token="xlashape-ravel",
    )


def unravel(offsets: object, shape: Shape | str, *, threads: int | None = 1) -> da.Array:
    """Multi-indices of a 1-D Dask array of linear indices into ``shape``'s
    buffer.

    Each chunk goes through :func:`xlashape.unravel`. ``offsets`` may have
    any integer dtype; anything that is not a Dask array goes through
    :func:`dask.array.asarray`. ``threads`` is the thread count per chunk
    (1 by default; None for the worker's default). There is no ``out``: use
    :func:`dask.array.store` on the result.

    Returns a lazy (N, rank) int64 Dask array with the chunks of ``offsets``
    along its rows and the rank axis in one chunk. Computing it raises
    :class:`xlashape.IndexOutOfBoundsError` naming the row of ``offsets``
    for an offset outside the buffer or on padding.

    Parameters
    ----------
    offsets : dask.array.Array or array_like of int, shape (N,)
        Linear indices into the shape's buffer.
    shape : Shape
        The shape whose layout gives the multi-indices.
    threads : int or None, optional
        Threads per chunk; 1 by default.

    Returns
    -------
    dask.array.Array of int64, shape (N, rank)

    Raises
    ------
    ValueError, TypeError
        At once, for a wrong rank or dtype.
    IndexOutOfBoundsError
        When computed, for an offset outside the buffer or on padding.

    Examples
    --------
    >>> import dask.array as da, xlashape.dask
    >>> shape = xs.ShapeUtil.parse_shape_string("s32[10,10]{0,1}")
    >>> offsets = da.from_array(np.array([21, 43, 65]), chunks=2)
    >>> xlashape.dask.unravel(offsets, shape).compute(scheduler="synchronous")
    array([[1, 2],
           [3, 4],
           [5, 6]])
    """
    shape = require_shape(shape)
    rank = shape.rank
    array = _integer_batch(offsets, "linear indices")
    if array.ndim != 1:
        raise ValueError(f"a batch of linear indices must be 1-D, got shape {array.shape}")
    return array.map_blocks(
        functools.partial(
            _convert_blocks, convert.unravel, shape=shape, threads=_check_threads(threads)
        ),
        new_axis=1,
        chunks=(array.chunks[0], (rank,)),
        meta=np.empty((0, 0), dtype=np.int64),
        token="xlashape-unravel",
    )
