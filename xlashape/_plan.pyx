"""LayoutPlan: a validated layout turned into strides and divisors.

A Shape builds its plan once; every kernel and the scalar IndexUtil calls then
read plain C arrays from it. The plan trusts its inputs: Shape has already
checked them.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.number cimport PyNumber_Index
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int64_t, uint64_t

from xlashape._fastdiv cimport FastDivisor, fast_divide

from xlashape import reference


cdef void* _alloc(Py_ssize_t count, size_t itemsize) except NULL:
    cdef void* p = PyMem_Malloc(max(count, 1) * itemsize)
    if p == NULL:
        raise MemoryError()
    return p


cdef class LayoutPlan:
    """Strides, extents and division constants of one shape's layout."""

    def __cinit__(self, tuple dimensions, tuple minor_to_major, tuple widths):
        cdef Py_ssize_t rank = len(dimensions)
        cdef Py_ssize_t k, dim
        self.rank = rank
        self.dimensions = dimensions
        self.widths = widths
        self.minor_to_major = minor_to_major
        self.padded = widths != dimensions
        self.pow2 = all(w > 0 and w & (w - 1) == 0 for w in widths)
        self.extent = <uint64_t*> _alloc(rank, sizeof(uint64_t))
        self.stride = <uint64_t*> _alloc(rank, sizeof(uint64_t))
        self.order = <Py_ssize_t*> _alloc(rank, sizeof(Py_ssize_t))
        self.order_extent = <uint64_t*> _alloc(rank, sizeof(uint64_t))
        self.divisor = <FastDivisor*> _alloc(rank, sizeof(FastDivisor))

        strides = [0] * rank
        stride = 1
        for k in range(rank):
            dim = minor_to_major[k]
            width = widths[dim]
            strides[dim] = stride
            self.order[k] = dim
            self.order_extent[k] = dimensions[dim]
            self.divisor[k] = _fast_divisor(width)
            stride *= width
        self.size = stride  # Shape guarantees it fits in int64
        self.strides = tuple(strides)
        for dim in range(rank):
            self.extent[dim] = dimensions[dim]
            # In a shape with a zero-sized dimension no index is valid, and a
            # stride may exceed int64; the kernels then never use it.
            self.stride[dim] = strides[dim] & 0xFFFFFFFFFFFFFFFF

    def __dealloc__(self):
        PyMem_Free(self.extent)
        PyMem_Free(self.stride)
        PyMem_Free(self.order)
        PyMem_Free(self.order_extent)
        PyMem_Free(self.divisor)

    cdef object ravel_one(self, object multi_index):
        """The linear index of one multi-index (a sequence of ints)."""
        cdef tuple idx = multi_index if type(multi_index) is tuple else tuple(multi_index)
        cdef Py_ssize_t j
        cdef int64_t v
        cdef uint64_t acc = 0
        if len(idx) != self.rank:
            reference.check_length(idx, self.rank)
        for j in range(self.rank):
            item = idx[j]
            try:
                if type(item) is not int:
                    if type(item) is bool:
                        raise TypeError
                    item = PyNumber_Index(item)  # ints only: no float or bool truncated
                v = item
            except (TypeError, OverflowError):
                # Not an integer, or outside int64: the reference names it.
                return reference.linear_index(self.dimensions, self.minor_to_major,
                                              self.widths, idx)
            if <uint64_t> v >= self.extent[j]:
                return reference.linear_index(self.dimensions, self.minor_to_major,
                                              self.widths, idx)
            acc += <uint64_t> v * self.stride[j]
        return <int64_t> acc

    cdef object unravel_one(self, object linear_index):
        """The multi-index (a tuple of ints) stored at one linear index."""
        cdef int64_t v
        cdef uint64_t n, q, r
        cdef Py_ssize_t k
        try:
            if type(linear_index) is int:
                v = linear_index
            elif type(linear_index) is bool:
                raise TypeError
            else:
                v = PyNumber_Index(linear_index)  # ints only: no float or bool truncated
        except (TypeError, OverflowError):
            return reference.multi_index(self.dimensions, self.minor_to_major,
                                         self.widths, linear_index)
        n = <uint64_t> v
        if n >= <uint64_t> self.size:
            return reference.multi_index(self.dimensions, self.minor_to_major,
                                         self.widths, linear_index)
        cdef int64_t position[64]
        if self.rank > 64:
            return reference.multi_index(self.dimensions, self.minor_to_major,
                                         self.widths, linear_index)
        for k in range(self.rank):
            q = fast_divide(n, &self.divisor[k])
            r = n - q * self.divisor[k].divisor
            if r >= self.order_extent[k]:
                return reference.multi_index(self.dimensions, self.minor_to_major,
                                             self.widths, linear_index)
            position[self.order[k]] = <int64_t> r
            n = q
        cdef object value
        result = PyTuple_New(self.rank)
        for k in range(self.rank):
            value = position[k]
            Py_INCREF(value)  # PyTuple_SET_ITEM steals a reference
            PyTuple_SET_ITEM(result, k, value)
        return result


cdef FastDivisor _fast_divisor(width) except *:
    """Granlund-Montgomery constants for dividing by ``width`` (see _fastdiv)."""
    cdef FastDivisor d
    d.divisor = width
    if width == 0:
        # Only in empty shapes, whose kernels never divide.
        d.multiplier = 0
        d.shift = 0
        return d
    shift = (width - 1).bit_length()
    multiplier = -((-(1 << (63 + shift))) // width)
    d.multiplier = multiplier
    d.shift = shift
    return d
