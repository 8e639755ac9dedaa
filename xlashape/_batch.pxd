# The compiled batch glue, for the other compiled modules (_index, _convert).

cimport numpy as cnp

from xlashape._plan cimport LayoutPlan

cdef LayoutPlan plan_of(object shape)
cdef int resolve_threads(object threads) except -1
cdef object ravel_input(LayoutPlan plan, object indices, object mode, object out,
                        object threads)
cdef object unravel_input(LayoutPlan plan, object offsets, object out, object threads)
