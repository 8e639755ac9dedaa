/* The tiled block kernels at one CPU level, for int32 and int64 indices.
 *
 * Included once by tiled.c (baseline), kernels_avx2.c and kernels_avx512.c,
 * with XS_LEVEL (the level's name) defined, under that level's target
 * pragma (as kernels_impl.h is for the untiled kernels); the vector levels
 * include their kernels_vec_*.h first, and get the vector unravel of the
 * fast form and its vector ravel by dimension (XS_VL). Each
 * kernel is written per rank R, so that the compiler unrolls the loops
 * over dimensions and terms and keeps the terms in registers; each returns
 * the first bad row of rows [start, stop), or -1.
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
        n = xs_tiled_add_term(s, c, n, (uint64_t)__builtin_ctzll(low),
                              0 - (low << t->d_weight[j]));
    }
    for (int e = 0; e < t->d_extra; e++) {
        if (t->e_dim[e] != j) continue;
        uint64_t size = t->e_mask[e] + 1;
        n = xs_tiled_add_term(s, c, n, (uint64_t)t->e_shift[e], (uint64_t)1 << t->e_weight[e]);
        n = xs_tiled_add_term(s, c, n, (uint64_t)t->e_shift[e] + (uint64_t)__builtin_ctzll(size),
                              0 - (size << t->e_weight[e]));
    }
    if (t->d_stride[j] != 0)
        n = xs_tiled_add_term(s, c, n, (uint64_t)t->d_shift[j], t->d_stride[j]);
    int pow2 = c[0] != 0 && (c[0] & (c[0] - 1)) == 0;
    *weight = pow2 ? (uint64_t)__builtin_ctzll(c[0]) : 0;
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

#define XS_TILED_RAVEL(R, T, TN)                                                           \
static ptrdiff_t XS_TFN(xs_tiled_ravel, R, TN)(const xs_tiled *t, const void *data,     \
                                           int64_t *out, ptrdiff_t start,           \
                                           ptrdiff_t stop) {                        \
    const T *rows = (const T *)data;                                          \
    uint64_t col[R][XS_TILED_BLOCK], extent[R];                                     \
    for (int j = 0; j < R; j++) extent[j] = t->extent[j];                           \
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_BLOCK) {                      \
        ptrdiff_t n = stop - b < XS_TILED_BLOCK ? stop - b : XS_TILED_BLOCK;        \
        const T *p = rows + b * R;                                               \
        uint64_t bad = 0;                                                           \
        for (ptrdiff_t r = 0; r < n; r++)                                           \
            for (int j = 0; j < R; j++) {                                           \
                col[j][r] = (uint64_t)p[r * R + j];  /* a negative becomes huge */  \
                bad |= col[j][r] >= extent[j];                                      \
            }                                                                       \
        if (bad) {                                                                  \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                for (int j = 0; j < R; j++)                                         \
                    if (col[j][r] >= extent[j]) return b + r;                       \
        }                                                                           \
        int64_t *o = out + b;                                                       \
        {                                                                           \
            const uint64_t *c = col[t->dim[0]];                                     \
            int shift = t->shift[0];                                                \
            uint64_t mask = t->mask[0], stride = t->stride[0];                      \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                o[r] = (int64_t)(((c[r] >> shift) & mask) * stride);                \
        }                                                                           \
        for (int k = 1; k < t->n_terms; k++) {                                      \
            const uint64_t *c = col[t->dim[k]];                                     \
            int shift = t->shift[k];                                                \
            uint64_t mask = t->mask[k], stride = t->stride[k];                      \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                o[r] += (int64_t)(((c[r] >> shift) & mask) * stride);               \
        }                                                                           \
    }                                                                               \
    return -1;                                                                      \
}

#define XS_TILED_RAVEL_DIMS(R, T, TN, E, W, A, NAME)                                \
static ptrdiff_t XS_TFN(NAME##E, R, TN)(const xs_tiled *t,           \
                                                       const void *data,            \
                                                       int64_t *restrict out,       \
                                                       ptrdiff_t start, ptrdiff_t stop) { \
    const T *restrict rows = (const T *)data;                                       \
    W extent[R], bad = 0;                                                           \
    A stride[R], mask[R], emask[E + 1];                  \
    int shift[R], weight[R], edim[E + 1], eshift[E + 1], eweight[E + 1];            \
    for (int j = 0; j < R; j++) {                                                   \
        extent[j] = t->extent[j];                                                   \
        shift[j] = t->d_shift[j];                                                   \
        stride[j] = t->d_stride[j];                                                 \
        mask[j] = t->d_mask[j];                                                     \
        weight[j] = t->d_weight[j];                                                 \
    }                                                                               \
    for (int e = 0; e < E; e++) {                                                   \
        edim[e] = t->e_dim[e];                                                      \
        eshift[e] = t->e_shift[e];                                                  \
        emask[e] = t->e_mask[e];                                                    \
        eweight[e] = t->e_weight[e];                                                \
    }                                                                               \
    for (ptrdiff_t i = start; i < stop; i++) {                                      \
        A acc = 0;                                                                  \
        for (int j = 0; j < R; j++) {                                               \
            W wide = (W)rows[i * R + j];  /* a negative becomes huge */             \
            bad |= wide >= extent[j];                                               \
            A v = (A)wide;                                                          \
            acc += (v >> shift[j]) * stride[j] + ((v & mask[j]) << weight[j]);      \
        }                                                                           \
        for (int e = 0; e < E; e++)                                                 \
            acc += (((A)rows[i * R + edim[e]] >> eshift[e]) & emask[e]) << eweight[e];   \
        out[i] = (int64_t)acc;                                                      \
    }                                                                               \
    if (bad) {                                                                      \
        for (ptrdiff_t i = start; i < stop; i++)                                    \
            for (int j = 0; j < R; j++)                                             \
                if ((W)rows[i * R + j] >= extent[j]) return i;                      \
    }                                                                               \
    return -1;                                                                      \
}

#define XS_TILED_UNRAVEL(R, T, TN)                                                  \
static ptrdiff_t XS_TFN(xs_tiled_unravel, R, TN)(const xs_tiled *t, const void *data, \
                                                 char *out, ptrdiff_t step0,        \
                                                 ptrdiff_t step1, ptrdiff_t start,  \
                                                 ptrdiff_t stop) {                  \
    const T *linear = (const T *)data;                                              \
    uint64_t rest[XS_TILED_BLOCK], value[R][XS_TILED_BLOCK];                        \
    const int m = t->u_terms;                                                       \
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_BLOCK) {                      \
        ptrdiff_t n = stop - b < XS_TILED_BLOCK ? stop - b : XS_TILED_BLOCK;        \
        uint64_t bad = 0;                                                           \
        for (ptrdiff_t r = 0; r < n; r++) {                                         \
            rest[r] = (uint64_t)linear[b + r];                                      \
            bad |= rest[r] >= t->size;                                              \
        }                                                                           \
        if (bad) {  /* an earlier row of the block may land on padding */          \
            uint64_t scratch[XS_TILED_MAX_SLOTS];                                   \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                if (!xs_tiled_position(t, rest[r], scratch)) return b + r;          \
        }                                                                           \
        for (int j = 0; j < R; j++)                                                 \
            for (ptrdiff_t r = 0; r < n; r++) value[j][r] = 0;                      \
        for (int k = 0; k < m - 1; k++) {                                           \
            uint64_t *v = value[t->u_dim[k]];                                       \
            int weight = t->u_weight[k];                                            \
            uint64_t extent = t->u_radix[k].divisor;                                \
            if (t->u_pow2[k]) {                                                     \
                int shift = t->u_shift[k];                                          \
                for (ptrdiff_t r = 0; r < n; r++) {                                 \
                    v[r] += (rest[r] & (extent - 1)) << weight;                     \
                    rest[r] >>= shift;                                              \
                }                                                                   \
            } else {                                                                \
                const double inverse = 1.0 / (double)extent;                        \
                for (ptrdiff_t r = 0; r < n; r++) {                                 \
                    uint64_t d;                                                     \
                    rest[r] = xs_tiled_div52(rest[r], extent, inverse, &d);         \
                    v[r] += d << weight;                                            \
                }                                                                   \
            }                                                                       \
        }                                                                           \
        {                                                                           \
            uint64_t *v = value[t->u_dim[m - 1]];                                   \
            int weight = t->u_weight[m - 1];                                        \
            for (ptrdiff_t r = 0; r < n; r++) v[r] += rest[r] << weight;            \
        }                                                                           \
        for (int j = 0; j < R; j++) {                                               \
            uint64_t extent = t->extent[j];                                         \
            for (ptrdiff_t r = 0; r < n; r++) bad |= value[j][r] >= extent;         \
        }                                                                           \
        if (bad) {                                                                  \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                for (int j = 0; j < R; j++)                                         \
                    if (value[j][r] >= t->extent[j]) return b + r;                  \
        }                                                                           \
        XS_TLFN(xs_tiled_write)(value[0], XS_TILED_BLOCK, R, out, step0, step1, b, n); \
    }                                                                               \
    return -1;                                                                      \
}

#ifdef XS_VL
/* The fast form's unravel at a vector level, XS_VL rows at a time in
 * registers (in the untiled vector kernel's form, kernels_impl.h), in one
 * of three forms: the digits by dimension (t->b_count), each a shift and a
 * mask; simple (t->u_simple: one digit per dimension, as under a padded
 * layout), each digit by the division of kernels_common.h with no
 * correction step (the buffer holds at most XS_FLOOR_DIV_LIMIT elements);
 * and split (xs_tiled_split), shifts and masks for the low digits and that
 * division for the high part. Every fast form has one of them: its
 * within-tile digits are powers of two, below every tile index.
 * Rows go straight to a C-contiguous result of a rank the level transposes
 * and through xs_tiled_write otherwise; a block with a bad row is scanned
 * again with the row step, and the last rows take the block kernel. */
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

#define XS_TILED_VUNRAVEL(R, T, TN)                                                 \
typedef struct {                                                                    \
    xs_vd rw[R], hrw[R], w[R], ext[R];  /* simple and split: the divisions */       \
    /* bits and split: each slot's (low) digits, the slot's extent, and its high */ \
    /* digit's weight (split); slot k holds dimension slot_dim[k] */               \
    xs_vi bshift[R][XS_TILED_MAX_TERMS], bmask[R][XS_TILED_MAX_TERMS];              \
    xs_vi bweight[R][XS_TILED_MAX_TERMS], iext[R], hweight[R], split;               \
    int count[R], slot_dim[R], direct;                                              \
    xs_vrows rows;                                                                  \
} XS_TFN(xs_tiled_vctx, R, TN);                                                     \
                                                                                    \
static XS_ALWAYS_INLINE ptrdiff_t XS_TFN(xs_tiled_vblocks, R, TN)(                  \
        const xs_tiled *t, const XS_TFN(xs_tiled_vctx, R, TN) *c, const T *linear,  \
        char *out, ptrdiff_t step0, ptrdiff_t step1, ptrdiff_t start, ptrdiff_t vstop, \
        const int form) {                                                           \
    int64_t pos[R][XS_TILED_BLOCK];  /* unused when direct */                       \
    xs_vstream s;  /* direct: the rows */                                           \
    xs_vstream_begin(&s, (int64_t *)out + start * R, XS_STORE_PLAIN);               \
    for (ptrdiff_t b = start; b < vstop; b += XS_TILED_BLOCK) {                     \
        ptrdiff_t nb = vstop - b < XS_TILED_BLOCK ? vstop - b : XS_TILED_BLOCK;     \
        xs_vok ok = xs_vok_all();                                                   \
        for (ptrdiff_t i = 0; i < nb; i += XS_VL) {                                 \
            xs_vi col[R];                                                           \
            if (form == XS_VFORM_BITS || form == XS_VFORM_SPLIT) {                  \
                /* col[j]: an OR of slot j's digits */                              \
                xs_vi n = XS_TCAT4_(xs, vload, ioffsets, TN)(linear + b + i, t->size, &ok);\
                xs_vd high[R];                                                      \
                if (form == XS_VFORM_SPLIT)                                         \
                    XS_TLFN(xs_vradix)(xs_vi_to_vd(xs_vshr(n, c->split)), c->rw, c->hrw, c->w, R, high); \
                XS_UNROLL_DIMS                                                      \
                for (int j = 0; j < R; j++) {                                       \
                    xs_vi v = form == XS_VFORM_SPLIT                                \
                        ? xs_vshl(xs_vd_to_vi(high[j]), c->hweight[j]) : xs_vi_set(0); \
                    for (int e = 0; e < c->count[j]; e++)                           \
                        v = xs_vdigit(v, n, c->bshift[j][e], c->bmask[j][e], c->bweight[j][e]); \
                    ok = xs_vok_below_i(ok, v, c->iext[j]);                         \
                    col[j] = v;                                                     \
                }                                                                   \
            } else {                                                                \
                xs_vd n = XS_TCAT4_(xs, vload, offsets, TN)(linear + b + i, t->size, &ok); \
                xs_vd value[R];                                                     \
                XS_TLFN(xs_vradix)(n, c->rw, c->hrw, c->w, R, value);  /* digit k */ \
                for (int j = 0; j < R; j++) {                                       \
                    ok = xs_vok_below(ok, value[j], c->ext[j]);                     \
                    col[j] = xs_vd_to_vi(value[j]);                                 \
                }                                                                   \
            }                                                                       \
            if (XS_VROWS(R) && c->direct)  /* (direct only there) */                \
                xs_vstore_rows(&s, col, R, &c->rows);                               \
            else                                                                    \
                for (int j = 0; j < R; j++) xs_vstore(pos[c->slot_dim[j]] + i, col[j]); \
        }                                                                           \
        if (xs_vok_bad(ok)) {                                                       \
            uint64_t scratch[XS_TILED_MAX_SLOTS];                                   \
            for (ptrdiff_t r = 0; r < nb; r++)                                      \
                if (!xs_tiled_position(t, (uint64_t)linear[b + r], scratch)) return b + r; \
        }                                                                           \
        if (!c->direct)                                                             \
            XS_TLFN(xs_tiled_write)((const uint64_t *)pos[0], XS_TILED_BLOCK, R, out, step0, \
                                    step1, b, nb);                                  \
    }                                                                               \
    xs_vstream_end(&s);                                                             \
    return -1;                                                                      \
}                                                                                   \
                                                                                    \
static ptrdiff_t XS_TFN(xs_tiled_vunravel, R, TN)(const xs_tiled *t, const void *data, \
                                                  char *out, ptrdiff_t step0,       \
                                                  ptrdiff_t step1, ptrdiff_t start, \
                                                  ptrdiff_t stop) {                 \
    const T *linear = (const T *)data;                                              \
    if (t->size > XS_FLOOR_DIV_LIMIT)                                               \
        return XS_TFN(xs_tiled_unravel, R, TN)(t, data, out, step0, step1, start, stop); \
    xs_tiled_split sp = {0};                                                        \
    const int form = t->b_count != NULL ? XS_VFORM_BITS                             \
                   : t->u_simple ? XS_VFORM_SIMPLE                                  \
                   : xs_tiled_split_init(t, &sp) ? XS_VFORM_SPLIT : -1;             \
    if (form < 0)  /* (no fast form comes here: see above) */                       \
        return XS_TFN(xs_tiled_unravel, R, TN)(t, data, out, step0, step1, start, stop); \
    XS_TFN(xs_tiled_vctx, R, TN) c;                                                 \
    const int bits = form == XS_VFORM_BITS, split = form == XS_VFORM_SPLIT;        \
    int position[R];  /* the slot of each dimension */                              \
    c.split = xs_vi_set((uint64_t)sp.bits);                                         \
    for (int k = 0, e = 0; (bits || split) && k < R; k++)                           \
        for (int d = 0; d < (bits ? t->b_count[k] : sp.count[k]); d++, e++) {      \
            c.bshift[k][d] = xs_vi_set((uint64_t)(split ? sp.shift[e] : t->b_shift[e])); \
            c.bmask[k][d] = xs_vi_set(split ? sp.mask[e] : t->b_mask[e]);           \
            c.bweight[k][d] = xs_vi_set((uint64_t)(split ? sp.low_weight[e] : t->b_weight[e])); \
        }                                                                           \
    for (int k = 0; k < R; k++) {                                                   \
        c.count[k] = bits ? t->b_count[k] : split ? sp.count[k] : 0;                \
        c.hweight[k] = xs_vi_set((uint64_t)sp.weight[k]);                           \
        int d = c.slot_dim[k] = split ? sp.dim[k] : form == XS_VFORM_SIMPLE ? t->u_dim[k] : k; \
        c.iext[k] = xs_vi_set(t->extent[d]);                                        \
        c.ext[k] = xs_vd_set((double)t->extent[d]);                                 \
        position[d] = k;                                                            \
        if (split || form == XS_VFORM_SIMPLE) {  /* (split: the high part's) */    \
            double extent = (double)(split ? sp.extent[k] : t->u_radix[k].divisor); \
            c.rw[k] = xs_vd_set(1.0 / extent);                                      \
            c.hrw[k] = xs_vd_set(0.5 / extent);                                     \
            c.w[k] = xs_vd_set(extent);                                             \
        }                                                                           \
    }                                                                               \
    c.direct = XS_VROWS(R) && step0 == R * (ptrdiff_t)sizeof(int64_t) &&           \
               step1 == sizeof(int64_t);                                            \
    xs_vrows_init(&c.rows, R, position);                                            \
    const ptrdiff_t vstop = stop - (stop - start) % XS_VL;                          \
    ptrdiff_t bad;                                                                  \
    switch (form) {                                                                 \
    case XS_VFORM_BITS:                                                             \
        bad = XS_TFN(xs_tiled_vblocks, R, TN)(t, &c, linear, out, step0, step1, start, vstop, XS_VFORM_BITS); \
        break;                                                                      \
    case XS_VFORM_SPLIT:                                                            \
        bad = XS_TFN(xs_tiled_vblocks, R, TN)(t, &c, linear, out, step0, step1, start, vstop, XS_VFORM_SPLIT); \
        break;                                                                      \
    default:                                                                        \
        bad = XS_TFN(xs_tiled_vblocks, R, TN)(t, &c, linear, out, step0, step1, start, vstop, XS_VFORM_SIMPLE); \
    }                                                                               \
    if (bad >= 0) return bad;                                                       \
    return XS_TFN(xs_tiled_unravel, R, TN)(t, data, out, step0, step1, vstop, stop); \
}
#define XS_TILED_UNRAVEL_ENTRY xs_tiled_vunravel

/* Vector j of a lane pattern for XS_VL rows of R elements read as they lie
 * in memory: lane l holds by_dim[d], d the dimension of the element that
 * lands there. */
static inline xs_vi XS_TLFN(xs_vpattern)(const uint64_t *by_dim, const int R, int j) {
    int64_t lanes[XS_VL];
    for (int l = 0; l < XS_VL; l++) lanes[l] = (int64_t)by_dim[(XS_VL * j + l) % R];
    return xs_vload_i64(lanes);
}

/* Ravel by dimension at a vector level, for the ranks whose rows the level
 * reads a vector at a time (XS_VRAVEL): XS_VL rows as they lie in memory,
 * each element checked against its extent and turned in place into its
 * share of the offset, the sum of its dimension's terms of
 * xs_tiled_dim_terms, and each row's shares summed as the untiled vector
 * ravel sums them (kernels_vec_*.h). A term is a lane pattern of shifts and
 * one of factors (the dimension of each lane's element picks its own); P
 * patterns serve every vector, one where XS_VL is a multiple of R. A bad
 * row sends the rows read so far to the row kernel, which names it; the
 * last rows take it too. */
/* The row kernel by dimension for the rows the vector one leaves (other
 * ranks, the last rows, a block with a bad row): in 32-bit arithmetic for
 * a buffer of at most 2**31 elements, as the table has it at the baseline. */
#define XS_TILED_ROW_DIMS(E, R, TN, t)                                              \
    ((t)->size <= ((uint64_t)1 << 31) ? XS_TFN(xs_tiled_ravel_dims32_##E, R, TN)    \
                                      : XS_TFN(xs_tiled_ravel_dims##E, R, TN))
#define XS_TILED_VRAVEL_DIMS(R, T, TN, E)                                           \
enum { XS_TFN(xs_tiled_vpatterns##E, R, TN) = XS_VL % R == 0 ? 1 : R };            \
static XS_ALWAYS_INLINE xs_vok XS_TFN(xs_tiled_vravel_loop##E, R, TN)(              \
        const T *restrict rows, int64_t *restrict out, ptrdiff_t start, ptrdiff_t stop, \
        const xs_vravel *base, xs_vi (*vshift)[XS_TFN(xs_tiled_vpatterns##E, R, TN)], \
        xs_vi (*vcoef)[XS_TFN(xs_tiled_vpatterns##E, R, TN)], const int narrow) {  \
    enum { P = XS_TFN(xs_tiled_vpatterns##E, R, TN), M = E + 2 };                   \
    xs_vok ok = xs_vok_all();                                                       \
    xs_vstream s;                                                                   \
    xs_vstream_begin(&s, out + start, XS_STORE_PLAIN);                              \
    for (ptrdiff_t i = start; i < stop; i += XS_VL) {                               \
        xs_vi v[R];                                                                 \
        for (int j = 0; j < R; j++) v[j] = XS_TCAT2(xs_vload_, TN)(rows + i * R + j * XS_VL); \
        xs_vravel_check(v, R, base, &ok);                                           \
        for (int j = 0; j < R; j++) {                                               \
            const int k = j % P;                                                    \
            xs_vi share = xs_vshl(v[j], vshift[0][k]);                              \
            for (int p = 1; p < M; p++)                                             \
                share = xs_vadd(share, xs_vmul(xs_vshr(v[j], vshift[p][k]), vcoef[p][k], narrow)); \
            v[j] = share;                                                           \
        }                                                                           \
        xs_vstream_put(&s, xs_vravel_rowsum(v, R, base));                           \
    }                                                                               \
    xs_vstream_end(&s);                                                             \
    return ok;                                                                      \
}                                                                                   \
                                                                                    \
static ptrdiff_t XS_TFN(xs_tiled_vravel_dims##E, R, TN)(const xs_tiled *t,          \
                                                        const void *data,           \
                                                        int64_t *restrict out,      \
                                                        ptrdiff_t start, ptrdiff_t stop) { \
    enum { P = XS_TFN(xs_tiled_vpatterns##E, R, TN), M = E + 2 };  /* M: 1 + terms */ \
    if (!XS_VRAVEL(R)) return XS_TILED_ROW_DIMS(E, R, TN, t)(t, data, out, start, stop); \
    uint64_t shift[M][R], coef[M][R];  /* shift[0]: the left shift; [1, M): terms */ \
    int narrow = 1;  /* factors and extents fit 32 bits */                          \
    for (int j = 0; j < R; j++) {                                                   \
        uint64_t s[M - 1], c[M - 1];                                                \
        int n = xs_tiled_dim_terms(t, j, M - 1, &shift[0][j], s, c);                \
        if (n < 0) return XS_TILED_ROW_DIMS(E, R, TN, t)(t, data, out, start, stop); \
        narrow &= t->extent[j] <= ((uint64_t)1 << 32);                              \
        for (int p = 1; p < M; p++) {                                               \
            shift[p][j] = p <= n ? s[p - 1] : 0;                                    \
            coef[p][j] = p <= n ? c[p - 1] : 0;                                     \
            narrow &= coef[p][j] < ((uint64_t)1 << 32);                             \
        }                                                                           \
    }                                                                               \
    xs_vravel base;  /* the extents' patterns, and the row sums */                  \
    xs_vravel_init(&base, R, t->extent, t->d_stride);                               \
    xs_vi vshift[M][P], vcoef[M][P];  /* (vcoef[0] unused) */                     \
    for (int p = 0; p < M; p++)                                                     \
        for (int k = 0; k < P; k++) {                                               \
            vshift[p][k] = XS_TLFN(xs_vpattern)(shift[p], R, k);                    \
            if (p > 0) vcoef[p][k] = XS_TLFN(xs_vpattern)(coef[p], R, k);           \
        }                                                                           \
    const T *rows = (const T *)data;                                                \
    const ptrdiff_t vstop = stop - (stop - start) % XS_VL;                          \
    xs_vok ok = narrow                                                              \
        ? XS_TFN(xs_tiled_vravel_loop##E, R, TN)(rows, out, start, vstop, &base, vshift, vcoef, 1) \
        : XS_TFN(xs_tiled_vravel_loop##E, R, TN)(rows, out, start, vstop, &base, vshift, vcoef, 0); \
    if (xs_vok_bad(ok)) return XS_TILED_ROW_DIMS(E, R, TN, t)(t, data, out, start, vstop); \
    return XS_TILED_ROW_DIMS(E, R, TN, t)(t, data, out, vstop, stop);        \
}
#define XS_TILED_VRAVEL(R, T, TN)                                                   \
    XS_TILED_VRAVEL_DIMS(R, T, TN, 0) XS_TILED_VRAVEL_DIMS(R, T, TN, 1)             \
    XS_TILED_VRAVEL_DIMS(R, T, TN, 2)
#define XS_TILED_DIMS_ENTRY xs_tiled_vravel_dims
#define XS_TILED_DIMS32_ENTRY xs_tiled_vravel_dims  /* int64 */
#else
#define XS_TILED_VUNRAVEL(R, T, TN)
#define XS_TILED_UNRAVEL_ENTRY xs_tiled_unravel
#define XS_TILED_VRAVEL(R, T, TN)
#define XS_TILED_DIMS_ENTRY xs_tiled_ravel_dims
#define XS_TILED_DIMS32_ENTRY xs_tiled_ravel_dims32_
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

#define XS_TILED_SLOTS(R, T, TN)                                                    \
static ptrdiff_t XS_TFN(xs_tiled_ravel_slots, R, TN)(const xs_tiled *t,             \
                                                     const void *data, int64_t *out, \
                                                     ptrdiff_t start, ptrdiff_t stop) { \
    const T *rows = (const T *)data;                                                \
    XS_TLFN(xs_slot_block) slot[XS_TILED_BLOCK_SLOTS];                              \
    uint64_t extent[R], stride[R];                                                  \
    for (int j = 0; j < R; j++) {                                                   \
        extent[j] = t->extent[j];                                                   \
        stride[j] = t->slot_stride[j];                                              \
    }                                                                               \
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_SLOT_BLOCK) {                 \
        ptrdiff_t n = stop - b < XS_TILED_SLOT_BLOCK ? stop - b : XS_TILED_SLOT_BLOCK; \
        const T *p = rows + b * R;                                                  \
        uint64_t bad = 0;                                                           \
        for (ptrdiff_t r = 0; r < n; r++) {                                         \
            uint64_t acc = 0;                                                       \
            for (int j = 0; j < R; j++) {                                           \
                slot[j][r] = (uint64_t)p[r * R + j];  /* a negative becomes huge */ \
                bad |= slot[j][r] >= extent[j];                                     \
                acc += slot[j][r] * stride[j];                                      \
            }                                                                       \
            out[b + r] = (int64_t)acc;                                              \
        }                                                                           \
        if (bad) {                                                                  \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                for (int j = 0; j < R; j++)                                         \
                    if (slot[j][r] >= extent[j]) return b + r;                      \
        }                                                                           \
        XS_TLFN(xs_tiled_forward)(t, slot, out + b, n);                             \
    }                                                                               \
    return -1;                                                                      \
}                                                                                   \
                                                                                    \
static ptrdiff_t XS_TFN(xs_tiled_unravel_slots, R, TN)(const xs_tiled *t,           \
                                                       const void *data, char *out, \
                                                       ptrdiff_t step0, ptrdiff_t step1, \
                                                       ptrdiff_t start, ptrdiff_t stop) { \
    const T *linear = (const T *)data;                                              \
    XS_TLFN(xs_slot_block) slot[XS_TILED_BLOCK_SLOTS];                              \
    uint64_t rest[XS_TILED_SLOT_BLOCK];                                             \
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_SLOT_BLOCK) {                 \
        ptrdiff_t n = stop - b < XS_TILED_SLOT_BLOCK ? stop - b : XS_TILED_SLOT_BLOCK; \
        uint64_t bad = 0;                                                           \
        for (ptrdiff_t r = 0; r < n; r++) {                                         \
            rest[r] = (uint64_t)linear[b + r];                                      \
            bad |= rest[r] >= t->size;                                              \
        }                                                                           \
        if (!bad) bad = XS_TLFN(xs_tiled_backward)(t, slot, rest, n);               \
        if (bad) {                                                                  \
            uint64_t scratch[XS_TILED_BLOCK_SLOTS];                                 \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                if (!xs_tiled_position(t, (uint64_t)linear[b + r], scratch)) return b + r; \
        }                                                                           \
        XS_TLFN(xs_tiled_write)(slot[0], XS_TILED_SLOT_BLOCK, R, out, step0, step1, b, n); \
    }                                                                               \
    return -1;                                                                      \
}

#define XS_TILED_KERNELS(R, T, TN)                                                  \
    XS_TILED_RAVEL(R, T, TN) XS_TILED_RAVEL_DIMS(R, T, TN, 0, uint64_t, uint64_t, xs_tiled_ravel_dims) \
    XS_TILED_RAVEL_DIMS(R, T, TN, 1, uint64_t, uint64_t, xs_tiled_ravel_dims)                 \
    XS_TILED_RAVEL_DIMS(R, T, TN, 2, uint64_t, uint64_t, xs_tiled_ravel_dims)                 \
    XS_TILED_UNRAVEL(R, T, TN) XS_TILED_VUNRAVEL(R, T, TN) XS_TILED_SLOTS(R, T, TN)      \
    XS_TILED_VRAVEL(R, T, TN)
#define XS_TILED_KERNELS32(R, T, TN, W)                                              \
    XS_TILED_RAVEL_DIMS(R, T, TN, 0, W, uint32_t, xs_tiled_ravel_dims32_)              \
    XS_TILED_RAVEL_DIMS(R, T, TN, 1, W, uint32_t, xs_tiled_ravel_dims32_)              \
    XS_TILED_RAVEL_DIMS(R, T, TN, 2, W, uint32_t, xs_tiled_ravel_dims32_)
#define XS_TILED_RANKS(T, TN)                                                       \
    XS_TILED_KERNELS(1, T, TN) XS_TILED_KERNELS(2, T, TN) XS_TILED_KERNELS(3, T, TN)  \
    XS_TILED_KERNELS(4, T, TN) XS_TILED_KERNELS(5, T, TN) XS_TILED_KERNELS(6, T, TN)  \
    XS_TILED_KERNELS(7, T, TN) XS_TILED_KERNELS(8, T, TN)
#define XS_TILED_RANKS32(T, TN, W)                                                  \
    XS_TILED_KERNELS32(1, T, TN, W) XS_TILED_KERNELS32(2, T, TN, W)                  \
    XS_TILED_KERNELS32(3, T, TN, W) XS_TILED_KERNELS32(4, T, TN, W)                  \
    XS_TILED_KERNELS32(5, T, TN, W) XS_TILED_KERNELS32(6, T, TN, W)                  \
    XS_TILED_KERNELS32(7, T, TN, W) XS_TILED_KERNELS32(8, T, TN, W)
XS_TILED_RANKS32(int32_t, i32, uint32_t)  /* first: the vector kernels fall back on them */
XS_TILED_RANKS32(int64_t, i64, uint64_t)
XS_TILED_RANKS(int32_t, i32)
XS_TILED_RANKS(int64_t, i64)

#define XS_TILED_BY_RANK(name, TN)                                                  \
    {NULL, XS_TFN(name, 1, TN), XS_TFN(name, 2, TN), XS_TFN(name, 3, TN),          \
     XS_TFN(name, 4, TN), XS_TFN(name, 5, TN), XS_TFN(name, 6, TN),                \
     XS_TFN(name, 7, TN), XS_TFN(name, 8, TN)}
#define XS_TILED_TABLE(TN, D32)                                                        \
    const xs_tiled_kernels XS_TCAT4(xs_tiled, kernels, TN, XS_LEVEL) = {     \
        XS_TILED_BY_RANK(xs_tiled_ravel, TN),                                       \
        {XS_TILED_BY_RANK(XS_TCAT2(XS_TILED_DIMS_ENTRY, 0), TN),                     \
         XS_TILED_BY_RANK(XS_TCAT2(XS_TILED_DIMS_ENTRY, 1), TN),                     \
         XS_TILED_BY_RANK(XS_TCAT2(XS_TILED_DIMS_ENTRY, 2), TN)},                    \
        {XS_TILED_BY_RANK(XS_TCAT2(D32, 0), TN), XS_TILED_BY_RANK(XS_TCAT2(D32, 1), TN), \
         XS_TILED_BY_RANK(XS_TCAT2(D32, 2), TN)},                                   \
        XS_TILED_BY_RANK(XS_TILED_UNRAVEL_ENTRY, TN),                               \
        XS_TILED_BY_RANK(xs_tiled_ravel_slots, TN), XS_TILED_BY_RANK(xs_tiled_unravel_slots, TN)};
/* int32 rows of a buffer under 2**31 elements ravel fastest in 32-bit lanes,
 * as the compiler vectorises the row kernel; int64 rows, in registers at
 * the vector levels (measured: 10**4 rows of f32[101,37,23,13] under
 * T(8,128) at AVX-512). */
XS_TILED_TABLE(i32, xs_tiled_ravel_dims32_)
XS_TILED_TABLE(i64, XS_TILED_DIMS32_ENTRY)

#undef XS_TILED_RAVEL
#undef XS_TILED_RAVEL_DIMS
#undef XS_TILED_UNRAVEL
#undef XS_TILED_KERNELS
#undef XS_TILED_RANKS
#undef XS_TILED_KERNELS32
#undef XS_TILED_RANKS32
#undef XS_TILED_SLOTS
#undef XS_TILED_BY_RANK
#undef XS_TILED_TABLE
#undef XS_TILED_VUNRAVEL
#undef XS_TILED_UNRAVEL_ENTRY
#undef XS_TILED_VRAVEL
#undef XS_TILED_VRAVEL_DIMS
#undef XS_TILED_DIMS_ENTRY
#undef XS_TILED_DIMS32_ENTRY
#undef XS_TILED_ROW_DIMS
