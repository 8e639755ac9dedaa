/* The tiled block kernels at one CPU level, for int32 and int64 indices.
 *
 * Included once by each level's file (levels/kernels_<level>.c), with
 * XS_LEVEL (the level's name) defined, under that level's target pragma
 * (as kernels_impl.h is for the untiled kernels); the vector levels
 * include their kernels_vec_*.h first, and get the vector unravel of the
 * fast form and its vector ravel by dimension (XS_VL). The kernels are in
 * tiled_kernels_impl.h, included below once per index type (int32, int64)
 * and rank of XS_RANKS (XS_TILED_CASES, through base/each.h), so that the compiler unrolls the
 * loops over dimensions and terms and keeps the terms in registers; each
 * returns the first bad row of rows [start, stop), or -1. This file holds
 * what they share and the tables of them that driver/tiled_chunks.c picks
 * from.
 *
 * Ravel, by terms: offset = sum over terms of ((index[dim] >> shift) &
 * mask) * stride, one term per axis of the tiled array (axes of extent 1
 * add nothing and are left out), rows read a block at a time into columns
 * and each term one pass over a column. Ravel by dimension (t->d_shift
 * set, as under one power-of-two tile): one pass over the rows, two terms
 * per dimension. Unravel: the offset split by the axes' extents, most
 * minor first (a shift and a mask for a power of two, a division in
 * doubles otherwise), each digit shifted back into its dimension's index;
 * an index past its dimension lies in tile padding.
 */

/* Once per file: what every level's tiled kernels share. */
#ifndef XLASHAPE_TILED_KERNELS_SHARED
#define XLASHAPE_TILED_KERNELS_SHARED

#define XS_TILED_BLOCK 256  /* rows per block: a block's columns stay in L1 */
#define XS_TILED_SLOT_BLOCK 128  /* rows per block of the general form: 32 KiB of slots */

/* v // w for v < 2**52 and w >= 1, with v % w in *rem: a division in
 * doubles, exact below 2**52 and corrected by one either way, in the
 * untiled unravel kernel's form (integer selects and the u52 conversions of
 * kernels_common.h), so that it vectorises at every level. */
static inline uint64_t xs_tiled_div52(uint64_t v, uint64_t w, double inverse, uint64_t *rem) {
    int64_t q = (int64_t)xs_double_to_u52(xs_round52(xs_u52_to_double(v) * inverse));
    int64_t d = (int64_t)v - q * (int64_t)w;
    int64_t below = d >> 63;  /* -1: q one too big */
    q += below;
    d += (int64_t)w & below;
    int64_t above = -(int64_t)(d >= (int64_t)w);  /* -1: q one too small */
    q -= above;
    d -= (int64_t)w & above;
    *rem = (uint64_t)d;
    return (uint64_t)q;
}

/* One term (v >> shift) * coef more for a dimension's share, merged with a
 * term of the same shift; n: the terms so far (room for 2 * XS_TILED_EXTRA + 4). */
static inline int xs_tiled_add_term(uint64_t *shift, uint64_t *coef, int n, uint64_t s,
                                    uint64_t c) {
    for (int p = 0; p < n; p++)
        if (shift[p] == s) {
            coef[p] += c;
            return n;
        }
    shift[n] = s;
    coef[n] = c;
    return n + 1;
}

/* Dimension j's share of the offset under ravel by dimension (tiled.h's
 * d_ and e_ fields), for any v below its extent, as (v << *weight) plus
 * terms (v >> shift[p]) * coef[p], modulo 2**64: each within-tile digit
 * ((v >> s) & (2**k - 1)) << w is (v >> s) * 2**w - (v >> (s + k)) *
 * 2**(w + k), and the tile index is (v >> s) * stride. Terms of one shift
 * merge (a digit's top with the next digit's bottom); the factor of shift
 * 0 becomes the left shift where it is a power of two (a tiled dimension's
 * lowest digit), and is otherwise 1 plus a term; a term that is 0 below
 * the extent is left out. So T(8,128) takes a shift, a product and a
 * shift per element. Returns the count of terms, or -1 where they are
 * more than ``room``. */
static inline int xs_tiled_dim_terms(const xs_tiled *t, int j, int room, uint64_t *weight,
                                     uint64_t *shift, uint64_t *coef) {
    uint64_t s[2 * XS_TILED_EXTRA + 4], c[2 * XS_TILED_EXTRA + 4];
    int n = xs_tiled_add_term(s, c, 0, 0, 0);
    const uint64_t low = t->d_mask[j] + 1;  /* 2**k; 1 where there is no low digit */
    if (low > 1) {
        n = xs_tiled_add_term(s, c, n, 0, (uint64_t)1 << t->d_weight[j]);
        n = xs_tiled_add_term(s, c, n, (uint64_t)xs_ctz64(low),
                              0 - (low << t->d_weight[j]));
    }
    for (int e = 0; e < t->d_extra; e++) {
        if (t->e_dim[e] != j) continue;
        uint64_t size = t->e_mask[e] + 1;
        n = xs_tiled_add_term(s, c, n, (uint64_t)t->e_shift[e], (uint64_t)1 << t->e_weight[e]);
        n = xs_tiled_add_term(s, c, n, (uint64_t)t->e_shift[e] + (uint64_t)xs_ctz64(size),
                              0 - (size << t->e_weight[e]));
    }
    if (t->d_stride[j] != 0)
        n = xs_tiled_add_term(s, c, n, (uint64_t)t->d_shift[j], t->d_stride[j]);
    int pow2 = c[0] != 0 && (c[0] & (c[0] - 1)) == 0;
    *weight = pow2 ? (uint64_t)xs_ctz64(c[0]) : 0;
    c[0] -= (uint64_t)1 << *weight;
    int m = 0;
    for (int p = 0; p < n; p++) {
        if (c[p] == 0 || ((t->extent[j] - 1) >> s[p]) == 0) continue;
        if (m == room) return -1;
        shift[m] = s[p];
        coef[m++] = c[p];
    }
    return m;
}

/* The split form of the fast form's unravel, for the vector levels: where
 * the digits above the lowest ones whose extents are powers of two belong
 * to distinct dimensions (T(8,128) or T(8,128)(2,1) on sizes that are not
 * powers of two, say), the offset splits at bit ``bits``: the low digits
 * are shifts and masks, and the high part holds at most one digit of each
 * dimension, in mixed radix, as an untiled layout holds its indices. Slot
 * k is the k-th high digit, most minor first, then the dimensions without
 * one (of extent 1): its dimension, extent and weight (log2 of its
 * divisor), and the low digits of its dimension (count[k] of them, in
 * slot order: shift, mask and weight). */
typedef struct {
    int bits;
    int dim[XS_TILED_MAX_RANK], weight[XS_TILED_MAX_RANK], count[XS_TILED_MAX_RANK];
    uint64_t extent[XS_TILED_MAX_RANK];
    int shift[XS_TILED_MAX_TERMS], low_weight[XS_TILED_MAX_TERMS];
    uint64_t mask[XS_TILED_MAX_TERMS];
} xs_tiled_split;

/* Fill ``s`` for plan ``t``; 0 where the split form does not apply. */
static inline int xs_tiled_split_init(const xs_tiled *t, xs_tiled_split *s) {
    const int m = t->u_terms, r = t->rank;
    int low = 0, slots = 0, e = 0, taken[XS_TILED_MAX_RANK] = {0};
    s->bits = 0;
    for (; low < m && t->u_pow2[low]; low++) s->bits += t->u_shift[low];
    for (int k = low; k < m; k++, slots++) {
        if (taken[t->u_dim[k]]++) return 0;
        s->dim[slots] = t->u_dim[k];
        s->extent[slots] = t->u_radix[k].divisor;
        s->weight[slots] = t->u_weight[k];
    }
    for (int j = 0; j < r; j++)
        if (!taken[j]) {
            s->dim[slots] = j;
            s->extent[slots] = 1;
            s->weight[slots++] = 0;
        }
    for (int k = 0; k < r; k++) {
        s->count[k] = 0;
        for (int d = 0, shift = 0; d < low; shift += t->u_shift[d++]) {
            if (t->u_dim[d] != s->dim[k]) continue;
            s->shift[e] = shift;
            s->mask[e] = t->u_radix[d].divisor - 1;
            s->low_weight[e++] = t->u_weight[d];
            s->count[k]++;
        }
    }
    return 1;
}


#endif

#define XS_TCAT2_(a, b) a##b
#define XS_TCAT2(a, b) XS_TCAT2_(a, b)
#define XS_TCAT4_(a, b, c, d) a##_##b##_##c##_##d
#define XS_TCAT4(a, b, c, d) XS_TCAT4_(a, b, c, d)
#define XS_TFN(name, R, TN) XS_TCAT4(name, R, TN, XS_LEVEL)

#define XS_TLEVEL_(name, level) name##_##level
#define XS_TLEVEL(name, level) XS_TLEVEL_(name, level)
#define XS_TLFN(name) XS_TLEVEL(name, XS_LEVEL)

/* Rows b .. b+n-1 of an unravel's result (int64, any strides in bytes) from
 * columns col[j * col_step + r], one per dimension. */
static XS_ALWAYS_INLINE void XS_TLFN(xs_tiled_write)(const uint64_t *col, ptrdiff_t col_step,
                                                     const int R, char *out, ptrdiff_t step0,
                                                     ptrdiff_t step1, ptrdiff_t b, ptrdiff_t n) {
    if (step0 == R * (ptrdiff_t)sizeof(int64_t) && step1 == sizeof(int64_t)) {
        int64_t *restrict row = (int64_t *)out + b * R;  /* C-contiguous */
        for (ptrdiff_t r = 0; r < n; r++)
            for (int j = 0; j < R; j++) row[r * R + j] = (int64_t)col[j * col_step + r];
    } else {
        for (ptrdiff_t r = 0; r < n; r++) {
            char *row = out + (b + r) * step0;
            for (int j = 0; j < R; j++)
                *(int64_t *)(row + j * step1) = (int64_t)col[j * col_step + r];
        }
    }
}

#ifdef XS_VL
/* The R digits of n in mixed radix (digit k's extent: w[k], with rw[k] =
 * 1 / w[k] and hrw[k] = rw[k] / 2), most minor first; the last takes what
 * is left. */
static XS_ALWAYS_INLINE void XS_TLFN(xs_vradix)(xs_vd n, const xs_vd *rw, const xs_vd *hrw,
                                                const xs_vd *w, const int R, xs_vd *digit) {
    for (int k = 0; k < R - 1; k++) {
        xs_vd q = xs_vfloor_fma(n, rw[k], hrw[k]);
        digit[k] = xs_vfnmadd(q, w[k], n);
        n = q;
    }
    digit[R - 1] = n;
}

/* The forms of the vector unravel, one loop each (xs_tiled_vblocks). */
enum { XS_VFORM_SIMPLE, XS_VFORM_BITS, XS_VFORM_SPLIT };

/* Vector j of a lane pattern for XS_VL rows of R elements read as they lie
 * in memory: lane l holds by_dim[d], d the dimension of the element that
 * lands there. */
static inline xs_vi XS_TLFN(xs_vpattern)(const uint64_t *by_dim, const int R, int j) {
    int64_t lanes[XS_VL];
    for (int l = 0; l < XS_VL; l++) lanes[l] = (int64_t)by_dim[(XS_VL * j + l) % R];
    return xs_vload_i64(lanes);
}
#endif

/* The general form, a block of rows at a time (any tiling with at most
 * XS_TILED_BLOCK_SLOTS slots and a buffer under 2**52 elements): each
 * operation of the plan is one pass over the block's slot columns, shifts
 * and masks for powers of two and the double division of xs_tiled_div52
 * otherwise. A block with a bad row is scanned again with the row steps of
 * tiled.h, which name the first bad row. */

typedef uint64_t XS_TLFN(xs_slot_block)[XS_TILED_SLOT_BLOCK];

/* target = source // d, with the remainder in inner (target may be source). */
static XS_ALWAYS_INLINE void XS_TLFN(xs_tiled_split)(const uint64_t *source,
                                                     uint64_t *target,
                                                     uint64_t *restrict inner,
                                                     const xs_divisor *d, int shift,
                                                     ptrdiff_t n) {
    if (shift >= 0) {
        uint64_t mask = d->divisor - 1;
        for (ptrdiff_t r = 0; r < n; r++) {
            inner[r] = source[r] & mask;
            target[r] = source[r] >> shift;
        }
    } else {
        const uint64_t w = d->divisor;
        const double inverse = 1.0 / (double)w;
        for (ptrdiff_t r = 0; r < n; r++) target[r] = xs_tiled_div52(source[r], w, inverse, &inner[r]);
    }
}

/* Add the final slots' shares into out[0, n), which holds those of the
 * dimensions' slots: each operation's targets are added as it writes them. */
static void XS_TLFN(xs_tiled_forward)(const xs_tiled *t, XS_TLFN(xs_slot_block) *slot,
                                      int64_t *restrict out, ptrdiff_t n) {
    for (int k = 0; k < t->n_ops; k++) {
        const xs_tile_op *op = &t->op[k];
        uint64_t *restrict target = slot[op->target];
        uint64_t stride = t->slot_stride[op->target];
        if (op->kind == XS_OP_TILE) {
            uint64_t *restrict inner = slot[op->inner];
            uint64_t inner_stride = t->slot_stride[op->inner];
            XS_TLFN(xs_tiled_split)(slot[op->source], target, inner, &op->div, op->shift, n);
            if (stride | inner_stride)
                for (ptrdiff_t r = 0; r < n; r++)
                    out[r] += (int64_t)(target[r] * stride + inner[r] * inner_stride);
        } else if (op->kind == XS_OP_COMBINE) {
            const uint64_t *restrict a = slot[op->source], *restrict b = slot[op->minor];
            uint64_t e = op->div.divisor;
            for (ptrdiff_t r = 0; r < n; r++) target[r] = a[r] * e + b[r];
            if (stride)
                for (ptrdiff_t r = 0; r < n; r++) out[r] += (int64_t)(target[r] * stride);
        } else {
            for (ptrdiff_t r = 0; r < n; r++) target[r] = 0;
        }
    }
}

/* The slots of offsets rest[0, n) (each below the buffer's size); nonzero
 * when one lands on tile padding. */
static uint64_t XS_TLFN(xs_tiled_backward)(const xs_tiled *t, XS_TLFN(xs_slot_block) *slot,
                                           uint64_t *restrict rest, ptrdiff_t n) {
    uint64_t bad = 0;
    for (int j = t->n_final - 1; j > 0; j--) {
        uint64_t *restrict digit = slot[t->final[j]];
        XS_TLFN(xs_tiled_split)(rest, rest, digit, &t->final_extent[j], t->final_shift[j], n);
    }
    if (t->n_final > 0)
        for (ptrdiff_t r = 0; r < n; r++) slot[t->final[0]][r] = rest[r];
    for (int k = t->n_ops - 1; k >= 0; k--) {
        const xs_tile_op *op = &t->op[k];
        uint64_t *restrict target = slot[op->target];
        if (op->kind == XS_OP_TILE) {
            uint64_t *restrict source = slot[op->source];
            const uint64_t *restrict inner = slot[op->inner];
            uint64_t size = op->div.divisor, extent = op->extent;
            for (ptrdiff_t r = 0; r < n; r++) {
                source[r] = target[r] * size + inner[r];
                bad |= source[r] >= extent;
            }
        } else if (op->kind == XS_OP_COMBINE) {
            XS_TLFN(xs_tiled_split)(target, slot[op->source], slot[op->minor], &op->div,
                                    op->shift, n);
        } else {
            for (ptrdiff_t r = 0; r < n; r++) bad |= target[r];
        }
    }
    return bad;
}

/* The kernels of each index type and rank: the list of the pairs, each
 * entry X(T, TN, U, R) with the C type, its short name, its unsigned twin
 * (tiled_kernels_dims.h checks 32-bit indices in 32 bits) and the rank. */
#define XS_TILED_I32_AT(R, X) X(int32_t, i32, uint32_t, R)
#define XS_TILED_I64_AT(R, X) X(int64_t, i64, uint64_t, R)
#define XS_TILED_CASES(X) XS_RANKS_WITH(XS_TILED_I32_AT, X) XS_RANKS_WITH(XS_TILED_I64_AT, X)
#define XS_TILED_CASE_T(T, TN, U, R) T
#define XS_TILED_CASE_TN(T, TN, U, R) TN
#define XS_TILED_CASE_U(T, TN, U, R) U
#define XS_TILED_CASE_R(T, TN, U, R) R
#define XS_EACH_LIST XS_TILED_CASES
#define XS_EACH_FILE "tiled/tiled_kernels_impl.h"
#include "base/each.h"

/* The tables, each kernel by rank. The vector levels ravel by dimension
 * and unravel the fast form in vector registers. int32 rows of a buffer
 * under 2**31 elements ravel fastest in 32-bit lanes, as the compiler
 * vectorises the row kernel; int64 rows, in registers at the vector levels
 * (measured: 10**4 rows of f32[101,37,23,13] under T(8,128) at AVX-512). */
#define XS_TILED_SPLIT(name, TN) name, TN
#define XS_TILED_AT__(R, name, TN) [R] = XS_TFN(name, R, TN),
#define XS_TILED_AT_(...) XS_TILED_AT__(__VA_ARGS__)
#define XS_TILED_AT(R, name_tn) XS_TILED_AT_(R, XS_TILED_SPLIT name_tn)
#define XS_TILED_BY_RANK(name, TN) {XS_RANKS_WITH(XS_TILED_AT, (name, TN))}
#ifdef XS_VL
#define XS_TILED_DIMS(E) xs_tiled_vravel_dims##E
#define XS_TILED_DIMS32_I64(E) xs_tiled_vravel_dims##E
#define XS_TILED_UNRAVEL xs_tiled_vunravel
#else
#define XS_TILED_DIMS(E) xs_tiled_ravel_dims##E
#define XS_TILED_DIMS32_I64(E) xs_tiled_ravel_dims32_##E
#define XS_TILED_UNRAVEL xs_tiled_unravel
#endif

const xs_tiled_kernels XS_TLFN(xs_tiled_kernels_i32) = {
    XS_TILED_BY_RANK(xs_tiled_ravel, i32),
    {XS_TILED_BY_RANK(XS_TILED_DIMS(0), i32), XS_TILED_BY_RANK(XS_TILED_DIMS(1), i32),
     XS_TILED_BY_RANK(XS_TILED_DIMS(2), i32)},
    {XS_TILED_BY_RANK(xs_tiled_ravel_dims32_0, i32), XS_TILED_BY_RANK(xs_tiled_ravel_dims32_1, i32),
     XS_TILED_BY_RANK(xs_tiled_ravel_dims32_2, i32)},
    XS_TILED_BY_RANK(XS_TILED_UNRAVEL, i32),
    XS_TILED_BY_RANK(xs_tiled_ravel_slots, i32),
    XS_TILED_BY_RANK(xs_tiled_unravel_slots, i32),
};
const xs_tiled_kernels XS_TLFN(xs_tiled_kernels_i64) = {
    XS_TILED_BY_RANK(xs_tiled_ravel, i64),
    {XS_TILED_BY_RANK(XS_TILED_DIMS(0), i64), XS_TILED_BY_RANK(XS_TILED_DIMS(1), i64),
     XS_TILED_BY_RANK(XS_TILED_DIMS(2), i64)},
    {XS_TILED_BY_RANK(XS_TILED_DIMS32_I64(0), i64), XS_TILED_BY_RANK(XS_TILED_DIMS32_I64(1), i64),
     XS_TILED_BY_RANK(XS_TILED_DIMS32_I64(2), i64)},
    XS_TILED_BY_RANK(XS_TILED_UNRAVEL, i64),
    XS_TILED_BY_RANK(xs_tiled_ravel_slots, i64),
    XS_TILED_BY_RANK(xs_tiled_unravel_slots, i64),
};

#undef XS_TILED_BY_RANK
#undef XS_TILED_AT
#undef XS_TILED_AT_
#undef XS_TILED_AT__
#undef XS_TILED_SPLIT
#undef XS_TILED_I32_AT
#undef XS_TILED_I64_AT
#undef XS_TILED_CASES
#undef XS_TILED_CASE_T
#undef XS_TILED_CASE_TN
#undef XS_TILED_CASE_U
#undef XS_TILED_CASE_R
#undef XS_TILED_DIMS
#undef XS_TILED_DIMS32_I64
#undef XS_TILED_UNRAVEL
