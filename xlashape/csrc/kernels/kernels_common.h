/* What every level's kernels share: plan.h, the block size, and exact
 * conversions between integers below 2**52 and doubles that vectorise at
 * every level (no int64 <-> double instruction is needed). Included after a
 * level's target pragma, so these compile for that level. */
#ifndef XLASHAPE_KERNELS_COMMON_H
#define XLASHAPE_KERNELS_COMMON_H

#include <string.h>

#include "base/plan.h"

#if defined(__GNUC__) || defined(__clang__)
#define XS_ALWAYS_INLINE inline __attribute__((always_inline))
#define XS_NOINLINE __attribute__((noinline))
/* Unroll the next loop over dimensions whole (up to XS_MAX_UNROLLED
 * times), where the compiler would not on its own, so that values indexed
 * by dimension stay in registers. */
#define XS_UNROLL_STR_(x) #x
#define XS_UNROLL_PRAGMA(n) _Pragma(XS_UNROLL_STR_(GCC unroll n))
#define XS_UNROLL_DIMS XS_UNROLL_PRAGMA(XS_MAX_UNROLLED)
#else
#define XS_ALWAYS_INLINE __forceinline
#define XS_NOINLINE __declspec(noinline)
#define XS_UNROLL_DIMS
#define restrict __restrict
#endif

/* How a kernel stores a contiguous result (kernels_store.h says when each
 * pays; dispatch.c picks one per call). */
enum xs_store { XS_STORE_PLAIN = 0, XS_STORE_ALIGNED = 1, XS_STORE_STREAM = 2 };

/* Rows per block in unravel: a block's positions (8 x 256 int64) stay in L1. */
#define XS_BLOCK 256

/* How the ravel loops over C-contiguous rows prefetch their input in calls
 * that store other than plainly (that move at least
 * xlashape.cpu.align_bytes(), three quarters of a core's L2, so that the
 * rows come from L3 or memory), whether the call runs whole or by blocks
 * (as under 'clip'): one row stream crosses 4 KiB pages, where the
 * hardware prefetcher stops, four times as often as one of four column
 * streams. xlashape.cpu picks the mode at import (set_prefetch):
 *
 * - XS_PREFETCH_L1, XS_PREFETCH_L1_AHEAD bytes ahead into L1. On an AMD
 *   EPYC (Zen 3, avx2), rank 4, one thread, same-process A/B against no
 *   prefetch: 1.24-1.33x at N = 10^6 and 1.12-1.18x at 10^7, int64 and
 *   int32; within the noise at 10^5 (in L3); off at 10^4.
 * - XS_PREFETCH_L2, XS_PREFETCH_L2_AHEAD bytes ahead into L2, for cores
 *   with an L2 of 2 MiB or more. On an Intel Xeon (model 207, 2 MiB of L2),
 *   10^7 rank-4 rows, one thread, ravel as a fraction of the copy, in a
 *   build whose distance and hint were run-time variables: int64 rows at
 *   avx512 0.73-0.81 with this against 0.62-0.69 with the L1 mode and
 *   0.53-0.56 with none; int32 rows 0.69-0.82 against 0.62-0.74; int64 at
 *   avx2 0.67-0.78 against 0.59-0.74. prefetcht1 or prefetcht2 from 6 to 16
 *   KiB ahead read alike (0.68-0.82); prefetchnta lost (0.35).
 * - XS_PREFETCH_OFF. On an AMD EPYC (Zen 4, 1 MiB of L2), 10^7 rows: int64
 *   at avx512 1.24-1.28 of the copy against 1.24-1.30 with the L1 mode;
 *   int32 rows 1.48-1.54 against 1.37-1.42; int64 at avx2 1.40-1.41
 *   against 1.23-1.27 (the L2 mode: 1.07-1.09 at avx512, 1.40-1.42 at
 *   avx2). It stays out of the default until it is measured on the other
 *   cores with an L2 under 2 MiB that the L1 mode serves now (Zen 3,
 *   Intel's older server cores).
 * The relayouts' streamed inverse interleaves of 1- and 2-byte elements
 * prefetch their source in the L2 mode, and in the L1 mode at a level that
 * defines XS_VINVERSE_AHEAD (relayout_impl.h, xs_inverse_ahead). */
enum xs_prefetch { XS_PREFETCH_OFF = 0, XS_PREFETCH_L1 = 1, XS_PREFETCH_L2 = 2 };
#define XS_PREFETCH_L1_AHEAD 2048
#define XS_PREFETCH_L2_AHEAD 8192

/* The mode set by xlashape.cpu (driver/dispatch.c holds it). */
int xs_prefetch_mode(void);

/* The prefetch of a call that stores by ``store``: none where its results
 * stay in L2, and so its input in cache. */
static XS_ALWAYS_INLINE int xs_prefetch_of(int store) {
    return store == XS_STORE_PLAIN ? XS_PREFETCH_OFF : xs_prefetch_mode();
}

/* Ask for the ``bytes`` (a multiple of 64) from ``at``, the mode's distance
 * ahead. */
static XS_ALWAYS_INLINE void xs_prefetch_ahead(const void *at, int bytes, int mode) {
#if defined(__GNUC__) || defined(__clang__)
    const char *from = (const char *)at;
    if (mode == XS_PREFETCH_L1)
        for (int j = 0; j < bytes; j += 64) __builtin_prefetch(from + XS_PREFETCH_L1_AHEAD + j, 0, 3);
    else if (mode == XS_PREFETCH_L2)
        for (int j = 0; j < bytes; j += 64) __builtin_prefetch(from + XS_PREFETCH_L2_AHEAD + j, 0, 2);
#else  /* MSVC builds the baseline level alone, which has no vector loop to prefetch for */
    (void)at;
    (void)bytes;
    (void)mode;
#endif
}

/* The relayout transposes' whole-line blocks of 2-byte elements (32x32 at
 * AVX-512, staged 32x32 at AVX2, kernels_vec_<level>.h) ask for their rows'
 * source lines two blocks along, which the hardware prefetcher, following
 * 32 rows at once, does not fetch in time. On an Intel Xeon (avx512),
 * bf16[4096,8192]{0,1} to_linear: 0.31 of the copy without, 0.40 one line
 * ahead, 0.45 two lines, 0.44 four. The 16x16 and 8x8 blocks lost with it
 * (f32 0.66 -> 0.45, f64 0.80 -> 0.47-0.59), so only this one prefetches.
 * (Measured before streamed transposes ran in strips.) */
#define XS_T_PREFETCH 128

/* The vector levels' unravel divides an offset 0 <= n < 2**50 by a width
 * w >= 1 in doubles, with no correction step: q = floor(fma(n, rw, rw / 2))
 * with rw = 1 / w rounded, then r = fma(-q, w, n). Why q is exact: the
 * fma returns c = ((n + 1/2) / w)(1 + e0)(1 + e1), |e0|, |e1| <= 2**-53
 * (rw / 2 is exact), so |c - t| < t * 2**-51.99 for t = (n + 1/2) / w.
 * With n = qw + r, 0 <= r < w, t lies in [q + 1/(2w), q + 1 - 1/(2w)],
 * and |c - t| < 1/(2w) whenever n + 1/2 < 2**50.99: so q < c < q + 1.
 * Then q * w <= n < 2**50, and the fma gives r exactly. */
#define XS_FLOOR_DIV_LIMIT ((uint64_t)1 << 50)

#define XS_TWO52 4503599627370496.0              /* 2**52 */
#define XS_TWO52_BITS 0x4330000000000000ULL      /* its bit pattern */

/* u as a double, for u < 2**52: the bits of 2**52 + u, less 2**52. */
static inline double xs_u52_to_double(uint64_t u) {
    uint64_t bits = u | XS_TWO52_BITS;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d - XS_TWO52;
}

/* d as an integer, for an integer-valued 0 <= d < 2**52. */
static inline uint64_t xs_double_to_u52(double d) {
    double biased = d + XS_TWO52;
    uint64_t bits;
    memcpy(&bits, &biased, sizeof bits);
    return bits - XS_TWO52_BITS;
}

/* x rounded to an integer (to nearest, in the default rounding mode), for
 * 0 <= x < 2**52. */
static inline double xs_round52(double x) {
    return (x + XS_TWO52) - XS_TWO52;
}

#endif
