"""Whole-batch conversions: input checks, threading and errors over the kernels.

These functions take a Shape's LayoutPlan and already-shaped batches; the
public entry points (IndexUtil, ``xlashape.convert`` and the NumPy drop-ins)
shape them. Inputs are only read: no array passed in is ever written, except
``out``. Compiled, and reading array metadata (never data) through NumPy's
C API, so that a call on a small batch costs little more than its kernel.
"""

cimport numpy as cnp

import numpy as np

from xlashape._plan cimport LayoutPlan
from xlashape._types cimport MODE_CLIP, MODE_RAISE, MODE_WRAP

from xlashape import _ravel, _unravel, reference
from xlashape._validate import INT64_MAX
from xlashape.errors import IndexOutOfBoundsError, index_out_of_bounds
from xlashape.threads import run_chunks

cnp.import_array()

RAISE, WRAP, CLIP = MODE_RAISE, MODE_WRAP, MODE_CLIP
MODES = {"raise": RAISE, "wrap": WRAP, "clip": CLIP}
# Rows per call of the column kernel when the columns are separate arrays.
BLOCK = _ravel.ROWS_PER_BLOCK


def _by_dtype(kernel):
    """A fused kernel's specialisations keyed by index dtype, so a call
    skips Cython's (slower) run-time signature matching."""
    return {np.dtype(name.removesuffix("_t")): f for name, f in kernel.__signatures__.items()}


_RAVEL_ROWS = _by_dtype(_ravel.ravel_rows)
_RAVEL_STRIDED = _by_dtype(_ravel.ravel_strided)
_RAVEL_COLUMN = _by_dtype(_ravel.ravel_column)
_UNRAVEL = _by_dtype(_unravel.unravel)


def as_index_array(values, str what, *, bint allow_bool=False, bint numpy_rules=False):
    """``values`` as an integer array in native byte order, without copying
    when it already is one. Booleans are read as 0 and 1 only if allowed.

    Lists are read as a user means them, unless ``numpy_rules`` asks for
    NumPy's TypeErrors: an empty list (typed float64 by NumPy) counts as
    int64, and Python ints no int64 holds (typed float64 or object) are out
    of bounds, an IndexOutOfBoundsError naming the first."""
    if (type(values) is np.ndarray and cnp.PyArray_ISINTEGER(<cnp.ndarray> values)
            and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> values)):
        return values  # the common case, first
    array = np.asarray(values)
    kind = array.dtype.kind
    from_list = not isinstance(values, np.ndarray) and not numpy_rules
    if array.size == 0 and from_list:
        array = array.astype(np.int64)
    elif kind == "b" and allow_bool:
        array = array.view(np.uint8)
    elif kind not in "iu":
        if from_list and kind in "fO":
            _raise_for_huge_ints(values, what)
        raise TypeError(f"{what} must hold integers, got an array of dtype {array.dtype}")
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    return array


cdef _raise_for_huge_ints(values, str what):
    """If ``values`` are all ints, NumPy found no integer dtype for them: the
    first outside [0, int64 max] is out of bounds for any shape."""
    objects = np.asarray(values, dtype=object)
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in objects.flat):
        return
    for position, value in np.ndenumerate(objects):
        if not 0 <= value <= INT64_MAX:
            raise IndexOutOfBoundsError(
                f"{what}: {value} at position {position} is out of bounds; no shape "
                f"holds an index outside [0, {INT64_MAX}]"
            )


cdef void _byte_bounds(cnp.ndarray a, char** low, char** high) noexcept:
    """The first and one-past-last byte an array can touch (as
    np.may_share_memory bounds it), from its metadata."""
    cdef int k
    cdef cnp.npy_intp extent
    low[0] = high[0] = <char*> cnp.PyArray_DATA(a)
    if cnp.PyArray_SIZE(a) == 0:
        return
    for k in range(cnp.PyArray_NDIM(a)):
        extent = (cnp.PyArray_DIM(a, k) - 1) * cnp.PyArray_STRIDE(a, k)
        if extent < 0:
            low[0] += extent
        else:
            high[0] += extent
    high[0] += cnp.PyArray_ITEMSIZE(a)


cdef bint _overlap(cnp.ndarray a, cnp.ndarray b) noexcept:
    cdef char *a_low
    cdef char *a_high
    cdef char *b_low
    cdef char *b_high
    _byte_bounds(a, &a_low, &a_high)
    _byte_bounds(b, &b_low, &b_high)
    return a_low < b_high and b_low < a_high


def check_out(out, tuple shape, inputs):
    """A new int64 array of ``shape``, or ``out`` once checked to fit and
    not to overlap any of ``inputs``."""
    if out is None:
        return np.empty(shape, dtype=np.int64)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a NumPy array, got {type(out).__name__}")
    cdef cnp.ndarray array = out
    if (not cnp.PyArray_EquivTypenums(cnp.PyArray_TYPE(array), cnp.NPY_INT64)
            or not cnp.PyArray_ISNOTSWAPPED(array)):
        raise TypeError(f"out must have dtype int64 (native byte order), got {array.dtype}")
    if out.shape != shape:
        raise ValueError(f"out must have shape {shape}, got {out.shape}")
    if not cnp.PyArray_ISWRITEABLE(array):
        raise ValueError("out is read-only")
    if len(shape) == 1 and not cnp.PyArray_IS_C_CONTIGUOUS(array):
        raise ValueError("out must be contiguous")
    for source in inputs:
        if _overlap(array, source):
            raise ValueError("out overlaps an input array; pass a separate array")
    return out


cdef object _mode_codes(object modes, LayoutPlan plan, Py_ssize_t n):
    """``modes`` (None: every dimension 'raise'), checked against the sizes."""
    if modes is None or not any(modes):
        return None
    if n:
        for dim, (code, size) in enumerate(zip(modes, plan.dimensions)):
            if code != RAISE and size == 0:
                mode = "wrap" if code == WRAP else "clip"
                raise ValueError(f"cannot {mode} indices into dimension {dim} of size 0")
    return modes


cdef _raise_ravel_error(LayoutPlan plan, tuple values, object codes, Py_ssize_t row):
    for dim, (value, size) in enumerate(zip(values, plan.dimensions)):
        if (codes is None or codes[dim] == RAISE) and not 0 <= value < size:
            raise index_out_of_bounds(value, dim, size, values, row)
    raise AssertionError(f"kernel flagged row {row} but it is in bounds")  # pragma: no cover


def ravel_array(LayoutPlan plan, cnp.ndarray indices, modes=None, out=None, threads=None):
    """Linear indices of an (N, rank) integer array, any strides. ``modes``
    holds one of RAISE, WRAP, CLIP per dimension; None means all RAISE."""
    cdef Py_ssize_t n = cnp.PyArray_DIM(indices, 0)
    out = check_out(out, (n,), (indices,))
    codes = _mode_codes(modes, plan, n)
    if plan.rank == 0:
        out.fill(0)
        return out
    if codes is None and cnp.PyArray_IS_C_CONTIGUOUS(indices):
        row = run_chunks(_RAVEL_ROWS[indices.dtype], (plan, indices, out), n, threads)
    else:
        args = (plan, indices, codes or bytes(plan.rank), out)
        row = run_chunks(_RAVEL_STRIDED[indices.dtype], args, n, threads)
    if row >= 0:
        _raise_ravel_error(plan, tuple(int(v) for v in indices[row]), codes, row)
    return out


def ravel_columns(LayoutPlan plan, columns, modes=None, out=None, threads=None):
    """Linear indices of ``rank`` 1-D integer arrays of one length, one per
    dimension (NumPy's ``multi_index`` form); ``modes`` as for ravel_array."""
    n = len(columns[0]) if columns else 0
    out = check_out(out, (n,), tuple(columns))
    codes = _mode_codes(modes, plan, n) or bytes(plan.rank)
    if plan.rank == 0:
        out.fill(0)
        return out

    kernels = [_RAVEL_COLUMN[column.dtype] for column in columns]

    def blocks(Py_ssize_t start, Py_ssize_t stop):
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

    row = run_chunks(blocks, (), n, threads)
    if row >= 0:
        _raise_ravel_error(plan, tuple(int(c[row]) for c in columns), codes, row)
    return out


def unravel(LayoutPlan plan, cnp.ndarray linear, out, threads=None):
    """Fill ``out`` (N, rank), any strides, with the multi-indices of the
    1-D integer array ``linear``."""
    cdef Py_ssize_t n = cnp.PyArray_DIM(linear, 0), row
    if plan.rank == 0:
        nonzero = np.flatnonzero(linear)
        row = int(nonzero[0]) if nonzero.size else -1
    else:
        row = run_chunks(_UNRAVEL[linear.dtype], (plan, linear, out), n, threads)
    if row >= 0:
        reference.multi_index(
            plan.dimensions, plan.minor_to_major, plan.widths, int(linear[row]), row=row
        )
        raise AssertionError(f"kernel flagged row {row} but it is valid")  # pragma: no cover
    return out
