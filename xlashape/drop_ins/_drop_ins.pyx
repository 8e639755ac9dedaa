"""The NumPy drop-ins, ``xlashape.ravel_multi_index`` and
``xlashape.unravel_index``: their compiled front.

A call first finds the layout of its (dims, order, padded_dims), cached by
value for tuples of ints and 1-D buffers of native integers (any exporter
of the buffer protocol but bytes, bytearray and ndarray subclasses), read
as the tuple of their values (and by identity for the tuple passed last). Then
the common calls go straight from here to the C driver (csrc/driver/dispatch.h):

- ravel: ``multi_index`` a tuple or list of ``rank`` integer arrays
  (native byte order; 1-D, or C-contiguous) of one shape, or of ``rank``
  integers (``int`` or NumPy integer scalars that int64 holds), or of
  ``rank`` lists of one length of ``int`` (up to SMALL_LIST_VALUES in all),
  or a (rank, N) integer array, or a 1-D buffer of ``rank`` native
  integers; ``mode`` 'raise', 'wrap' or 'clip' as a ``str``;
- unravel: ``indices`` an integer array (1-D, or C-contiguous), a 1-D
  buffer of native integers, or one integer;

both without ``out=``. Everything else, and every call the driver flags
(an index out of bounds), hands over to the general path in
``numpy_compat``, which reads arguments as NumPy does and raises as NumPy
would: a hand-over never changes a result or an exception. The general
path and ``duck_arrays`` sit above this module and call into it, so it never
imports them: ``xlashape.drop_ins`` hands them over once, as it is imported
(:func:`take_general_path`).

A call whose index arrays NumPy would hand to another library (NEP 18: a
type with its own ``__array_function__``, such as a Dask array) goes to
``duck_arrays`` instead of the general path,
which keeps them in their library. The check comes after the fast paths,
so that it costs their calls nothing: those take only ints, NumPy integer
scalars and exact ndarrays, on which NumPy never dispatches. (A fast path
added later must keep to such types, or check first.)
"""

cimport numpy as cnp
from cpython.buffer cimport (
    PyBUF_FORMAT, PyBUF_STRIDES, PyBuffer_Release, PyObject_CheckBuffer, PyObject_GetBuffer,
)
from cpython.bytearray cimport PyByteArray_Check
from cpython.bytes cimport PyBytes_Check
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.number cimport PyNumber_Index
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from inspect import signature as _signature

import numpy as np

from xlashape.core._batch cimport (
    XS_RAISE, dtype_code, mode_once, new_result, resolve_threads, rows_job, run_ravel, run_unravel,
    xs_job, xs_job_init,
)
from xlashape.core._plan cimport (
    XS_I64,
    LayoutPlan,
    xs_dtype_code,
    xs_resolve_index,
    xs_unravel_value,
)

cnp.import_array()


cdef extern from "runtime/result_cache.h":
    size_t XS_CACHE_MIN_BYTES


cdef extern from *:
    """
    #ifdef Py_GIL_DISABLED
    #define XS_FREE_THREADED 1
    #else
    #define XS_FREE_THREADED 0
    #endif
    """
    # Whether this build runs without the GIL (a free-threaded CPython).
    bint XS_FREE_THREADED


cdef extern from *:
    """
    /* Whether NumPy would hand a call on ``value`` to another library
       (NEP 18): its type has an __array_function__ (``name``) other than
       ndarray's (``ndarray_method``). Ints and exact ndarrays, the common
       items, cost a compare each; other types one lookup in their MRO
       cache, without raising. */
    static inline int xs_foreign(PyObject* value, PyObject* name, PyObject* ndarray_method) {
        PyTypeObject* type = Py_TYPE(value);
        PyObject* method;
        if (type == &PyLong_Type || type == &PyArray_Type) {
            return 0;
        }
        method = _PyType_Lookup(type, name);
        return method != NULL && method != ndarray_method;
    }

    /* xs_foreign for any item of a tuple (the index arrays, borrowed). */
    static inline int xs_tuple_holds_foreign(PyObject* items, PyObject* name,
                                             PyObject* ndarray_method) {
        Py_ssize_t k;
        for (k = 0; k < PyTuple_GET_SIZE(items); k++) {
            if (xs_foreign(PyTuple_GET_ITEM(items, k), name, ndarray_method)) {
                return 1;
            }
        }
        return 0;
    }
    """
    bint xs_foreign(object value, object name, object ndarray_method) noexcept
    bint xs_tuple_holds_foreign(object items, object name, object ndarray_method) noexcept


cdef extern from *:
    """
    /* The struct-format prefix of native byte order at standard sizes. */
    #if PY_BIG_ENDIAN
    #define XS_NATIVE_ORDER '>'
    #else
    #define XS_NATIVE_ORDER '<'
    #endif
    """
    char XS_NATIVE_ORDER


cdef extern from "numpy/arrayobject.h":
    # A NumPy scalar of ``descr`` holding a copy of the item at ``data``.
    object PyArray_Scalar(void* data, cnp.dtype descr, object base)

cdef enum:
    # Ranks the fast path takes (NumPy's own limit, NPY_MAXDIMS); higher
    # ones take the general path.
    MAX_RANK = 64
    # Layouts kept by value; the cache starts afresh when full.
    CACHE_LIMIT = 512
    # Values of a tuple of lists the fast path copies onto the stack (more
    # take the general path, which makes arrays of them).
    SMALL_LIST_VALUES = 256

cdef cnp.dtype _INTP = cnp.PyArray_DescrFromType(cnp.NPY_INTP)
cdef object _INTEGER = np.integer


# -- the layout of (dims, order, padded_dims) ----------------------------------

cdef class _Layout:
    """A Shape and its plan."""
    cdef object shape
    cdef LayoutPlan plan


cdef dict _layouts = {}  # (dims, order, padded_dims) -> _Layout
# (dims, order, padded_dims, layout) of the layout found last, its arguments
# held (so their ids stay theirs): a call that passes the same objects again
# skips even the dict. One tuple, replaced whole, so no call reads a mix.
# Under the GIL only: without it, one thread could read _last (and then take
# its reference) just as another replaced it and freed the old tuple; there
# every call takes the dict, which is safe to share.
cdef tuple _last = (None, None, None, None)

cdef object _compat = None  # numpy_compat and duck_arrays: see take_general_path
cdef object _duck = None
cdef str _ARRAY_FUNCTION = "__array_function__"
cdef object _NDARRAY_ARRAY_FUNCTION = np.ndarray.__dict__[_ARRAY_FUNCTION]


def take_general_path(general, duck_arrays):
    """Give the drop-ins their general path, ``general`` (numpy_compat: every
    other form of the arguments, read and refused as NumPy does), and
    ``duck_arrays`` for calls on other libraries' arrays. xlashape.drop_ins
    hands them over as it is imported: they sit above this module (they call
    it), so it never imports them."""
    global _compat, _duck
    _compat = general
    _duck = duck_arrays


cdef inline bint _foreign(object value) noexcept:
    """Whether NumPy would hand a call on ``value`` to another library."""
    return xs_foreign(value, _ARRAY_FUNCTION, _NDARRAY_ARRAY_FUNCTION)


cdef inline bint _holds_foreign(object multi_index) noexcept:
    """_foreign for a multi_index: any of the items of a tuple or list (the
    index arrays), or the object itself (a (rank, N) array)."""
    if type(multi_index) is tuple:
        return xs_tuple_holds_foreign(multi_index, _ARRAY_FUNCTION, _NDARRAY_ARRAY_FUNCTION)
    if type(multi_index) is list:  # read item by item: another thread may change it
        for item in multi_index:
            if _foreign(item):
                return True
        return False
    return _foreign(multi_index)


cdef bint _is_int_tuple(object value) noexcept:
    """Whether ``value`` is a tuple of ints (exactly: no bool, no NumPy
    scalar, which may hash alike but are read differently)."""
    if type(value) is not tuple:
        return False
    for item in <tuple> value:
        if type(item) is not int:
            return False
    return True


cdef int _int_buffer(object value, Py_buffer* view, bint* is_signed) except -2:
    """The xs_dtype of the buffer ``value`` exports, with ``view`` held (the
    caller releases it) and ``is_signed`` set, if that buffer is 1-D,
    aligned and of one native integer (struct format b B h H i I l L q Q n
    N in native byte order, which ctypes writes as '<q'); else -1, ``view``
    not held. Bytes and bytearray (refused as shapes), ndarray subclasses
    (a masked array is not its buffer), types NumPy hands to another
    library and buffers that refuse (a released memoryview: the general
    path words that) are never read here. (Exact ndarrays come here only
    as dims: the fast paths read index arrays first.)"""
    cdef const char* fmt
    cdef char kind
    cdef int code = -1
    if (PyBytes_Check(value) or PyByteArray_Check(value)
            or (cnp.PyArray_Check(value) and not cnp.PyArray_CheckExact(value))
            or _foreign(value) or not PyObject_CheckBuffer(value)):
        return -1
    try:
        PyObject_GetBuffer(value, view, PyBUF_STRIDES | PyBUF_FORMAT)
    except (BufferError, TypeError, ValueError):
        return -1
    fmt = view.format
    if fmt == NULL:  # unsigned bytes
        fmt = "B"
    if fmt[0] == b"@" or fmt[0] == b"=" or fmt[0] == XS_NATIVE_ORDER:
        fmt += 1
    kind = fmt[0]
    if (view.ndim == 1 and view.shape != NULL and kind != 0 and fmt[1] == 0
            and kind in b"bBhHiIlLqQnN"
            and view.itemsize in (1, 2, 4, 8) and <size_t> view.buf % view.itemsize == 0
            and _step(view) % view.itemsize == 0):
        is_signed[0] = kind >= b"a"  # lower case
        code = xs_dtype_code(<int> view.itemsize, is_signed[0])
    if code < 0:
        PyBuffer_Release(view)
    return code


cdef inline Py_ssize_t _step(const Py_buffer* view) noexcept:
    """The bytes between the items of a 1-D buffer (ctypes gives no strides:
    C-contiguous)."""
    return view.strides[0] if view.strides != NULL else view.itemsize


cdef object _buffer_ints(object value):
    """The values of a 1-D buffer of native integers (_int_buffer), as a
    tuple of ints (what NumPy reads from it, item by item); None for
    anything else."""
    cdef Py_buffer view
    cdef bint is_signed
    cdef Py_ssize_t k
    cdef const char* item
    cdef int64_t wide
    cdef object number  # not a C integer: it holds either kind
    if _int_buffer(value, &view, &is_signed) < 0:
        return None
    try:
        result = PyTuple_New(view.shape[0])
        for k in range(view.shape[0]):
            item = <const char*> view.buf + k * _step(&view)
            if view.itemsize == 8 and not is_signed:
                number = (<const uint64_t*> item)[0]
            else:
                if view.itemsize == 8:
                    wide = (<const int64_t*> item)[0]
                elif view.itemsize == 4:
                    wide = (<int64_t> (<const int32_t*> item)[0] if is_signed
                            else <int64_t> (<const uint32_t*> item)[0])
                elif view.itemsize == 2:
                    wide = (<int64_t> (<const int16_t*> item)[0] if is_signed
                            else <int64_t> (<const uint16_t*> item)[0])
                else:
                    wide = (<int64_t> (<const int8_t*> item)[0] if is_signed
                            else <int64_t> (<const uint8_t*> item)[0])
                number = wide
            Py_INCREF(number)  # PyTuple_SET_ITEM steals a reference
            PyTuple_SET_ITEM(result, k, number)
        return result
    finally:
        PyBuffer_Release(&view)


cdef _Layout _layout(object dims, object order, object padded, bint ravel, object first,
                     object mode):
    """The layout of the arguments; the general path's errors for bad ones,
    or the error NumPy meets first in ``first`` (the multi_index or indices)
    or ``mode`` for a bad one it refuses late."""
    global _last
    cdef tuple last
    if not XS_FREE_THREADED:
        last = _last
        if dims is last[0] and order is last[1] and padded is last[2]:
            return <_Layout> last[3]
    cdef object key_dims = tuple(dims) if type(dims) is list else dims
    if type(key_dims) is not tuple and type(key_dims) is not int:
        key_dims = _buffer_ints(dims)  # None (not cached) for all but buffers
    cdef bint cacheable = (
        (type(key_dims) is int or _is_int_tuple(key_dims))
        and (order is None or type(order) is str or _is_int_tuple(order))
        and (padded is None or _is_int_tuple(padded))
    )
    key = (key_dims, order, padded)
    cdef _Layout layout = _layouts.get(key) if cacheable else None
    if layout is None:
        layout = _Layout.__new__(_Layout)
        try:
            layout.shape = _compat.new_shape(dims, order, padded)
        except ValueError:
            if not (_holds_foreign(first) if ravel else _foreign(first)):  # never read those
                _compat.raise_what_numpy_reads_first(ravel, dims, order, padded, first, mode)
            raise
        layout.plan = layout.shape._plan
        if cacheable:
            if len(_layouts) >= CACHE_LIMIT:
                _layouts.clear()
            _layouts[key] = layout
    if not XS_FREE_THREADED and cacheable and key_dims is dims:  # not a list, which may change
        _last = (dims, order, padded, layout)
    return layout


# -- the fast paths -----------------------------------------------------------------

cdef cnp.ndarray _new_result(int nd, cnp.npy_intp* dims):
    """A new intp array, uninitialised; a large one through _batch's result
    cache, so that it may reuse the memory of a freed result."""
    cdef int k
    cdef size_t nbytes = sizeof(int64_t)
    for k in range(nd):
        nbytes *= <size_t> dims[k]
    if nbytes >= XS_CACHE_MIN_BYTES:
        return new_result(tuple([dims[k] for k in range(nd)]), np.intp)
    return cnp.PyArray_EMPTY(nd, dims, cnp.NPY_INTP, 0)


cdef bint _as_int64(object value, int64_t* out) except -1:
    """``value`` as int64 if it is an int or a NumPy integer that int64
    holds; False otherwise (a bool, another type, or out of range)."""
    cdef int overflow = 0
    if type(value) is not int:
        if not isinstance(value, _INTEGER):
            return False
        value = PyNumber_Index(value)
    out[0] = PyLong_AsLongLongAndOverflow(value, &overflow)
    return not overflow


cdef bint _index_array(object value, const char** data, Py_ssize_t* step,
                       int* dtype) noexcept:
    """Whether ``value`` is an index array the kernels read as one flat
    column: an ndarray (exactly) of integers in native byte order, aligned,
    1-D (any stride) or C-contiguous with at least one dimension; and if so,
    its data, the step between items (bytes) and its xs_dtype."""
    if not cnp.PyArray_CheckExact(value):
        return False
    cdef cnp.ndarray a = <cnp.ndarray> value
    cdef int ndim = cnp.PyArray_NDIM(a)
    if (ndim == 0 or ndim >= MAX_RANK or not cnp.PyArray_ISINTEGER(a)
            or not cnp.PyArray_ISNOTSWAPPED(a) or not cnp.PyArray_ISALIGNED(a)):
        return False
    if ndim == 1:
        step[0] = cnp.PyArray_STRIDE(a, 0)
    elif cnp.PyArray_IS_C_CONTIGUOUS(a):
        step[0] = cnp.PyArray_ITEMSIZE(a)
    else:
        return False
    data[0] = <const char*> cnp.PyArray_DATA(a)
    dtype[0] = dtype_code(a)
    return True


cdef object _ravel_fast(LayoutPlan plan, object multi_index, object mode, object threads):
    """The result of ravel_multi_index's common calls, or None."""
    cdef Py_ssize_t rank = plan.rank, j
    cdef cnp.npy_intp n = 1
    cdef const char* column[MAX_RANK]
    cdef Py_ssize_t step[MAX_RANK]
    cdef int dtype[MAX_RANK]
    cdef int64_t value[MAX_RANK]
    cdef int64_t offset
    cdef bint ok
    cdef cnp.ndarray a
    cdef xs_job job
    xs_job_init(&job)
    if rank == 0 or rank >= MAX_RANK:  # NumPy's ravel_multi_index takes at most 63
        return None
    if cnp.PyArray_CheckExact(multi_index):  # a (rank, N) array
        return _ravel_rows_fast(plan, <cnp.ndarray> multi_index, mode, threads)
    if type(multi_index) is list:
        multi_index = tuple(multi_index)  # holds the arrays while the kernels run
    elif type(multi_index) is not tuple:  # a buffer: NumPy reads its items, rank integers
        multi_index = _buffer_ints(multi_index)
        if multi_index is None:
            return None
    if len(<tuple> multi_index) != rank:
        return None
    job.mode = mode_once(plan, mode, &ok)
    if not ok:
        return None
    first = (<tuple> multi_index)[0]
    if type(first) is list:  # rank short lists of ints
        return _ravel_lists_fast(plan, <tuple> multi_index, &job, threads)
    if cnp.PyArray_CheckExact(first):  # rank index arrays of one shape
        a = <cnp.ndarray> first
        for j in range(rank):
            item = (<tuple> multi_index)[j]
            if not _index_array(item, &column[j], &step[j], &dtype[j]):
                return None
            if (cnp.PyArray_NDIM(<cnp.ndarray> item) != cnp.PyArray_NDIM(a)
                    or not cnp.PyArray_CompareLists(cnp.PyArray_DIMS(<cnp.ndarray> item),
                                                    cnp.PyArray_DIMS(a), cnp.PyArray_NDIM(a))):
                return None  # broadcast by the general path
        n = cnp.PyArray_SIZE(a)
        if n == 0:
            return None
        result = _new_result(cnp.PyArray_NDIM(a), cnp.PyArray_DIMS(a))
        job.out = <int64_t*> cnp.PyArray_DATA(<cnp.ndarray> result)
    else:  # rank integers: one multi-index, brought into range here under 'wrap' or 'clip'
        for j in range(rank):
            if not _as_int64((<tuple> multi_index)[j], &value[j]):
                return None
            if job.mode != NULL and job.mode[j] != XS_RAISE:  # as the kernels bring it
                value[j] = <int64_t> xs_resolve_index(<uint64_t> value[j], XS_I64, plan.c.extent[j],
                                                      job.mode[j])
            column[j] = <const char*> &value[j]
            step[j] = 0
            dtype[j] = XS_I64
        job.mode = NULL  # so one index costs what it costs under 'raise'
        job.out = &offset
    job.column = column
    job.column_step = step
    job.column_dtype = dtype
    if run_ravel(plan, &job, n, resolve_threads(threads)) >= 0:
        return None  # the general path raises for the flagged row
    if job.out == &offset:
        return PyArray_Scalar(&offset, _INTP, None)
    return result


cdef object _ravel_lists_fast(LayoutPlan plan, tuple lists, xs_job* job, object threads):
    """_ravel_fast for ``rank`` lists of one length n >= 1 of Python ints
    (exactly: no bool, no NumPy scalar), each held by int64, at most
    SMALL_LIST_VALUES in all: NumPy reads each as an int64 array, and so
    do these, from a copy on the stack rather than new arrays."""
    cdef Py_ssize_t rank = plan.rank, j, k
    cdef cnp.npy_intp n = len(<list> lists[0])
    cdef int64_t values[SMALL_LIST_VALUES]
    cdef const char* column[MAX_RANK]
    cdef Py_ssize_t step[MAX_RANK]
    cdef int dtype[MAX_RANK]
    cdef int overflow = 0
    if n == 0 or n * rank > SMALL_LIST_VALUES:
        return None
    for j in range(rank):
        items = lists[j]
        if type(items) is not list or len(<list> items) != n:
            return None
        for k in range(n):
            item = (<list> items)[k]
            if type(item) is not int:
                return None
            values[j * n + k] = PyLong_AsLongLongAndOverflow(item, &overflow)
            if overflow:
                return None
        column[j] = <const char*> &values[j * n]
        step[j] = sizeof(int64_t)
        dtype[j] = XS_I64
    job.column = column
    job.column_step = step
    job.column_dtype = dtype
    result = _new_result(1, &n)
    job.out = <int64_t*> cnp.PyArray_DATA(<cnp.ndarray> result)
    return result if run_ravel(plan, job, n, resolve_threads(threads)) < 0 else None


cdef object _ravel_rows_fast(LayoutPlan plan, cnp.ndarray rows, object mode, object threads):
    """_ravel_fast for a (rank, N) integer array (NumPy reads it as rank
    rows): each of its rows is a column; the (N, rank) kernel reads the
    common ``a.T`` of a C-contiguous (N, rank) array."""
    cdef cnp.npy_intp n
    cdef const char* column[MAX_RANK]
    cdef Py_ssize_t step[MAX_RANK]
    cdef int dtype[MAX_RANK]
    cdef bint ok
    cdef xs_job job
    xs_job_init(&job)
    if (cnp.PyArray_NDIM(rows) != 2 or cnp.PyArray_DIM(rows, 0) != plan.rank
            or not cnp.PyArray_ISINTEGER(rows) or not cnp.PyArray_ISNOTSWAPPED(rows)
            or not cnp.PyArray_ISALIGNED(rows)):
        return None
    n = cnp.PyArray_DIM(rows, 1)
    job.mode = mode_once(plan, mode, &ok)
    if not ok or n == 0:
        return None
    rows_job(&job, column, step, dtype, rows, 1)
    result = _new_result(1, &n)
    job.out = <int64_t*> cnp.PyArray_DATA(<cnp.ndarray> result)
    return result if run_ravel(plan, &job, n, resolve_threads(threads)) < 0 else None


cdef object _unravel_fast(LayoutPlan plan, object indices, object threads):
    """The result of unravel_index's common calls, or None."""
    cdef Py_ssize_t rank = plan.rank, k
    cdef int64_t value
    cdef int64_t position[MAX_RANK]
    cdef cnp.npy_intp shape[MAX_RANK]
    cdef const char* data
    cdef Py_ssize_t step
    cdef int dtype
    cdef bint is_signed
    cdef Py_buffer view
    if rank == 0 or rank > MAX_RANK:
        return None
    if cnp.PyArray_CheckExact(indices):
        if not _index_array(indices, &data, &step, &dtype):
            return None
        return _unravel_column(plan, data, step, dtype, cnp.PyArray_NDIM(<cnp.ndarray> indices),
                               cnp.PyArray_DIMS(<cnp.ndarray> indices), threads)
    if not _as_int64(indices, &value):
        dtype = _int_buffer(indices, &view, &is_signed)  # NumPy reads it as a 1-D array
        if dtype < 0:
            return None
        try:
            shape[0] = view.shape[0]
            return _unravel_column(plan, <const char*> view.buf, _step(&view), dtype, 1, shape,
                                   threads)
        finally:
            PyBuffer_Release(&view)
    resolve_threads(threads)  # unused for one index, but checked as for many
    if xs_unravel_value(&plan.c, <uint64_t> value, <char*> position, sizeof(int64_t)):
        return None
    result = PyTuple_New(rank)
    for k in range(rank):
        item = PyArray_Scalar(&position[k], _INTP, None)
        Py_INCREF(item)  # PyTuple_SET_ITEM steals a reference
        PyTuple_SET_ITEM(result, k, item)
    return result


cdef object _unravel_column(LayoutPlan plan, const char* data, Py_ssize_t step, int dtype,
                            int ndim, const cnp.npy_intp* shape, object threads):
    """_unravel_fast for indices of ``shape`` (``ndim`` dimensions, at least
    1) read as one column of ``data`` (``step`` bytes apart, of xs_dtype
    ``dtype``), or None."""
    cdef cnp.npy_intp dims[MAX_RANK + 1]
    cdef cnp.npy_intp n = 1
    cdef int k
    cdef xs_job job
    dims[0] = plan.rank
    for k in range(ndim):
        dims[k + 1] = shape[k]
        n *= shape[k]
    if n == 0:
        return None
    rows = _new_result(ndim + 1, dims)
    xs_job_init(&job)
    job.linear = data
    job.linear_step = step
    job.linear_dtype = dtype
    # The kernel fills (N, rank) rows: here the transpose of (rank, N).
    job.rows_out = <char*> cnp.PyArray_DATA(<cnp.ndarray> rows)
    job.out_step0 = sizeof(int64_t)
    job.out_step1 = n * sizeof(int64_t)
    if run_unravel(plan, &job, n, resolve_threads(threads)) >= 0:
        return None  # the general path raises for the flagged row
    return _row_views(<cnp.ndarray> rows)


cdef tuple _row_views(cnp.ndarray rows):
    """``tuple(rows)`` for a C-contiguous array of at least 2 dimensions,
    built directly (iterating an array costs about 1,000 instructions a
    row): views, each C-contiguous."""
    cdef Py_ssize_t k
    cdef int nd = cnp.PyArray_NDIM(rows) - 1
    cdef cnp.npy_intp* shape = cnp.PyArray_DIMS(rows) + 1
    cdef Py_ssize_t size = cnp.PyArray_SIZE(rows) // cnp.PyArray_DIM(rows, 0)
    cdef char* data = <char*> cnp.PyArray_DATA(rows)
    result = PyTuple_New(cnp.PyArray_DIM(rows, 0))
    for k in range(cnp.PyArray_DIM(rows, 0)):
        row = cnp.PyArray_SimpleNewFromData(nd, shape, cnp.NPY_INTP,
                                            data + k * size * sizeof(int64_t))
        cnp.set_array_base(row, rows)
        Py_INCREF(row)  # PyTuple_SET_ITEM steals a reference
        PyTuple_SET_ITEM(result, k, row)
    return result


def try_ravel_multi_index(multi_index, dims, mode="raise", order="C", *, padded_dims=None,
                          threads=None):
    """ravel_multi_index's fast path alone: its result, or None where the
    call hands over to the general path (a form it does not take, or an
    error). For tests and benchmarks."""
    layout = _layout(dims, order, padded_dims, True, multi_index, mode)
    return _ravel_fast(layout.plan, multi_index, mode, threads)


def try_unravel_index(indices, shape, order="C", *, padded_dims=None, threads=None):
    """unravel_index's fast path alone, as try_ravel_multi_index."""
    return _unravel_fast(_layout(shape, order, padded_dims, False, indices, None).plan, indices,
                         threads)


# -- the drop-ins ---------------------------------------------------------------------

def ravel_multi_index(multi_index, dims, mode="raise", order="C", *, out=None,
                      padded_dims=None, threads=None):
    """Like :func:`numpy.ravel_multi_index`, under any layout.

    Parameters
    ----------
    multi_index : tuple of array_like of int
        One integer array per dimension, broadcast together; or an
        (rank, N) integer array.
    dims : int or sequence of int
        The size of each dimension. Bytes are refused (TypeError), where
        NumPy reads their byte values (``b'12'`` as ``(49, 50)``).
    mode : {'raise', 'wrap', 'clip'} or sequence of them, optional
        What an index outside its dimension does, once or per dimension.
    order : {'C', 'F'} or sequence of int, optional
        NumPy's orders, or any ``minor_to_major`` tuple (most minor
        dimension first).
    out : ndarray of int64, optional
        Receives the result; the broadcast shape of ``multi_index``.
    padded_dims : sequence of int, optional
        Each dimension's padded width in memory.
    threads : int, optional
        Threads to use (default :func:`xlashape.get_num_threads`).

    Returns
    -------
    ndarray of intp or intp
        The linear indices, shaped like the broadcast ``multi_index``; a
        scalar for scalar input; ``out`` if it was given.

    Raises
    ------
    ValueError
        For an index out of bounds (:class:`xlashape.IndexOutOfBoundsError`,
        which is also an IndexError, naming the row, dimension and value),
        a bad mode or order, or dims whose size overflows.
    TypeError
        For indices that are not integers.

    See Also
    --------
    numpy.ravel_multi_index, xlashape.ravel

    Examples
    --------
    >>> rows, cols = np.array([0, 1, 1]), np.array([2, 0, 2])
    >>> xs.ravel_multi_index((rows, cols), (2, 3))
    array([2, 3, 5])
    >>> xs.ravel_multi_index((rows, cols), (2, 3), order=(0, 1))   # same as 'F'
    array([4, 1, 5])
    >>> xs.ravel_multi_index((1, 2), (2, 3), padded_dims=(2, 4))
    np.int64(6)

    Index arrays of another library stay in it: Dask arrays give a lazy
    Dask array (through :mod:`xlashape.dask`, ``threads`` per chunk, 1 by
    default), and any other type with its own ``__array_function__``
    (NEP 18) goes to NumPy's ``ravel_multi_index``, which hands it to that
    type as NumPy does; neither takes ``out``, nor does NumPy's take
    ``padded_dims`` or a ``minor_to_major`` order.
    """
    cdef _Layout layout = _layout(dims, order, padded_dims, True, multi_index, mode)
    if out is None:
        result = _ravel_fast(layout.plan, multi_index, mode, threads)
        if result is not None:
            return result
    if _holds_foreign(multi_index):
        return _duck.ravel_multi_index(multi_index, dims, mode, order, out, padded_dims, threads)
    return _compat.ravel_shaped(layout.shape, multi_index, mode, out, threads)


def unravel_index(indices, shape, order="C", *, out=None, padded_dims=None, threads=None):
    """Like :func:`numpy.unravel_index`, under any layout.

    Parameters
    ----------
    indices : int or array_like of int
        Linear indices into the (padded) buffer.
    shape : int or sequence of int
        The size of each dimension. Bytes are refused (TypeError), where
        NumPy reads their byte values (``b'12'`` as ``(49, 50)``).
    order : {'C', 'F'} or sequence of int, optional
        NumPy's orders, or any ``minor_to_major`` tuple.
    out : ndarray of int64, optional
        Of shape ``(rank,) + indices.shape``; receives the result, and the
        returned tuple holds its rows.
    padded_dims : sequence of int, optional
        Each dimension's padded width; an index on padding is an error.
    threads : int, optional
        Threads to use (default :func:`xlashape.get_num_threads`).

    Returns
    -------
    tuple of ndarray of intp, or tuple of intp
        One array per dimension, shaped like ``indices`` (scalars for a
        scalar).

    Raises
    ------
    ValueError
        For an index outside the buffer or on padding
        (:class:`xlashape.IndexOutOfBoundsError`, naming the row).
    TypeError
        For indices that are not integers.

    See Also
    --------
    numpy.unravel_index, xlashape.unravel

    Examples
    --------
    >>> xs.unravel_index(np.array([2, 3, 5]), (2, 3))
    (array([0, 1, 1]), array([2, 0, 2]))
    >>> xs.unravel_index(6, (2, 3), padded_dims=(2, 4))
    (np.int64(1), np.int64(2))
    >>> xs.unravel_index(3, (2, 3), padded_dims=(2, 4))
    Traceback (most recent call last):
      ...
    xlashape.errors.IndexOutOfBoundsError: ...padding...

    Indices of another library stay in it, as for :func:`ravel_multi_index`:
    Dask arrays give lazy Dask arrays, other types with their own
    ``__array_function__`` go to NumPy's ``unravel_index``.
    """
    cdef _Layout layout = _layout(shape, order, padded_dims, False, indices, None)
    if out is None:
        result = _unravel_fast(layout.plan, indices, threads)
        if result is not None:
            return result
    if _foreign(indices):
        return _duck.unravel_index(indices, shape, order, out, padded_dims, threads)
    return _compat.unravel_shaped(layout.shape, indices, out, threads)


# ``inspect.signature`` reads a compiled function's parameters; NumPy's own
# functions carry them as ``__signature__`` too (NumPy's
# test_c_func_dispatcher_signature checks both drop-ins for it).
for _drop_in in (ravel_multi_index, unravel_index):
    _drop_in.__signature__ = _signature(_drop_in)
