# Fused integer types shared by every kernel, in one place.

from libc.stdint cimport (
    int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
)

# Any integer index: each kernel is compiled once per width and signedness,
# and reads its input in that width (no conversion copy).
ctypedef fused index_t:
    int8_t
    int16_t
    int32_t
    int64_t
    uint8_t
    uint16_t
    uint32_t
    uint64_t

# Out-of-range handling of one dimension, as in numpy.ravel_multi_index.
cdef enum Mode:
    MODE_RAISE = 0
    MODE_WRAP = 1
    MODE_CLIP = 2
