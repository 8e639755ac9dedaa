/* Tiled layouts in C: the plan that _tiled.pyx builds, its row steps, and
 * the chunk functions through which dispatch.c runs a batch whose job
 * carries a tiled plan (xs_job.tiled).
 *
 * Every tiling has the general form, xlashape.model.tiling.program: the steps of
 * XLA's pad-reshape-transpose as operations on numbered slots, each slot
 * written once. Slot d holds dimension d's index; ravel runs the
 * operations forward and sums the final slots times their strides, and
 * unravel splits the offset into the final slots and runs them backward,
 * refusing a value that lands on tile padding. Divisions are shifts and
 * masks for powers of two, fast divisors otherwise.
 *
 * Tilings whose digits (xlashape.model.tiling.digits) are all shifts and masks
 * of single dimensions also have a fast form (n_terms > 0), which
 * tiled.c's block kernels run over contiguous int32 and int64 batches.
 */
#ifndef XLASHAPE_TILED_H
#define XLASHAPE_TILED_H

#include <stddef.h>
#include <stdint.h>

#include "base/plan.h"

#define XS_TILED_MAX_SLOTS 1024  /* the general form keeps its slots on the stack */
#define XS_TILED_MAX_TERMS 8
#define XS_TILED_MAX_RANK XS_MAX_UNROLLED  /* the fast kernels are built per rank */
#define XS_TILED_EXTRA 2         /* more within-tile digits, ravel by dimension */
#define XS_TILED_BLOCK_SLOTS 32  /* the most slots of the general form's block kernels */

enum xs_tile_op_kind { XS_OP_TILE = 0, XS_OP_COMBINE = 1, XS_OP_LEAD = 2 };

typedef struct {
    int kind;
    int source, minor;    /* tile: the source; combine: the major and minor sources */
    int target, inner;    /* tile: the outer and inner targets; combine, lead: target */
    int shift;            /* log2 of div.divisor where it is a power of two, else -1 */
    uint64_t extent;      /* tile: the source's extent (a value past it: padding) */
    xs_divisor div;       /* tile: the tile size; combine: the minor's extent */
} xs_tile_op;

typedef struct xs_tiled {
    int rank;
    uint64_t size;                  /* elements, tile padding included */
    const uint64_t *extent;         /* by dimension */
    /* the general form */
    int n_ops, n_final;
    const xs_tile_op *op;
    const int *final;               /* the final slots, most major first */
    const uint64_t *final_stride;
    const xs_divisor *final_extent;
    const int *final_shift;         /* log2 of the extent, or -1 */
    const uint64_t *slot_stride;    /* by slot: its stride if it is final, else 0 */
    /* the fast form: n_terms 0 where there is none */
    int n_terms;
    /* ravel terms, most major axis first */
    const int *dim;
    const int *shift;
    const uint64_t *mask;
    const uint64_t *stride;
    /* unravel digits, most minor first: the terms' axes, where two of one
     * dimension that lie next to each other (the major one's weight is the
     * minor one's times its extent) merged into one */
    int u_terms;
    int u_simple;                   /* one digit per dimension, of weight 1 */
    const int *u_dim;
    const int *u_weight;            /* log2 of the axis's divisor */
    const int *u_pow2;              /* the extent is a power of two */
    const int *u_shift;             /* log2 of the extent, if so */
    const xs_divisor *u_radix;      /* the extent, otherwise */
    /* the unravel digits by dimension, where every digit but the most
     * major has a power-of-two extent (the vector levels' integer unravel:
     * index[j] = OR of ((offset >> b_shift) & b_mask) << b_weight over
     * dimension j's b_count[j] digits, dimension 0's first); b_count NULL
     * otherwise */
    const int *b_count;
    const int *b_shift;
    const int *b_weight;
    const uint64_t *b_mask;
    /* ravel by dimension, where each dimension has at most a tile index
     * ((index >> d_shift) * d_stride) and within-tile digits with
     * power-of-two strides: one without a shift ((index & d_mask) <<
     * d_weight) and d_extra more (((index[e_dim] >> e_shift) & e_mask) <<
     * e_weight), at most XS_TILED_EXTRA; d_shift NULL otherwise */
    int d_extra;
    const int *d_shift;
    const uint64_t *d_stride;
    const uint64_t *d_mask;
    const int *d_weight;
    const int *e_dim;
    const int *e_shift;
    const uint64_t *e_mask;
    const int *e_weight;
    /* the general form's block kernels: slots per plan, 0 where the plan
     * has too many slots for them or a buffer of 2**52 elements or more */
    int block_slots;
} xs_tiled;

/* v // d, with v % d in *rem; a shift and a mask when shift >= 0. */
static inline uint64_t xs_tiled_divmod(uint64_t v, const xs_divisor *d, int shift,
                                       uint64_t *rem) {
    if (shift >= 0) {
        *rem = v & (d->divisor - 1);
        return v >> shift;
    }
    uint64_t q = xs_divide(v, d);
    *rem = v - q * d->divisor;
    return q;
}

/* The ravel row step of the general form: the offset of the in-range
 * indices in slot[0, rank); ``slot`` has room for every slot of the plan. */
static inline uint64_t xs_tiled_offset(const xs_tiled *t, uint64_t *slot) {
    for (int k = 0; k < t->n_ops; k++) {
        const xs_tile_op *op = &t->op[k];
        if (op->kind == XS_OP_TILE)
            slot[op->target] = xs_tiled_divmod(slot[op->source], &op->div, op->shift,
                                               &slot[op->inner]);
        else if (op->kind == XS_OP_COMBINE)
            slot[op->target] = slot[op->source] * op->div.divisor + slot[op->minor];
        else
            slot[op->target] = 0;
    }
    uint64_t offset = 0;
    for (int j = 0; j < t->n_final; j++) offset += slot[t->final[j]] * t->final_stride[j];
    return offset;
}

/* The unravel row step of the general form: the indices at offset ``n``
 * into slot[0, rank). Returns 0 when ``n`` is outside the buffer or lands
 * on tile padding. */
static inline int xs_tiled_position(const xs_tiled *t, uint64_t n, uint64_t *slot) {
    if (n >= t->size) return 0;
    for (int j = t->n_final - 1; j > 0; j--)
        n = xs_tiled_divmod(n, &t->final_extent[j], t->final_shift[j], &slot[t->final[j]]);
    if (t->n_final > 0) slot[t->final[0]] = n;
    for (int k = t->n_ops - 1; k >= 0; k--) {
        const xs_tile_op *op = &t->op[k];
        if (op->kind == XS_OP_TILE) {
            uint64_t v = slot[op->target] * op->div.divisor + slot[op->inner];
            if (v >= op->extent) return 0;
            slot[op->source] = v;
        } else if (op->kind == XS_OP_COMBINE) {
            slot[op->source] = xs_tiled_divmod(slot[op->target], &op->div, op->shift,
                                               &slot[op->minor]);
        } else if (slot[op->target] != 0) {
            return 0;
        }
    }
    return 1;
}

/* A level's block kernels for one index dtype (tiled_kernels.h), by rank:
 * each returns the first bad row of rows [start, stop), or -1. */
typedef ptrdiff_t (*xs_tiled_ravel_fn)(const xs_tiled *, const void *, int64_t *, ptrdiff_t,
                                       ptrdiff_t);
typedef ptrdiff_t (*xs_tiled_unravel_fn)(const xs_tiled *, const void *, char *, ptrdiff_t,
                                         ptrdiff_t, ptrdiff_t, ptrdiff_t);
typedef struct {
    xs_tiled_ravel_fn ravel[XS_TILED_MAX_RANK + 1];        /* the fast form: by terms */
    /* by dimension, by the count of extra digits; in 32-bit arithmetic
     * (bounds checked at the index's width) for a buffer of at most 2**31
     * elements */
    xs_tiled_ravel_fn ravel_dims[XS_TILED_EXTRA + 1][XS_TILED_MAX_RANK + 1];
    xs_tiled_ravel_fn ravel_dims32[XS_TILED_EXTRA + 1][XS_TILED_MAX_RANK + 1];
    xs_tiled_unravel_fn unravel[XS_TILED_MAX_RANK + 1];
    xs_tiled_ravel_fn ravel_slots[XS_TILED_MAX_RANK + 1];  /* the general form */
    xs_tiled_unravel_fn unravel_slots[XS_TILED_MAX_RANK + 1];
} xs_tiled_kernels;

#endif
