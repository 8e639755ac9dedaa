/* The vector operations of the NEON kernels (aarch64): this level's
 * implementation of kernels_vec.h, the contract that lists them and says
 * what each must do, for the loops of kernels_impl.h and tiled_kernels.h.
 * Included by kernels_neon.c (and the tests' vec_check_neon.c) only.
 *
 * A NEON register holds 2 lanes of 64 bits; a vector of the contract is a
 * pair of them, 4 lanes (lanes 0-1 in ``lo``, 2-3 in ``hi``), so that the
 * level has AVX2's lanes, rank sets and optional operations, and the
 * portable level of 4 lanes is its reference (tests/test_vector_ops.py).
 * The loops then work on two registers at a time, where aarch64's 32
 * vector registers have room for them. NEON is part of every aarch64
 * CPU, so the level needs no run-time check (levels.h).
 *
 * Unlike AVX2, NEON converts between int64 and double, compares 64-bit
 * lanes unsigned, and rounds down in one instruction each; it lacks a
 * 64-bit product (spelled out from 32-bit ones below), a masked store and
 * a permute by 32-bit lane numbers (the store stream's join goes through
 * a table lookup of bytes).
 */
#ifndef XLASHAPE_KERNELS_VEC_H
#define XLASHAPE_KERNELS_VEC_H

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define XS_VL 4
#define XS_VROWS(R) ((R) == 1 || (R) == 2 || (R) == 4)
#define XS_VRAVEL(R) ((R) == 2 || (R) == 4)
/* Rows put on the store stream are not turned into aligned slots
 * (kernels_vec.h): as at AVX2, the join's two table lookups per vector
 * would add to the transpose's own. */
#define XS_VTURN_ROWS 0

typedef struct {
    uint64x2_t lo, hi;
} xs_vi;
typedef struct {
    float64x2_t lo, hi;
} xs_vd;
typedef struct {
    uint64x2_t lo, hi;  /* all ones in a good lane, 0 in a bad one */
} xs_vok;

static inline xs_vd xs_vd_set(double x) { return (xs_vd){vdupq_n_f64(x), vdupq_n_f64(x)}; }
static inline xs_vi xs_vi_set(uint64_t x) { return (xs_vi){vdupq_n_u64(x), vdupq_n_u64(x)}; }
static inline xs_vok xs_vok_all(void) { return (xs_vok){vdupq_n_u64(~0ULL), vdupq_n_u64(~0ULL)}; }
static inline int xs_vok_bad(xs_vok ok) {
    return vminvq_u32(vreinterpretq_u32_u64(vandq_u64(ok.lo, ok.hi))) == 0;
}
static inline xs_vok xs_vok_and(xs_vok a, xs_vok b) {
    return (xs_vok){vandq_u64(a.lo, b.lo), vandq_u64(a.hi, b.hi)};
}
/* An ordered compare: a NaN lane is cleared. */
static inline xs_vok xs_vok_below(xs_vok ok, xs_vd x, xs_vd limit) {
    return (xs_vok){vandq_u64(ok.lo, vcltq_f64(x.lo, limit.lo)),
                    vandq_u64(ok.hi, vcltq_f64(x.hi, limit.hi))};
}
static inline xs_vok xs_vok_below_i(xs_vok ok, xs_vi x, xs_vi limit) {
    return (xs_vok){vandq_u64(ok.lo, vcltq_u64(x.lo, limit.lo)),
                    vandq_u64(ok.hi, vcltq_u64(x.hi, limit.hi))};
}

/* -- loads */
static inline xs_vi xs_vload_i64(const int64_t *p) {
    const uint64_t *u = (const uint64_t *)(const void *)p;
    return (xs_vi){vld1q_u64(u), vld1q_u64(u + 2)};
}
static inline xs_vi xs_vload_i32(const int32_t *p) {
    int32x4_t v = vld1q_s32(p);
    return (xs_vi){vreinterpretq_u64_s64(vmovl_s32(vget_low_s32(v))),
                   vreinterpretq_u64_s64(vmovl_high_s32(v))};
}
/* The offsets v in [0, size) of v, read unsigned (a negative is huge):
 * the others leave ``ok`` and become 0. */
static inline xs_vi xs_neon_keep_offsets(xs_vi v, uint64_t size, xs_vok *ok) {
    const uint64x2_t limit = vdupq_n_u64(size);
    const uint64x2_t in_lo = vcltq_u64(v.lo, limit), in_hi = vcltq_u64(v.hi, limit);
    ok->lo = vandq_u64(ok->lo, in_lo);
    ok->hi = vandq_u64(ok->hi, in_hi);
    return (xs_vi){vandq_u64(v.lo, in_lo), vandq_u64(v.hi, in_hi)};
}
static inline xs_vi xs_vload_ioffsets_i64(const int64_t *p, uint64_t size, xs_vok *ok) {
    return xs_neon_keep_offsets(xs_vload_i64(p), size, ok);
}
static inline xs_vi xs_vload_ioffsets_i32(const int32_t *p, uint64_t size, xs_vok *ok) {
    return xs_neon_keep_offsets(xs_vload_i32(p), size, ok);
}

/* -- double lanes, and conversions (exact below 2**52; signed, as the
 * portable level's casts) */
static inline xs_vd xs_vi_to_vd(xs_vi x) {
    return (xs_vd){vcvtq_f64_s64(vreinterpretq_s64_u64(x.lo)), vcvtq_f64_s64(vreinterpretq_s64_u64(x.hi))};
}
static inline xs_vi xs_vd_to_vi(xs_vd x) {
    return (xs_vi){vreinterpretq_u64_s64(vcvtq_s64_f64(x.lo)), vreinterpretq_u64_s64(vcvtq_s64_f64(x.hi))};
}
static inline xs_vd xs_vload_offsets_i64(const int64_t *p, uint64_t size, xs_vok *ok) {
    return xs_vi_to_vd(xs_vload_ioffsets_i64(p, size, ok));
}
static inline xs_vd xs_vload_offsets_i32(const int32_t *p, uint64_t size, xs_vok *ok) {
    return xs_vi_to_vd(xs_vload_ioffsets_i32(p, size, ok));
}
/* floor(n * rw + hrw) and n - q * w, one rounding each. */
static inline xs_vd xs_vfloor_fma(xs_vd n, xs_vd rw, xs_vd hrw) {
    return (xs_vd){vrndmq_f64(vfmaq_f64(hrw.lo, n.lo, rw.lo)),
                   vrndmq_f64(vfmaq_f64(hrw.hi, n.hi, rw.hi))};
}
static inline xs_vd xs_vfnmadd(xs_vd q, xs_vd w, xs_vd n) {
    return (xs_vd){vfmsq_f64(n.lo, q.lo, w.lo), vfmsq_f64(n.hi, q.hi, w.hi)};
}

/* -- integer lanes
 *
 * NEON shifts each lane by the signed low byte of its count (a negative
 * count shifts right), so a count is first capped at 64, which shifts
 * every bit out; the loops' counts are the same in every row, and the
 * compiler hoists the cap out of them. */
static inline int64x2_t xs_neon_count(uint64x2_t shift) {
    const uint64x2_t cap = vdupq_n_u64(64);
    return vreinterpretq_s64_u64(vbslq_u64(vcltq_u64(shift, cap), shift, cap));
}
static inline xs_vi xs_vand(xs_vi a, xs_vi b) {
    return (xs_vi){vandq_u64(a.lo, b.lo), vandq_u64(a.hi, b.hi)};
}
static inline xs_vi xs_vshr(xs_vi n, xs_vi shift) {
    return (xs_vi){vshlq_u64(n.lo, vnegq_s64(xs_neon_count(shift.lo))),
                   vshlq_u64(n.hi, vnegq_s64(xs_neon_count(shift.hi)))};
}
static inline xs_vi xs_vshl(xs_vi n, xs_vi shift) {
    return (xs_vi){vshlq_u64(n.lo, xs_neon_count(shift.lo)), vshlq_u64(n.hi, xs_neon_count(shift.hi))};
}
static inline xs_vi xs_vdigit(xs_vi acc, xs_vi n, xs_vi shift, xs_vi mask, xs_vi weight) {
    const xs_vi digit = xs_vshl(xs_vand(xs_vshr(n, shift), mask), weight);
    return (xs_vi){vorrq_u64(acc.lo, digit.lo), vorrq_u64(acc.hi, digit.hi)};
}
static inline xs_vi xs_vadd(xs_vi a, xs_vi b) {
    return (xs_vi){vaddq_u64(a.lo, b.lo), vaddq_u64(a.hi, b.hi)};
}
/* The low 32 bits of the 4 lanes, in one register. */
static inline uint32x4_t xs_neon_low32(xs_vi a) {
    return vuzp1q_u32(vreinterpretq_u32_u64(a.lo), vreinterpretq_u32_u64(a.hi));
}
/* a * b modulo 2**64 of one register: the low halves' full product, plus
 * the cross products (each modulo 2**32, summed in pairs) moved up 32
 * bits; ``narrow``: the low halves' product alone. */
static inline uint64x2_t xs_neon_mul(uint64x2_t a, uint64x2_t b) {
    const uint32x4_t a32 = vreinterpretq_u32_u64(a);
    const uint32x4_t cross = vmulq_u32(a32, vrev64q_u32(vreinterpretq_u32_u64(b)));
    return vmlal_u32(vshlq_n_u64(vpaddlq_u32(cross), 32), vmovn_u64(a), vmovn_u64(b));
}
static inline xs_vi xs_vmul(xs_vi a, xs_vi b, const int narrow) {
    if (narrow) {
        const uint32x4_t a32 = xs_neon_low32(a), b32 = xs_neon_low32(b);
        return (xs_vi){vmull_u32(vget_low_u32(a32), vget_low_u32(b32)), vmull_high_u32(a32, b32)};
    }
    return (xs_vi){xs_neon_mul(a.lo, b.lo), xs_neon_mul(a.hi, b.hi)};
}

/* -- stores */
static inline void xs_vstore(int64_t *p, xs_vi v) {
    uint64_t *u = (uint64_t *)(void *)p;
    vst1q_u64(u, v.lo);
    vst1q_u64(u + 2, v.hi);
}

/* -- the store stream's operations (kernels_store.h) */
#define XS_VBYTES 32
typedef struct {
    uint32x4_t lo, hi;  /* all ones in each 32-bit lane of the set */
} xs_vlanes;
static inline xs_vlanes xs_vlanes_below(int n) {
    const uint32_t first[4] = {0, 1, 2, 3};
    const uint32x4_t lane = vld1q_u32(first), count = vdupq_n_u32((uint32_t)n);
    return (xs_vlanes){vcltq_u32(lane, count), vcltq_u32(vaddq_u32(lane, vdupq_n_u32(4)), count)};
}
static inline xs_vlanes xs_vlanes_not(xs_vlanes m) { return (xs_vlanes){vmvnq_u32(m.lo), vmvnq_u32(m.hi)}; }
/* The carry kept of a vector: the vector itself, as at AVX-512. */
static inline xs_vi xs_vkeep(xs_vi v, xs_vi turn) {
    (void)turn;
    return v;
}
/* The byte numbers of a table lookup that takes, for 32-bit lane j, lane
 * turn[j] mod 16 of the 16 of (carry, v): turn[j] * 4 + 0..3 in the bytes
 * of lane j. A constant of the stream, hoisted out of its loop. */
static inline uint8x16_t xs_neon_turn_bytes(uint64x2_t turn) {
    const uint32x4_t lane = vandq_u32(vreinterpretq_u32_u64(turn), vdupq_n_u32(15));
    const uint32x4_t first = vmulq_n_u32(vshlq_n_u32(lane, 2), 0x01010101u);
    return vreinterpretq_u8_u32(vaddq_u32(first, vdupq_n_u32(0x03020100u)));
}
static inline xs_vi xs_vjoin(xs_vi carry, xs_vi v, xs_vi turn, xs_vlanes low) {
    (void)low;
    const uint8x16x4_t table = {{vreinterpretq_u8_u64(carry.lo), vreinterpretq_u8_u64(carry.hi),
                                 vreinterpretq_u8_u64(v.lo), vreinterpretq_u8_u64(v.hi)}};
    return (xs_vi){vreinterpretq_u64_u8(vqtbl4q_u8(table, xs_neon_turn_bytes(turn.lo))),
                   vreinterpretq_u64_u8(vqtbl4q_u8(table, xs_neon_turn_bytes(turn.hi)))};
}
/* NEON has no masked store: the lanes of m one by one (the stream's first
 * and last vectors only). */
static inline void xs_vstore_lanes(void *p, xs_vlanes m, xs_vi v) {
    uint32_t on[8], lane[8];
    vst1q_u32(on, m.lo);
    vst1q_u32(on + 4, m.hi);
    memcpy(lane, &v, sizeof lane);
    for (int j = 0; j < 8; j++)
        if (on[j]) memcpy((char *)p + 4 * j, &lane[j], 4);
}
/* A non-temporal store of a pair of registers (STNP); the driver's fence
 * (a DMB) orders it before another thread reads. */
static inline void xs_vstore_nt(void *p, xs_vi v) {
    __asm__ volatile("stnp %q1, %q2, [%0]" : : "r"(p), "w"(v.lo), "w"(v.hi) : "memory");
}
#include "vec/kernels_store.h"

/* -- (N, rank) rows in registers ---------------------------------------------
 *
 * Each output register takes its two lanes from the registers of the
 * positions by one table lookup of bytes, whose byte numbers xs_vrows_init
 * computes from the layout's order, so that every order costs the same.
 * The ``lo`` registers of the positions hold rows 0 and 1, the ``hi``
 * ones rows 2 and 3: the table of a row is one or the other. Rank 4: a
 * row is one vector, its registers two lookups in the 4 registers of its
 * table, by idx[2q] and idx[2q + 1] for the row's lane q in them. Rank 2:
 * a vector holds rows 2h and 2h + 1, a register each, looked up in the 2
 * registers of half h by idx[0] and idx[1]. */
typedef struct {
    uint8x16_t idx[4];
} xs_vrows;

static inline void xs_vrows_init(xs_vrows *t, int rank, const int *position) {
    uint8_t idx[4][16];
    const int halves = rank == 4 ? 2 : 1;  /* registers of a row */
    memset(idx, 0, sizeof idx);
    if (rank == 2 || rank == 4)
        for (int q = 0; q < 2; q++)
            for (int h = 0; h < halves; h++)
                for (int m = 0; m < 2; m++)  /* lane m: dimension 2h + m, from lane q of its register */
                    for (int b = 0; b < 8; b++)
                        idx[halves * q + h][8 * m + b] = (uint8_t)(16 * position[2 * h + m] + 8 * q + b);
    for (int g = 0; g < 4; g++) t->idx[g] = vld1q_u8(idx[g]);
}

static inline uint64x2_t xs_neon_look2(uint8x16x2_t table, uint8x16_t idx) {
    return vreinterpretq_u64_u8(vqtbl2q_u8(table, idx));
}
static inline uint64x2_t xs_neon_look4(uint8x16x4_t table, uint8x16_t idx) {
    return vreinterpretq_u64_u8(vqtbl4q_u8(table, idx));
}

static XS_ALWAYS_INLINE void xs_vstore_rows(xs_vstream *out, const xs_vi *col, const int rank,
                                            const xs_vrows *t) {
    if (rank == 1) {
        xs_vstream_put(out, col[0]);
    } else if (rank == 2) {
        const uint8x16x2_t lo = {{vreinterpretq_u8_u64(col[0].lo), vreinterpretq_u8_u64(col[1].lo)}};
        const uint8x16x2_t hi = {{vreinterpretq_u8_u64(col[0].hi), vreinterpretq_u8_u64(col[1].hi)}};
        xs_vstream_put(out, (xs_vi){xs_neon_look2(lo, t->idx[0]), xs_neon_look2(lo, t->idx[1])});
        xs_vstream_put(out, (xs_vi){xs_neon_look2(hi, t->idx[0]), xs_neon_look2(hi, t->idx[1])});
    } else {
        const uint8x16x4_t lo = {{vreinterpretq_u8_u64(col[0].lo), vreinterpretq_u8_u64(col[1].lo),
                                  vreinterpretq_u8_u64(col[2].lo), vreinterpretq_u8_u64(col[3].lo)}};
        const uint8x16x4_t hi = {{vreinterpretq_u8_u64(col[0].hi), vreinterpretq_u8_u64(col[1].hi),
                                  vreinterpretq_u8_u64(col[2].hi), vreinterpretq_u8_u64(col[3].hi)}};
        for (int r = 0; r < 4; r++) {
            const uint8x16x4_t table = r < 2 ? lo : hi;
            xs_vstream_put(out, (xs_vi){xs_neon_look4(table, t->idx[2 * (r % 2)]),
                                        xs_neon_look4(table, t->idx[2 * (r % 2) + 1])});
        }
    }
}

/* The same rows into 32-bit indices (every one below 2**31): dimension d
 * of a row is col[position[d]], each narrowed to its low halves in one
 * register, then interleaved by zips, as at AVX2. Only ranks 1, 2 and 4. */
#define XS_VSTORE_ROWS32 1
static XS_ALWAYS_INLINE void xs_vstore_rows32(xs_vstream *s, uint32_t *out, const xs_vi *col,
                                              const int rank, const int *position) {
    const uint32x4_t a = xs_neon_low32(col[position[0]]);
    if (rank == 1) {  /* half a vector: stored at out, past the stream */
        vst1q_u32(out, a);
        return;
    }
    const uint32x4_t b = xs_neon_low32(col[position[1]]);
    const uint32x4_t ab0 = vzip1q_u32(a, b), ab1 = vzip2q_u32(a, b);
    if (rank == 2) {
        xs_vstream_put(s, (xs_vi){vreinterpretq_u64_u32(ab0), vreinterpretq_u64_u32(ab1)});
        return;
    }
    const uint32x4_t c = xs_neon_low32(col[position[2]]), d = xs_neon_low32(col[position[3]]);
    const uint64x2_t cd0 = vreinterpretq_u64_u32(vzip1q_u32(c, d));
    const uint64x2_t cd1 = vreinterpretq_u64_u32(vzip2q_u32(c, d));
    const uint64x2_t ab0w = vreinterpretq_u64_u32(ab0), ab1w = vreinterpretq_u64_u32(ab1);
    xs_vstream_put(s, (xs_vi){vzip1q_u64(ab0w, cd0), vzip2q_u64(ab0w, cd0)});
    xs_vstream_put(s, (xs_vi){vzip1q_u64(ab1w, cd1), vzip2q_u64(ab1w, cd1)});
}

/* -- ravel: (N, rank) rows in registers --------------------------------------
 *
 * ``rank`` vectors of 4 rows as they lie in memory: lane l of each holds
 * dimension l % rank, so one vector of extents and one of strides serve
 * them all. Each is checked (unsigned, so a negative index is outside)
 * and multiplied in place; the row sums are pairwise additions: rank 2
 * holds a row per register, rank 4 a row per vector. */
typedef struct {
    xs_vi ext, stride;
} xs_vravel;

static inline void xs_vravel_init(xs_vravel *t, int rank, const uint64_t *extent,
                                  const uint64_t *stride) {
    uint64_t ext[4], str[4];
    for (int lane = 0; lane < 4; lane++) {
        ext[lane] = extent[lane % rank];
        str[lane] = stride[lane % rank];
    }
    memcpy(&t->ext, ext, sizeof t->ext);
    memcpy(&t->stride, str, sizeof t->stride);
}

static inline void xs_vravel_check(const xs_vi *v, const int rank, const xs_vravel *t,
                                   xs_vok *ok) {
    for (int j = 0; j < rank; j++) *ok = xs_vok_below_i(*ok, v[j], t->ext);
}

static inline xs_vi xs_vravel_rowsum(xs_vi *v, const int rank, const xs_vravel *t) {
    (void)t;
    if (rank == 2) return (xs_vi){vpaddq_u64(v[0].lo, v[0].hi), vpaddq_u64(v[1].lo, v[1].hi)};
    uint64x2_t s[4];
    for (int j = 0; j < 4; j++) s[j] = vaddq_u64(v[j].lo, v[j].hi);
    return (xs_vi){vpaddq_u64(s[0], s[1]), vpaddq_u64(s[2], s[3])};
}

/* Rank 4 with ``narrow``: a row's products summed by halves in one
 * multiply and one multiply-add of 32-bit halves, then in pairs. */
static inline xs_vi xs_vravel_sum(xs_vi *v, const int rank, const xs_vravel *t,
                                  const int narrow, xs_vok *ok) {
    xs_vravel_check(v, rank, t, ok);
    if (rank == 4 && narrow) {
        const uint32x4_t stride = xs_neon_low32(t->stride);
        uint64x2_t s[4];
        for (int j = 0; j < 4; j++) {
            const uint32x4_t x = xs_neon_low32(v[j]);
            s[j] = vmlal_high_u32(vmull_u32(vget_low_u32(x), vget_low_u32(stride)), x, stride);
        }
        return (xs_vi){vpaddq_u64(s[0], s[1]), vpaddq_u64(s[2], s[3])};
    }
    for (int j = 0; j < rank; j++) v[j] = xs_vmul(v[j], t->stride, narrow);
    return xs_vravel_rowsum(v, rank, t);
}

/* -- ravel: separate columns in registers ------------------------------------
 *
 * One vector of one dimension's indices: its products with the stride
 * added to ``acc``, and ``ok`` less the lanes outside [0, extm1], both
 * read signed. */
#define XS_VRAVEL_COLUMN 1
static inline xs_vi xs_vravel_column(xs_vi acc, xs_vi v, xs_vi extm1, xs_vi stride,
                                     const int narrow, xs_vok *ok) {
    const int64x2_t lo = vreinterpretq_s64_u64(v.lo), hi = vreinterpretq_s64_u64(v.hi);
    ok->lo = vandq_u64(ok->lo, vandq_u64(vcgezq_s64(lo), vcleq_s64(lo, vreinterpretq_s64_u64(extm1.lo))));
    ok->hi = vandq_u64(ok->hi, vandq_u64(vcgezq_s64(hi), vcleq_s64(hi, vreinterpretq_s64_u64(extm1.hi))));
    return xs_vadd(acc, xs_vmul(v, stride, narrow));
}

/* Rank-4 rows of 32-bit indices into 32-bit offsets, for a buffer of at
 * most 2**31 elements (kernels_impl.h, xs_ravel_cols32): a register per
 * row, checked against the extents and multiplied by the strides lane by
 * lane, then each 4 rows' sums by three pairwise additions. 8 rows a
 * vector; returns the first row not done. */
static XS_ALWAYS_INLINE ptrdiff_t xs_vravel_rows4_u32(const uint32_t *rows,
                                                     const uint64_t *extent,
                                                     const uint64_t *stride, uint32_t *out,
                                                     ptrdiff_t i, ptrdiff_t stop, int store,
                                                     uint64_t *bad) {
    uint32_t ext[4], str[4];
    for (int d = 0; d < 4; d++) {
        ext[d] = (uint32_t)extent[d];
        str[d] = (uint32_t)stride[d];
    }
    const uint32x4_t limit = vld1q_u32(ext), factor = vld1q_u32(str);
    uint32x4_t over = vdupq_n_u32(0);
    const int prefetch = store != XS_STORE_PLAIN;  /* kernels_common.h */
    xs_vstream s;
    xs_vstream_begin(&s, out + i, store);
    for (; i + 8 <= stop; i += 8) {
        const uint32_t *r = rows + 4 * i;
        uint32x4_t sum[2];
        if (prefetch) {
            __builtin_prefetch((const char *)r + XS_PREFETCH_AHEAD);
            __builtin_prefetch((const char *)r + XS_PREFETCH_AHEAD + 64);
        }
        for (int h = 0; h < 2; h++) {
            uint32x4_t p[4];
            for (int k = 0; k < 4; k++) {
                p[k] = vld1q_u32(r + 16 * h + 4 * k);
                over = vorrq_u32(over, vcgeq_u32(p[k], limit));
                p[k] = vmulq_u32(p[k], factor);
            }
            sum[h] = vpaddq_u32(vpaddq_u32(p[0], p[1]), vpaddq_u32(p[2], p[3]));
        }
        xs_vstream_put(&s, (xs_vi){vreinterpretq_u64_u32(sum[0]), vreinterpretq_u64_u32(sum[1])});
    }
    xs_vstream_end(&s);
    *bad |= vmaxvq_u32(over) != 0;
    return i;
}

#endif
