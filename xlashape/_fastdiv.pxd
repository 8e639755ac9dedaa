# Division by a run-time invariant divisor without a hardware divide.
#
# Granlund and Montgomery, "Division by invariant integers using
# multiplication" (PLDI 1994), theorem 4.2 with N = 63: for a divisor
# 1 <= d < 2**63, let l = ceil(log2(d)) and m = ceil(2**(63 + l) / d), which
# fits in 64 bits. Then for every numerator 0 <= n < 2**63,
#     n // d == floor(n * m / 2**(63 + l)) == mulhi(2 * n, m) >> l
# with one 64x64->128-bit multiply, a shift and no branch, powers of two
# and d == 1 included. The constants are computed in LayoutPlan.

from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #if defined(__SIZEOF_INT128__)
    static inline uint64_t xlashape_mulhi(uint64_t a, uint64_t b) {
        return (uint64_t)(((unsigned __int128)a * b) >> 64);
    }
    #elif defined(_MSC_VER) && defined(_M_X64)
    #include <intrin.h>
    static inline uint64_t xlashape_mulhi(uint64_t a, uint64_t b) {
        return __umulh(a, b);
    }
    #else
    static inline uint64_t xlashape_mulhi(uint64_t a, uint64_t b) {
        uint64_t a_lo = (uint32_t)a, a_hi = a >> 32;
        uint64_t b_lo = (uint32_t)b, b_hi = b >> 32;
        uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo;
        uint64_t lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
        uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi;
        return hi_hi + (hi_lo >> 32) + (cross >> 32);
    }
    #endif
    """
    uint64_t xlashape_mulhi(uint64_t a, uint64_t b) noexcept nogil


cdef struct FastDivisor:
    uint64_t divisor
    uint64_t multiplier
    int shift


cdef inline uint64_t fast_divide(uint64_t n, const FastDivisor* d) noexcept nogil:
    """n // d.divisor, for 0 <= n < 2**63."""
    return xlashape_mulhi(n << 1, d.multiplier) >> d.shift
