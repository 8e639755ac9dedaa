"""Batch kernels: linear indices to multi-indices.

``unravel`` fills rows [start, stop) of an (N, rank) int64 view (any strides,
so both an (N, rank) array and the transpose of a (rank, N) one work) and
returns the first row whose linear index is out of range or lands on padding,
or -1. No hardware divide runs in the loop: each padded width is a
precomputed Granlund-Montgomery divisor (see _fastdiv.pxd), and when every
width is a power of two, a shift and a mask.
"""

from libc.stdint cimport int64_t, uint64_t

from xlashape._fastdiv cimport FastDivisor, fast_divide
from xlashape._plan cimport LayoutPlan
from xlashape._types cimport index_t

cdef enum:
    # Ranks up to this are compiled with the rank known, their loops unrolled.
    MAX_UNROLLED_RANK = 8


cdef inline bint _body(const index_t[:] linear, int64_t[:, :] out,
                       const FastDivisor* divisor, const Py_ssize_t* order,
                       const uint64_t* extent, uint64_t size,
                       Py_ssize_t start, Py_ssize_t stop,
                       Py_ssize_t rank, bint padded, bint pow2) noexcept nogil:
    # rank >= 1. Position k of minor_to_major is dimension order[k], of size
    # extent[k] and padded width divisor[k].divisor. Without padding, every
    # offset below ``size`` is an element: only that is checked.
    cdef Py_ssize_t i, k
    cdef uint64_t n, q, r, bad = 0
    for i in range(start, stop):
        n = <uint64_t> linear[i]   # negatives become huge: one unsigned compare
        bad |= n >= size
        for k in range(rank - 1):
            if pow2:
                q = n >> divisor[k].shift
                r = n & (divisor[k].divisor - 1)
            else:
                q = fast_divide(n, &divisor[k])
                r = n - q * divisor[k].divisor
            if padded:
                bad |= r >= extent[k]
            out[i, order[k]] = <int64_t> r
            n = q
        # What is left is the most major position: no division needed.
        if padded:
            bad |= n >= extent[rank - 1]
        out[i, order[rank - 1]] = <int64_t> n
    return bad != 0


cdef inline bint _ranked(const index_t[:] linear, int64_t[:, :] out,
                         LayoutPlan plan, Py_ssize_t start, Py_ssize_t stop,
                         Py_ssize_t rank, bint padded, bint pow2) noexcept nogil:
    # Called with a constant rank and flags: the copies live in registers,
    # the inner loop unrolls and unneeded checks and multiplies vanish.
    cdef FastDivisor divisor[MAX_UNROLLED_RANK]
    cdef Py_ssize_t order[MAX_UNROLLED_RANK]
    cdef uint64_t extent[MAX_UNROLLED_RANK]
    cdef Py_ssize_t k
    for k in range(rank):
        divisor[k] = plan.divisor[k]
        order[k] = plan.order[k]
        extent[k] = plan.order_extent[k]
    return _body(linear, out, divisor, order, extent, <uint64_t> plan.size,
                 start, stop, rank, padded, pow2)


cdef bint _unravel_ranked(const index_t[:] linear, int64_t[:, :] out,
                          LayoutPlan plan, Py_ssize_t start, Py_ssize_t stop,
                          bint padded, bint pow2) noexcept nogil:
    cdef Py_ssize_t rank = plan.rank
    if rank == 1:
        return _ranked(linear, out, plan, start, stop, 1, padded, pow2)
    if rank == 2:
        return _ranked(linear, out, plan, start, stop, 2, padded, pow2)
    if rank == 3:
        return _ranked(linear, out, plan, start, stop, 3, padded, pow2)
    if rank == 4:
        return _ranked(linear, out, plan, start, stop, 4, padded, pow2)
    if rank == 5:
        return _ranked(linear, out, plan, start, stop, 5, padded, pow2)
    if rank == 6:
        return _ranked(linear, out, plan, start, stop, 6, padded, pow2)
    if rank == 7:
        return _ranked(linear, out, plan, start, stop, 7, padded, pow2)
    if rank == 8:
        return _ranked(linear, out, plan, start, stop, 8, padded, pow2)
    return _body(linear, out, plan.divisor, plan.order, plan.order_extent,
                 <uint64_t> plan.size, start, stop, rank, padded, pow2)


cdef bint _unravel(const index_t[:] linear, int64_t[:, :] out, LayoutPlan plan,
                   Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    if plan.padded:
        if plan.pow2:
            return _unravel_ranked(linear, out, plan, start, stop, True, True)
        return _unravel_ranked(linear, out, plan, start, stop, True, False)
    if plan.pow2:
        return _unravel_ranked(linear, out, plan, start, stop, False, True)
    return _unravel_ranked(linear, out, plan, start, stop, False, False)


cdef bint _is_bad(uint64_t n, LayoutPlan plan) noexcept nogil:
    cdef Py_ssize_t k
    cdef uint64_t q
    if n >= <uint64_t> plan.size:
        return True
    for k in range(plan.rank):
        q = fast_divide(n, &plan.divisor[k])
        if n - q * plan.divisor[k].divisor >= plan.order_extent[k]:
            return True
        n = q
    return False


cdef Py_ssize_t _first_bad_row(const index_t[:] linear, LayoutPlan plan,
                               Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(start, stop):
        if _is_bad(<uint64_t> linear[i], plan):
            return i
    return -1


def unravel(LayoutPlan plan, const index_t[:] linear, int64_t[:, :] out,
            Py_ssize_t start, Py_ssize_t stop):
    """Unravel rows [start, stop); the first bad row, or -1. Rank >= 1."""
    cdef Py_ssize_t row = -1
    with nogil:
        if _unravel(linear, out, plan, start, stop):
            row = _first_bad_row(linear, plan, start, stop)
    return row
