"""Whole-batch conversions: input checks, threading and errors over the kernels.

These functions take a Shape's LayoutPlan and already-shaped batches; the
public entry points (IndexUtil and the NumPy drop-ins) shape them. Inputs
are only read: no array passed in is ever written, except ``out``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import _ravel, _unravel, reference
from ._plan import LayoutPlan
from .errors import index_out_of_bounds
from .threads import run_chunks

__all__ = ["as_index_array", "check_out", "ravel_array", "ravel_columns", "unravel"]

RAISE, WRAP, CLIP = 0, 1, 2
MODES = {"raise": RAISE, "wrap": WRAP, "clip": CLIP}
_INT64 = np.dtype(np.int64)
# Rows per call of the column kernel when the columns are separate arrays.
BLOCK = 1 << 16


def _by_dtype(kernel) -> dict:
    """A fused kernel's specialisations keyed by index dtype, so a call
    skips Cython's (slower) run-time signature matching."""
    return {np.dtype(name.removesuffix("_t")): f for name, f in kernel.__signatures__.items()}


_RAVEL_ROWS = _by_dtype(_ravel.ravel_rows)
_RAVEL_STRIDED = _by_dtype(_ravel.ravel_strided)
_RAVEL_COLUMN = _by_dtype(_ravel.ravel_column)
_UNRAVEL = _by_dtype(_unravel.unravel)


def as_index_array(
    values: object, what: str, *, allow_bool: bool = False, numpy_empty_rule: bool = False
) -> np.ndarray:
    """``values`` as an integer array in native byte order, without copying
    when it already is one. Booleans are read as 0 and 1 only if allowed.

    An empty list (which NumPy types as float64) counts as int64, unless
    ``numpy_empty_rule`` asks for NumPy's TypeError."""
    if type(values) is np.ndarray and values.dtype.kind in "iu" and values.dtype.isnative:
        return values  # the common case, first
    array = np.asarray(values)
    kind = array.dtype.kind
    if array.size == 0 and not isinstance(values, np.ndarray) and not numpy_empty_rule:
        array = array.astype(np.int64)
    elif kind == "b" and allow_bool:
        array = array.view(np.uint8)
    elif kind not in "iu":
        raise TypeError(f"{what} must hold integers, got an array of dtype {array.dtype}")
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    return array


def check_out(out: object, shape: tuple[int, ...], inputs: Sequence[np.ndarray]) -> np.ndarray:
    """A new int64 array of ``shape``, or ``out`` once checked to fit."""
    if out is None:
        return np.empty(shape, dtype=_INT64)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a NumPy array, got {type(out).__name__}")
    if out.dtype != _INT64:
        raise TypeError(f"out must have dtype int64 (native byte order), got {out.dtype}")
    if out.shape != shape:
        raise ValueError(f"out must have shape {shape}, got {out.shape}")
    flags = out.flags
    if not flags.writeable:
        raise ValueError("out is read-only")
    if len(shape) == 1 and not flags.c_contiguous:
        raise ValueError("out must be contiguous")
    for array in inputs:
        if np.may_share_memory(out, array):
            raise ValueError("out overlaps an input array; pass a separate array")
    return out


def _mode_codes(modes: bytes | None, plan: LayoutPlan, n: int) -> bytes | None:
    """``modes`` (None: every dimension 'raise'), checked against the sizes."""
    if modes is None or not any(modes):
        return None
    if n:
        for dim, (code, size) in enumerate(zip(modes, plan.dimensions)):
            if code != RAISE and size == 0:
                mode = "wrap" if code == WRAP else "clip"
                raise ValueError(f"cannot {mode} indices into dimension {dim} of size 0")
    return modes


def _raise_ravel_error(plan: LayoutPlan, values: tuple[int, ...], codes: bytes | None, row: int):
    for dim, (value, size) in enumerate(zip(values, plan.dimensions)):
        if (codes is None or codes[dim] == RAISE) and not 0 <= value < size:
            raise index_out_of_bounds(value, dim, size, values, row)
    raise AssertionError(f"kernel flagged row {row} but it is in bounds")  # pragma: no cover


def ravel_array(
    plan: LayoutPlan,
    indices: np.ndarray,
    modes: bytes | None = None,
    out: np.ndarray | None = None,
    threads: object = None,
) -> np.ndarray:
    """Linear indices of an (N, rank) integer array, any strides. ``modes``
    holds one of RAISE, WRAP, CLIP per dimension; None means all RAISE."""
    n = indices.shape[0]
    out = check_out(out, (n,), [indices])
    codes = _mode_codes(modes, plan, n)
    if plan.rank == 0:
        out.fill(0)
        return out
    if codes is None and indices.flags.c_contiguous:
        kernel = _RAVEL_ROWS[indices.dtype]

        def task(start: int, stop: int) -> int:
            return kernel(plan, indices, out, start, stop)

    else:
        kernel = _RAVEL_STRIDED[indices.dtype]
        codes = codes or bytes(plan.rank)

        def task(start: int, stop: int) -> int:
            return kernel(plan, indices, codes, out, start, stop)

    row = run_chunks(task, n, threads)
    if row >= 0:
        _raise_ravel_error(plan, tuple(int(v) for v in indices[row]), codes, row)
    return out


def ravel_columns(
    plan: LayoutPlan,
    columns: Sequence[np.ndarray],
    modes: bytes | None = None,
    out: np.ndarray | None = None,
    threads: object = None,
) -> np.ndarray:
    """Linear indices of ``rank`` 1-D integer arrays of one length, one per
    dimension (NumPy's ``multi_index`` form); ``modes`` as for ravel_array."""
    n = len(columns[0]) if columns else 0
    out = check_out(out, (n,), columns)
    codes = _mode_codes(modes, plan, n) or bytes(plan.rank)
    if plan.rank == 0:
        out.fill(0)
        return out

    kernels = [_RAVEL_COLUMN[column.dtype] for column in columns]

    def task(start: int, stop: int) -> int:
        for b0 in range(start, stop, BLOCK):
            b1 = min(b0 + BLOCK, stop)
            bad = [
                kernel(plan, dim, column, codes[dim], out, b0, b1, dim == 0)
                for dim, (kernel, column) in enumerate(zip(kernels, columns))
            ]
            bad = [row for row in bad if row >= 0]
            if bad:
                return min(bad)
        return -1

    row = run_chunks(task, n, threads)
    if row >= 0:
        _raise_ravel_error(plan, tuple(int(c[row]) for c in columns), codes, row)
    return out


def unravel(
    plan: LayoutPlan, linear: np.ndarray, out: np.ndarray, threads: object = None
) -> np.ndarray:
    """Fill ``out`` (N, rank), any strides, with the multi-indices of the
    1-D integer array ``linear``."""
    n = linear.shape[0]
    if plan.rank == 0:
        nonzero = np.flatnonzero(linear)
        row = int(nonzero[0]) if nonzero.size else -1
    else:

        kernel = _UNRAVEL[linear.dtype]

        def task(start: int, stop: int) -> int:
            return kernel(plan, linear, out, start, stop)

        row = run_chunks(task, n, threads)
    if row >= 0:
        reference.multi_index(
            plan.dimensions, plan.minor_to_major, plan.widths, int(linear[row]), row=row
        )
        raise AssertionError(f"kernel flagged row {row} but it is valid")  # pragma: no cover
    return out
