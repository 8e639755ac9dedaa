"""Boxes of indices, written out as rows.

A box is a first index (a row of ``starts``) and a count along each of a
few dimensions: its rows are the first index moved on by ``k[i] * steps[i]``
along dimension ``dims[i]``, every ``k[i] < counts[i]``, the last dimension
changing fastest. ``physical_order`` describes a region in memory order as
such boxes (the layout's most minor dimensions, or the tiled array's most
minor axes, move within a box) and this module writes them out, the boxes
shared among the pool's threads. Nothing is divided or multiplied per row:
each row is its line's first row with one dimension moved on.
"""

from libc.stdint cimport int64_t

from xlashape.core._batch cimport handoff_run, resolve_threads


cdef enum:
    MAX_AXES = 64  # axes a box moves along, at most


ctypedef struct boxes_job:
    const int64_t* starts  # boxes x rank
    const int64_t* counts  # boxes x axes
    const int64_t* first   # boxes + 1: where each box's rows begin in ``out``
    const int64_t* dims    # axes, most major first
    const int64_t* steps   # axes
    int64_t* out           # first[boxes] x rank
    Py_ssize_t rank
    Py_ssize_t axes


cdef Py_ssize_t _write_boxes(const void* arg, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """Rows of boxes [start, stop), a line along the last axis at a time;
    never a bad row (-1)."""
    cdef const boxes_job* job = <const boxes_job*> arg
    cdef Py_ssize_t rank = job.rank, last = job.axes - 1, b, i, k, n
    cdef Py_ssize_t inner = job.dims[last]
    cdef int64_t inner_step = job.steps[last], value
    cdef const int64_t* count
    cdef int64_t* out
    cdef int64_t at[MAX_AXES]  # the outer axes' counters
    for b in range(start, stop):
        count = job.counts + b * job.axes
        n = count[last]
        out = job.out + job.first[b] * rank
        if job.first[b + 1] == job.first[b]:
            continue
        for i in range(rank):
            out[i] = job.starts[b * rank + i]
        for i in range(last):
            at[i] = 0
        while True:
            for i in range(rank):  # the line, a column at a time
                value = out[i]
                if i == inner:
                    for k in range(1, n):
                        out[k * rank + i] = value + k * inner_step
                else:
                    for k in range(1, n):
                        out[k * rank + i] = value
            out += n * rank
            i = last - 1  # the next line's first row: this one's, a step on along the outer axes
            while i >= 0 and at[i] == count[i] - 1:
                at[i] = 0
                i -= 1
            if i < 0:
                break
            at[i] += 1
            for k in range(rank):
                out[k] = out[k - n * rank]
            for k in range(i + 1, last):  # axes that wrapped go back
                out[job.dims[k]] -= (count[k] - 1) * job.steps[k]
            out[job.dims[i]] += job.steps[i]
    return -1


cdef bint _bad_bounds(const int64_t[::1] first, const int64_t[:, ::1] counts) noexcept nogil:
    """Whether some box's rows do not number the product of its counts."""
    cdef Py_ssize_t b, i
    cdef int64_t size
    for b in range(counts.shape[0]):
        size = 1
        for i in range(counts.shape[1]):
            if counts[b, i] < 0:
                return True
            size *= counts[b, i]
        if first[b + 1] - first[b] != size:
            return True
    return False


def write_boxes(const int64_t[:, ::1] starts, const int64_t[:, ::1] counts,
                const int64_t[::1] first, const int64_t[::1] dims, const int64_t[::1] steps,
                int64_t[:, ::1] out, threads=None):
    """Write the rows of boxes into ``out``: box ``b`` starts at index
    ``starts[b]`` and fills rows ``first[b]`` to ``first[b + 1]``, the
    product of ``counts[b]``, moving along ``dims`` by ``steps`` (the last
    of them fastest).

    ``first`` starts at 0 and ends at ``len(out)``; ``dims`` are columns of
    ``out``, which has as many columns as ``starts``."""
    cdef boxes_job job
    cdef Py_ssize_t boxes = starts.shape[0], rank = starts.shape[1], axes = dims.shape[0]
    cdef Py_ssize_t i
    cdef int nthreads = resolve_threads(threads)
    if (first.shape[0] != boxes + 1 or counts.shape[0] != boxes or counts.shape[1] != axes
            or steps.shape[0] != axes or out.shape[1] != rank or axes == 0):
        raise ValueError(
            f"{boxes} boxes of rank {rank} moving along {axes} axes need {boxes + 1} "
            f"bounds, {boxes} x {axes} counts, {axes} steps and {rank} columns; got "
            f"{first.shape[0]} bounds, {counts.shape[0]} x {counts.shape[1]} counts, "
            f"{steps.shape[0]} steps and {out.shape[1]} columns"
        )
    if axes > MAX_AXES:
        raise ValueError(f"boxes move along at most {MAX_AXES} axes, got {axes}")
    for i in range(axes):
        if not 0 <= dims[i] < max(rank, 1):
            raise ValueError(
                f"axis {i} moves dimension {dims[i]}, but the rows have {rank} columns"
            )
    if boxes == 0 or rank == 0:
        return
    if first[0] != 0 or first[boxes] != out.shape[0] or _bad_bounds(first, counts):
        raise ValueError(
            f"the boxes' bounds must rise from 0 to the {out.shape[0]} rows of out by the "
            f"product of each box's counts, got {first[0]} to {first[boxes]}"
        )
    job.starts, job.counts, job.first = &starts[0, 0], &counts[0, 0], &first[0]
    job.dims, job.steps, job.out = &dims[0], &steps[0], &out[0, 0]
    job.rank, job.axes = rank, axes
    # the hand-off of every parallel call (csrc/runtime/handoff.h); a row
    # takes about a nanosecond to write
    with nogil:
        handoff_run(_write_boxes, &job, boxes, nthreads, <double> out.shape[0])
