/* The tiled chunk functions of tiled.h: the block kernels (tiled_kernels.h,
 * built for int32 and int64 at every CPU level of dispatch.h: baseline
 * here, the others in kernels_avx2.c and kernels_avx512.c; picked by the level
 * in use) where the tiling has a fast form and the batch is
 * contiguous, and the general form's row steps otherwise (any dtype and
 * strides, 'wrap' and 'clip' modes, any tiling). */
#include "tiled.h"

#include "dispatch.h"
#include "kernels_common.h"

#define XS_LEVEL baseline
#include "tiled_kernels.h"
#undef XS_LEVEL

#if XS_X86_DISPATCH
extern const xs_tiled_kernels xs_tiled_kernels_i32_avx2, xs_tiled_kernels_i64_avx2;
extern const xs_tiled_kernels xs_tiled_kernels_i32_avx512, xs_tiled_kernels_i64_avx512;
#endif

/* By level, then int32 and int64 (uint64 reads as int64: the same bits). */
static const xs_tiled_kernels *const by_level[XS_NLEVELS][2] = {
    {&xs_tiled_kernels_i32_baseline, &xs_tiled_kernels_i64_baseline},
#if XS_X86_DISPATCH
    {&xs_tiled_kernels_i32_avx2, &xs_tiled_kernels_i64_avx2},
    {&xs_tiled_kernels_i32_avx512, &xs_tiled_kernels_i64_avx512},
#else
    {&xs_tiled_kernels_i32_baseline, &xs_tiled_kernels_i64_baseline},
    {&xs_tiled_kernels_i32_baseline, &xs_tiled_kernels_i64_baseline},
#endif
};

/* The block kernels for an index dtype read in place, or NULL. */
static const xs_tiled_kernels *kernels_for(int dtype) {
    if (dtype == XS_I32) return by_level[xs_level()][0];
    if (dtype == XS_I64 || dtype == XS_U64) return by_level[xs_level()][1];
    return NULL;
}

/* -- the general form ------------------------------------------------------ */

/* An index of any dtype, as uint64 (a negative one becomes huge). */
static inline uint64_t index_at(const char *p, int dtype) {
    switch (dtype) {
    case XS_I8: return (uint64_t)(int64_t) * (const int8_t *)p;
    case XS_I16: return (uint64_t)(int64_t) * (const int16_t *)p;
    case XS_I32: return (uint64_t)(int64_t) * (const int32_t *)p;
    case XS_U8: return (uint64_t) * (const uint8_t *)p;
    case XS_U16: return (uint64_t) * (const uint16_t *)p;
    case XS_U32: return (uint64_t) * (const uint32_t *)p;
    default: return *(const uint64_t *)p;  /* int64 and uint64: the same bits */
    }
}

/* What 'wrap' or 'clip' makes of an index ``v`` outside [0, extent), extent >= 1. */
static uint64_t in_range(uint64_t v, int dtype, uint64_t extent, int mode) {
    int negative = dtype <= XS_I64 && (int64_t)v < 0;
    if (mode == XS_CLIP) return negative ? 0 : extent - 1;
    if (!negative) return v % extent;
    uint64_t r = (0 - v) % extent;  /* |v| mod extent */
    return r ? extent - r : 0;
}

static ptrdiff_t ravel_general(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    const xs_tiled *t = job->tiled;
    uint64_t slot[XS_TILED_MAX_SLOTS];
    for (ptrdiff_t i = start; i < stop; i++) {
        for (int j = 0; j < t->rank; j++) {
            int dtype = job->column_dtype[j];
            uint64_t v = index_at(job->column[j] + i * job->column_step[j], dtype);
            if (v >= t->extent[j]) {
                int mode = job->mode ? job->mode[j] : XS_RAISE;
                if (mode == XS_RAISE) return i;
                v = in_range(v, dtype, t->extent[j], mode);
            }
            slot[j] = v;
        }
        job->out[i] = (int64_t)xs_tiled_offset(t, slot);
    }
    return -1;
}

static ptrdiff_t unravel_general(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    const xs_tiled *t = job->tiled;
    uint64_t slot[XS_TILED_MAX_SLOTS];
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t n = index_at(job->linear + i * job->linear_step, job->linear_dtype);
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
    return fn(t, job->column[0], job->out, start, stop);
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
