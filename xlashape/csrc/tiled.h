/* The fast path of the tiled kernels (_tiled.pyx): tilings whose digits
 * are all shifts and masks of single dimensions, over C-contiguous int64.
 *
 * Ravel: offset = sum over terms of ((index[dim] >> shift) & mask) * stride,
 * one term per axis of the tiled array (axes of extent 1 add nothing and
 * are left out), a block of rows at a time (one kernel per rank); under one
 * power-of-two tile, by dimension instead, in one pass over the rows (each
 * dimension a tile index and a within-tile index). Unravel: the offset
 * split by the axes' extents, most minor first (a shift and a mask for a
 * power of two, a fast divisor otherwise),
 * each digit shifted back into its dimension's index; an index past its
 * dimension lies in tile padding. Each is written once per term count, so
 * that the compiler unrolls the term loop and keeps the terms in registers.
 */
#ifndef XLASHAPE_TILED_H
#define XLASHAPE_TILED_H

#include <stddef.h>
#include <stdint.h>

#include "kernels_common.h"  /* plan.h, and exact u52 <-> double */

#define XS_TILED_MAX_TERMS 8
#define XS_TILED_MAX_RANK 8  /* ravel kernels are built per rank */

typedef struct {
    int rank;
    int n_terms;
    uint64_t size;
    const uint64_t *extent;       /* by dimension */
    /* ravel terms, most major axis first */
    const int *dim;
    const int *shift;
    const uint64_t *mask;
    const uint64_t *stride;
    /* unravel axes, most minor first */
    const int *u_dim;
    const int *u_weight;          /* log2 of the axis's divisor */
    const int *u_pow2;            /* the extent is a power of two */
    const int *u_shift;           /* log2 of the extent, if so */
    const xs_divisor *u_radix;    /* the extent, otherwise */
    /* ravel by dimension, where each dimension has at most a tile index
     * ((index >> d_shift) * d_stride) and a within-tile index with a
     * power-of-two stride ((index & d_mask) << d_weight); NULL otherwise */
    const int *d_shift;
    const uint64_t *d_stride;
    const uint64_t *d_mask;
    const int *d_weight;
} xs_tiled;

/* Ravel, for one rank R: rows are read a block at a time into columns,
 * then each term is one pass over a column, which the compiler vectorises.
 * Built for several x86-64 levels and picked at load time where GCC can. */
#define XS_TILED_BLOCK 256
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define XS_TILED_LEVELS __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define XS_TILED_LEVELS
#endif

#define XS_TILED_RAVEL(R)                                                           \
XS_TILED_LEVELS                                                                     \
static ptrdiff_t xs_tiled_ravel_##R(const xs_tiled *t, const int64_t *rows,         \
                                    int64_t *out, ptrdiff_t start, ptrdiff_t stop) { \
    uint64_t col[R][XS_TILED_BLOCK], extent[R];                                     \
    for (int j = 0; j < R; j++) extent[j] = t->extent[j];                           \
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_BLOCK) {                      \
        ptrdiff_t n = stop - b < XS_TILED_BLOCK ? stop - b : XS_TILED_BLOCK;        \
        const int64_t *p = rows + b * R;                                            \
        uint64_t bad = 0;                                                           \
        for (ptrdiff_t r = 0; r < n; r++)                                           \
            for (int j = 0; j < R; j++) {                                           \
                col[j][r] = (uint64_t)p[r * R + j];                                 \
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

XS_TILED_RAVEL(1)
XS_TILED_RAVEL(2)
XS_TILED_RAVEL(3)
XS_TILED_RAVEL(4)
XS_TILED_RAVEL(5)
XS_TILED_RAVEL(6)
XS_TILED_RAVEL(7)
XS_TILED_RAVEL(8)

/* Ravel by dimension, for one rank R (t->d_shift set): one pass over the
 * rows in the form of the untiled kernel (kernels_impl.h), two terms per
 * dimension kept in registers, bounds or-ed into a flag; only when it is
 * set are the rows scanned again for the first bad one. */
#define XS_TILED_RAVEL_DIMS(R)                                                      \
XS_TILED_LEVELS                                                                     \
static ptrdiff_t xs_tiled_ravel_dims_##R(const xs_tiled *t,                         \
                                         const int64_t *restrict rows,              \
                                         int64_t *restrict out,                     \
                                         ptrdiff_t start, ptrdiff_t stop) {         \
    uint64_t extent[R], stride[R], mask[R], bad = 0;                                \
    int shift[R], weight[R];                                                        \
    for (int j = 0; j < R; j++) {                                                   \
        extent[j] = t->extent[j];                                                   \
        shift[j] = t->d_shift[j];                                                   \
        stride[j] = t->d_stride[j];                                                 \
        mask[j] = t->d_mask[j];                                                     \
        weight[j] = t->d_weight[j];                                                 \
    }                                                                               \
    for (ptrdiff_t i = start; i < stop; i++) {                                      \
        uint64_t acc = 0;                                                           \
        for (int j = 0; j < R; j++) {                                               \
            uint64_t v = (uint64_t)rows[i * R + j];  /* a negative becomes huge */  \
            bad |= v >= extent[j];                                                  \
            acc += (v >> shift[j]) * stride[j] + ((v & mask[j]) << weight[j]);      \
        }                                                                           \
        out[i] = (int64_t)acc;                                                      \
    }                                                                               \
    if (bad) {                                                                      \
        for (ptrdiff_t i = start; i < stop; i++)                                    \
            for (int j = 0; j < R; j++)                                             \
                if ((uint64_t)rows[i * R + j] >= extent[j]) return i;               \
    }                                                                               \
    return -1;                                                                      \
}

XS_TILED_RAVEL_DIMS(1)
XS_TILED_RAVEL_DIMS(2)
XS_TILED_RAVEL_DIMS(3)
XS_TILED_RAVEL_DIMS(4)
XS_TILED_RAVEL_DIMS(5)
XS_TILED_RAVEL_DIMS(6)
XS_TILED_RAVEL_DIMS(7)
XS_TILED_RAVEL_DIMS(8)

/* Unravel, for one rank R, a block at a time: the offsets are split axis by
 * axis, most minor first (a shift for a power-of-two extent, otherwise a
 * division in doubles, exact below 2**52 and corrected by one either way,
 * in the untiled kernel's form: integer selects and the u52 conversions of
 * kernels_common.h, so that it vectorises at every level), each digit
 * shifted into its dimension's index. */
#define XS_TILED_UNRAVEL(R)                                                         \
XS_TILED_LEVELS                                                                     \
static ptrdiff_t xs_tiled_unravel_##R(const xs_tiled *t, const int64_t *linear,     \
                                      char *out, ptrdiff_t step0, ptrdiff_t step1,  \
                                      ptrdiff_t start, ptrdiff_t stop) {            \
    uint64_t rest[XS_TILED_BLOCK], value[R][XS_TILED_BLOCK];                        \
    const int m = t->n_terms;                                                       \
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_BLOCK) {                      \
        ptrdiff_t n = stop - b < XS_TILED_BLOCK ? stop - b : XS_TILED_BLOCK;        \
        uint64_t bad = 0;                                                           \
        for (ptrdiff_t r = 0; r < n; r++) {                                         \
            rest[r] = (uint64_t)linear[b + r];                                      \
            bad |= rest[r] >= t->size;                                              \
        }                                                                           \
        if (bad) {                                                                  \
            for (ptrdiff_t r = 0; r < n; r++) if (rest[r] >= t->size) return b + r; \
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
                const int64_t w = (int64_t)extent;                                  \
                const double inverse = 1.0 / (double)extent;                        \
                for (ptrdiff_t r = 0; r < n; r++) {                                 \
                    double q = xs_round52(xs_u52_to_double(rest[r]) * inverse);     \
                    int64_t qi = (int64_t)xs_double_to_u52(q);                      \
                    int64_t d = (int64_t)rest[r] - qi * w;                          \
                    int64_t below = d >> 63;          /* -1: q one too big */       \
                    qi += below;                                                    \
                    d += w & below;                                                 \
                    int64_t above = -(int64_t)(d >= w);  /* -1: q one too small */  \
                    qi -= above;                                                    \
                    d -= w & above;                                                 \
                    v[r] += (uint64_t)d << weight;                                  \
                    rest[r] = (uint64_t)qi;                                         \
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
        if (step0 == R * (ptrdiff_t)sizeof(int64_t) && step1 == sizeof(int64_t)) { \
            int64_t *restrict row = (int64_t *)out + b * R;  /* C-contiguous */     \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                for (int j = 0; j < R; j++) row[r * R + j] = (int64_t)value[j][r];  \
        } else {                                                                    \
            for (ptrdiff_t r = 0; r < n; r++) {                                     \
                char *row = out + (b + r) * step0;                                  \
                for (int j = 0; j < R; j++)                                         \
                    *(int64_t *)(row + j * step1) = (int64_t)value[j][r];           \
            }                                                                       \
        }                                                                           \
    }                                                                               \
    return -1;                                                                      \
}

XS_TILED_UNRAVEL(1)
XS_TILED_UNRAVEL(2)
XS_TILED_UNRAVEL(3)
XS_TILED_UNRAVEL(4)
XS_TILED_UNRAVEL(5)
XS_TILED_UNRAVEL(6)
XS_TILED_UNRAVEL(7)
XS_TILED_UNRAVEL(8)

typedef ptrdiff_t (*xs_tiled_ravel_fn)(const xs_tiled *, const int64_t *, int64_t *,
                                       ptrdiff_t, ptrdiff_t);
typedef ptrdiff_t (*xs_tiled_unravel_fn)(const xs_tiled *, const int64_t *, char *,
                                         ptrdiff_t, ptrdiff_t, ptrdiff_t, ptrdiff_t);

static const xs_tiled_ravel_fn xs_tiled_ravel_by_rank[XS_TILED_MAX_RANK + 1] = {
    NULL, xs_tiled_ravel_1, xs_tiled_ravel_2, xs_tiled_ravel_3, xs_tiled_ravel_4,
    xs_tiled_ravel_5, xs_tiled_ravel_6, xs_tiled_ravel_7, xs_tiled_ravel_8};
static const xs_tiled_ravel_fn xs_tiled_ravel_dims_by_rank[XS_TILED_MAX_RANK + 1] = {
    NULL, xs_tiled_ravel_dims_1, xs_tiled_ravel_dims_2, xs_tiled_ravel_dims_3,
    xs_tiled_ravel_dims_4, xs_tiled_ravel_dims_5, xs_tiled_ravel_dims_6,
    xs_tiled_ravel_dims_7, xs_tiled_ravel_dims_8};
static const xs_tiled_unravel_fn xs_tiled_unravel_by_rank[XS_TILED_MAX_RANK + 1] = {
    NULL, xs_tiled_unravel_1, xs_tiled_unravel_2, xs_tiled_unravel_3, xs_tiled_unravel_4,
    xs_tiled_unravel_5, xs_tiled_unravel_6, xs_tiled_unravel_7, xs_tiled_unravel_8};

#endif
