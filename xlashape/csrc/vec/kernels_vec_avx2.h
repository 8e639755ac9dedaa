/* The vector operations of the AVX2 kernels (4 lanes of 64 bits): this
 * level's implementation of kernels_vec.h, the contract that lists them
 * and says what each must do, for the loops of kernels_impl.h,
 * tiled_kernels.h and relayout_impl.h, with AVX2 and FMA. Included by
 * kernels_avx2.c (and the tests' vec_check_avx2.c) only, inside its target
 * pragma.
 *
 * AVX2 has no conversion between int64 and double: values below 2**52 go
 * through the bits of 2**52 + v (kernels_common.h does the same in C).
 */
#ifndef XLASHAPE_KERNELS_VEC_H
#define XLASHAPE_KERNELS_VEC_H

#include <immintrin.h>

#define XS_VL 4
#define XS_VROWS(R) ((R) == 1 || (R) == 2 || (R) == 4)
#define XS_VRAVEL(R) ((R) == 2 || (R) == 4)
/* Rows put on the store stream are not turned into aligned slots
 * (kernels_vec.h): the join's permute and blend, on top of the transpose's
 * own shuffles, cost more than the stores across lines they save. On an
 * Intel Xeon, one thread, rank-4 int64 rows into out= at 16 mod 64 ran
 * 0.70-0.74x as fast turned as stored plainly at 10^5 and 10^6 rows, and
 * 0.92x turned and streamed at 10^7. */
#define XS_VTURN_ROWS 0
/* Inverse interleaves of 2 rows staged, and every streamed inverse
 * interleave's source asked for ahead in the L1 prefetch mode too
 * (kernels_vec.h): measured on an AMD EPYC Zen 3, whose best level this
 * is (relayout_impl.h gives the figures); AVX-512 keeps what an AMD EPYC
 * Zen 4 measured best. */
#define XS_VSTAGE_PAIRS 1
#define XS_VINVERSE_AHEAD 1

typedef __m256d xs_vd;
typedef __m256i xs_vi;
typedef __m256d xs_vok;  /* the sign bit set in a good lane */

static inline xs_vd xs_vd_set(double x) { return _mm256_set1_pd(x); }
static inline xs_vok xs_vok_all(void) { return _mm256_castsi256_pd(_mm256_set1_epi64x(-1)); }
static inline int xs_vok_bad(xs_vok ok) { return _mm256_movemask_pd(ok) != 0xF; }
static inline xs_vok xs_vok_and(xs_vok a, xs_vok b) { return _mm256_and_pd(a, b); }

static inline xs_vok xs_vok_below(xs_vok ok, xs_vd x, xs_vd limit) {
    return _mm256_and_pd(ok, _mm256_cmp_pd(x, limit, _CMP_LT_OQ));
}

/* Offsets widened to int64 as doubles: lanes outside [0, size) leave
 * ``ok`` and become 0. ``size`` is at most 2**50, so a signed compare
 * serves. */
static inline __m256i xs_vkeep_offsets(__m256i v, uint64_t size, xs_vok *ok) {
    __m256i in = _mm256_andnot_si256(_mm256_cmpgt_epi64(_mm256_setzero_si256(), v),
                                     _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)size), v));
    *ok = _mm256_and_pd(*ok, _mm256_castsi256_pd(in));
    return _mm256_and_si256(v, in);
}

/* int64 values in [0, 2**52) as doubles. */
static inline xs_vd xs_vi_to_vd(xs_vi x) {
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, _mm256_set1_epi64x(XS_TWO52_BITS))),
                         _mm256_set1_pd(XS_TWO52));
}

static inline xs_vd xs_vwiden_offsets(__m256i v, uint64_t size, xs_vok *ok) {
    return xs_vi_to_vd(xs_vkeep_offsets(v, size, ok));
}

/* The offsets' loads announced, for kernels/kernels_dtype.h (plan.h's registry). */
#define XS_VLOAD_OFFSETS_i64 1
#define XS_VLOAD_OFFSETS_i32 1
static inline xs_vd xs_vload_offsets_i64(const int64_t *p, uint64_t size, xs_vok *ok) {
    return xs_vwiden_offsets(_mm256_loadu_si256((const __m256i *)p), size, ok);
}

static inline xs_vd xs_vload_offsets_i32(const int32_t *p, uint64_t size, xs_vok *ok) {
    return xs_vwiden_offsets(_mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *)p)), size,
                             ok);
}

/* The same offsets as int64 (size below 2**52). */
static inline xs_vi xs_vload_ioffsets_i64(const int64_t *p, uint64_t size, xs_vok *ok) {
    return xs_vkeep_offsets(_mm256_loadu_si256((const __m256i *)p), size, ok);
}

static inline xs_vi xs_vload_ioffsets_i32(const int32_t *p, uint64_t size, xs_vok *ok) {
    return xs_vkeep_offsets(_mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *)p)), size,
                            ok);
}

/* -- int64 shifts, digits: acc | ((n >> shift) & mask) << weight, and ok
 * less the lanes where x >= limit (x and limit below 2**63) */
static inline xs_vi xs_vi_set(uint64_t x) { return _mm256_set1_epi64x((long long)x); }
static inline xs_vi xs_vand(xs_vi a, xs_vi b) { return _mm256_and_si256(a, b); }
static inline xs_vi xs_vshr(xs_vi n, xs_vi shift) { return _mm256_srlv_epi64(n, shift); }
static inline xs_vi xs_vshl(xs_vi n, xs_vi shift) { return _mm256_sllv_epi64(n, shift); }
static inline xs_vi xs_vdigit(xs_vi acc, xs_vi n, xs_vi shift, xs_vi mask, xs_vi weight) {
    return _mm256_or_si256(acc, xs_vshl(_mm256_and_si256(xs_vshr(n, shift), mask), weight));
}
static inline xs_vok xs_vok_below_i(xs_vok ok, xs_vi x, xs_vi limit) {
    return _mm256_and_pd(ok, _mm256_castsi256_pd(_mm256_cmpgt_epi64(limit, x)));
}

static inline xs_vd xs_vfloor_fma(xs_vd n, xs_vd rw, xs_vd hrw) {
    return _mm256_floor_pd(_mm256_fmadd_pd(n, rw, hrw));
}
static inline xs_vd xs_vfnmadd(xs_vd q, xs_vd w, xs_vd n) { return _mm256_fnmadd_pd(q, w, n); }

static inline xs_vi xs_vd_to_vi(xs_vd x) {
    return _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(x, _mm256_set1_pd(XS_TWO52))),
                            _mm256_set1_epi64x(XS_TWO52_BITS));
}

static inline void xs_vstore(int64_t *p, xs_vi v) { _mm256_storeu_si256((__m256i *)p, v); }

/* -- the store stream's operations (kernels_store.h) */
#define XS_VBYTES 32
typedef __m256i xs_vlanes;  /* all ones in each 32-bit lane of the set */
static inline xs_vlanes xs_vlanes_below(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
static inline xs_vlanes xs_vlanes_not(xs_vlanes m) { return _mm256_xor_si256(m, _mm256_set1_epi32(-1)); }
/* The carry kept of a vector: the vector turned (lane j holds lane
 * turn[j] mod 8), so that its last lanes are already where a slot wants
 * them; the join of the carry (in ``low``) and vector v turned (elsewhere). */
static inline xs_vi xs_vkeep(xs_vi v, xs_vi turn) { return _mm256_permutevar8x32_epi32(v, turn); }
static inline xs_vi xs_vjoin(xs_vi carry, xs_vi v, xs_vi turn, xs_vlanes low) {
    return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(v, turn), carry, low);
}
static inline void xs_vstore_lanes(void *p, xs_vlanes m, xs_vi v) { _mm256_maskstore_epi32((int *)p, m, v); }
static inline void xs_vstore_nt(void *p, xs_vi v) { _mm256_stream_si256((__m256i *)p, v); }
#include "vec/kernels_store.h"

/* -- (N, rank) rows in registers ---------------------------------------------
 *
 * Ranks 2 and 4: a fixed transpose by unpacks and 128-bit lane moves gives
 * rows in position order; one permute per output vector then puts them in
 * dimension order (skipped where the order is already that one). */
typedef struct {
    __m256i perm;
    int identity;
} xs_vrows;

static inline void xs_vrows_init(xs_vrows *t, int rank, const int *position) {
    int idx[8];
    t->identity = 1;
    for (int lane = 0; lane < 4; lane++) {
        int d = lane % rank, k = lane - d + position[d];
        idx[2 * lane] = 2 * k;
        idx[2 * lane + 1] = 2 * k + 1;
        t->identity &= position[d] == d;
    }
    t->perm = _mm256_loadu_si256((const __m256i *)idx);
}

static XS_ALWAYS_INLINE void xs_vstore_rows(xs_vstream *out, const xs_vi *col, const int rank,
                                            const xs_vrows *t) {
    __m256i v[4];
    if (rank == 1) {
        xs_vstream_put(out, col[0]);
        return;
    }
    __m256i lo = _mm256_unpacklo_epi64(col[0], col[1]), hi = _mm256_unpackhi_epi64(col[0], col[1]);
    if (rank == 2) {
        v[0] = _mm256_permute2x128_si256(lo, hi, 0x20);
        v[1] = _mm256_permute2x128_si256(lo, hi, 0x31);
    } else {
        __m256i lo2 = _mm256_unpacklo_epi64(col[2], col[3]);
        __m256i hi2 = _mm256_unpackhi_epi64(col[2], col[3]);
        v[0] = _mm256_permute2x128_si256(lo, lo2, 0x20);
        v[1] = _mm256_permute2x128_si256(hi, hi2, 0x20);
        v[2] = _mm256_permute2x128_si256(lo, lo2, 0x31);
        v[3] = _mm256_permute2x128_si256(hi, hi2, 0x31);
    }
    for (int j = 0; j < rank; j++) {
        if (!t->identity) v[j] = _mm256_permutevar8x32_epi32(v[j], t->perm);
        xs_vstream_put(out, v[j]);
    }
}

/* The same rows into 32-bit indices (every one below 2**31): ``col`` by
 * position, as above; dimension d of a row is col[position[d]]. Each
 * column is narrowed by one permute, and ranks 2 and 4 are interleaved by
 * unpacks. Only ranks 1, 2 and 4 (XS_VROWS). */
#define XS_VSTORE_ROWS32 1
static inline __m128i xs_vnarrow(__m256i v) {
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}

/* The next vector of the stream from its two halves: stored apart where
 * the stream stores plainly, which saves the insert that would join them
 * (on an Intel Xeon, rank 4 into int32 rows, in cache: 4% of the call);
 * otherwise joined and put. One flag (plain) says which: tested as lag
 * and stream, GCC stored the two ints each vector and read them back as
 * one 8-byte word, which no store forwards (on an AMD EPYC Zen 3, 10**7
 * int32 offsets into C rows, streamed, took 23.5-24.2 ms so against
 * 14.9-15.2 by the flag, and 17.9-18.9 stored plainly). */
static XS_ALWAYS_INLINE void xs_vstream_put_halves(xs_vstream *s, __m128i lo, __m128i hi) {
    if (s->plain) {
        _mm_storeu_si128((__m128i *)(void *)s->slot, lo);
        _mm_storeu_si128((__m128i *)(void *)(s->slot + 16), hi);
        s->slot += XS_VBYTES;
    } else {
        xs_vstream_put(s, _mm256_set_m128i(hi, lo));
    }
}

static XS_ALWAYS_INLINE void xs_vstore_rows32(xs_vstream *s, uint32_t *out, const xs_vi *col,
                                              const int rank, const int *position) {
    __m128i a = xs_vnarrow(col[position[0]]);
    if (rank == 1) {  /* half a vector: stored at out, past the stream */
        _mm_storeu_si128((__m128i *)out, a);
        return;
    }
    __m128i b = xs_vnarrow(col[position[1]]);
    if (rank == 2) {
        xs_vstream_put_halves(s, _mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b));
        return;
    }
    __m128i c = xs_vnarrow(col[position[2]]), d = xs_vnarrow(col[position[3]]);
    __m128i ab0 = _mm_unpacklo_epi32(a, b), cd0 = _mm_unpacklo_epi32(c, d);
    __m128i ab1 = _mm_unpackhi_epi32(a, b), cd1 = _mm_unpackhi_epi32(c, d);
    xs_vstream_put_halves(s, _mm_unpacklo_epi64(ab0, cd0), _mm_unpackhi_epi64(ab0, cd0));
    xs_vstream_put_halves(s, _mm_unpacklo_epi64(ab1, cd1), _mm_unpackhi_epi64(ab1, cd1));
}

/* -- ravel: (N, rank) rows in registers --------------------------------------
 *
 * As in kernels_vec_avx512.h: ``rank`` vectors of 4 rows as they lie in
 * memory, checked and multiplied in place, then summed by pairs. Indices
 * arrive as int64 (int32 sign-extended), so a value is in [0, extent)
 * when neither it nor extent - 1 - it is negative: the sign bit of ``ok``
 * stays set only in good lanes. */
typedef struct {
    __m256i extm1, stride;
} xs_vravel;

static inline void xs_vravel_init(xs_vravel *t, int rank, const uint64_t *extent,
                                  const uint64_t *stride) {
    long long ext[4], str[4];
    for (int lane = 0; lane < 4; lane++) {
        ext[lane] = (long long)extent[lane % rank] - 1;
        str[lane] = (long long)stride[lane % rank];
    }
    t->extm1 = _mm256_loadu_si256((const __m256i *)ext);
    t->stride = _mm256_loadu_si256((const __m256i *)str);
}

/* The loads announced, for kernels/kernels_dtype.h (plan.h's registry). */
#define XS_VLOAD_i64 1
#define XS_VLOAD_i32 1
static inline xs_vi xs_vload_i64(const int64_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline xs_vi xs_vload_i32(const int32_t *p) {
    return _mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *)p));
}

/* a * b modulo 2**64 (AVX2 multiplies 32x32->64 bits only); ``narrow``:
 * both fit in 32 bits. */
static inline xs_vi xs_vmul(xs_vi a, xs_vi b, const int narrow) {
    if (narrow) return _mm256_mul_epu32(a, b);
    __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b),
                                     _mm256_mul_epu32(a, _mm256_srli_epi64(b, 32)));
    return _mm256_add_epi64(_mm256_mul_epu32(a, b), _mm256_slli_epi64(cross, 32));
}
static inline xs_vi xs_vadd(xs_vi a, xs_vi b) { return _mm256_add_epi64(a, b); }

static inline void xs_vravel_check(const xs_vi *v, const int rank, const xs_vravel *t,
                                   xs_vok *ok) {
    __m256i out = _mm256_setzero_si256();
    for (int j = 0; j < rank; j++)
        out = _mm256_or_si256(out, _mm256_or_si256(v[j], _mm256_sub_epi64(t->extm1, v[j])));
    *ok = _mm256_andnot_pd(_mm256_castsi256_pd(out), *ok);
}

static inline xs_vi xs_vravel_rowsum(xs_vi *v, const int rank, const xs_vravel *t) {
    (void)t;
    /* unpacklo + unpackhi of rows (a, b): a's and b's pair sums, by 128-bit lane */
    __m256i s0 = _mm256_add_epi64(_mm256_unpacklo_epi64(v[0], v[1]), _mm256_unpackhi_epi64(v[0], v[1]));
    if (rank == 2)  /* rows 0, 2, 1, 3 */
        return _mm256_permute4x64_epi64(s0, 0xD8);
    __m256i s1 = _mm256_add_epi64(_mm256_unpacklo_epi64(v[2], v[3]), _mm256_unpackhi_epi64(v[2], v[3]));
    return _mm256_add_epi64(_mm256_permute2x128_si256(s0, s1, 0x20),
                            _mm256_permute2x128_si256(s0, s1, 0x31));
}

static inline xs_vi xs_vravel_sum(xs_vi *v, const int rank, const xs_vravel *t,
                                  const int narrow, xs_vok *ok) {
    xs_vravel_check(v, rank, t, ok);
    for (int j = 0; j < rank; j++) v[j] = xs_vmul(v[j], t->stride, narrow);
    return xs_vravel_rowsum(v, rank, t);
}

/* -- ravel: separate columns in registers ------------------------------------
 *
 * One vector of one dimension's indices (int64, int32 sign-extended): its
 * products with that dimension's stride added to ``acc``, and ``ok`` less
 * the lanes outside [0, extent), checked as xs_vravel_check does (``extm1``
 * holds extent - 1 in every lane). AVX2 has neither unsigned nor 64-bit
 * compares and products of its own, which the compiler's vectorisation of
 * the plain loop spells out at about twice these instructions; AVX-512 has
 * both, so its level keeps that loop (no XS_VRAVEL_COLUMN there). */
#define XS_VRAVEL_COLUMN 1
static inline xs_vi xs_vravel_column(xs_vi acc, xs_vi v, xs_vi extm1, xs_vi stride,
                                     const int narrow, xs_vok *ok) {
    *ok = _mm256_andnot_pd(_mm256_castsi256_pd(_mm256_or_si256(v, _mm256_sub_epi64(extm1, v))), *ok);
    return _mm256_add_epi64(acc, xs_vmul(v, stride, narrow));
}

/* Rank-4 rows of 32-bit indices into 32-bit offsets, for a buffer of at
 * most 2**31 elements (kernels_impl.h, xs_ravel_cols32): rows [i, stop) of
 * the C-contiguous (N, 4) array ``rows`` read a whole vector of rows at a
 * time; each row's products summed by in-lane unpacks, the sums put back
 * in row order by one permute. Rows done a full vector at a time only:
 * returns the first row not done. ``*bad`` gains a nonzero value where
 * some index (read unsigned, so a negative int32 is huge) is at least its
 * extent. */
static XS_ALWAYS_INLINE ptrdiff_t xs_vravel_rows4_u32(const uint32_t *rows,
                                                     const uint64_t *extent,
                                                     const uint64_t *stride, uint32_t *out,
                                                     ptrdiff_t i, ptrdiff_t stop, int store,
                                                     int prefetch, uint64_t *bad) {
    const __m256i limit = _mm256_setr_epi32(
        (int)extent[0], (int)extent[1], (int)extent[2], (int)extent[3],
        (int)extent[0], (int)extent[1], (int)extent[2], (int)extent[3]);
    const __m256i factor = _mm256_setr_epi32(
        (int)stride[0], (int)stride[1], (int)stride[2], (int)stride[3],
        (int)stride[0], (int)stride[1], (int)stride[2], (int)stride[3]);
    /* sum element 4k + m holds row 2m + k of the 8 */
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    __m256i over = _mm256_setzero_si256();
    xs_vstream s;
    xs_vstream_begin(&s, out + i, store);
    for (; i + 8 <= stop; i += 8) {
        const uint32_t *r = rows + 4 * i;
        xs_prefetch_ahead(r, 128, prefetch);
        __m256i p0 = _mm256_loadu_si256((const __m256i *)r);
        __m256i p1 = _mm256_loadu_si256((const __m256i *)(r + 8));
        __m256i p2 = _mm256_loadu_si256((const __m256i *)(r + 16));
        __m256i p3 = _mm256_loadu_si256((const __m256i *)(r + 24));
        /* v >= limit, unsigned: max(v, limit) == v */
        over = _mm256_or_si256(over, _mm256_cmpeq_epi32(_mm256_max_epu32(p0, limit), p0));
        over = _mm256_or_si256(over, _mm256_cmpeq_epi32(_mm256_max_epu32(p1, limit), p1));
        over = _mm256_or_si256(over, _mm256_cmpeq_epi32(_mm256_max_epu32(p2, limit), p2));
        over = _mm256_or_si256(over, _mm256_cmpeq_epi32(_mm256_max_epu32(p3, limit), p3));
        p0 = _mm256_mullo_epi32(p0, factor);
        p1 = _mm256_mullo_epi32(p1, factor);
        p2 = _mm256_mullo_epi32(p2, factor);
        p3 = _mm256_mullo_epi32(p3, factor);
        __m256i s01 = _mm256_add_epi32(_mm256_unpacklo_epi32(p0, p1), _mm256_unpackhi_epi32(p0, p1));
        __m256i s23 = _mm256_add_epi32(_mm256_unpacklo_epi32(p2, p3), _mm256_unpackhi_epi32(p2, p3));
        __m256i sum = _mm256_add_epi32(_mm256_unpacklo_epi64(s01, s23), _mm256_unpackhi_epi64(s01, s23));
        xs_vstream_put(&s, _mm256_permutevar8x32_epi32(sum, order));
    }
    xs_vstream_end(&s);
    *bad |= !_mm256_testz_si256(over, over);
    return i;
}

/* -- relayout: blocks of 2- to 8-byte elements (relayout/relayout_impl.h) ----
 *
 * 8x8 of 4- and 2-byte elements and 4x4 of 8-byte ones, in registers;
 * streamed, the whole-line block (64 / size a side) staged through a tile
 * on the stack. The interleaves, the line store and the fence are
 * kernels_vec_x86.h's. */
#include "vec/kernels_vec_x86.h"

#define XS_VTRANSPOSE_SIDE(size, stream) \
    ((size) == 1 ? 0 : (stream) ? 64 / (size) : (size) == 8 ? 4 : 8)

/* 8x8 of 4-byte elements: rows i of the source to rows j of the result
 * (unpack pairs of rows, shuffle pairs of pairs, then swap 128-bit halves). */
static inline void xs_avx2_t8x8_4(const char *src, int64_t ssi, char *dst, int64_t dsj) {
    __m256 r[8], t[8], u[8];
    for (int k = 0; k < 8; k++) r[k] = _mm256_loadu_ps((const float *)(src + k * ssi));
    for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm256_unpacklo_ps(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm256_unpackhi_ps(r[2 * k], r[2 * k + 1]);
    }
    for (int h = 0; h < 2; h++) {  /* rows 0-3, then 4-7 */
        for (int k = 0; k < 2; k++) {
            u[4 * h + 2 * k] = _mm256_shuffle_ps(t[4 * h + k], t[4 * h + k + 2], _MM_SHUFFLE(1, 0, 1, 0));
            u[4 * h + 2 * k + 1] = _mm256_shuffle_ps(t[4 * h + k], t[4 * h + k + 2], _MM_SHUFFLE(3, 2, 3, 2));
        }
    }
    for (int k = 0; k < 4; k++) {
        _mm256_storeu_ps((float *)(dst + k * dsj), _mm256_permute2f128_ps(u[k], u[k + 4], 0x20));
        _mm256_storeu_ps((float *)(dst + (k + 4) * dsj), _mm256_permute2f128_ps(u[k], u[k + 4], 0x31));
    }
}

/* 4x4 of 8-byte elements. */
static inline void xs_avx2_t4x4_8(const char *src, int64_t ssi, char *dst, int64_t dsj) {
    __m256d r[4], t[4];
    for (int k = 0; k < 4; k++) r[k] = _mm256_loadu_pd((const double *)(src + k * ssi));
    for (int k = 0; k < 2; k++) {
        t[2 * k] = _mm256_unpacklo_pd(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm256_unpackhi_pd(r[2 * k], r[2 * k + 1]);
    }
    for (int k = 0; k < 2; k++) {
        _mm256_storeu_pd((double *)(dst + k * dsj), _mm256_permute2f128_pd(t[k], t[k + 2], 0x20));
        _mm256_storeu_pd((double *)(dst + (k + 2) * dsj), _mm256_permute2f128_pd(t[k], t[k + 2], 0x31));
    }
}

/* 8x8 of 2-byte elements. */
static inline void xs_avx2_t8x8_2(const char *src, int64_t ssi, char *dst, int64_t dsj) {
    __m128i r[8], a[8], b[8];
    for (int k = 0; k < 8; k++) r[k] = _mm_loadu_si128((const __m128i *)(src + k * ssi));
    for (int k = 0; k < 4; k++) {
        a[2 * k] = _mm_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
        a[2 * k + 1] = _mm_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
    }
    for (int h = 0; h < 2; h++) {  /* rows 0-3, then 4-7 */
        b[4 * h + 0] = _mm_unpacklo_epi32(a[4 * h + 0], a[4 * h + 2]);
        b[4 * h + 1] = _mm_unpackhi_epi32(a[4 * h + 0], a[4 * h + 2]);
        b[4 * h + 2] = _mm_unpacklo_epi32(a[4 * h + 1], a[4 * h + 3]);
        b[4 * h + 3] = _mm_unpackhi_epi32(a[4 * h + 1], a[4 * h + 3]);
    }
    for (int k = 0; k < 4; k++) {
        _mm_storeu_si128((__m128i *)(dst + (2 * k) * dsj), _mm_unpacklo_epi64(b[k], b[k + 4]));
        _mm_storeu_si128((__m128i *)(dst + (2 * k + 1) * dsj), _mm_unpackhi_epi64(b[k], b[k + 4]));
    }
}

/* The small blocks: 8x8 of 4- and 2-byte elements, 4x4 of 8-byte ones. */
static inline void xs_avx2_small_block(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                       const int size) {
    if (size == 4) xs_avx2_t8x8_4(src, ssi, dst, dsj);
    else if (size == 8) xs_avx2_t4x4_8(src, ssi, dst, dsj);
    else xs_avx2_t8x8_2(src, ssi, dst, dsj);
}

/* The whole-line block, for streamed moves (64 / size elements a side):
 * its small blocks transposed into a tile on the stack, whose 64-byte rows
 * then go out as two non-temporal stores each (dst 64-byte aligned), so
 * each result line is written whole at once. In cache, the small blocks
 * alone are faster (bf16[1024,1024]{0,1} on an Intel Xeon: 0.47 of a copy
 * against 0.33 staged). The 2-byte block prefetches its rows' source lines
 * (kernels_common.h, XS_T_PREFETCH).
 * The small blocks go a row of them at a time, so that each source line
 * is done with while it is in L1: rows a power of two apart share an L1
 * set, and 32 rows read 16 bytes at a time, a column of small blocks at a
 * time, overflowed a 32 KiB 8-way L1 between the reads of each line. AMD
 * EPYC Zen 3, one thread, 64 MB, medians of six processes: bf16[4096,8192]
 * {0,1} 0.49 -> 0.66 of a copy to_linear, 0.49 -> 0.68 from_linear;
 * f32[4096,4096]{0,1} alike (0.61 -> 0.67, 0.73 -> 0.72). */
static inline void xs_avx2_lines_staged(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                        const int size) {
    const int m = 64 / size, s = size == 8 ? 4 : 8;
    _Alignas(64) char tile[32 * 64];
    if (size == 2)
        for (int k = 0; k < m; k++) _mm_prefetch(src + k * ssi + XS_T_PREFETCH, _MM_HINT_T0);
    for (int i = 0; i < m; i += s)
        for (int j = 0; j < m; j += s)
            xs_avx2_small_block(src + i * ssi + j * size, ssi, tile + j * 64 + i * size, 64, size);
    for (int r = 0; r < m; r++) xs_vstore_line_nt(dst + r * dsj, tile + r * 64);
}

static inline void xs_vtranspose(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                 const int size, const int stream) {
    if (stream) xs_avx2_lines_staged(src, ssi, dst, dsj, size);
    else xs_avx2_small_block(src, ssi, dst, dsj, size);
}

/* Declined: the caller stages every joined line. Joined by dword-masked
 * loads (vpmaskmovd), from_linear of T(8,128) tiles (64 MB, one thread,
 * AMD EPYC Zen 4) read alike for f32 (8.6-9.2 ms wherever the line
 * splits, staged 8.6-9.5), but s8 tiles 48 bytes past a line took 20.5
 * ms against 9.0 staged, and bf16 ones 2 to 6 bytes past 19-22 ms against
 * 15-18 (with the odd dword put together from its bytes). */
static inline int xs_vstore_line_joined_nt(void *dst, const void *a, int na, const void *b) {
    (void)dst, (void)a, (void)na, (void)b;
    return 0;
}

#endif
