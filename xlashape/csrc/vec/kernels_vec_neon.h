/* The vector operations of the NEON kernels (aarch64): this level's
 * implementation of kernels_vec.h, the contract that lists them and says
 * what each must do, for the loops of kernels_impl.h and tiled_kernels.h.
 * Included by kernels_neon.c (and the tests' vec_check_neon.c) only.
 *
 * A NEON register holds 2 lanes of 64 bits; a vector of the contract is a
 * pair of them, 4 lanes (lanes 0-1 in the low register, 2-3 in the high
 * one), so that the level has AVX2's lanes, rank sets and optional
 * operations, and the portable level of 4 lanes is its reference
 * (tests/test_vector_ops.py). The loops then work on two registers at a
 * time, where aarch64's 32 vector registers have room for them. NEON is
 * part of every aarch64 CPU, so the level needs no run-time check
 * (levels.h).
 *
 * Each operation works on the two registers with NEON's intrinsics.
 *
 * Unlike AVX2, NEON converts between int64 and double, compares 64-bit
 * lanes unsigned, and rounds down in one instruction each; it lacks a
 * 64-bit product (spelled out from 32-bit ones below), a masked store and
 * a permute by 32-bit lane numbers (the store stream's join goes through
 * table lookups of bytes).
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
 * (kernels_vec.h): as at AVX2, the join's table lookups would add to the
 * transpose's own. */
#define XS_VTURN_ROWS 0
#define XS_VSTAGE_PAIRS 0
#define XS_VINVERSE_AHEAD 0
/* Relayout's blocks, AVX2's sides (so that the portable level of 4 lanes
 * is the reference of these too): 8 for 2- and 4-byte elements, 4 for
 * 8-byte ones, whole lines (64 / size) streamed; each moved by blocks of
 * one register a row (xs_vtranspose). */
#define XS_VTRANSPOSE_SIDE(size, stream) \
    ((size) == 1 ? 0 : (stream) ? 64 / (size) : (size) == 8 ? 4 : 8)

/* Each vector a struct of its two registers: the compiler keeps them
 * apart, in registers, and stores each (xs_vstore, by which the store
 * stream stores too: XS_VSTORE_SLOT). */
typedef struct {
    uint64x2_t lo, hi;
} xs_vi;
typedef struct {
    float64x2_t lo, hi;
} xs_vd;
/* The flags of the 4 lanes in one register, a 32-bit lane each (all ones
 * where good, 0 where not): a 64-bit compare's two registers narrow into
 * it by one UZP1, and checks of 32-bit lanes (ravel's, below) clear it by
 * one BIC. */
typedef struct {
    uint32x4_t on;
} xs_vok;

/* The low and high registers of a vector (name##_lo, name##_hi), and the
 * vector of two (name##_of). */
#define XS_NEON_HALVES(name, type, half)                                                   \
    static XS_ALWAYS_INLINE half name##_lo(type v) { return v.lo; }                                  \
    static XS_ALWAYS_INLINE half name##_hi(type v) { return v.hi; }                                  \
    static XS_ALWAYS_INLINE type name##_of(half lo, half hi) {                                       \
        type v;                                                                            \
        v.lo = lo;                                                                         \
        v.hi = hi;                                                                         \
        return v;                                                                          \
    }
XS_NEON_HALVES(xs_neon_i, xs_vi, uint64x2_t)
XS_NEON_HALVES(xs_neon_d, xs_vd, float64x2_t)

static XS_ALWAYS_INLINE xs_vd xs_vd_set(double x) { return xs_neon_d_of(vdupq_n_f64(x), vdupq_n_f64(x)); }
static XS_ALWAYS_INLINE xs_vi xs_vi_set(uint64_t x) { return xs_neon_i_of(vdupq_n_u64(x), vdupq_n_u64(x)); }
static XS_ALWAYS_INLINE xs_vok xs_neon_ok_of(uint32x4_t on) {
    xs_vok ok;
    ok.on = on;
    return ok;
}
static XS_ALWAYS_INLINE xs_vok xs_vok_all(void) { return xs_neon_ok_of(vdupq_n_u32(~0U)); }
static XS_ALWAYS_INLINE int xs_vok_bad(xs_vok ok) { return vminvq_u32(ok.on) == 0; }
static XS_ALWAYS_INLINE xs_vok xs_vok_and(xs_vok a, xs_vok b) { return xs_neon_ok_of(vandq_u32(a.on, b.on)); }
/* ok, less the lanes where ``in`` (a 64-bit compare's result, a register
 * per half) is 0. */
static XS_ALWAYS_INLINE xs_vok xs_neon_keep(xs_vok ok, uint64x2_t in_lo, uint64x2_t in_hi) {
    return xs_neon_ok_of(vandq_u32(ok.on, vuzp1q_u32(vreinterpretq_u32_u64(in_lo), vreinterpretq_u32_u64(in_hi))));
}
/* An ordered compare: a NaN lane is cleared. */
static XS_ALWAYS_INLINE xs_vok xs_vok_below(xs_vok ok, xs_vd x, xs_vd limit) {
    return xs_neon_keep(ok, vcltq_f64(xs_neon_d_lo(x), xs_neon_d_lo(limit)),
                        vcltq_f64(xs_neon_d_hi(x), xs_neon_d_hi(limit)));
}
static XS_ALWAYS_INLINE xs_vok xs_vok_below_i(xs_vok ok, xs_vi x, xs_vi limit) {
    return xs_neon_keep(ok, vcltq_u64(xs_neon_i_lo(x), xs_neon_i_lo(limit)),
                        vcltq_u64(xs_neon_i_hi(x), xs_neon_i_hi(limit)));
}

/* -- loads */
#define XS_VLOAD_i64 1
#define XS_VLOAD_i32 1
#define XS_VLOAD_OFFSETS_i64 1
#define XS_VLOAD_OFFSETS_i32 1
static XS_ALWAYS_INLINE xs_vi xs_vload_i64(const int64_t *p) {
    const uint64_t *u = (const uint64_t *)(const void *)p;
    return xs_neon_i_of(vld1q_u64(u), vld1q_u64(u + 2));
}
static XS_ALWAYS_INLINE xs_vi xs_vload_i32(const int32_t *p) {
    const int32x4_t v = vld1q_s32(p);
    return xs_neon_i_of(vreinterpretq_u64_s64(vmovl_s32(vget_low_s32(v))),
                        vreinterpretq_u64_s64(vmovl_high_s32(v)));
}
/* The offsets v in [0, size) of v, read unsigned (a negative is huge):
 * the others leave ``ok`` and become 0. */
static XS_ALWAYS_INLINE xs_vi xs_neon_keep_offsets(xs_vi v, uint64_t size, xs_vok *ok) {
    const uint64x2_t limit = vdupq_n_u64(size), lo = xs_neon_i_lo(v), hi = xs_neon_i_hi(v);
    const uint64x2_t in_lo = vcltq_u64(lo, limit), in_hi = vcltq_u64(hi, limit);
    *ok = xs_neon_keep(*ok, in_lo, in_hi);
    return xs_neon_i_of(vandq_u64(lo, in_lo), vandq_u64(hi, in_hi));
}
static XS_ALWAYS_INLINE xs_vi xs_vload_ioffsets_i64(const int64_t *p, uint64_t size, xs_vok *ok) {
    return xs_neon_keep_offsets(xs_vload_i64(p), size, ok);
}
static XS_ALWAYS_INLINE xs_vi xs_vload_ioffsets_i32(const int32_t *p, uint64_t size, xs_vok *ok) {
    return xs_neon_keep_offsets(xs_vload_i32(p), size, ok);
}

/* -- double lanes, and conversions (exact below 2**52; signed, as the
 * portable level's casts) */
static XS_ALWAYS_INLINE xs_vd xs_vi_to_vd(xs_vi x) {
    return xs_neon_d_of(vcvtq_f64_s64(vreinterpretq_s64_u64(xs_neon_i_lo(x))),
                        vcvtq_f64_s64(vreinterpretq_s64_u64(xs_neon_i_hi(x))));
}
static XS_ALWAYS_INLINE xs_vi xs_vd_to_vi(xs_vd x) {
    return xs_neon_i_of(vreinterpretq_u64_s64(vcvtq_s64_f64(xs_neon_d_lo(x))),
                        vreinterpretq_u64_s64(vcvtq_s64_f64(xs_neon_d_hi(x))));
}
static XS_ALWAYS_INLINE xs_vd xs_vload_offsets_i64(const int64_t *p, uint64_t size, xs_vok *ok) {
    return xs_vi_to_vd(xs_vload_ioffsets_i64(p, size, ok));
}
static XS_ALWAYS_INLINE xs_vd xs_vload_offsets_i32(const int32_t *p, uint64_t size, xs_vok *ok) {
    return xs_vi_to_vd(xs_vload_ioffsets_i32(p, size, ok));
}
/* floor(n * rw + hrw) and n - q * w, one rounding each. */
static XS_ALWAYS_INLINE xs_vd xs_vfloor_fma(xs_vd n, xs_vd rw, xs_vd hrw) {
    return xs_neon_d_of(vrndmq_f64(vfmaq_f64(xs_neon_d_lo(hrw), xs_neon_d_lo(n), xs_neon_d_lo(rw))),
                        vrndmq_f64(vfmaq_f64(xs_neon_d_hi(hrw), xs_neon_d_hi(n), xs_neon_d_hi(rw))));
}
static XS_ALWAYS_INLINE xs_vd xs_vfnmadd(xs_vd q, xs_vd w, xs_vd n) {
    return xs_neon_d_of(vfmsq_f64(xs_neon_d_lo(n), xs_neon_d_lo(q), xs_neon_d_lo(w)),
                        vfmsq_f64(xs_neon_d_hi(n), xs_neon_d_hi(q), xs_neon_d_hi(w)));
}

/* -- integer lanes
 *
 * NEON shifts each lane by the signed low byte of its count (a negative
 * count shifts right), so a count is first capped at 64, which shifts
 * every bit out; the loops' counts are the same in every row, and the
 * compiler hoists the cap out of them. */
static XS_ALWAYS_INLINE int64x2_t xs_neon_count(uint64x2_t shift) {
    const uint64x2_t cap = vdupq_n_u64(64);
    return vreinterpretq_s64_u64(vbslq_u64(vcltq_u64(shift, cap), shift, cap));
}
static XS_ALWAYS_INLINE xs_vi xs_vand(xs_vi a, xs_vi b) {
    return xs_neon_i_of(vandq_u64(xs_neon_i_lo(a), xs_neon_i_lo(b)),
                        vandq_u64(xs_neon_i_hi(a), xs_neon_i_hi(b)));
}
static XS_ALWAYS_INLINE xs_vi xs_vshr(xs_vi n, xs_vi shift) {
    return xs_neon_i_of(vshlq_u64(xs_neon_i_lo(n), vnegq_s64(xs_neon_count(xs_neon_i_lo(shift)))),
                        vshlq_u64(xs_neon_i_hi(n), vnegq_s64(xs_neon_count(xs_neon_i_hi(shift)))));
}
static XS_ALWAYS_INLINE xs_vi xs_vshl(xs_vi n, xs_vi shift) {
    return xs_neon_i_of(vshlq_u64(xs_neon_i_lo(n), xs_neon_count(xs_neon_i_lo(shift))),
                        vshlq_u64(xs_neon_i_hi(n), xs_neon_count(xs_neon_i_hi(shift))));
}
static XS_ALWAYS_INLINE xs_vi xs_vdigit(xs_vi acc, xs_vi n, xs_vi shift, xs_vi mask, xs_vi weight) {
    const xs_vi digit = xs_vshl(xs_vand(xs_vshr(n, shift), mask), weight);
    return xs_neon_i_of(vorrq_u64(xs_neon_i_lo(acc), xs_neon_i_lo(digit)),
                        vorrq_u64(xs_neon_i_hi(acc), xs_neon_i_hi(digit)));
}
static XS_ALWAYS_INLINE xs_vi xs_vadd(xs_vi a, xs_vi b) {
    return xs_neon_i_of(vaddq_u64(xs_neon_i_lo(a), xs_neon_i_lo(b)),
                        vaddq_u64(xs_neon_i_hi(a), xs_neon_i_hi(b)));
}
/* The low 32 bits of the 4 lanes, in one register. */
static XS_ALWAYS_INLINE uint32x4_t xs_neon_low32(xs_vi a) {
    return vuzp1q_u32(vreinterpretq_u32_u64(xs_neon_i_lo(a)), vreinterpretq_u32_u64(xs_neon_i_hi(a)));
}
/* The 4 lanes narrowed to 32 bits with unsigned saturation (2**32 or more
 * becomes 2**32 - 1), in one register. */
static XS_ALWAYS_INLINE uint32x4_t xs_neon_sat32(xs_vi a) {
    return vqmovn_high_u64(vqmovn_u64(xs_neon_i_lo(a)), xs_neon_i_hi(a));
}
/* a * b modulo 2**64 of one register: the low halves' full product, plus
 * the cross products (each modulo 2**32, summed in pairs) moved up 32
 * bits. */
static XS_ALWAYS_INLINE uint64x2_t xs_neon_mul(uint64x2_t a, uint64x2_t b) {
    const uint32x4_t cross = vmulq_u32(vreinterpretq_u32_u64(a), vrev64q_u32(vreinterpretq_u32_u64(b)));
    return vmlal_u32(vshlq_n_u64(vpaddlq_u32(cross), 32), vmovn_u64(a), vmovn_u64(b));
}
/* ``narrow``: the low halves' products alone, from one register of each. */
static XS_ALWAYS_INLINE xs_vi xs_vmul(xs_vi a, xs_vi b, const int narrow) {
    if (narrow) {
        const uint32x4_t a32 = xs_neon_low32(a), b32 = xs_neon_low32(b);
        return xs_neon_i_of(vmull_u32(vget_low_u32(a32), vget_low_u32(b32)), vmull_high_u32(a32, b32));
    }
    return xs_neon_i_of(xs_neon_mul(xs_neon_i_lo(a), xs_neon_i_lo(b)),
                        xs_neon_mul(xs_neon_i_hi(a), xs_neon_i_hi(b)));
}

/* -- stores (the store stream's too: a memcpy of the struct went through
 * the stack) */
#define XS_VSTORE_SLOT 1
static XS_ALWAYS_INLINE void xs_vstore(int64_t *p, xs_vi v) {
    memcpy(p, &v.lo, sizeof v.lo);
    memcpy(p + 2, &v.hi, sizeof v.hi);
}

/* -- the store stream's operations (kernels_store.h) */
#define XS_VBYTES 32
typedef struct {
    uint32x4_t lo, hi;  /* all ones in each 32-bit lane of the set */
} xs_vlanes;
XS_NEON_HALVES(xs_neon_lanes, xs_vlanes, uint32x4_t)
static XS_ALWAYS_INLINE xs_vlanes xs_vlanes_below(int n) {
    const uint32_t first[4] = {0, 1, 2, 3};
    const uint32x4_t lane = vld1q_u32(first), count = vdupq_n_u32((uint32_t)n);
    return xs_neon_lanes_of(vcltq_u32(lane, count), vcltq_u32(vaddq_u32(lane, vdupq_n_u32(4)), count));
}
static XS_ALWAYS_INLINE xs_vlanes xs_vlanes_not(xs_vlanes m) {
    return xs_neon_lanes_of(vmvnq_u32(xs_neon_lanes_lo(m)), vmvnq_u32(xs_neon_lanes_hi(m)));
}
/* The join, as at AVX2: the carry kept of a vector is the vector turned
 * (32-bit lane j holds lane turn[j] mod 8, by a table lookup in its own
 * two registers), so that its last lanes are already where a slot wants
 * them; the join takes the carry's lanes in ``low`` and the turned vector
 * elsewhere. The next carry is the same turned vector, which the
 * compiler computes once. */
static XS_ALWAYS_INLINE uint8x16_t xs_neon_turn_bytes(uint64x2_t turn) {
    /* lane j's bytes: 4 * (turn[j] mod 8) + 0, 1, 2, 3 */
    const uint32x4_t lane = vandq_u32(vreinterpretq_u32_u64(turn), vdupq_n_u32(7));
    const uint32x4_t first = vmulq_n_u32(vshlq_n_u32(lane, 2), 0x01010101u);
    return vreinterpretq_u8_u32(vaddq_u32(first, vdupq_n_u32(0x03020100u)));
}
/* The bytes of v's two registers (0-15 the low one's, 16-31 the high
 * one's) at the byte numbers idx, by a lookup in each register: TBL
 * gives 0, and TBX keeps what it has, for a number past its 16 bytes.
 * (TBL of the two registers as one table of 32 bytes wants them in
 * adjacent registers: GCC 12 copied v into two such pairs, 4 MOVs a
 * vector on the store stream, and looked the carry up twice.) */
static XS_ALWAYS_INLINE uint8x16_t xs_neon_lookup(xs_vi v, uint8x16_t idx) {
    const uint8x16_t low = vqtbl1q_u8(vreinterpretq_u8_u64(xs_neon_i_lo(v)), idx);
    return vqtbx1q_u8(low, vreinterpretq_u8_u64(xs_neon_i_hi(v)), vsubq_u8(idx, vdupq_n_u8(16)));
}
/* The two registers of v, each looked up in both by its byte numbers. */
static XS_ALWAYS_INLINE xs_vi xs_neon_permute(xs_vi v, uint8x16_t idx_lo, uint8x16_t idx_hi) {
    return xs_neon_i_of(vreinterpretq_u64_u8(xs_neon_lookup(v, idx_lo)),
                        vreinterpretq_u64_u8(xs_neon_lookup(v, idx_hi)));
}
static XS_ALWAYS_INLINE xs_vi xs_vkeep(xs_vi v, xs_vi turn) {
    return xs_neon_permute(v, xs_neon_turn_bytes(xs_neon_i_lo(turn)), xs_neon_turn_bytes(xs_neon_i_hi(turn)));
}
static XS_ALWAYS_INLINE xs_vi xs_vjoin(xs_vi carry, xs_vi v, xs_vi turn, xs_vlanes low) {
    const xs_vi turned = xs_vkeep(v, turn);
    return xs_neon_i_of(vbslq_u64(vreinterpretq_u64_u32(xs_neon_lanes_lo(low)), xs_neon_i_lo(carry),
                                  xs_neon_i_lo(turned)),
                        vbslq_u64(vreinterpretq_u64_u32(xs_neon_lanes_hi(low)), xs_neon_i_hi(carry),
                                  xs_neon_i_hi(turned)));
}
/* NEON has no masked store: the lanes of m one by one (the stream's first
 * and last vectors only). */
static XS_ALWAYS_INLINE void xs_vstore_lanes(void *p, xs_vlanes m, xs_vi v) {
    uint32_t on[8], lane[8];
    vst1q_u32(on, m.lo);
    vst1q_u32(on + 4, m.hi);
    vst1q_u32(lane, vreinterpretq_u32_u64(v.lo));
    vst1q_u32(lane + 4, vreinterpretq_u32_u64(v.hi));
    for (int j = 0; j < 8; j++)
        if (on[j]) memcpy((char *)p + 4 * j, &lane[j], 4);
}
/* A non-temporal store of a pair of registers (STNP); the driver's fence
 * (a DMB) orders it before another thread reads. */
static XS_ALWAYS_INLINE void xs_vstore_nt(void *p, xs_vi v) {
    __asm__ volatile("stnp %q1, %q2, [%0]" : : "r"(p), "w"(v.lo), "w"(v.hi) : "memory");
}
#include "vec/kernels_store.h"

/* -- (N, rank) rows in registers ---------------------------------------------
 *
 * Zips of the positions' registers make the rows in position order (the
 * low registers hold rows 0 and 1, the high ones rows 2 and 3). Where the
 * layout's order is the dimensions' (minor_to_major 0, 1, ...) or their
 * reverse (XLA's default, {rank-1, ..., 0}), the zips take the positions
 * in that order and the rows come out in dimension order; any other
 * order of rank 4 then moves each row's lanes by two table lookups. */
enum { XS_NEON_IDENTITY, XS_NEON_REVERSED, XS_NEON_OTHER };
typedef struct {
    int order;
    uint8x16_t idx[2];  /* XS_NEON_OTHER: the byte numbers of a row's two registers */
} xs_vrows;

static XS_ALWAYS_INLINE void xs_vrows_init(xs_vrows *t, int rank, const int *position) {
    uint8_t idx[2][16];
    int identity = 1, reversed = 1;
    for (int d = 0; d < rank; d++) {
        identity &= position[d] == d;
        reversed &= position[d] == rank - 1 - d;
    }
    t->order = identity ? XS_NEON_IDENTITY : reversed ? XS_NEON_REVERSED : XS_NEON_OTHER;
    for (int h = 0; h < 2; h++)  /* dimension 2h + m of a row: lane position[2h + m] of the zipped row */
        for (int m = 0; m < 2; m++)
            for (int b = 0; b < 8; b++)
                idx[h][8 * m + b] = (uint8_t)(rank == 4 ? 8 * position[2 * h + m] + b : 0);
    t->idx[0] = vld1q_u8(idx[0]);
    t->idx[1] = vld1q_u8(idx[1]);
}

/* 4 rows of rank 4 from the positions a, b, c, d, in that order, each
 * permuted by idx where ``permute``. */
static XS_ALWAYS_INLINE void xs_neon_put_rows4(xs_vstream *out, xs_vi a, xs_vi b, xs_vi c, xs_vi d,
                                               const int permute, const uint8x16_t *idx) {
    const uint64x2_t alo = xs_neon_i_lo(a), blo = xs_neon_i_lo(b), clo = xs_neon_i_lo(c), dlo = xs_neon_i_lo(d);
    const uint64x2_t ahi = xs_neon_i_hi(a), bhi = xs_neon_i_hi(b), chi = xs_neon_i_hi(c), dhi = xs_neon_i_hi(d);
    xs_vi row[4] = {
        xs_neon_i_of(vzip1q_u64(alo, blo), vzip1q_u64(clo, dlo)),
        xs_neon_i_of(vzip2q_u64(alo, blo), vzip2q_u64(clo, dlo)),
        xs_neon_i_of(vzip1q_u64(ahi, bhi), vzip1q_u64(chi, dhi)),
        xs_neon_i_of(vzip2q_u64(ahi, bhi), vzip2q_u64(chi, dhi)),
    };
    XS_UNROLL_DIMS
    for (int r = 0; r < 4; r++) xs_vstream_put(out, permute ? xs_neon_permute(row[r], idx[0], idx[1]) : row[r]);
}

/* 4 rows of rank 2 from the positions a, b, in that order. */
static XS_ALWAYS_INLINE void xs_neon_put_rows2(xs_vstream *out, xs_vi a, xs_vi b) {
    const uint64x2_t alo = xs_neon_i_lo(a), blo = xs_neon_i_lo(b);
    const uint64x2_t ahi = xs_neon_i_hi(a), bhi = xs_neon_i_hi(b);
    xs_vstream_put(out, xs_neon_i_of(vzip1q_u64(alo, blo), vzip2q_u64(alo, blo)));
    xs_vstream_put(out, xs_neon_i_of(vzip1q_u64(ahi, bhi), vzip2q_u64(ahi, bhi)));
}

static XS_ALWAYS_INLINE void xs_vstore_rows(xs_vstream *out, const xs_vi *col, const int rank,
                                            const xs_vrows *t) {
    if (rank == 1)
        xs_vstream_put(out, col[0]);
    else if (rank == 2 && t->order == XS_NEON_IDENTITY)
        xs_neon_put_rows2(out, col[0], col[1]);
    else if (rank == 2)
        xs_neon_put_rows2(out, col[1], col[0]);
    else if (t->order == XS_NEON_REVERSED)
        xs_neon_put_rows4(out, col[3], col[2], col[1], col[0], 0, t->idx);
    else if (t->order == XS_NEON_IDENTITY)
        xs_neon_put_rows4(out, col[0], col[1], col[2], col[3], 0, t->idx);
    else
        xs_neon_put_rows4(out, col[0], col[1], col[2], col[3], 1, t->idx);
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
    const uint64x2_t ab0 = vreinterpretq_u64_u32(vzip1q_u32(a, b));
    const uint64x2_t ab1 = vreinterpretq_u64_u32(vzip2q_u32(a, b));
    if (rank == 2) {
        xs_vstream_put(s, xs_neon_i_of(ab0, ab1));
        return;
    }
    const uint32x4_t c = xs_neon_low32(col[position[2]]), d = xs_neon_low32(col[position[3]]);
    const uint64x2_t cd0 = vreinterpretq_u64_u32(vzip1q_u32(c, d));
    const uint64x2_t cd1 = vreinterpretq_u64_u32(vzip2q_u32(c, d));
    xs_vstream_put(s, xs_neon_i_of(vzip1q_u64(ab0, cd0), vzip2q_u64(ab0, cd0)));
    xs_vstream_put(s, xs_neon_i_of(vzip1q_u64(ab1, cd1), vzip2q_u64(ab1, cd1)));
}

/* -- ravel: (N, rank) rows in registers --------------------------------------
 *
 * ``rank`` vectors of 4 rows as they lie in memory: lane l of each holds
 * dimension l % rank, so one vector of extents and one of strides serve
 * them all. Each is checked (unsigned, so a negative index is outside)
 * and multiplied in place; the row sums are pairwise additions: rank 2
 * holds a row per register, rank 4 a row per vector.
 *
 * Rank 4 with ``narrow``, where every extent is below 2**32 (``small``),
 * checks the rows in 32-bit lanes instead: each row narrowed with
 * unsigned saturation (an index of 2**32 or more becomes 2**32 - 1, still
 * outside), the 4 rows' largest by lane, and one compare with the
 * extents (``ext32``), whose lanes are the dimensions, as ok's are. */
typedef struct {
    xs_vi ext, stride;
    uint32x4_t ext32;
    int small;
} xs_vravel;

static XS_ALWAYS_INLINE void xs_vravel_init(xs_vravel *t, int rank, const uint64_t *extent,
                                  const uint64_t *stride) {
    uint64_t ext[4], str[4];
    for (int lane = 0; lane < 4; lane++) {
        ext[lane] = extent[lane % rank];
        str[lane] = stride[lane % rank];
    }
    t->ext = xs_neon_i_of(vld1q_u64(ext), vld1q_u64(ext + 2));
    t->stride = xs_neon_i_of(vld1q_u64(str), vld1q_u64(str + 2));
    t->ext32 = xs_neon_sat32(t->ext);
    t->small = 1;
    for (int j = 0; j < rank; j++) t->small &= extent[j] < ((uint64_t)1 << 32);
}

static XS_ALWAYS_INLINE void xs_vravel_check(const xs_vi *v, const int rank, const xs_vravel *t,
                                   xs_vok *ok) {
    for (int j = 0; j < rank; j++) *ok = xs_vok_below_i(*ok, v[j], t->ext);
}

static XS_ALWAYS_INLINE xs_vi xs_vravel_rowsum(xs_vi *v, const int rank, const xs_vravel *t) {
    uint64x2_t s[4];
    (void)t;
    if (rank == 2)
        return xs_neon_i_of(vpaddq_u64(xs_neon_i_lo(v[0]), xs_neon_i_hi(v[0])),
                            vpaddq_u64(xs_neon_i_lo(v[1]), xs_neon_i_hi(v[1])));
    for (int j = 0; j < 4; j++) s[j] = vaddq_u64(xs_neon_i_lo(v[j]), xs_neon_i_hi(v[j]));
    return xs_neon_i_of(vpaddq_u64(s[0], s[1]), vpaddq_u64(s[2], s[3]));
}

/* A row's 4 products of 32-bit halves x * y, summed by halves: lane 0
 * x0 y0 + x2 y2, lane 1 x1 y1 + x3 y3. One UMULL and one UMLAL2 into the
 * same register, written as one asm statement: GCC 12 scheduled the
 * UMULLs of a loop's 4 rows apart from their UMLAL2s, then copied two of
 * the products to other registers (a MOV each, 2 of 42 instructions in
 * ravel's loop for 4 rank-4 rows stored plainly). */
static XS_ALWAYS_INLINE uint64x2_t xs_neon_dot_halves(uint32x4_t x, uint32x4_t y) {
    uint64x2_t sum;
    __asm__("umull %0.2d, %1.2s, %2.2s\n\tumlal2 %0.2d, %1.4s, %2.4s" : "=&w"(sum) : "w"(x), "w"(y));
    return sum;
}

/* Rank 4 with ``narrow``: each row's products summed by halves, then in
 * pairs; checked in 32-bit lanes where the extents are ``small``. */
static XS_ALWAYS_INLINE xs_vi xs_vravel_sum(xs_vi *v, const int rank, const xs_vravel *t,
                                  const int narrow, xs_vok *ok) {
    if (rank == 4 && narrow) {
        const uint32x4_t stride = xs_neon_low32(t->stride);
        uint64x2_t s[4];
        uint32x4_t most[4];
        for (int j = 0; j < 4; j++) {
            s[j] = xs_neon_dot_halves(xs_neon_low32(v[j]), stride);
            most[j] = xs_neon_sat32(v[j]);
        }
        if (t->small) {
            const uint32x4_t all = vmaxq_u32(vmaxq_u32(most[0], most[1]), vmaxq_u32(most[2], most[3]));
            ok->on = vbicq_u32(ok->on, vcgeq_u32(all, t->ext32));
        } else {
            xs_vravel_check(v, rank, t, ok);
        }
        return xs_neon_i_of(vpaddq_u64(s[0], s[1]), vpaddq_u64(s[2], s[3]));
    }
    xs_vravel_check(v, rank, t, ok);
    for (int j = 0; j < rank; j++) v[j] = xs_vmul(v[j], t->stride, narrow);
    return xs_vravel_rowsum(v, rank, t);
}

/* -- ravel: separate columns in registers ------------------------------------
 *
 * One vector of one dimension's indices: its products with the stride
 * added to ``acc``, and ``ok`` less the lanes outside [0, extm1], both
 * read signed. */
#define XS_VRAVEL_COLUMN 1
static XS_ALWAYS_INLINE xs_vi xs_vravel_column(xs_vi acc, xs_vi v, xs_vi extm1, xs_vi stride,
                                     const int narrow, xs_vok *ok) {
    const int64x2_t lo = vreinterpretq_s64_u64(xs_neon_i_lo(v)), hi = vreinterpretq_s64_u64(xs_neon_i_hi(v));
    *ok = xs_neon_keep(*ok, vandq_u64(vcgezq_s64(lo), vcleq_s64(lo, vreinterpretq_s64_u64(xs_neon_i_lo(extm1)))),
                       vandq_u64(vcgezq_s64(hi), vcleq_s64(hi, vreinterpretq_s64_u64(xs_neon_i_hi(extm1)))));
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
                                                     int prefetch, uint64_t *bad) {
    uint32_t ext[4], str[4];
    for (int d = 0; d < 4; d++) {
        ext[d] = (uint32_t)extent[d];
        str[d] = (uint32_t)stride[d];
    }
    const uint32x4_t limit = vld1q_u32(ext), factor = vld1q_u32(str);
    uint32x4_t over = vdupq_n_u32(0);
    xs_vstream s;
    xs_vstream_begin(&s, out + i, store);
    for (; i + 8 <= stop; i += 8) {
        const uint32_t *r = rows + 4 * i;
        uint32x4_t sum[2];
        xs_prefetch_ahead(r, 128, prefetch);
        for (int h = 0; h < 2; h++) {
            uint32x4_t p[4];
            for (int k = 0; k < 4; k++) {
                p[k] = vld1q_u32(r + 16 * h + 4 * k);
                over = vorrq_u32(over, vcgeq_u32(p[k], limit));
                p[k] = vmulq_u32(p[k], factor);
            }
            sum[h] = vpaddq_u32(vpaddq_u32(p[0], p[1]), vpaddq_u32(p[2], p[3]));
        }
        xs_vstream_put(&s, xs_neon_i_of(vreinterpretq_u64_u32(sum[0]), vreinterpretq_u64_u32(sum[1])));
    }
    xs_vstream_end(&s);
    *bad |= vmaxvq_u32(over) != 0;
    return i;
}

/* -- relayout: moving elements ---------------------------------------------
 *
 * A block whose rows are one register each (16 / size elements of size
 * bytes) is transposed in registers by log2(16 / size) rounds of NEON's
 * transposes (trn1, trn2): round k pairs the registers 2**k apart at
 * elements of size * 2**k bytes. A larger block goes by such blocks. */
static XS_ALWAYS_INLINE void xs_neon_trn(uint8x16_t *a, uint8x16_t *b, const int bytes) {
    uint8x16_t lo, hi;
    if (bytes == 2) {
        lo = vreinterpretq_u8_u16(vtrn1q_u16(vreinterpretq_u16_u8(*a), vreinterpretq_u16_u8(*b)));
        hi = vreinterpretq_u8_u16(vtrn2q_u16(vreinterpretq_u16_u8(*a), vreinterpretq_u16_u8(*b)));
    } else if (bytes == 4) {
        lo = vreinterpretq_u8_u32(vtrn1q_u32(vreinterpretq_u32_u8(*a), vreinterpretq_u32_u8(*b)));
        hi = vreinterpretq_u8_u32(vtrn2q_u32(vreinterpretq_u32_u8(*a), vreinterpretq_u32_u8(*b)));
    } else {
        lo = vreinterpretq_u8_u64(vtrn1q_u64(vreinterpretq_u64_u8(*a), vreinterpretq_u64_u8(*b)));
        hi = vreinterpretq_u8_u64(vtrn2q_u64(vreinterpretq_u64_u8(*a), vreinterpretq_u64_u8(*b)));
    }
    *a = lo;
    *b = hi;
}

static XS_ALWAYS_INLINE void xs_vtranspose(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                           const int size, const int stream) {
    const int side = XS_VTRANSPOSE_SIDE(size, stream), b = 16 / size;
    for (int bi = 0; bi < side; bi += b)      /* the block's source rows */
        for (int bj = 0; bj < side; bj += b) { /* and columns */
            uint8x16_t r[8];
            for (int k = 0; k < b; k++) r[k] = vld1q_u8((const uint8_t *)(src + (bi + k) * ssi + bj * size));
            for (int half = 1; half < b; half *= 2)
                for (int k = 0; k < b; k++)
                    if ((k & half) == 0) xs_neon_trn(&r[k], &r[k + half], size * half);
            for (int k = 0; k < b; k++) vst1q_u8((uint8_t *)(dst + (bj + k) * dsj + bi * size), r[k]);
        }
}

/* Interleaves by NEON's structured stores (st2, st4) of 16 bytes of each
 * row, and the inverse by its structured loads (ld2, ld4). */
static XS_ALWAYS_INLINE int64_t xs_vinterleave(const char *src, int64_t ssi, char *dst, int64_t nj,
                                               const int rows, const int size, const int stream) {
    const int64_t step = 16 / size, n = nj - nj % step;
    (void)stream;
    for (int64_t j = 0; j < n; j += step) {
        uint8x16_t r[4];
        for (int i = 0; i < rows; i++) r[i] = vld1q_u8((const uint8_t *)(src + i * ssi + j * size));
        uint8_t *to = (uint8_t *)(dst + j * rows * size);
        if (rows == 2 && size == 1) {
            vst2q_u8(to, ((uint8x16x2_t){{r[0], r[1]}}));
        } else if (rows == 2 && size == 2) {
            vst2q_u16((uint16_t *)(void *)to, ((uint16x8x2_t){{vreinterpretq_u16_u8(r[0]), vreinterpretq_u16_u8(r[1])}}));
        } else if (rows == 2) {
            vst2q_u32((uint32_t *)(void *)to, ((uint32x4x2_t){{vreinterpretq_u32_u8(r[0]), vreinterpretq_u32_u8(r[1])}}));
        } else if (size == 1) {
            vst4q_u8(to, ((uint8x16x4_t){{r[0], r[1], r[2], r[3]}}));
        } else {
            vst4q_u16((uint16_t *)(void *)to,
                      ((uint16x8x4_t){{vreinterpretq_u16_u8(r[0]), vreinterpretq_u16_u8(r[1]),
                                       vreinterpretq_u16_u8(r[2]), vreinterpretq_u16_u8(r[3])}}));
        }
    }
    return n;
}

static XS_ALWAYS_INLINE int64_t xs_vdeinterleave(const char *src, char *dst, int64_t dsj, int64_t ni,
                                                 const int rows, const int size, const int stream) {
    const int64_t step = 16 / size, n = ni - ni % step;
    (void)stream;
    for (int64_t i = 0; i < n; i += step) {
        const uint8_t *from = (const uint8_t *)(src + i * rows * size);
        uint8x16_t r[4];
        if (rows == 2 && size == 1) {
            const uint8x16x2_t v = vld2q_u8(from);
            r[0] = v.val[0];
            r[1] = v.val[1];
        } else if (rows == 2 && size == 2) {
            const uint16x8x2_t v = vld2q_u16((const uint16_t *)(const void *)from);
            r[0] = vreinterpretq_u8_u16(v.val[0]);
            r[1] = vreinterpretq_u8_u16(v.val[1]);
        } else if (rows == 2) {
            const uint32x4x2_t v = vld2q_u32((const uint32_t *)(const void *)from);
            r[0] = vreinterpretq_u8_u32(v.val[0]);
            r[1] = vreinterpretq_u8_u32(v.val[1]);
        } else if (size == 1) {
            const uint8x16x4_t v = vld4q_u8(from);
            for (int j = 0; j < 4; j++) r[j] = v.val[j];
        } else {
            const uint16x8x4_t v = vld4q_u16((const uint16_t *)(const void *)from);
            for (int j = 0; j < 4; j++) r[j] = vreinterpretq_u8_u16(v.val[j]);
        }
        for (int j = 0; j < rows; j++) vst1q_u8((uint8_t *)(dst + j * dsj + i * size), r[j]);
    }
    return n;
}

/* A whole line by two non-temporal pair stores (STNP); the fence orders
 * them (DMB ISHST: stores before it before stores after it). */
static XS_ALWAYS_INLINE void xs_vstore_line_nt(void *dst, const void *src) {
    const uint8_t *from = (const uint8_t *)src;
    const uint8x16_t a = vld1q_u8(from), b = vld1q_u8(from + 16), c = vld1q_u8(from + 32),
                     d = vld1q_u8(from + 48);
    __asm__ volatile("stnp %q1, %q2, [%0]\n\tstnp %q3, %q4, [%0, #32]"
                     :
                     : "r"(dst), "w"(a), "w"(b), "w"(c), "w"(d)
                     : "memory");
}
/* Line by line: each line's four loads come before its pair stores. */
static XS_ALWAYS_INLINE void xs_vstore_lines_nt(void *dst, const void *src, int64_t n) {
    for (int64_t k = 0; k < n; k++) xs_vstore_line_nt((char *)dst + 64 * k, (const char *)src + 64 * k);
}
static XS_ALWAYS_INLINE void xs_vfence(void) { __asm__ volatile("dmb ishst" ::: "memory"); }
/* NEON has no load that leaves bytes outside a piece unread: the caller
 * stages every joined line. */
static XS_ALWAYS_INLINE int xs_vstore_line_joined_nt(void *dst, const void *a, int na,
                                                     const void *b) {
    (void)dst, (void)a, (void)na, (void)b;
    return 0;
}

#include "vec/kernels_vec_joined.h"

#endif
