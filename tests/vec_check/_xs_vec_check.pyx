"""The vector operations of csrc/kernels_vec.h one call at a time, for
tests/test_vector_ops.py, as NumPy's ``_simd`` module exposes its universal
intrinsics to its tests: test-only code, which tests/vec_check/build.py
builds, never part of the package.

Levels (``LEVELS``): ``portable4`` and ``portable8``, the plain-C
reference (csrc/kernels_vec_portable.h with 4 and 8 lanes), on every CPU;
``avx2`` and ``avx512`` where GCC or clang compiles for x86. ``run``
refuses a level this CPU does not run. The portable levels also carry the
untiled loops of csrc/kernels_impl.h compiled over their operations
(``ravel_rows`` and the functions after it), so that the vector loops run
on any CPU. csrc/vec_check.h and vec_check_impl.h say what each operation
reads and writes.
"""

cimport numpy as cnp
from libc.stdint cimport int64_t, uint32_t, uint64_t, uintptr_t
from libc.string cimport memcpy, memset

from xlashape.core._plan cimport LayoutPlan, xs_plan

import numpy as np

cnp.import_array()


cdef extern from "vec_check.h" nogil:
    enum:
        XS_VCHECK_NOPS
        XS_VCHECK_ABSENT
        XS_VCHECK_OUTSIDE
        XS_VCHECK_IN
        XS_VCHECK_PARAMS
        XS_VCHECK_OUT

    ctypedef struct xs_vcheck_info:
        int lanes, bytes, rows_ranks, ravel_ranks, optional

    ctypedef uint64_t (*xs_vcheck_ravel_rows_fn)(const xs_plan*, const void*, int64_t*,
                                                 Py_ssize_t, Py_ssize_t, int)
    ctypedef uint64_t (*xs_vcheck_ravel_cols_fn)(const xs_plan*, const char* const*, int64_t*,
                                                 Py_ssize_t, Py_ssize_t, int)
    ctypedef uint64_t (*xs_vcheck_ravel_cols32_fn)(const xs_plan*, const char* const*,
                                                   uint32_t*, Py_ssize_t, Py_ssize_t, int, int)
    ctypedef uint64_t (*xs_vcheck_unravel_rows_fn)(const xs_plan*, const void*, int64_t*,
                                                   Py_ssize_t, Py_ssize_t, Py_ssize_t,
                                                   Py_ssize_t, int)
    ctypedef Py_ssize_t (*xs_vcheck_unravel32_fn)(const xs_plan*, const void*, uint32_t*,
                                                  Py_ssize_t, Py_ssize_t, Py_ssize_t, int,
                                                  uint64_t*)

    ctypedef struct xs_vcheck_kernels:
        xs_vcheck_ravel_rows_fn ravel_rows[2]
        xs_vcheck_ravel_cols_fn ravel_cols[2]
        xs_vcheck_ravel_cols32_fn ravel_cols32[2]
        xs_vcheck_unravel_rows_fn unravel_rows[2]
        xs_vcheck_unravel32_fn unravel32[2]

    ctypedef struct xs_vcheck_level:
        const char* name
        int (*supported)()
        xs_vcheck_info info
        int64_t (*run)(int op, const uint64_t* in_, const uint64_t* param, char* out,
                       unsigned int* ok, uint64_t* flag)
        xs_vcheck_kernels kernels

    int xs_vcheck_nlevels()
    const xs_vcheck_level* xs_vcheck_level_at(int k)
    const char* xs_vcheck_op_name(int op)


cdef dict _levels = {}
for _k in range(xs_vcheck_nlevels()):
    _levels[xs_vcheck_level_at(_k).name.decode()] = _k

OPS = tuple(xs_vcheck_op_name(op).decode() for op in range(XS_VCHECK_NOPS))
cdef dict _ops = {name: op for op, name in enumerate(OPS)}
OUT_BYTES = XS_VCHECK_OUT
IN_BYTES = 8 * XS_VCHECK_IN


cdef frozenset _ranks(int bits):
    return frozenset(r for r in range(1, 9) if bits >> r & 1)


cdef dict _info(const xs_vcheck_level* level):
    cdef xs_vcheck_info i = level.info
    optional = set()
    if i.optional & 1:
        optional.add("xs_vravel_column")
    if i.optional & 2:
        optional.add("xs_vstore_rows32")
    return {
        "lanes": i.lanes,
        "bytes": i.bytes,
        "rows_ranks": _ranks(i.rows_ranks),
        "ravel_ranks": _ranks(i.ravel_ranks),
        "optional": frozenset(optional),
        "supported": bool(level.supported()),
    }


# Every level this build has: its lanes, bytes, the ranks of XS_VROWS and
# XS_VRAVEL, its optional operations, and whether this CPU runs it.
LEVELS = {name: _info(xs_vcheck_level_at(k)) for name, k in _levels.items()}


cdef const xs_vcheck_level* _level(str name, bint run) except NULL:
    if name not in _levels:
        raise ValueError(f"a level of {sorted(_levels)}, got {name!r}")
    cdef const xs_vcheck_level* level = xs_vcheck_level_at(_levels[name])
    if run and not level.supported():
        raise ValueError(f"this CPU does not run the level {name!r}")
    return level


def _aligned_out(int fill):
    """OUT_BYTES of ``fill`` bytes, aligned to 64 bytes."""
    buffer = np.full(XS_VCHECK_OUT + 64, fill, dtype=np.uint8)
    cdef uintptr_t at = <uintptr_t> cnp.PyArray_DATA(buffer)
    skip = (64 - at % 64) % 64
    return buffer[skip:skip + XS_VCHECK_OUT]


def run(str level, str op, data=None, params=(), unsigned int ok=0, uint64_t flag=0,
        int fill=0xA5):
    """Apply the operation ``op`` at ``level`` to the bytes of ``data`` (an
    array, its bytes as the vectors and items of vec_check_impl.h; zeros
    past them) and the integers ``params`` (each modulo 2**64), with ``ok``
    (bit l: lane l good) and ``flag``. Returns ``(result, out, ok,
    flag)``: the operation's int result, OUT_BYTES bytes (a uint8 array,
    64-byte aligned, ``fill`` where nothing was written), and ``ok`` and
    ``flag`` after it. LookupError where the level lacks the operation,
    ValueError for arguments outside what it takes."""
    cdef const xs_vcheck_level* lv = _level(level, True)
    if op not in _ops:
        raise ValueError(f"an operation of OPS, got {op!r}")
    cdef uint64_t in_[XS_VCHECK_IN]
    cdef uint64_t param[XS_VCHECK_PARAMS]
    memset(in_, 0, sizeof(in_))
    memset(param, 0, sizeof(param))
    cdef const unsigned char[::1] raw
    if data is not None:
        raw = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
        if raw.shape[0] > <Py_ssize_t> sizeof(in_):
            raise ValueError(f"at most {sizeof(in_)} bytes of data, got {raw.shape[0]}")
        if raw.shape[0]:
            memcpy(in_, &raw[0], raw.shape[0])
    if len(params) > XS_VCHECK_PARAMS:
        raise ValueError(f"at most {XS_VCHECK_PARAMS} params, got {len(params)}")
    for k, value in enumerate(params):
        param[k] = <uint64_t> (int(value) & 0xFFFFFFFFFFFFFFFF)
    out = _aligned_out(fill)
    cdef char* at = <char*> cnp.PyArray_DATA(out)
    cdef int64_t result = lv.run(_ops[op], in_, param, at, &ok, &flag)
    if result == XS_VCHECK_ABSENT:
        raise LookupError(f"the level {level!r} has no {op}")
    if result == XS_VCHECK_OUTSIDE:
        raise ValueError(f"arguments outside what {op} takes at {level!r}: {tuple(params)}")
    return result, out, ok, flag


# -- the untiled loops of kernels_impl.h over a portable level ----------------

cdef int _dtype_index(cnp.ndarray a, str what) except -1:
    if a.dtype == np.int32:
        return 0
    if a.dtype == np.int64:
        return 1
    raise TypeError(f"{what}: int32 or int64, got {a.dtype}")


cdef const xs_vcheck_level* _kernels(str level) except NULL:
    cdef const xs_vcheck_level* lv = _level(level, True)
    if lv.kernels.ravel_rows[0] == NULL:
        raise ValueError(f"the level {level!r} carries no kernels (the portable ones do)")
    return lv


cdef _check_out(cnp.ndarray out, dtype, Py_ssize_t items):
    if out.dtype != dtype or not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"out: a writeable C-contiguous {np.dtype(dtype)} array, got {out.dtype}")
    if out.size < items:
        raise ValueError(f"out: at least {items} items, got {out.size}")


cdef _check_range(Py_ssize_t start, Py_ssize_t stop, Py_ssize_t n):
    if not 0 <= start <= stop <= n:
        raise ValueError(f"rows [start, stop) within {n}, got [{start}, {stop})")


def ravel_rows(str level, LayoutPlan plan, cnp.ndarray rows, cnp.ndarray out,
               Py_ssize_t start, Py_ssize_t stop, int store=0):
    """xs_ravel_rows of the C-contiguous (N, rank) int32/int64 ``rows`` into
    the int64 ``out``, rows [start, stop), storing by ``store`` (enum
    xs_store); returns whether some row is bad."""
    cdef const xs_vcheck_level* lv = _kernels(level)
    cdef int t = _dtype_index(rows, "rows")
    if rows.ndim != 2 or rows.shape[1] != plan.rank or not rows.flags.c_contiguous:
        raise ValueError(f"rows: C-contiguous (N, {plan.rank}), got {np.shape(rows)}")
    _check_range(start, stop, rows.shape[0])
    _check_out(out, np.int64, stop)
    return lv.kernels.ravel_rows[t](&plan.c, cnp.PyArray_DATA(rows),
                                    <int64_t*> cnp.PyArray_DATA(out), start, stop, store) != 0


cdef list _columns(LayoutPlan plan, list columns, Py_ssize_t stop, int* t):
    if len(columns) != plan.rank or not 1 <= plan.rank <= 8:
        raise ValueError(f"columns: one per dimension (1 to 8), got {len(columns)}")
    kept = [np.ascontiguousarray(c) for c in columns]
    t[0] = _dtype_index(kept[0], "columns")
    for c in kept:
        if c.dtype != kept[0].dtype or c.ndim != 1 or c.shape[0] < stop:
            raise ValueError("columns: 1-D, of one dtype, each at least stop long")
    return kept


def ravel_cols(str level, LayoutPlan plan, list columns, cnp.ndarray out,
               Py_ssize_t start, Py_ssize_t stop, int store=0):
    """xs_ravel_cols of ``rank`` int32/int64 columns into the int64
    ``out``; returns whether some row is bad."""
    cdef const xs_vcheck_level* lv = _kernels(level)
    cdef int t = 0
    kept = _columns(plan, columns, stop, &t)
    _check_range(start, stop, stop)
    _check_out(out, np.int64, stop)
    cdef const char* pointer[8]
    for j, c in enumerate(kept):
        pointer[j] = <const char*> cnp.PyArray_DATA(c)
    return lv.kernels.ravel_cols[t](&plan.c, pointer, <int64_t*> cnp.PyArray_DATA(out),
                                    start, stop, store) != 0


def ravel_cols32(str level, LayoutPlan plan, cnp.ndarray rows, cnp.ndarray out,
                 Py_ssize_t start, Py_ssize_t stop, int store=0):
    """xs_ravel_cols32 of the C-contiguous (N, rank) int32/int64 ``rows``
    (its ``rows`` form: column j read with a step of rank) into the uint32
    ``out``, for a plan of at most 2**31 elements; returns whether some row
    is bad."""
    cdef const xs_vcheck_level* lv = _kernels(level)
    cdef int t = _dtype_index(rows, "rows")
    if rows.ndim != 2 or rows.shape[1] != plan.rank or not rows.flags.c_contiguous:
        raise ValueError(f"rows: C-contiguous (N, {plan.rank}), got {np.shape(rows)}")
    if not 1 <= plan.rank <= 8 or plan.size > 2**31:
        raise ValueError("a plan of rank 1 to 8 and at most 2**31 elements")
    _check_range(start, stop, rows.shape[0])
    _check_out(out, np.uint32, stop)
    cdef const char* pointer[8]
    cdef const char* data = <const char*> cnp.PyArray_DATA(rows)
    cdef Py_ssize_t j
    for j in range(plan.rank):
        pointer[j] = data + j * cnp.PyArray_ITEMSIZE(rows)
    return lv.kernels.ravel_cols32[t](&plan.c, pointer, <uint32_t*> cnp.PyArray_DATA(out),
                                      start, stop, 1, store) != 0


def unravel_rows(str level, LayoutPlan plan, cnp.ndarray linear, cnp.ndarray out,
                 Py_ssize_t start, Py_ssize_t stop, int store=0):
    """xs_unravel_rows of the contiguous int32/int64 ``linear`` into the
    (N, rank) int64 ``out``, any strides of whole items (C-contiguous rows,
    or the transpose of a (rank, N) array); returns whether some offset is
    bad."""
    cdef const xs_vcheck_level* lv = _kernels(level)
    cdef int t = _dtype_index(linear, "linear")
    if linear.ndim != 1 or not linear.flags.c_contiguous:
        raise ValueError("linear: a contiguous 1-D array")
    if (out.dtype != np.int64 or out.ndim != 2 or out.shape[1] != plan.rank or
            out.shape[0] < stop or not out.flags.writeable or
            out.strides[0] % 8 or out.strides[1] % 8 or out.strides[0] < 0 or out.strides[1] < 0):
        raise ValueError(f"out: a writeable (N, {plan.rank}) int64 array of whole-item strides")
    _check_range(start, stop, linear.shape[0])
    return lv.kernels.unravel_rows[t](&plan.c, cnp.PyArray_DATA(linear),
                                      <int64_t*> cnp.PyArray_DATA(out), out.strides[0] // 8,
                                      out.strides[1] // 8, start, stop, store) != 0


def unravel32(str level, LayoutPlan plan, cnp.ndarray linear, cnp.ndarray out,
              Py_ssize_t start, Py_ssize_t stop, int store=0):
    """xs_unravel32 of the contiguous int32/int64 ``linear`` into the
    (N, rank) uint32 ``out``: C-contiguous rows, or the transpose of a
    C-contiguous (rank, N) array (its columns then ``N`` items apart);
    returns ``(done, bad)``: the first row not done (``start`` for a plan
    the kernel does not take) and whether some offset is bad. LookupError
    at a level without it."""
    cdef const xs_vcheck_level* lv = _kernels(level)
    cdef int t = _dtype_index(linear, "linear")
    cdef uint64_t bad = 0
    cdef Py_ssize_t step = 0
    if lv.kernels.unravel32[t] == NULL:
        raise LookupError(f"the level {level!r} has no xs_unravel32")
    if linear.ndim != 1 or not linear.flags.c_contiguous:
        raise ValueError("linear: a contiguous 1-D array")
    if out.ndim != 2 or out.shape[1] != plan.rank:
        raise ValueError(f"out: (N, {plan.rank}), got {np.shape(out)}")
    _check_range(start, stop, linear.shape[0])
    if out.flags.c_contiguous:
        _check_out(out, np.uint32, stop * plan.rank)
    else:
        _check_out(out.T, np.uint32, plan.rank * stop)
        step = out.strides[1] // 4
    cdef Py_ssize_t done = lv.kernels.unravel32[t](
        &plan.c, cnp.PyArray_DATA(linear), <uint32_t*> cnp.PyArray_DATA(out), step, start, stop,
        store, &bad)
    return done, bad != 0
