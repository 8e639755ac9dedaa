/* The vector operations of the AVX-512 kernels (8 lanes of 64 bits): this
 * level's implementation of kernels_vec.h, the contract that lists them
 * and says what each must do, for the loops of kernels_impl.h,
 * tiled_kernels.h and relayout_impl.h. Included by kernels_avx512.c (and
 * the tests' vec_check_avx512.c) only, inside its target pragma, so that
 * nothing else is compiled with these instructions. kernels_vec_avx2.h and
 * kernels_vec_portable.h implement the same contract.
 *
 * xs_vd holds doubles, xs_vi int64 values, and xs_vok one bit (or lane) per
 * row that stays set while the row is good.
 */
#ifndef XLASHAPE_KERNELS_VEC_H
#define XLASHAPE_KERNELS_VEC_H

#include <immintrin.h>

#define XS_VL 8
/* Ranks whose (N, rank) rows the level writes and reads by in-register
 * transposes. */
#define XS_VROWS(R) ((R) >= 1 && (R) <= 6)  /* 7 and 8: slower than the blocks (measured) */
/* Ranks whose rows ravel reads a vector of rows at a time. */
#define XS_VRAVEL(R) ((R) == 2 || (R) == 3 || (R) == 4 || (R) == 8)
/* Rows put on the store stream are turned into aligned slots, one
 * two-vector permute each (kernels_vec.h). */
#define XS_VTURN_ROWS 1
/* Inverse interleaves of 2 rows stored as split, their source asked for
 * ahead in the L2 prefetch mode alone (kernels_vec.h): what an AMD EPYC
 * Zen 4 measured best (relayout_impl.h). */
#define XS_VSTAGE_PAIRS 0
#define XS_VINVERSE_AHEAD 0

typedef __m512d xs_vd;
typedef __m512i xs_vi;
typedef __mmask8 xs_vok;

static inline xs_vd xs_vd_set(double x) { return _mm512_set1_pd(x); }
static inline xs_vok xs_vok_all(void) { return (xs_vok)0xFF; }
static inline int xs_vok_bad(xs_vok ok) { return ok != (xs_vok)0xFF; }
static inline xs_vok xs_vok_and(xs_vok a, xs_vok b) { return a & b; }

/* ok, less the lanes where x >= limit. */
static inline xs_vok xs_vok_below(xs_vok ok, xs_vd x, xs_vd limit) {
    return _mm512_mask_cmp_pd_mask(ok, x, limit, _CMP_LT_OQ);
}

/* The offsets' loads announced, for kernels/kernels_dtype.h (plan.h's registry). */
#define XS_VLOAD_OFFSETS_i64 1
#define XS_VLOAD_OFFSETS_i32 1
/* Offsets as int64: lanes outside [0, size) leave ``ok`` and become 0. */
static inline xs_vi xs_vload_ioffsets_i64(const int64_t *p, uint64_t size, xs_vok *ok) {
    __m512i v = _mm512_loadu_si512((const void *)p);
    __mmask8 in = _mm512_cmplt_epu64_mask(v, _mm512_set1_epi64((long long)size));
    *ok &= in;
    return _mm512_maskz_mov_epi64(in, v);
}

static inline xs_vi xs_vload_ioffsets_i32(const int32_t *p, uint64_t size, xs_vok *ok) {
    __m512i v = _mm512_cvtepi32_epi64(_mm256_loadu_si256((const __m256i *)p));
    __mmask8 in = _mm512_cmplt_epu64_mask(v, _mm512_set1_epi64((long long)size));
    *ok &= in;
    return _mm512_maskz_mov_epi64(in, v);
}

/* int64 offsets as doubles, exactly: lanes outside [0, size) leave ``ok``
 * and become 0. ``size`` is at most 2**50. */
static inline xs_vd xs_vload_offsets_i64(const int64_t *p, uint64_t size, xs_vok *ok) {
    return _mm512_cvtepi64_pd(xs_vload_ioffsets_i64(p, size, ok));
}

static inline xs_vd xs_vload_offsets_i32(const int32_t *p, uint64_t size, xs_vok *ok) {
    return _mm512_cvtepi64_pd(xs_vload_ioffsets_i32(p, size, ok));
}

/* -- int64 shifts, digits: acc | ((n >> shift) & mask) << weight, and ok
 * less the lanes where x >= limit */
static inline xs_vi xs_vi_set(uint64_t x) { return _mm512_set1_epi64((long long)x); }
static inline xs_vi xs_vand(xs_vi a, xs_vi b) { return _mm512_and_si512(a, b); }
static inline xs_vi xs_vshr(xs_vi n, xs_vi shift) { return _mm512_srlv_epi64(n, shift); }
static inline xs_vi xs_vshl(xs_vi n, xs_vi shift) { return _mm512_sllv_epi64(n, shift); }
static inline xs_vi xs_vdigit(xs_vi acc, xs_vi n, xs_vi shift, xs_vi mask, xs_vi weight) {
    return _mm512_or_si512(acc, xs_vshl(_mm512_and_si512(xs_vshr(n, shift), mask), weight));
}
static inline xs_vok xs_vok_below_i(xs_vok ok, xs_vi x, xs_vi limit) {
    return _mm512_mask_cmplt_epu64_mask(ok, x, limit);
}

/* floor(n * rw + hrw) and n - q * w, one rounding each. */
static inline xs_vd xs_vfloor_fma(xs_vd n, xs_vd rw, xs_vd hrw) {
    return _mm512_roundscale_pd(_mm512_fmadd_pd(n, rw, hrw),
                                _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
}
static inline xs_vd xs_vfnmadd(xs_vd q, xs_vd w, xs_vd n) { return _mm512_fnmadd_pd(q, w, n); }

/* int64 values in [0, 2**52) as doubles. */
static inline xs_vd xs_vi_to_vd(xs_vi x) { return _mm512_cvtepi64_pd(x); }

/* An integer-valued double below 2**52 as int64. */
static inline xs_vi xs_vd_to_vi(xs_vd x) { return _mm512_cvtpd_epi64(x); }

static inline void xs_vstore(int64_t *p, xs_vi v) { _mm512_storeu_si512((void *)p, v); }

/* -- the store stream's operations (kernels_store.h) */
#define XS_VBYTES 64
typedef __mmask16 xs_vlanes;  /* a bit per 32-bit lane */
static inline xs_vlanes xs_vlanes_below(int n) { return (xs_vlanes)((1u << n) - 1); }
static inline xs_vlanes xs_vlanes_not(xs_vlanes m) { return (xs_vlanes)~m; }
/* The carry kept of a vector: the vector itself; the join of the carry
 * and vector v: lane j is lane turn[j] of the 32 of (carry, v), in one
 * two-vector permute. */
static inline xs_vi xs_vkeep(xs_vi v, xs_vi turn) {
    (void)turn;
    return v;
}
static inline xs_vi xs_vjoin(xs_vi carry, xs_vi v, xs_vi turn, xs_vlanes low) {
    (void)low;
    return _mm512_permutex2var_epi32(carry, turn, v);
}
static inline void xs_vstore_lanes(void *p, xs_vlanes m, xs_vi v) { _mm512_mask_storeu_epi32(p, m, v); }
static inline void xs_vstore_nt(void *p, xs_vi v) { _mm512_stream_si512(p, v); }
#include "vec/kernels_store.h"

/* -- (N, rank) rows in registers ---------------------------------------------
 *
 * A vector per position (most minor first) holds 8 rows; the rows of a
 * C-contiguous (N, rank) array hold them by dimension. The index vectors
 * of xs_vrows map one onto the other, the layout's order included, so the
 * permutation costs nothing per row. For rank 4, two steps: pair[0] and
 * pair[1] interleave positions (0, 1) and (2, 3) row by row (rows 0-3,
 * then 4-7), then idx[m] picks rows 2m, 2m + 1 by dimension from one pair
 * of each. For the other ranks, output vector j takes its lanes of
 * positions 0 and 1 by idx[j], then those of each further position k
 * (the lanes mask[j][k] marks) by row[j], the row each lane belongs to.
 */
typedef struct {
    __m512i idx[XS_MAX_UNROLLED], row[XS_MAX_UNROLLED], pair[2];
    __mmask8 mask[XS_MAX_UNROLLED][XS_MAX_UNROLLED];
} xs_vrows;

static inline void xs_vrows_init(xs_vrows *t, int rank, const int *position) {
    long long idx[8], row_of[8], pair[2][8];
    for (int lane = 0; lane < 8; lane++) {
        pair[0][lane] = (lane & 1) * 8 + lane / 2;
        pair[1][lane] = pair[0][lane] + 4;
    }
    for (int j = 0; j < 2; j++) t->pair[j] = _mm512_loadu_si512((const void *)pair[j]);
    for (int j = 0; j < rank; j++) {
        for (int k = 0; k < rank; k++) t->mask[j][k] = 0;
        for (int lane = 0; lane < 8; lane++) {
            int e = 8 * j + lane, row = e / rank, k = position[e % rank];
            if (rank == 4) {  /* j = 0, 1: rows 2j, 2j + 1 of a pair */
                row = 2 * j + lane / 4;
                idx[lane] = (k / 2) * 8 + 2 * (row % 4) + k % 2;
            } else {
                idx[lane] = (k == 1) * 8 + row;
            }
            row_of[lane] = row;
            t->mask[j][k] |= (__mmask8)(1 << lane);
        }
        t->idx[j] = _mm512_loadu_si512((const void *)idx);
        t->row[j] = _mm512_loadu_si512((const void *)row_of);
    }
}

/* Put 8 rows of ``rank`` positions (``col``, most minor first) as
 * C-contiguous rows on the store stream ``out``. */
static XS_ALWAYS_INLINE void xs_vstore_rows(xs_vstream *out, const xs_vi *col, const int rank,
                                            const xs_vrows *t) {
    if (rank == 1) {
        xs_vstream_put(out, col[0]);
    } else if (rank == 4) {
        __m512i a = _mm512_permutex2var_epi64(col[0], t->pair[0], col[1]);
        __m512i b = _mm512_permutex2var_epi64(col[0], t->pair[1], col[1]);
        __m512i c = _mm512_permutex2var_epi64(col[2], t->pair[0], col[3]);
        __m512i d = _mm512_permutex2var_epi64(col[2], t->pair[1], col[3]);
        xs_vstream_put(out, _mm512_permutex2var_epi64(a, t->idx[0], c));
        xs_vstream_put(out, _mm512_permutex2var_epi64(a, t->idx[1], c));
        xs_vstream_put(out, _mm512_permutex2var_epi64(b, t->idx[0], d));
        xs_vstream_put(out, _mm512_permutex2var_epi64(b, t->idx[1], d));
    } else {
        for (int j = 0; j < rank; j++) {
            __m512i v = _mm512_permutex2var_epi64(col[0], t->idx[j], col[1]);
            for (int k = 2; k < rank; k++)
                v = _mm512_mask_permutexvar_epi64(v, t->mask[j][k], t->row[j], col[k]);
            xs_vstream_put(out, v);
        }
    }
}

/* The same rows into 32-bit indices (every one below 2**31): ``col`` by
 * position, as above; dimension d of a row is col[position[d]]. Rank 1
 * narrows its column; rank 2 interleaves the low halves of its two
 * columns in one permute; rank 4 gathers those of positions 0 and 1 of
 * the rows (dimensions 0 and 1) into one vector and those of dimensions
 * 2 and 3 into another, then takes rows 0-3 and 4-7 from the two: four
 * permutes for 8 rows, where the int64 rows take eight. Only ranks 1, 2
 * and 4. */
#define XS_VSTORE_ROWS32 1
static XS_ALWAYS_INLINE void xs_vstore_rows32(xs_vstream *s, uint32_t *out, const xs_vi *col,
                                              const int rank, const int *position) {
    if (rank == 1) {  /* half a vector: stored at out, past the stream */
        _mm256_storeu_si256((__m256i *)(void *)out, _mm512_cvtepi64_epi32(col[position[0]]));
        return;
    }
    if (rank == 2) {  /* lane 2i: row i of the first column, 2i + 1: of the second */
        const __m512i pairs = _mm512_setr_epi32(0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
        xs_vstream_put(s, _mm512_permutex2var_epi32(col[position[0]], pairs, col[position[1]]));
        return;
    }
    /* lanes 0-7: the first column's rows, 8-15: the second's */
    const __m512i low = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i ab = _mm512_permutex2var_epi32(col[position[0]], low, col[position[1]]);
    const __m512i cd = _mm512_permutex2var_epi32(col[position[2]], low, col[position[3]]);
    /* lane 4r + d of rows 0-3 (r = 0-3): lane r of column d of (ab, cd) */
    const __m512i rows = _mm512_setr_epi32(0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27);
    xs_vstream_put(s, _mm512_permutex2var_epi32(ab, rows, cd));
    xs_vstream_put(s, _mm512_permutex2var_epi32(ab, _mm512_add_epi32(rows, _mm512_set1_epi32(4)), cd));
}

/* -- ravel: (N, rank) rows in registers --------------------------------------
 *
 * A vector of rows is read as ``rank`` vectors as they lie in memory (row
 * after row). Each element is checked against its dimension's extent and
 * multiplied by its stride in place (ext[j] and stride[j]: the pattern of
 * dimensions in vector j), and the products of a row are then summed: for
 * ranks 2, 4 and 8 by pairs (even lanes plus odd lanes of two vectors, so
 * that the count of vectors halves each step, in row order); for rank 3
 * by gathering each of the three terms of the 8 rows (take[k] from
 * vectors 0 and 1, then the lanes of vector 2 that third[k] marks). */
typedef struct {
    __m512i ext[8], stride[8], take[3], more[3];
    __mmask8 third[3];
} xs_vravel;

static inline void xs_vravel_init(xs_vravel *t, int rank, const uint64_t *extent,
                                  const uint64_t *stride) {
    long long ext[8], str[8], take[3][8], more[3][8];
    for (int j = 0; j < rank; j++) {
        for (int lane = 0; lane < 8; lane++) {
            ext[lane] = (long long)extent[(8 * j + lane) % rank];
            str[lane] = (long long)stride[(8 * j + lane) % rank];
        }
        t->ext[j] = _mm512_loadu_si512((const void *)ext);
        t->stride[j] = _mm512_loadu_si512((const void *)str);
    }
    for (int k = 0; k < 3; k++) {
        int third = 0;
        for (int row = 0; row < 8; row++) {
            int e = 3 * row + k;  /* rank 3: term k of the row */
            take[k][row] = (e / 8) * 8 + e % 8;
            more[k][row] = e % 8;
            if (e >= 16) third |= 1 << row;
        }
        t->take[k] = _mm512_loadu_si512((const void *)take[k]);
        t->more[k] = _mm512_loadu_si512((const void *)more[k]);
        t->third[k] = (__mmask8)third;
    }
}

/* The loads announced, for kernels/kernels_dtype.h (plan.h's registry). */
#define XS_VLOAD_i64 1
#define XS_VLOAD_i32 1
static inline xs_vi xs_vload_i64(const int64_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline xs_vi xs_vload_i32(const int32_t *p) {
    return _mm512_cvtepi32_epi64(_mm256_loadu_si256((const __m256i *)p));
}

/* a * b modulo 2**64; ``narrow``: both fit in 32 bits. */
static inline xs_vi xs_vmul(xs_vi a, xs_vi b, const int narrow) {
    return narrow ? _mm512_mul_epu32(a, b) : _mm512_mullo_epi64(a, b);
}
static inline xs_vi xs_vadd(xs_vi a, xs_vi b) { return _mm512_add_epi64(a, b); }

/* ok, less the lanes in which one of the ``rank`` vectors ``v`` holds an
 * element past its extent (a lane, not a row: kernels_vec.h). */
static inline void xs_vravel_check(const xs_vi *v, const int rank, const xs_vravel *t,
                                   xs_vok *ok) {
    __mmask8 in = 0xFF;  /* checks of one vector of rows: independent of other vectors' */
    for (int j = 0; j < rank; j++) in &= _mm512_cmplt_epu64_mask(v[j], t->ext[j]);
    *ok &= in;
}

/* The sums of the terms of each of 8 rows whose ``rank`` vectors ``v``
 * holds (consumed), in row order. */
static inline xs_vi xs_vravel_rowsum(xs_vi *v, const int rank, const xs_vravel *t) {
    if (rank == 3) {
        __m512i sum = _mm512_setzero_si512();
        for (int k = 0; k < 3; k++)
            sum = _mm512_add_epi64(sum, _mm512_mask_permutexvar_epi64(
                _mm512_permutex2var_epi64(v[0], t->take[k], v[1]), t->third[k], t->more[k], v[2]));
        return sum;
    }
    const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    for (int m = rank; m > 1; m /= 2)
        for (int j = 0; j < m / 2; j++)
            v[j] = _mm512_add_epi64(_mm512_permutex2var_epi64(v[2 * j], even, v[2 * j + 1]),
                                    _mm512_permutex2var_epi64(v[2 * j], odd, v[2 * j + 1]));
    return v[0];
}

/* The offsets of 8 rows whose ``rank`` vectors ``v`` holds (consumed);
 * ``narrow``: every extent and stride fits in 32 bits, so that a 32x32-bit
 * product serves (a value that does not fit is out of range, and flagged). */
static inline xs_vi xs_vravel_sum(xs_vi *v, const int rank, const xs_vravel *t,
                                  const int narrow, xs_vok *ok) {
    xs_vravel_check(v, rank, t, ok);
    for (int j = 0; j < rank; j++) v[j] = xs_vmul(v[j], t->stride[j], narrow);
    return xs_vravel_rowsum(v, rank, t);
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
    (void)prefetch;  /* kernels_vec.h: this level reads without */
    const __m512i limit = _mm512_broadcast_i32x4(_mm_setr_epi32(
        (int)extent[0], (int)extent[1], (int)extent[2], (int)extent[3]));
    const __m512i factor = _mm512_broadcast_i32x4(_mm_setr_epi32(
        (int)stride[0], (int)stride[1], (int)stride[2], (int)stride[3]));
    /* sum element 4k + m holds row 4m + k of the 16 */
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    __mmask16 over = 0;
    xs_vstream s;
    xs_vstream_begin(&s, out + i, store);
    for (; i + 16 <= stop; i += 16) {
        const uint32_t *r = rows + 4 * i;
        __m512i p0 = _mm512_loadu_si512((const void *)r);
        __m512i p1 = _mm512_loadu_si512((const void *)(r + 16));
        __m512i p2 = _mm512_loadu_si512((const void *)(r + 32));
        __m512i p3 = _mm512_loadu_si512((const void *)(r + 48));
        over |= _mm512_cmpge_epu32_mask(p0, limit) | _mm512_cmpge_epu32_mask(p1, limit) |
                _mm512_cmpge_epu32_mask(p2, limit) | _mm512_cmpge_epu32_mask(p3, limit);
        p0 = _mm512_mullo_epi32(p0, factor);
        p1 = _mm512_mullo_epi32(p1, factor);
        p2 = _mm512_mullo_epi32(p2, factor);
        p3 = _mm512_mullo_epi32(p3, factor);
        __m512i s01 = _mm512_add_epi32(_mm512_unpacklo_epi32(p0, p1), _mm512_unpackhi_epi32(p0, p1));
        __m512i s23 = _mm512_add_epi32(_mm512_unpacklo_epi32(p2, p3), _mm512_unpackhi_epi32(p2, p3));
        __m512i sum = _mm512_add_epi32(_mm512_unpacklo_epi64(s01, s23), _mm512_unpackhi_epi64(s01, s23));
        xs_vstream_put(&s, _mm512_permutexvar_epi32(order, sum));
    }
    xs_vstream_end(&s);
    *bad |= over;
    return i;
}

/* -- relayout: blocks of 2- to 8-byte elements (relayout/relayout_impl.h) ----
 *
 * Whole-line blocks, in cache and streamed alike: 32x32 of 2-byte
 * elements, 16x16 of 4-byte ones and 8x8 of 8-byte ones, each row a
 * 64-byte line. The interleaves, the line store and the fence are
 * kernels_vec_x86.h's. */
#include "vec/kernels_vec_x86.h"

#define XS_VTRANSPOSE_SIDE(size, stream) \
    ((size) == 4 ? 16 : (size) == 8 ? 8 : (size) == 2 ? 32 : 0)

/* One 64-byte row of a block: non-temporal where ``stream`` (dst then
 * 64-byte aligned). */
static inline void xs_avx512_store64(char *dst, __m512i v, const int stream) {
    if (stream)
        _mm512_stream_si512((void *)dst, v);
    else
        _mm512_storeu_si512((void *)dst, v);
}

/* The last rounds of every whole-line transpose below: a, b, c and d hold
 * the four quarters (by source row, in order) of four output rows, those
 * of row L in their 128-bit lane L; four pairs of lane shuffles gather
 * each row, stored at dst + L * step. */
static inline void xs_avx512_lanes_out(__m512i a, __m512i b, __m512i c, __m512i d, char *dst,
                                       int64_t step, const int stream) {
    __m512i x0 = _mm512_shuffle_i32x4(a, b, 0x44), x1 = _mm512_shuffle_i32x4(a, b, 0xEE);
    __m512i y0 = _mm512_shuffle_i32x4(c, d, 0x44), y1 = _mm512_shuffle_i32x4(c, d, 0xEE);
    xs_avx512_store64(dst, _mm512_shuffle_i32x4(x0, y0, 0x88), stream);
    xs_avx512_store64(dst + step, _mm512_shuffle_i32x4(x0, y0, 0xDD), stream);
    xs_avx512_store64(dst + 2 * step, _mm512_shuffle_i32x4(x1, y1, 0x88), stream);
    xs_avx512_store64(dst + 3 * step, _mm512_shuffle_i32x4(x1, y1, 0xDD), stream);
}

/* 16x16 of 4-byte elements: pairs of rows unpacked by 4 and by 8 bytes,
 * which leaves column 4L + c of rows 4k..4k+3 in 128-bit lane L of u[4k +
 * c]; then xs_avx512_lanes_out gathers each column's four lanes. 64
 * shuffles for 16 rows. */
static inline void xs_avx512_t16x16_4(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                      const int stream) {
    __m512i r[16], t[16], u[16];
    for (int k = 0; k < 16; k++) r[k] = _mm512_loadu_si512((const void *)(src + k * ssi));
    for (int k = 0; k < 8; k++) {
        t[2 * k] = _mm512_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
    }
    for (int k = 0; k < 4; k++) {
        u[4 * k] = _mm512_unpacklo_epi64(t[4 * k], t[4 * k + 2]);
        u[4 * k + 1] = _mm512_unpackhi_epi64(t[4 * k], t[4 * k + 2]);
        u[4 * k + 2] = _mm512_unpacklo_epi64(t[4 * k + 1], t[4 * k + 3]);
        u[4 * k + 3] = _mm512_unpackhi_epi64(t[4 * k + 1], t[4 * k + 3]);
    }
    for (int c = 0; c < 4; c++)
        xs_avx512_lanes_out(u[c], u[4 + c], u[8 + c], u[12 + c], dst + c * dsj, 4 * dsj, stream);
}

/* 32x32 of 2-byte elements: rows unpacked by 2, 4 and 8 bytes, which
 * leaves column 8L + c of rows 8m..8m+7 in 128-bit lane L of w[8m + c];
 * then xs_avx512_lanes_out. 160 shuffles for 32 rows. It alone
 * prefetches (kernels_common.h, XS_T_PREFETCH). */
static inline void xs_avx512_t32x32_2(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                      const int stream) {
    __m512i r[32], t[32], v[32], w[32];
    for (int k = 0; k < 32; k++) r[k] = _mm512_loadu_si512((const void *)(src + k * ssi));
    for (int k = 0; k < 32; k++) _mm_prefetch(src + k * ssi + XS_T_PREFETCH, _MM_HINT_T0);
    for (int k = 0; k < 16; k++) {
        t[2 * k] = _mm512_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
    }
    for (int k = 0; k < 8; k++)
        for (int a = 0; a < 2; a++) {
            v[4 * k + 2 * a] = _mm512_unpacklo_epi32(t[4 * k + a], t[4 * k + 2 + a]);
            v[4 * k + 2 * a + 1] = _mm512_unpackhi_epi32(t[4 * k + a], t[4 * k + 2 + a]);
        }
    for (int m = 0; m < 4; m++)
        for (int b = 0; b < 4; b++) {
            w[8 * m + 2 * b] = _mm512_unpacklo_epi64(v[8 * m + b], v[8 * m + 4 + b]);
            w[8 * m + 2 * b + 1] = _mm512_unpackhi_epi64(v[8 * m + b], v[8 * m + 4 + b]);
        }
    for (int c = 0; c < 8; c++)
        xs_avx512_lanes_out(w[c], w[8 + c], w[16 + c], w[24 + c], dst + c * dsj, 8 * dsj, stream);
}

/* 8x8 of 8-byte elements: pairs of rows unpacked, then
 * xs_avx512_lanes_out. 24 shuffles for 8 rows. */
static inline void xs_avx512_t8x8_8(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                    const int stream) {
    __m512i r[8], t[8];
    for (int k = 0; k < 8; k++) r[k] = _mm512_loadu_si512((const void *)(src + k * ssi));
    for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm512_unpacklo_epi64(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_epi64(r[2 * k], r[2 * k + 1]);
    }
    for (int c = 0; c < 2; c++)
        xs_avx512_lanes_out(t[c], t[2 + c], t[4 + c], t[6 + c], dst + c * dsj, 2 * dsj, stream);
}

static inline void xs_vtranspose(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                 const int size, const int stream) {
    if (size == 4) xs_avx512_t16x16_4(src, ssi, dst, dsj, stream);
    else if (size == 8) xs_avx512_t8x8_8(src, ssi, dst, dsj, stream);
    else xs_avx512_t32x32_2(src, ssi, dst, dsj, stream);
}

/* Two byte-masked loads, whose masked-off bytes are not read (nor fault),
 * each piece's bytes in place: any na. */
static inline int xs_vstore_line_joined_nt(void *dst, const void *a, int na, const void *b) {
    const __mmask64 first = _cvtu64_mask64((1ULL << na) - 1);
    const __m512i line = _mm512_or_si512(_mm512_maskz_loadu_epi8(first, a),
                                         _mm512_maskz_loadu_epi8(_knot_mask64(first),
                                                                 (const char *)b - na));
    _mm512_stream_si512((__m512i *)dst, line);
    return 1;
}

#endif
