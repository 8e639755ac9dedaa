/* The tiled chunk functions of tiled_chunks.h: the block kernels
 * (tiled/tiled_kernels.h, built for int32 and int64 into each CPU level's
 * struct of levels/kernels.h;
 * those of the level in use) where the tiling has a fast form and the batch is
 * contiguous, and the general form's row steps otherwise (any dtype and
 * strides, any tiling). Under 'wrap' and 'clip' the block kernels run by
 * blocks, and the row steps redo, in each dimension's mode, a block in
 * which they meet an index out of range. */
#include "driver/tiled_chunks.h"

#include "cpu/cpu_level.h"
#include "kernels/kernels_common.h"
#include "kernels/kernels_generic.h"

/* The block kernels of the level in use for an index dtype read in place
 * (uint64 reads as int64: the same bits), or NULL. */
static const xs_tiled_kernels *kernels_for(int dtype) {
    if (dtype == XS_I32) return xs_active_kernels()->tiled_i32;
    if (dtype == XS_I64 || dtype == XS_U64) return xs_active_kernels()->tiled_i64;
    return NULL;
}

/* -- the general form ------------------------------------------------------ */

static ptrdiff_t ravel_general(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    const xs_tiled *t = job->tiled;
    uint64_t slot[XS_TILED_MAX_SLOTS];
    for (ptrdiff_t i = start; i < stop; i++) {
        for (int j = 0; j < t->rank; j++) {
            slot[j] = xs_column_value(job, j, i);
            if (slot[j] >= t->extent[j]) return i;  /* a 'raise' dimension's */
        }
        job->out[i] = (int64_t)xs_tiled_offset(t, slot);
    }
    return -1;
}

static ptrdiff_t unravel_general(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    const xs_tiled *t = job->tiled;
    uint64_t slot[XS_TILED_MAX_SLOTS];
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t n = xs_load_index(job->linear + i * job->linear_step, job->linear_dtype);
        if (!xs_tiled_position(t, n, slot)) return i;
        char *row = job->rows_out + i * job->out_step0;
        for (int j = 0; j < t->rank; j++) *(int64_t *)(row + j * job->out_step1) = (int64_t)slot[j];
    }
    return -1;
}

/* -- chunks ---------------------------------------------------------------- */

ptrdiff_t xs_tiled_ravel_chunk(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const xs_job *job = arg;
    const xs_tiled *t = job->tiled;
    const xs_tiled_kernels *k = job->rows_contiguous ? kernels_for(job->column_dtype[0]) : NULL;
    xs_tiled_ravel_fn fn = NULL;
    if (k != NULL && t->n_terms > 0) {
        if (t->d_shift == NULL) fn = k->ravel[t->rank];
        else if (t->size <= ((uint64_t)1 << 31))
            fn = k->ravel_dims32[t->d_extra][t->rank];  /* every term fits 32 bits */
        else fn = k->ravel_dims[t->d_extra][t->rank];
    } else if (k != NULL && t->block_slots > 0) {
        fn = k->ravel_slots[t->rank];
    }
    if (fn == NULL) return ravel_general(job, start, stop);
    if (job->mode == NULL) return fn(t, job->column[0], job->out, start, stop);
    /* 'wrap' or 'clip' dimensions: the block kernel, which raises, by
     * blocks; a block in which it meets an index out of range is redone by
     * the row steps, each dimension in its mode. */
    for (ptrdiff_t b0 = start; b0 < stop; b0 += XS_COLUMN_BLOCK) {
        ptrdiff_t b1 = stop - b0 < XS_COLUMN_BLOCK ? stop : b0 + XS_COLUMN_BLOCK;
        if (fn(t, job->column[0], job->out, b0, b1) >= 0) {
            ptrdiff_t bad = ravel_general(job, b0, b1);
            if (bad >= 0) return bad;
        }
    }
    return -1;
}

ptrdiff_t xs_tiled_unravel_chunk(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const xs_job *job = arg;
    const xs_tiled *t = job->tiled;
    const xs_tiled_kernels *k = kernels_for(job->linear_dtype);
    xs_tiled_unravel_fn fn = NULL;
    if (k != NULL && job->linear_step == (job->linear_dtype == XS_I32 ? 4 : 8))
        fn = t->n_terms > 0 ? k->unravel[t->rank] : t->block_slots > 0 ? k->unravel_slots[t->rank] : NULL;
    if (fn == NULL) return unravel_general(job, start, stop);
    return fn(t, job->linear, job->rows_out, job->out_step0, job->out_step1, start, stop);
}
