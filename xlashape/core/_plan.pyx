"""LayoutPlan: a validated layout turned into strides and divisors.

A Shape builds its plan once; the batch kernels and the scalar IndexUtil
calls then read its C form (``xs_plan``, csrc/base/plan.h). The single-index
calls use the same row steps as the batch kernels. The plan trusts its
inputs: Shape has already checked them.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.number cimport PyNumber_Index
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int64_t, uint64_t

from xlashape import reference

# Single-index calls keep the multi-index on the stack up to this rank.
cdef enum:
    MAX_SCALAR_RANK = 64


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
        self.c.rank = <int> rank
        self.c.padded = self.padded
        self.c.pow2 = all(w > 0 and w & (w - 1) == 0 for w in widths)
        self.c.extent = <uint64_t*> _alloc(rank, sizeof(uint64_t))
        self.c.stride = <uint64_t*> _alloc(rank, sizeof(uint64_t))
        self.c.order = <int*> _alloc(rank, sizeof(int))
        self.c.position = <int*> _alloc(rank, sizeof(int))
        self.c.order_extent = <uint64_t*> _alloc(rank, sizeof(uint64_t))
        self.c.divisor = <xs_divisor*> _alloc(rank, sizeof(xs_divisor))
        self.c.reciprocal = <double*> _alloc(rank, sizeof(double))

        strides = [0] * rank
        stride = 1
        for k in range(rank):
            dim = minor_to_major[k]
            width = widths[dim]
            strides[dim] = stride
            self.c.order[k] = <int> dim
            self.c.position[dim] = <int> k
            self.c.order_extent[k] = dimensions[dim]
            self.c.divisor[k] = _fast_divisor(width)
            self.c.reciprocal[k] = 1.0 / width if width else 0.0
            stride *= width
        self.size = stride  # Shape guarantees it fits in int64
        self.c.size = <uint64_t> self.size
        self.strides = tuple(strides)
        for dim in range(rank):
            self.c.extent[dim] = dimensions[dim]
            # In a shape with a zero-sized dimension no index is valid, and a
            # stride may exceed int64; the kernels then never use it.
            self.c.stride[dim] = strides[dim] & 0xFFFFFFFFFFFFFFFF

    def __dealloc__(self):
        PyMem_Free(self.c.extent)
        PyMem_Free(self.c.stride)
        PyMem_Free(self.c.order)
        PyMem_Free(self.c.position)
        PyMem_Free(self.c.order_extent)
        PyMem_Free(self.c.divisor)
        PyMem_Free(self.c.reciprocal)

    cdef object ravel_one(self, object multi_index):
        """The linear index of one multi-index (a sequence of ints)."""
        cdef tuple idx = multi_index if type(multi_index) is tuple else tuple(multi_index)
        cdef Py_ssize_t j, j0, m
        cdef int64_t v
        cdef uint64_t acc = 0, bad = 0
        cdef uint64_t value[XS_MAX_UNROLLED]   # the row step takes so many at a time
        if len(idx) != self.rank:
            reference.check_length(idx, self.rank)
        for j0 in range(0, self.rank, XS_MAX_UNROLLED):
            m = min(self.rank - j0, XS_MAX_UNROLLED)
            for j in range(m):
                item = idx[j0 + j]
                try:
                    if type(item) is not int:
                        if type(item) is bool:
                            raise TypeError
                        item = PyNumber_Index(item)  # ints only: no float or bool truncated
                    v = item
                except (TypeError, OverflowError):
                    bad = 1  # not an integer, or outside int64: the reference names it
                    break
                value[j] = <uint64_t> v
            if bad:
                break
            acc += xs_ravel_row(value, self.c.extent + j0, self.c.stride + j0, <int> m, &bad)
            if bad:
                break
        if bad:
            return reference.linear_index(self.dimensions, self.minor_to_major,
                                          self.widths, idx)
        return <int64_t> acc

    cdef object unravel_one(self, object linear_index):
        """The multi-index (a tuple of ints) stored at one linear index."""
        cdef int64_t v
        cdef Py_ssize_t k
        cdef int64_t position[MAX_SCALAR_RANK]
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
        if self.rank > MAX_SCALAR_RANK or xs_unravel_value(&self.c, <uint64_t> v,
                                                           <char*> position, 8):
            return reference.multi_index(self.dimensions, self.minor_to_major,
                                         self.widths, linear_index)
        cdef object value
        result = PyTuple_New(self.rank)
        for k in range(self.rank):
            value = position[k]
            Py_INCREF(value)  # PyTuple_SET_ITEM steals a reference
            PyTuple_SET_ITEM(result, k, value)
        return result


cdef xs_divisor _fast_divisor(width) except *:
    """Granlund-Montgomery constants for dividing by ``width`` (see
    xs_divide in csrc/base/plan.h)."""
    cdef xs_divisor d
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
