"""Whole-batch conversions: input checks, the hand-off to C, and errors.

These functions take a Shape's LayoutPlan and already-shaped batches; the
public entry points (``xlashape.ravel``/``unravel`` in _convert, IndexUtil's
batch form in _index, and the NumPy drop-ins) shape them. Inputs are only
read: no array passed in is ever written, except ``out``.

The glue reads array metadata and data pointers through NumPy's C API and
fills one ``xs_job`` (csrc/base/job.h); the C driver picks the kernel by
dtype and CPU level, and splits large batches over the worker pool
(csrc/runtime/pool.h). Nothing here calls back into Python while the kernels run.
"""

cimport numpy as cnp
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memset

import itertools

import numpy as np

from xlashape.core._plan cimport XS_MAX_UNROLLED, LayoutPlan, xs_dtype_code
from xlashape.core._tiled cimport TiledPlan, xs_tiled

from xlashape import reference
from xlashape._validate import INT64_MAX, as_dtype, as_int, require_integer_dtype
from xlashape.errors import index_out_of_bounds, index_outside_int64

cnp.import_array()


# xs_job and the mode codes are declared in _batch.pxd, for _drop_ins too.
cdef extern from "cpu/cpu_level.h" nogil:
    int XS_NLEVELS
    int xs_level()
    int xs_best_level()
    const char* xs_level_name(int level)
    int xs_select_level(int level)
    void xs_traffic(const int64_t* src, Py_ssize_t n_in, int64_t* out, Py_ssize_t n_out)


cdef extern from "driver/dispatch.h" nogil:
    Py_ssize_t xs_ravel(const xs_job* job, Py_ssize_t n, int threads)
    Py_ssize_t xs_unravel(const xs_job* job, Py_ssize_t n, int threads)
    void xs_set_stream_bytes(int64_t nbytes)
    int64_t xs_stream_bytes()
    void xs_set_align_bytes(int64_t nbytes)
    int64_t xs_align_bytes()
    void xs_set_prefetch_mode(int mode)
    int xs_prefetch_mode()


cdef extern from "driver/relayout_run.h" nogil:
    void xs_relayout_run(const xs_relayout_job* job, int threads)


cdef extern from "runtime/pool.h" nogil:
    int XS_POOL_MAX
    int XS_POOL_THREADED
    ctypedef struct xs_worker_cost:
        double wake_ns
        double worker_ns
    int xs_pool_costs(xs_worker_cost* awake, xs_worker_cost* asleep)
    double xs_pool_wake_ns()
    int xs_pool_workers()


cdef extern from "runtime/result_cache.h" nogil:
    size_t XS_CACHE_MIN_BYTES
    int XS_CACHE_MAX_BUFFERS
    ctypedef struct xs_cache_stats:
        size_t max_bytes
        int max_buffers
        size_t held_bytes
        int held_buffers
        unsigned long long hits
        unsigned long long misses
    void xs_cache_configure(size_t max_bytes, int max_buffers)
    void xs_cache_get_stats(xs_cache_stats* stats)


cdef extern from *:
    """
    #include "runtime/result_cache.h"
    static PyDataMem_Handler xs_result_handler = {
        "xlashape_result_cache", 1,
        {NULL, xs_cache_malloc, xs_cache_calloc, xs_cache_realloc, xs_cache_free}};
    """
    cnp.PyDataMem_Handler xs_result_handler


RAISE, WRAP, CLIP = XS_RAISE, XS_WRAP, XS_CLIP
MODES = {"raise": RAISE, "wrap": WRAP, "clip": CLIP}
# ONCE_CODES (_batch.pxd): each mode given once, as its code per dimension.
for _code in (XS_RAISE, XS_WRAP, XS_CLIP):
    for _k in range(ONCE_RANK):
        ONCE_CODES[_code][_k] = _code
# The most threads one call uses; a larger ``threads`` runs on this many.
MAX_THREADS = XS_POOL_MAX + 1
# Whether this build has a worker pool (POSIX threads); without one every
# call runs on the calling thread.
POOL_THREADED = bool(XS_POOL_THREADED)
# Columns kept on the stack: as many as the kernels unroll; higher ranks allocate.
cdef enum:
    STACK_RANK = XS_MAX_UNROLLED


# -- threads ----------------------------------------------------------------------

cdef int _default_threads = 1


def get_default_threads():
    """The thread count of calls that pass ``threads=None``."""
    return _default_threads


def set_default_threads(int threads):
    """Set the thread count of calls that pass ``threads=None`` (>= 1)."""
    global _default_threads
    _default_threads = threads


def check_threads(threads):
    """A thread count: None means the default; otherwise an int >= 1."""
    return resolve_threads(threads)


cdef int resolve_threads(object threads) except -1:
    if threads is None:
        return _default_threads
    n = threads if type(threads) is int else as_int(threads, "threads")
    if n < 1:
        raise ValueError(f"threads must be >= 1 (or None for the default), got {n}")
    return min(n, MAX_THREADS)


# -- CPU levels ---------------------------------------------------------------------

LEVELS = tuple(xs_level_name(k).decode() for k in range(XS_NLEVELS))


cdef extern from "runtime/handoff.h" nogil:
    ctypedef struct xs_handoff_costs:
        double work_ns
        xs_worker_cost awake
        xs_worker_cost asleep
        int awake_workers
        Py_ssize_t items
        Py_ssize_t min_chunk
        int cap
    ctypedef struct xs_handoff:
        int threads
        Py_ssize_t chunk
    ctypedef struct xs_rate:
        pass
    double xs_handoff_model_ns(const xs_handoff_costs* costs, int threads)
    xs_handoff xs_handoff_decide(const xs_handoff_costs* costs)
    void xs_set_cpus(int cpus)
    int xs_cpus()
    xs_handoff xs_handoff_plan(double work_ns, Py_ssize_t items, Py_ssize_t min_chunk,
                               int threads)
    Py_ssize_t xs_handoff_run(xs_chunk_fn fn, const void* arg, Py_ssize_t items,
                              xs_handoff plan)
    Py_ssize_t xs_handoff_min_chunk(double item_ns, Py_ssize_t fewest)
    void xs_handoff_set_costs(double wake_ns, double worker_ns)
    void xs_rate_add(xs_rate* rate, double sample)
    double xs_rate_estimate(const xs_rate* rate, double prior)


cdef Py_ssize_t handoff_run(xs_chunk_fn fn, const void* arg, Py_ssize_t items, int threads,
                            double work_ns) noexcept nogil:
    """Run fn over [0, items) as the hand-off decides for a call of
    ``work_ns`` on one thread (csrc/runtime/handoff.h)."""
    cdef double item_ns = work_ns / items if items > 0 else 0
    cdef Py_ssize_t min_chunk = xs_handoff_min_chunk(item_ns, 1)
    return xs_handoff_run(fn, arg, items, xs_handoff_plan(work_ns, items, min_chunk, threads))


def cpu_limit():
    """The most threads any call runs on, whatever its threads=."""
    return xs_cpus()


def set_cpu_limit(int cpus):
    """No call runs on more than ``cpus`` threads, whatever its threads=
    (xlashape.threads sets it at import to the CPUs this process may use);
    returns the previous limit."""
    previous = xs_cpus()
    xs_set_cpus(cpus)
    return previous


def _set_handoff_costs(double wake_ns, double worker_ns):
    """For tests: every call counts these costs a worker (ns) instead of the
    pool's measured ones; negative: the measured ones again."""
    xs_handoff_set_costs(wake_ns, worker_ns)


cdef xs_handoff_costs _made_up_costs(double work_ns, tuple awake, tuple asleep,
                                     int awake_workers, Py_ssize_t items, Py_ssize_t min_chunk,
                                     int cap):
    return xs_handoff_costs(work_ns, xs_worker_cost(awake[0], awake[1]),
                            xs_worker_cost(asleep[0], asleep[1]), awake_workers, items,
                            min_chunk, cap)


def _handoff(double work_ns, tuple awake, tuple asleep, int awake_workers, Py_ssize_t items,
             Py_ssize_t min_chunk, int cap):
    """The hand-off's decision for made-up costs, each worker's a pair
    (wake_ns, worker_ns): (threads, chunk)."""
    cdef xs_handoff_costs costs = _made_up_costs(work_ns, awake, asleep, awake_workers, items,
                                                 min_chunk, cap)
    cdef xs_handoff plan = xs_handoff_decide(&costs)
    return plan.threads, plan.chunk


def _handoff_model_ns(double work_ns, tuple awake, tuple asleep, int awake_workers, int threads):
    """The hand-off's model of a call's time on ``threads`` threads."""
    cdef xs_handoff_costs costs = _made_up_costs(work_ns, awake, asleep, awake_workers, 1, 1, 1)
    return xs_handoff_model_ns(&costs, threads)


def _rate_estimate(samples, double prior):
    """The hand-off's rate estimate after ``samples`` are added in order."""
    cdef xs_rate rate
    memset(&rate, 0, sizeof(rate))
    for sample in samples:
        xs_rate_add(&rate, sample)
    return xs_rate_estimate(&rate, prior)


cdef void run_relayout(const xs_relayout_job* job, int threads) noexcept nogil:
    xs_relayout_run(job, threads)


def cpu_level():
    """The name of the kernel level in use: 'baseline', 'avx2' or 'avx512'."""
    return xs_level_name(xs_level()).decode()


def best_cpu_level():
    """The best level this CPU (and OS) supports."""
    return xs_level_name(xs_best_level()).decode()


def select_cpu_level(level):
    """Use ``level`` (a name from LEVELS, or None for the best supported);
    returns the level used before. ValueError for a level this CPU lacks."""
    previous = cpu_level()
    if level is None:
        xs_select_level(-1)
        return previous
    if level not in LEVELS:
        raise ValueError(f"unknown CPU level {level!r}; expected one of {', '.join(LEVELS)}")
    if xs_select_level(LEVELS.index(level)) < 0:
        raise ValueError(
            f"this CPU does not support the {level!r} level; the best it supports is "
            f"{best_cpu_level()!r}"
        )
    return previous


def stream_bytes():
    """The bytes of traffic (read and written) from which a call writes its
    results by non-temporal stores, past the caches."""
    return xs_stream_bytes()


def set_stream_bytes(nbytes):
    """Stream the results of calls that move at least ``nbytes`` bytes
    (xlashape.cpu sets it from the CPU's caches at import)."""
    xs_set_stream_bytes(_byte_count(nbytes, "streaming"))


def align_bytes():
    """The bytes of traffic from which a call writes its results in
    aligned slots, whatever out='s alignment."""
    return xs_align_bytes()


def set_align_bytes(nbytes):
    """Write aligned slots for calls that move at least ``nbytes`` bytes
    (xlashape.cpu sets it from the CPU's L2 at import)."""
    xs_set_align_bytes(_byte_count(nbytes, "aligned-slot"))


#: The ravel loops' prefetch modes, by their number in csrc (enum xs_prefetch).
PREFETCH_MODES = ("off", "l1", "l2")


def prefetch_mode():
    """How the ravel loops over rows prefetch their input in calls past a
    core's L2: a name from PREFETCH_MODES."""
    return PREFETCH_MODES[xs_prefetch_mode()]


def set_prefetch_mode(str mode):
    """Prefetch as ``mode`` (a name from PREFETCH_MODES; xlashape.cpu sets it
    from the CPU's L2 at import)."""
    if mode not in PREFETCH_MODES:
        raise ValueError(f"unknown prefetch mode {mode!r}; expected one of "
                         f"{', '.join(PREFETCH_MODES)}")
    xs_set_prefetch_mode(PREFETCH_MODES.index(mode))


cdef int64_t _byte_count(object nbytes, str threshold) except? -1:
    cdef int64_t value = nbytes
    if value < 0:
        raise ValueError(f"the {threshold} threshold must be at least 0 bytes, got {nbytes}")
    return value


def pool_info():
    """The worker pool: workers started, the wake-up latency measured when
    it started (ns; 0 before), the workers that spin now, and what the
    hand-off would count now for a spinning worker and for a sleeping one:
    (ns until it starts, ns on top)."""
    cdef xs_worker_cost awake, asleep
    cdef int spinning = xs_pool_costs(&awake, &asleep)
    return {"workers": xs_pool_workers(), "wake_ns": xs_pool_wake_ns(), "spinning": spinning,
            "awake": (awake.wake_ns, awake.worker_ns), "asleep": (asleep.wake_ns, asleep.worker_ns)}


def traffic(src, dst):
    """The bench's in-cache limit: read every item of ``src`` and write every
    item of ``dst`` (C-contiguous int64 arrays, one size a multiple of the
    other) in contiguous streams, at the CPU level in use, on this thread."""
    cdef cnp.ndarray a = np.ascontiguousarray(src, dtype=np.int64)
    cdef cnp.ndarray b = dst
    if b.dtype != np.int64 or not cnp.PyArray_IS_C_CONTIGUOUS(b) or not b.flags.writeable:
        raise ValueError("dst must be a writable C-contiguous int64 array")
    with nogil:
        xs_traffic(<const int64_t*> cnp.PyArray_DATA(a), cnp.PyArray_SIZE(a),
                   <int64_t*> cnp.PyArray_DATA(b), cnp.PyArray_SIZE(b))


# -- results ------------------------------------------------------------------------

# NumPy's memory handler for results that the cache may keep (csrc/runtime/result_cache.h);
# arrays hold a reference to it, and hand their memory back through it.
cdef object _cache_handler = PyCapsule_New(<void*> &xs_result_handler, "mem_handler", NULL)
cdef bint _cache_on = False
RESULT_CACHE_MIN_BYTES = XS_CACHE_MIN_BYTES
RESULT_CACHE_MAX_BUFFERS = XS_CACHE_MAX_BUFFERS


def configure_result_cache(size_t max_bytes, int max_buffers):
    """Bound the result cache: at most ``max_bytes`` bytes in at most
    ``max_buffers`` buffers (capped at RESULT_CACHE_MAX_BUFFERS); 0 for
    either turns it off and unmaps what it holds."""
    global _cache_on
    xs_cache_configure(max_bytes, max_buffers)
    _cache_on = max_bytes >= XS_CACHE_MIN_BYTES and max_buffers > 0


def result_cache_stats():
    """The cache's bounds, what it holds now, and its hits and misses."""
    cdef xs_cache_stats stats
    xs_cache_get_stats(&stats)
    return {
        "enabled": bool(_cache_on),
        "max_bytes": stats.max_bytes,
        "max_buffers": stats.max_buffers,
        "held_bytes": stats.held_bytes,
        "held_buffers": stats.held_buffers,
        "hits": stats.hits,
        "misses": stats.misses,
    }


cdef object new_result(tuple shape, object dtype):
    """np.empty(shape, dtype); a large one through the result cache's
    handler, so that its memory may be one a freed result left."""
    cdef Py_ssize_t elements = 1
    if _cache_on:
        for extent in shape:
            elements *= <Py_ssize_t> extent
        # (a cheap test first: no item this package allocates is over 16 bytes)
        if (<size_t> elements >= XS_CACHE_MIN_BYTES // 16
                and <size_t> (elements * np.dtype(dtype).itemsize) >= XS_CACHE_MIN_BYTES):
            previous = cnp.PyDataMem_SetHandler(_cache_handler)
            try:
                return np.empty(shape, dtype=dtype)
            finally:
                cnp.PyDataMem_SetHandler(previous)
    return np.empty(shape, dtype=dtype)


# -- input checks -------------------------------------------------------------------

cdef LayoutPlan plan_of(object shape, object require_shape):
    """The plan of a Shape, or of the Shape ``require_shape`` reads from
    anything else (shape text; a TypeError otherwise): the callers, above
    the shapes, pass shape_text.require_shape, which this layer cannot
    import."""
    try:
        return shape._plan
    except AttributeError:
        pass
    return require_shape(shape)._plan


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
        require_integer_dtype(array.dtype, what)
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    return array


cdef object _apply_modes_to_python_ints(tuple dimensions, object rows, bytes codes):
    """Rows of Python ints that no NumPy integer dtype holds (negatives mixed
    with ints past int64), with the 'wrap' and 'clip' columns applied in
    Python, so that those modes take every int as they take arrays; ``rows``
    itself when they are not such rows, and NumPy's integer array of them
    (converted once, here) when NumPy types them as integers."""
    objects = np.asarray(rows)
    if objects.dtype.kind in "iu":
        return objects
    if objects.dtype.kind not in "fO" or objects.ndim != 2 or objects.shape[1] != len(dimensions):
        return rows
    objects = np.asarray(rows, dtype=object)
    if not all(type(v) is int or isinstance(v, np.integer) for v in objects.flat):
        return rows
    result = [list(row) for row in objects]
    for d, size in enumerate(dimensions):
        if codes[d] == WRAP:
            for row in result:
                row[d] = int(row[d]) % size
        elif codes[d] == CLIP:
            for row in result:
                row[d] = min(max(int(row[d]), 0), size - 1)
    return result


cdef _raise_for_huge_ints(values, str what):
    """If ``values`` are all ints, NumPy found no integer dtype for them: the
    first outside [0, int64 max] is out of bounds for any shape."""
    objects = np.asarray(values, dtype=object)
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in objects.flat):
        return
    for position, value in np.ndenumerate(objects):
        if not 0 <= value <= INT64_MAX:
            raise index_outside_int64(what, value, position)


def mode_codes(mode, Py_ssize_t rank):
    """One out-of-range rule per dimension, 'raise', 'wrap' or 'clip', given
    once for all dimensions or as a sequence of ``rank`` of them; as the
    kernels' codes, None when every dimension raises."""
    return _codes_of(mode, rank)


cdef object _codes_of(object mode, Py_ssize_t rank):
    """mode_codes, without a Python call in the common case of one mode."""
    cdef const uint8_t* once
    if type(mode) is str:  # the common call, first
        once = once_codes(mode)
        if once != NULL:
            if once[0] == XS_RAISE:
                return None
            if rank <= ONCE_RANK:
                return PyBytes_FromStringAndSize(<const char*> once, rank)
            return PyBytes_FromStringAndSize(<const char*> once, 1) * rank
    elif mode == "raise":
        return None
    # At most two more than rank read: an endless iterable ends too.
    modes = [mode] * rank if isinstance(mode, str) else list(itertools.islice(mode, rank + 2))
    if len(modes) != rank:
        count = f"more than {rank + 1}" if len(modes) > rank + 1 else str(len(modes))
        raise ValueError(
            f"mode has {count} {'entry' if count == '1' else 'entries'} for a "
            f"rank-{rank} shape; give one mode for all "
            "dimensions or one per dimension"
        )
    try:
        return bytes(MODES[m] for m in modes)
    except (KeyError, TypeError):
        bad = next(m for m in modes if not isinstance(m, str) or m not in MODES)
        raise ValueError(
            f"mode must be 'raise', 'wrap' or 'clip' (once, or one per dimension), got {bad!r}"
        ) from None


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


cdef enum:
    # A list or tuple this long or shorter is looked into for arrays (NumPy's
    # ``multi_index`` form holds one per dimension); a longer one is a batch
    # of Python rows, which no ``out`` can overlap.
    MAX_SEQUENCE_SOURCES = 64


cdef bint _overlaps_any(cnp.ndarray out, object inputs, int depth=0) except -1:
    """Whether ``out`` shares bytes with an array among ``inputs``: arrays,
    or short sequences holding arrays, as the caller passed them (before
    any byte-swapping or casting copy, which would hide the overlap)."""
    for source in inputs:
        if isinstance(source, np.ndarray):
            if _overlap(out, source):
                return True
        elif (depth < 2 and isinstance(source, (list, tuple))
                and len(source) <= MAX_SEQUENCE_SOURCES):
            if _overlaps_any(out, source, depth + 1):
                return True
    return False


def check_out(out, tuple shape, inputs=(), *, dtype=np.int64, str what="out",
              bint contiguous=False):
    """A new array of ``shape`` and ``dtype`` (int64 by default), or ``out``
    once checked: a NumPy array of that exact shape and dtype (native byte
    order), writable, C-contiguous if ``contiguous`` or 1-D, and sharing no
    memory with any array in ``inputs`` (pass the caller's own objects,
    sequences of arrays included). The one ``out=`` check of the package."""
    return _check_out_as(out, shape, tuple(inputs), dtype, what, contiguous)


cdef inline bint _is_native_int64(cnp.ndarray array) noexcept:
    return (cnp.PyArray_EquivTypenums(cnp.PyArray_TYPE(array), cnp.NPY_INT64)
            and cnp.PyArray_ISNOTSWAPPED(array))


cdef object _check_out_as(object out, tuple shape, tuple inputs, object dtype, str what,
                          bint contiguous):
    if out is None:
        return new_result(shape, dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{what} must be a NumPy array, got {type(out).__name__}")
    cdef cnp.ndarray array = out
    if dtype is np.int64:
        if not _is_native_int64(array):
            raise TypeError(
                f"{what} must have dtype int64 (native byte order), got {array.dtype}"
            )
    elif array.dtype != dtype or not array.dtype.isnative:
        raise TypeError(
            f"{what} must have dtype {np.dtype(dtype)} (native byte order), got {array.dtype}"
        )
    if out.shape != shape:
        raise ValueError(f"{what} must have shape {shape}, got {out.shape}")
    if not cnp.PyArray_ISWRITEABLE(array):
        raise ValueError(f"{what} is read-only")
    if (contiguous or len(shape) == 1) and not cnp.PyArray_IS_C_CONTIGUOUS(array):
        raise ValueError(f"{what} must be C-contiguous")
    if _overlaps_any(array, inputs):
        raise ValueError(f"{what} overlaps an input array; pass a separate array")
    return out


cdef object _check_out(object out, tuple shape, tuple inputs):
    """check_out for the int64 results of this module."""
    return _check_out_as(out, shape, inputs, np.int64, "out", False)


# The results' dtypes besides int64, 32 bits where every value fits, and the
# largest value each holds; every dtype a ravel or unravel result may have.
cdef dict _NARROW_LIMITS = {np.dtype(np.int32): 2**31 - 1, np.dtype(np.uint32): 2**32 - 1}
cdef str _RESULT_DTYPES = "int64, int32 or uint32"


cdef object _result_dtype(LayoutPlan plan, object out, object dtype, bint ravel):
    """The dtype of a ravel or unravel result: ``dtype``, or (for None) that
    of ``out`` where it is int32 or uint32, else int64. A 32-bit dtype only
    where it holds every value the layout gives (ravel: every offset into
    the buffer; unravel: every index of every dimension), else a ValueError
    before anything is written."""
    if dtype is None:
        if not isinstance(out, np.ndarray) or _is_native_int64(<cnp.ndarray> out):
            return np.int64  # out's own checks name what is wrong with it
        dtype = out.dtype
        if dtype not in _NARROW_LIMITS:
            raise TypeError(
                f"out must have dtype {_RESULT_DTYPES} (native byte order), got {dtype}"
            )
    elif dtype is not np.int64:
        # A scalar type or dtype as it is (the common call); text and the rest
        # through as_dtype, which never evaluates text.
        if type(dtype) is type or isinstance(dtype, np.dtype):
            dtype = np.dtype(dtype)
        else:
            dtype = as_dtype(dtype)
        if dtype not in _NARROW_LIMITS:
            if dtype == np.int64:
                return np.int64
            raise TypeError(f"dtype must be {_RESULT_DTYPES}, got {dtype}")
    else:
        return np.int64
    limit = _NARROW_LIMITS[dtype]
    if ravel and plan.size - 1 > limit:
        raise ValueError(
            f"{dtype} cannot hold every offset of this layout: its buffer has {plan.size} "
            f"elements (offsets up to {plan.size - 1}) and {dtype} holds at most {limit}; "
            f"use int64"
        )
    if not ravel:
        for dim, size in enumerate(plan.dimensions):
            if size - 1 > limit:
                raise ValueError(
                    f"{dtype} cannot hold every index of this layout: dimension {dim} has size "
                    f"{size} (indices up to {size - 1}) and {dtype} holds at most {limit}; "
                    f"use int64"
                )
    return dtype


# The xs_dtype by signedness and item size (-1: none), read once from
# csrc/base/plan.h's list: a lookup per column of every call.
cdef int _DTYPE_CODES[2][9]
for _signed in range(2):
    for _size in range(9):
        _DTYPE_CODES[_signed][_size] = xs_dtype_code(_size, _signed)


cdef int dtype_code(cnp.ndarray a) except -1:
    """The xs_dtype of an integer array (csrc/base/plan.h's list)."""
    cdef Py_ssize_t size = cnp.PyArray_ITEMSIZE(a)
    cdef int code = _DTYPE_CODES[cnp.PyArray_ISSIGNED(a) != 0][size] if size <= 8 else -1
    if code < 0:
        raise TypeError(f"no kernel reads indices of dtype {a.dtype}")
    return code


cdef object _mode_codes(object modes, LayoutPlan plan, Py_ssize_t n):
    """``modes`` (None: every dimension 'raise'), checked against the sizes."""
    cdef const uint8_t* codes
    cdef Py_ssize_t j
    if modes is None:
        return None
    if type(modes) is bytes and len(<bytes> modes) == plan.rank:  # mode_codes' own form
        codes = <const uint8_t*> <const char*> <bytes> modes
        j = 0
        while j < plan.rank and codes[j] == XS_RAISE:
            j += 1
        if j == plan.rank:
            return None
        if not (n and into_empty(plan, codes)):
            return modes
    elif not any(modes):
        return None
    if n and 0 in plan.dimensions:
        for dim, (code, size) in enumerate(zip(modes, plan.dimensions)):
            if code != RAISE and size == 0:
                mode = "wrap" if code == WRAP else "clip"
                raise ValueError(f"cannot {mode} indices into dimension {dim} of size 0")
    return modes


cdef const xs_tiled* _tiled_of(LayoutPlan plan) noexcept:
    """A tiled plan's C form (csrc/tiled/tiled.h), or NULL for an untiled plan."""
    return NULL if type(plan) is LayoutPlan else &(<TiledPlan> plan).t


cdef bint _by_reference(LayoutPlan plan) noexcept:
    """Whether a tiled plan has no C form and runs on the reference."""
    return type(plan) is not LayoutPlan and not (<TiledPlan> plan).compiled


cdef _raise_ravel_error(LayoutPlan plan, tuple values, object codes, Py_ssize_t row):
    for dim, (value, size) in enumerate(zip(values, plan.dimensions)):
        if (codes is None or codes[dim] == RAISE) and not 0 <= value < size:
            raise index_out_of_bounds(value, dim, size, values, row)
    raise AssertionError(f"kernel flagged row {row} but it is in bounds")  # pragma: no cover


# -- the C driver, also for _drop_ins ---------------------------------------------------

cdef enum:
    # Batches this long release the GIL while the kernels run; shorter ones,
    # done well within the interpreter's switch interval (5 ms), keep it
    # and skip the release and re-acquire.
    NOGIL_ROWS = 4096


ctypedef Py_ssize_t (*_driver_fn)(const xs_job* job, Py_ssize_t n, int threads) noexcept nogil


cdef inline Py_ssize_t _drive(_driver_fn driver, LayoutPlan plan, xs_job* job, Py_ssize_t n,
                              int threads) noexcept:
    """``driver`` (xs_ravel or xs_unravel) on ``job`` for ``plan``, set in
    the job here with its tiled form: the first bad row, or -1."""
    cdef Py_ssize_t row
    job.plan = &plan.c
    job.tiled = _tiled_of(plan)
    if n < NOGIL_ROWS:
        return driver(job, n, threads)
    with nogil:
        row = driver(job, n, threads)
    return row


cdef Py_ssize_t run_ravel(LayoutPlan plan, xs_job* job, Py_ssize_t n, int threads) noexcept:
    """xs_ravel on ``plan``: fill ``job.out``; the first bad row, or -1."""
    return _drive(xs_ravel, plan, job, n, threads)


cdef Py_ssize_t run_unravel(LayoutPlan plan, xs_job* job, Py_ssize_t n, int threads) noexcept:
    """xs_unravel on ``plan``: fill ``job.rows_out``; the first bad row, or -1."""
    return _drive(xs_unravel, plan, job, n, threads)


cdef int rows_job(xs_job* job, const char** column, Py_ssize_t* step, int* dtype,
                  cnp.ndarray a, int row_axis) except -1:
    """Point ``job`` at the multi-indices of a 2-D integer array ``a`` that
    lie along ``row_axis`` (0 for an (N, rank) array, 1 for NumPy's
    (rank, N)), through ``column``, ``step`` and ``dtype`` (rank entries
    each): column j starts j items into the data and steps by its row
    stride."""
    cdef Py_ssize_t j, rank = cnp.PyArray_DIM(a, 1 - row_axis)
    cdef Py_ssize_t down = cnp.PyArray_STRIDE(a, row_axis)
    cdef Py_ssize_t across = cnp.PyArray_STRIDE(a, 1 - row_axis)
    cdef Py_ssize_t item = cnp.PyArray_ITEMSIZE(a)
    cdef char* data = <char*> cnp.PyArray_DATA(a)
    cdef int code = dtype_code(a)
    for j in range(rank):
        column[j] = data + j * across
        step[j] = down
        dtype[j] = code
    job.column = column
    job.column_step = step
    job.column_dtype = dtype
    # (one row is contiguous when its entries are; its row stride is unused)
    job.rows_contiguous = across == item and (
        cnp.PyArray_DIM(a, row_axis) <= 1 or down == item * rank)
    return 0


# -- ravel --------------------------------------------------------------------------

cdef Py_ssize_t _ravel_arrays(LayoutPlan plan, list arrays, Py_ssize_t n, object codes,
                              cnp.ndarray out, int threads, bint rows_form) except -2:
    """Fill ``out`` from ``arrays``: one (N, rank) array if ``rows_form``,
    else one 1-D array per dimension. The first bad row, or -1."""
    cdef Py_ssize_t rank = plan.rank, j
    cdef const char* column_stack[STACK_RANK]
    cdef Py_ssize_t step_stack[STACK_RANK]
    cdef int dtype_stack[STACK_RANK]
    cdef const char** column = column_stack
    cdef Py_ssize_t* step = step_stack
    cdef int* dtype = dtype_stack
    cdef cnp.ndarray a
    cdef xs_job job
    xs_job_init(&job)
    if rank > STACK_RANK:
        column = <const char**> PyMem_Malloc(rank * sizeof(char*))
        step = <Py_ssize_t*> PyMem_Malloc(rank * sizeof(Py_ssize_t))
        dtype = <int*> PyMem_Malloc(rank * sizeof(int))
        if column == NULL or step == NULL or dtype == NULL:
            PyMem_Free(column)
            PyMem_Free(step)
            PyMem_Free(dtype)
            raise MemoryError()
    try:
        if rows_form:
            rows_job(&job, column, step, dtype, arrays[0], 0)
        else:
            for j in range(rank):
                a = arrays[j]
                column[j] = <const char*> cnp.PyArray_DATA(a)
                step[j] = cnp.PyArray_STRIDE(a, 0)
                dtype[j] = dtype_code(a)
            job.column = column
            job.column_step = step
            job.column_dtype = dtype
            job.rows_contiguous = False
        job.mode = <const uint8_t*> NULL if codes is None else <const uint8_t*> <const char*> codes
        job.out = <int64_t*> cnp.PyArray_DATA(out)
        job.out32 = cnp.PyArray_ITEMSIZE(out) == 4
        return run_ravel(plan, &job, n, threads)
    finally:
        if rank > STACK_RANK:
            PyMem_Free(column)
            PyMem_Free(step)
            PyMem_Free(dtype)


def ravel_array(LayoutPlan plan, cnp.ndarray indices, modes=None, out=None, threads=None,
                sources=()):
    """Linear indices of an (N, rank) integer array, any strides. ``modes``
    holds one of RAISE, WRAP, CLIP per dimension; None means all RAISE.
    ``out`` must not overlap ``indices`` or any array in ``sources`` (what
    the caller passed, if ``indices`` is a converted copy of it)."""
    return _ravel_array(plan, indices, modes, out, threads, sources, np.int64)


cdef object _ravel_array(LayoutPlan plan, cnp.ndarray indices, object modes, object out,
                         object threads, object sources, object dtype):
    cdef Py_ssize_t n = cnp.PyArray_DIM(indices, 0), row
    out = _check_out_as(out, (n,), (indices, sources), _result_dtype(plan, out, dtype, True),
                        "out", False)
    codes = _mode_codes(modes, plan, n)
    if plan.rank == 0:
        out.fill(0)
        return out
    if _by_reference(plan):
        return (<TiledPlan> plan).ravel_reference(indices, codes, out)
    row = _ravel_arrays(plan, [indices], n, codes, out, resolve_threads(threads), True)
    if row >= 0:
        _raise_ravel_error(plan, tuple(int(v) for v in indices[row]), codes, row)
    return out


def ravel_columns(LayoutPlan plan, columns, modes=None, out=None, threads=None, sources=()):
    """Linear indices of ``rank`` 1-D integer arrays of one length, one per
    dimension (NumPy's ``multi_index`` form); ``modes`` and ``sources`` as
    for ravel_array."""
    cdef Py_ssize_t n = len(columns[0]) if columns else 0, row
    out = _check_out(out, (n,), (columns, sources))
    codes = _mode_codes(modes, plan, n)
    if plan.rank == 0:
        out.fill(0)
        return out
    if _by_reference(plan):
        return (<TiledPlan> plan).ravel_reference(np.stack(columns, axis=1), codes, out)
    row = _ravel_arrays(plan, list(columns), n, codes, out, resolve_threads(threads), False)
    if row >= 0:
        _raise_ravel_error(plan, tuple(int(c[row]) for c in columns), codes, row)
    return out


cdef object ravel_input(LayoutPlan plan, object indices, object mode, object out,
                        object threads, object dtype=np.int64):
    """``xlashape.ravel`` on a plan: any (N, rank) integer array-like; the
    result's ``dtype`` as _result_dtype reads it."""
    codes = _codes_of(mode, plan.rank)
    source = indices
    if codes is not None and not isinstance(indices, np.ndarray):
        source = _apply_modes_to_python_ints(plan.dimensions, indices, codes)
    rows = as_index_array(source, "multi-indices")
    cdef cnp.ndarray array = rows
    if cnp.PyArray_NDIM(array) != 2 or cnp.PyArray_DIM(array, 1) != plan.rank:
        raise ValueError(
            f"a batch of multi-indices must be an (N, {plan.rank}) array for a "
            f"rank-{plan.rank} shape, got shape {rows.shape}"
        )
    return _ravel_array(plan, array, codes, out, threads, indices, dtype)


# -- unravel ------------------------------------------------------------------------

def unravel(LayoutPlan plan, cnp.ndarray linear, out, threads=None):
    """Fill ``out`` (N, rank), any strides, with the multi-indices of the
    1-D integer array ``linear``. ``out`` is already checked (check_out)."""
    return _unravel(plan, linear, out, threads)


cdef object _unravel(LayoutPlan plan, cnp.ndarray linear, object out, object threads):
    cdef Py_ssize_t n = cnp.PyArray_DIM(linear, 0), row
    cdef cnp.ndarray result = out
    cdef xs_job job
    cdef int count = resolve_threads(threads)
    xs_job_init(&job)
    if _by_reference(plan):
        return (<TiledPlan> plan).unravel_reference(linear, out)
    if plan.rank == 0 and type(plan) is LayoutPlan:
        nonzero = np.flatnonzero(linear)
        row = int(nonzero[0]) if nonzero.size else -1
    else:
        job.linear = <const char*> cnp.PyArray_DATA(linear)
        job.linear_step = cnp.PyArray_STRIDE(linear, 0)
        job.linear_dtype = dtype_code(linear)
        job.rows_out = <char*> cnp.PyArray_DATA(result)
        job.out32 = cnp.PyArray_ITEMSIZE(result) == 4
        job.out_step0 = cnp.PyArray_STRIDE(result, 0)
        job.out_step1 = cnp.PyArray_STRIDE(result, 1)
        row = run_unravel(plan, &job, n, count)
    if row >= 0:
        if type(plan) is LayoutPlan:
            reference.multi_index(
                plan.dimensions, plan.minor_to_major, plan.widths, int(linear[row]), row=row
            )
        reference.multi_index_at(plan, int(linear[row]), row)
        raise AssertionError(f"kernel flagged row {row} but it is valid")  # pragma: no cover
    return out


cdef object unravel_input(LayoutPlan plan, object offsets, object out, object threads,
                          object dtype=np.int64):
    """``xlashape.unravel`` on a plan: any 1-D integer array-like; the
    result's ``dtype`` as _result_dtype reads it."""
    linear = as_index_array(offsets, "linear indices")
    cdef cnp.ndarray array = linear
    if cnp.PyArray_NDIM(array) != 1:
        raise ValueError(f"a batch of linear indices must be 1-D, got shape {linear.shape}")
    out = _check_out_as(out, (cnp.PyArray_DIM(array, 0), plan.rank), (linear, offsets),
                        _result_dtype(plan, out, dtype, False), "out", False)
    return _unravel(plan, array, out, threads)
