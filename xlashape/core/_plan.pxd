# The compiled form of a Shape's layout, shared by every kernel.

from libc.stdint cimport int64_t, uint64_t


cdef extern from "base/plan.h" nogil:
    enum:
        XS_MAX_UNROLLED                 # the largest rank with kernels of its own
        XS_I64                          # the int64 code of the dtype list
    int xs_dtype_code(int size, int is_signed)
    ctypedef struct xs_divisor:
        uint64_t divisor
        uint64_t multiplier
        int shift

    ctypedef struct xs_plan:
        int rank
        int padded
        int pow2
        uint64_t size
        uint64_t* extent
        uint64_t* stride
        int* order
        int* position
        uint64_t* order_extent
        xs_divisor* divisor
        double* reciprocal

    uint64_t xs_ravel_row(const uint64_t* value, const uint64_t* extent,
                          const uint64_t* stride, int rank, uint64_t* bad)
    uint64_t xs_unravel_value(const xs_plan* p, uint64_t n, char* out, Py_ssize_t step)
    uint64_t xs_resolve_index(uint64_t v, int dtype, uint64_t extent, int mode)


cdef class LayoutPlan:
    cdef readonly Py_ssize_t rank
    cdef readonly int64_t size            # elements in the buffer, padding included
    cdef readonly tuple dimensions        # sizes, by dimension number
    cdef readonly tuple widths            # padded widths, by dimension number
    cdef readonly tuple minor_to_major
    cdef readonly tuple strides           # exact strides in elements (Python ints)
    cdef readonly bint padded             # some width exceeds its dimension's size

    # What the C kernels read (see csrc/base/plan.h); its arrays are owned here.
    cdef xs_plan c

    cdef object ravel_one(self, object multi_index)
    cdef object unravel_one(self, object linear_index)


# Division constants for one divisor, shared with the tiled kernels (_tiled.pyx).
cdef xs_divisor _fast_divisor(width) except *
# count items of itemsize bytes (at least one) from PyMem_Malloc; MemoryError
# when none.
cdef void* _alloc(Py_ssize_t count, size_t itemsize) except NULL
