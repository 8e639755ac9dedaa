"""The compiled relayout mover: runs a plan of xlashape.relayout.

A plan is a loop nest over axes common to two layouts, each with a step in
the source and in the destination, and boxes (a start and a count per
axis) to move; csrc/relayout/relayout.h says how they run. This module only hands
the plan to _batch's C mover (built with the index kernels of each CPU
level, on their pool), with the GIL released. The plan is trusted: the caller
has checked that every box stays inside both buffers.
"""

cimport numpy as cnp
from libc.stdint cimport int64_t

from xlashape.core._batch cimport (
    XS_MOVE_MAX_AXES,
    new_result,
    resolve_threads,
    run_relayout,
    xs_relayout_job,
)

from xlashape.core._batch import stream_bytes

cnp.import_array()


MAX_AXES = XS_MOVE_MAX_AXES


def empty(tuple shape, dtype):
    """np.empty(shape, dtype), a large one from the result cache (memory a
    freed result left, its pages already mapped)."""
    return new_result(shape, dtype)


def move(cnp.ndarray src, cnp.ndarray dst, int size, const int64_t[::1] src_step,
         const int64_t[::1] dst_step, const int64_t[:, ::1] start,
         const int64_t[:, ::1] count, threads=None):
    """Move the boxes of a plan from ``src`` to ``dst`` (their first
    elements are the origins; steps in bytes; a fill has every source step 0)."""
    cdef xs_relayout_job job
    cdef int nthreads = resolve_threads(threads)
    if not 0 <= src_step.shape[0] <= XS_MOVE_MAX_AXES:
        raise ValueError(f"a plan has at most {XS_MOVE_MAX_AXES} axes, got {src_step.shape[0]}")
    if size not in (1, 2, 4, 8):
        raise ValueError(f"elements of 1, 2, 4 or 8 bytes are moved, got {size}")
    if not dst.flags.writeable:
        raise ValueError("the destination is read-only")
    job.src = <const char*> cnp.PyArray_DATA(src)
    job.dst = <char*> cnp.PyArray_DATA(dst)
    job.size = size
    job.axes = <int> src_step.shape[0]
    job.boxes = <int> start.shape[0]
    # streamed by the index kernels' threshold (xlashape.cpu.stream_bytes)
    job.stream_bytes = stream_bytes()
    if job.boxes == 0:
        return
    job.src_step = job.dst_step = job.start = job.count = NULL  # rank 0: one element
    if job.axes:
        job.src_step = &src_step[0]
        job.dst_step = &dst_step[0]
        job.start = &start[0, 0]
        job.count = &count[0, 0]
    with nogil:
        run_relayout(&job, nthreads)
