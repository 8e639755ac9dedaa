/* The fast path of the tiled kernels (_tiled.pyx): tilings whose digits
 * are all shifts and masks of single dimensions, over C-contiguous int64.
 *
 * Ravel: offset = sum over terms of ((index[dim] >> shift) & mask) * stride,
 * one term per axis of the tiled array (axes of extent 1 add nothing and
 * are left out). Unravel: the offset split by the axes' extents, most minor
 * first (a shift and a mask for a power of two, a fast divisor otherwise),
 * each digit shifted back into its dimension's index; an index past its
 * dimension lies in tile padding. Each is written once per term count, so
 * that the compiler unrolls the term loop and keeps the terms in registers.
 */
#ifndef XLASHAPE_TILED_H
#define XLASHAPE_TILED_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"

#define XS_TILED_MAX_TERMS 8

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
} xs_tiled;

#define XS_TILED_KERNELS(N)                                                         \
static ptrdiff_t xs_tiled_ravel_##N(const xs_tiled *t, const int64_t *rows,         \
                                    int64_t *out, ptrdiff_t start, ptrdiff_t stop) { \
    const int rank = t->rank;                                                       \
    int dim[N], sh[N];                                                              \
    uint64_t mk[N], st[N];                                                          \
    for (int k = 0; k < N; k++) {                                                   \
        dim[k] = t->dim[k]; sh[k] = t->shift[k];                                    \
        mk[k] = t->mask[k]; st[k] = t->stride[k];                                   \
    }                                                                               \
    for (ptrdiff_t r = start; r < stop; r++) {                                      \
        const int64_t *p = rows + r * rank;                                         \
        int bad = 0;                                                                \
        for (int j = 0; j < rank; j++) bad |= (uint64_t)p[j] >= t->extent[j];      \
        if (bad) return r;                                                          \
        uint64_t acc = 0;                                                           \
        for (int k = 0; k < N; k++)                                                 \
            acc += (((uint64_t)p[dim[k]] >> sh[k]) & mk[k]) * st[k];                \
        out[r] = (int64_t)acc;                                                      \
    }                                                                               \
    return -1;                                                                      \
}                                                                                   \
static ptrdiff_t xs_tiled_unravel_##N(const xs_tiled *t, const int64_t *linear,     \
                                      char *out, ptrdiff_t step0, ptrdiff_t step1,  \
                                      ptrdiff_t start, ptrdiff_t stop) {            \
    const int rank = t->rank;                                                       \
    uint64_t value[64];                                                             \
    for (ptrdiff_t r = start; r < stop; r++) {                                      \
        uint64_t n = (uint64_t)linear[r];                                           \
        if (n >= t->size) return r;                                                 \
        for (int j = 0; j < rank; j++) value[j] = 0;                                \
        for (int k = 0; k < N - 1; k++) {                                           \
            uint64_t q = t->u_pow2[k] ? n >> t->u_shift[k]                          \
                                      : xs_divide(n, &t->u_radix[k]);               \
            value[t->u_dim[k]] += (n - q * t->u_radix[k].divisor) << t->u_weight[k]; \
            n = q;                                                                  \
        }                                                                           \
        value[t->u_dim[N - 1]] += n << t->u_weight[N - 1];                          \
        int bad = 0;                                                                \
        for (int j = 0; j < rank; j++) bad |= value[j] >= t->extent[j];            \
        if (bad) return r;                                                          \
        char *row = out + r * step0;                                                \
        for (int j = 0; j < rank; j++) *(int64_t *)(row + j * step1) = (int64_t)value[j]; \
    }                                                                               \
    return -1;                                                                      \
}

XS_TILED_KERNELS(1)
XS_TILED_KERNELS(2)
XS_TILED_KERNELS(3)
XS_TILED_KERNELS(4)
XS_TILED_KERNELS(5)
XS_TILED_KERNELS(6)
XS_TILED_KERNELS(7)
XS_TILED_KERNELS(8)

typedef ptrdiff_t (*xs_tiled_ravel_fn)(const xs_tiled *, const int64_t *, int64_t *,
                                       ptrdiff_t, ptrdiff_t);
typedef ptrdiff_t (*xs_tiled_unravel_fn)(const xs_tiled *, const int64_t *, char *,
                                         ptrdiff_t, ptrdiff_t, ptrdiff_t, ptrdiff_t);

static const xs_tiled_ravel_fn xs_tiled_ravel_by_terms[XS_TILED_MAX_TERMS + 1] = {
    NULL, xs_tiled_ravel_1, xs_tiled_ravel_2, xs_tiled_ravel_3, xs_tiled_ravel_4,
    xs_tiled_ravel_5, xs_tiled_ravel_6, xs_tiled_ravel_7, xs_tiled_ravel_8};
static const xs_tiled_unravel_fn xs_tiled_unravel_by_terms[XS_TILED_MAX_TERMS + 1] = {
    NULL, xs_tiled_unravel_1, xs_tiled_unravel_2, xs_tiled_unravel_3, xs_tiled_unravel_4,
    xs_tiled_unravel_5, xs_tiled_unravel_6, xs_tiled_unravel_7, xs_tiled_unravel_8};

#endif
