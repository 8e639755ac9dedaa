# The compiled batch glue, for the other compiled modules (_index, _convert,
# _drop_ins).

cimport numpy as cnp
from libc.stdint cimport int64_t, uint8_t

from xlashape.core._plan cimport LayoutPlan, xs_plan
from xlashape.core._tiled cimport xs_tiled


# One batch call for the C driver (csrc/base/job.h), zeroed by xs_job_init
# before its fields are set: every job is built on that.
cdef extern from "base/job.h" nogil:
    ctypedef struct xs_job:
        const xs_plan* plan
        const xs_tiled* tiled           # NULL for an untiled plan
        const char* const* column
        const Py_ssize_t* column_step
        const int* column_dtype
        const uint8_t* mode
        int rows_contiguous
        int64_t* out
        int out32
        const char* linear
        Py_ssize_t linear_step
        int linear_dtype
        char* rows_out
        Py_ssize_t out_step0
        Py_ssize_t out_step1
        int store                       # set by the driver on its own copy

    void xs_job_init(xs_job* job)

    int XS_RAISE, XS_WRAP, XS_CLIP


cdef extern from "runtime/pool.h" nogil:
    ctypedef Py_ssize_t (*xs_chunk_fn)(const void* arg, Py_ssize_t start, Py_ssize_t stop)


# A relayout for the C mover (csrc/relayout/relayout.h), whose kernels are built
# into this module with the index kernels of each CPU level.
cdef extern from "relayout/relayout.h" nogil:
    enum:
        XS_MOVE_MAX_AXES
    ctypedef struct xs_relayout_job:
        const char* src
        char* dst
        int size
        int axes
        const int64_t* src_step
        const int64_t* dst_step
        int boxes
        const int64_t* start
        const int64_t* count
        int64_t stream_bytes


cdef LayoutPlan plan_of(object shape, object require_shape)
cdef int resolve_threads(object threads) except -1
cdef int dtype_code(cnp.ndarray a) except -1
cdef object new_result(tuple shape, object dtype)
# The driver on a plan (the GIL released for large batches), and the
# columns of a 2-D index array.
cdef Py_ssize_t run_ravel(LayoutPlan plan, xs_job* job, Py_ssize_t n, int threads) noexcept
cdef Py_ssize_t run_unravel(LayoutPlan plan, xs_job* job, Py_ssize_t n, int threads) noexcept
cdef int rows_job(xs_job* job, const char** column, Py_ssize_t* step, int* dtype,
                  cnp.ndarray a, int row_axis) except -1
# The hand-off to the worker pool, for kernels built into other modules
# (_boxes), and the relayout mover, at the CPU level in use (_relayout).
cdef Py_ssize_t handoff_run(xs_chunk_fn fn, const void* arg, Py_ssize_t items, int threads,
                            double work_ns) noexcept nogil
cdef void run_relayout(const xs_relayout_job* job, int threads) noexcept nogil
cdef object ravel_input(LayoutPlan plan, object indices, object mode, object out,
                        object threads, object dtype=*)
cdef object unravel_input(LayoutPlan plan, object offsets, object out, object threads,
                          object dtype=*)


# -- a mode given once as a str, where a job is filled (_batch, _drop_ins) --
# (inline here, so that a drop-in's small call pays no call for it)

cdef enum:
    ONCE_RANK = 64

# Each mode's code once per dimension, up to ONCE_RANK (filled by _batch).
cdef uint8_t ONCE_CODES[3][ONCE_RANK]


cdef inline const uint8_t* once_codes(object mode) noexcept:
    """The codes of a mode given once as a str, 'raise', 'wrap' or 'clip'
    (ONCE_RANK of them); NULL for any other value."""
    if type(mode) is not str:
        return NULL
    if mode == "raise":
        return ONCE_CODES[XS_RAISE]
    if mode == "wrap":
        return ONCE_CODES[XS_WRAP]
    if mode == "clip":
        return ONCE_CODES[XS_CLIP]
    return NULL


cdef inline bint into_empty(LayoutPlan plan, const uint8_t* codes) noexcept:
    """Whether ``codes`` (one per dimension) wrap or clip a dimension of
    size 0, where no index fits: an error for a batch of one row or more."""
    cdef Py_ssize_t j
    for j in range(plan.rank):
        if plan.c.extent[j] == 0 and codes[j] != XS_RAISE:
            return True
    return False


cdef inline const uint8_t* mode_once(LayoutPlan plan, object mode, bint* ok) noexcept:
    """The kernels' codes for a mode given once as a str (NULL: all raise),
    for a plan of at most ONCE_RANK dimensions; ``ok`` false for any other
    mode, or for 'wrap' or 'clip' with a dimension of size 0 (an error the
    caller leaves to a path that words it)."""
    cdef const uint8_t* codes = once_codes(mode)
    ok[0] = codes != NULL
    if codes == NULL or codes[0] == XS_RAISE:
        return NULL
    ok[0] = not into_empty(plan, codes)
    return codes
