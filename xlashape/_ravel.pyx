"""Batch kernels: multi-indices to linear indices.

Each ``def`` here processes rows [start, stop) of an already validated batch
and returns the first row holding an out-of-range index (in a 'raise'
dimension), or -1. The inner loops run without the GIL on ``const`` views, so
read-only arrays work and callers' threads run in parallel. Offsets are
accumulated modulo 2**64: rows that wrap are exactly the rows flagged out of
range, and the caller raises for them, so no wrapped value is ever returned.
"""

from libc.stdint cimport int64_t, uint64_t

from xlashape._plan cimport LayoutPlan
from xlashape._types cimport MODE_RAISE, MODE_WRAP, Mode, index_t

cdef enum:
    # Rows per block in the column-wise kernels: the block of ``out`` being
    # accumulated (512 KiB) stays in cache while each column is added in.
    BLOCK = 65536
    # Ranks up to this are compiled with the rank known, their loops unrolled.
    MAX_UNROLLED_RANK = 8

# The same block size for callers that feed the column kernel block by block.
ROWS_PER_BLOCK = BLOCK


cdef inline bint _rows_body(const index_t[:, ::1] idx, int64_t[::1] out,
                            const uint64_t* extent, const uint64_t* stride,
                            Py_ssize_t start, Py_ssize_t stop,
                            Py_ssize_t rank) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef uint64_t v, acc, bad = 0
    for i in range(start, stop):
        acc = 0
        for j in range(rank):
            v = <uint64_t> idx[i, j]   # negatives become huge: one unsigned compare
            bad |= v >= extent[j]
            acc += v * stride[j]
        out[i] = <int64_t> acc
    return bad != 0


cdef inline bint _rows_ranked(const index_t[:, ::1] idx, int64_t[::1] out,
                              LayoutPlan plan, Py_ssize_t start, Py_ssize_t stop,
                              Py_ssize_t rank) noexcept nogil:
    # Called with a constant rank: the copies live in registers and the
    # inner loop unrolls.
    cdef uint64_t extent[MAX_UNROLLED_RANK]
    cdef uint64_t stride[MAX_UNROLLED_RANK]
    cdef Py_ssize_t j
    for j in range(rank):
        extent[j] = plan.extent[j]
        stride[j] = plan.stride[j]
    return _rows_body(idx, out, extent, stride, start, stop, rank)


cdef bint _rows(const index_t[:, ::1] idx, int64_t[::1] out, LayoutPlan plan,
                Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    cdef Py_ssize_t rank = plan.rank
    if rank == 1:
        return _rows_ranked(idx, out, plan, start, stop, 1)
    if rank == 2:
        return _rows_ranked(idx, out, plan, start, stop, 2)
    if rank == 3:
        return _rows_ranked(idx, out, plan, start, stop, 3)
    if rank == 4:
        return _rows_ranked(idx, out, plan, start, stop, 4)
    if rank == 5:
        return _rows_ranked(idx, out, plan, start, stop, 5)
    if rank == 6:
        return _rows_ranked(idx, out, plan, start, stop, 6)
    if rank == 7:
        return _rows_ranked(idx, out, plan, start, stop, 7)
    if rank == 8:
        return _rows_ranked(idx, out, plan, start, stop, 8)
    return _rows_body(idx, out, plan.extent, plan.stride, start, stop, rank)


cdef inline uint64_t _resolve(index_t value, uint64_t extent, Mode mode) noexcept nogil:
    """The in-range index that 'wrap' or 'clip' makes of ``value``."""
    cdef int64_t r
    if mode == MODE_WRAP:
        if <index_t> -1 < 0:
            r = value % <int64_t> extent
            return <uint64_t> (r + <int64_t> extent if r < 0 else r)
        else:
            return <uint64_t> value % extent
    if <index_t> -1 < 0:
        if value < 0:
            return 0
    return extent - 1 if <uint64_t> value >= extent else <uint64_t> value


cdef bint _column_block(const index_t[:] col, int64_t[::1] out,
                        Py_ssize_t start, Py_ssize_t stop, uint64_t extent,
                        uint64_t stride, Mode mode, bint first) noexcept nogil:
    """Add one dimension's share of rows [start, stop) into ``out``."""
    cdef Py_ssize_t i
    cdef uint64_t v, acc, bad = 0
    for i in range(start, stop):
        acc = 0 if first else <uint64_t> out[i]
        if mode == MODE_RAISE:
            v = <uint64_t> col[i]
            bad |= v >= extent
        else:
            v = _resolve(col[i], extent, mode)
        out[i] = <int64_t> (acc + v * stride)
    return bad != 0


cdef Py_ssize_t _first_bad(const index_t[:] col, Py_ssize_t start, Py_ssize_t stop,
                           uint64_t extent) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(start, stop):
        if <uint64_t> col[i] >= extent:
            return i
    return -1


cdef Py_ssize_t _first_bad_row(const index_t[:, ::1] idx, LayoutPlan plan,
                               Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    cdef Py_ssize_t i, j
    for i in range(start, stop):
        for j in range(plan.rank):
            if <uint64_t> idx[i, j] >= plan.extent[j]:
                return i
    return -1


def ravel_rows(LayoutPlan plan, const index_t[:, ::1] indices, int64_t[::1] out,
               Py_ssize_t start, Py_ssize_t stop):
    """Rows of a C-contiguous (N, rank) batch, every dimension in 'raise'."""
    cdef Py_ssize_t row = -1
    with nogil:
        if _rows(indices, out, plan, start, stop):
            row = _first_bad_row(indices, plan, start, stop)
    return row


cdef Py_ssize_t _strided(const index_t[:, :] idx, const unsigned char[::1] modes,
                         int64_t[::1] out, LayoutPlan plan,
                         Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    cdef Py_ssize_t b0 = start, b1, j, row, first_row
    cdef bint bad
    while b0 < stop:
        b1 = min(b0 + BLOCK, stop)
        bad = False
        for j in range(plan.rank):
            bad |= _column_block(idx[:, j], out, b0, b1, plan.extent[j],
                                 plan.stride[j], <Mode> modes[j], j == 0)
        if bad:
            first_row = b1
            for j in range(plan.rank):
                if modes[j] == MODE_RAISE:
                    row = _first_bad(idx[:, j], b0, first_row, plan.extent[j])
                    if row >= 0:
                        first_row = row
            return first_row
        b0 = b1
    return -1


def ravel_strided(LayoutPlan plan, const index_t[:, :] indices,
                  const unsigned char[::1] modes, int64_t[::1] out,
                  Py_ssize_t start, Py_ssize_t stop):
    """Rows of an (N, rank) batch with any strides, one mode per dimension."""
    cdef Py_ssize_t row
    with nogil:
        row = _strided(indices, modes, out, plan, start, stop)
    return row


def ravel_column(LayoutPlan plan, Py_ssize_t dim, const index_t[:] column,
                 int mode, int64_t[::1] out, Py_ssize_t start, Py_ssize_t stop,
                 bint first):
    """Add dimension ``dim``'s share of rows [start, stop) into ``out``.

    ``first`` overwrites ``out`` instead of adding to it.
    """
    cdef Py_ssize_t row = -1
    with nogil:
        if _column_block(column, out, start, stop, plan.extent[dim],
                         plan.stride[dim], <Mode> mode, first):
            row = _first_bad(column, start, stop, plan.extent[dim])
    return row
