# The compiled form of a Shape's layout, shared by every kernel.

from libc.stdint cimport int64_t, uint64_t

from xlashape._fastdiv cimport FastDivisor


cdef class LayoutPlan:
    cdef readonly Py_ssize_t rank
    cdef readonly int64_t size            # elements in the buffer, padding included
    cdef readonly tuple dimensions        # sizes, by dimension number
    cdef readonly tuple widths            # padded widths, by dimension number
    cdef readonly tuple minor_to_major
    cdef readonly tuple strides           # exact strides in elements (Python ints)
    cdef readonly bint padded             # some width exceeds its dimension's size
    cdef readonly bint pow2               # every width is a power of two

    # C copies for the kernels. Indexed by dimension number:
    cdef uint64_t* extent                 # size of each dimension
    cdef uint64_t* stride                 # stride of each dimension (mod 2**64)
    # Indexed by position in minor_to_major, most minor first:
    cdef Py_ssize_t* order                # the dimension number at that position
    cdef uint64_t* order_extent           # its size
    cdef FastDivisor* divisor             # its padded width, as a fast divisor

    cdef object ravel_one(self, object multi_index)
    cdef object unravel_one(self, object linear_index)
