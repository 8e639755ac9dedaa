/* The tiled chunk functions of tiled.h: the fast kernels (tiled_kernels.h,
 * built for int32 and int64 at every CPU level of dispatch.h and picked by
 * the level in use) where the tiling has a fast form and the batch is
 * contiguous, and the general form's row steps otherwise (any dtype and
 * strides, 'wrap' and 'clip' modes, any tiling). */
#include "tiled.h"

#include "dispatch.h"
#include "kernels_common.h"

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

typedef ptrdiff_t (*xs_tiled_ravel_fn)(const xs_tiled *, const void *, int64_t *, ptrdiff_t,
                                       ptrdiff_t);
typedef ptrdiff_t (*xs_tiled_unravel_fn)(const xs_tiled *, const void *, char *, ptrdiff_t,
                                         ptrdiff_t, ptrdiff_t, ptrdiff_t);
typedef struct {
    xs_tiled_ravel_fn ravel[XS_TILED_MAX_RANK + 1];        /* the fast form: by terms */
    /* by dimension, by the count of extra digits */
    xs_tiled_ravel_fn ravel_dims[XS_TILED_EXTRA + 1][XS_TILED_MAX_RANK + 1];
    xs_tiled_unravel_fn unravel[XS_TILED_MAX_RANK + 1];
    xs_tiled_ravel_fn ravel_slots[XS_TILED_MAX_RANK + 1];  /* the general form */
    xs_tiled_unravel_fn unravel_slots[XS_TILED_MAX_RANK + 1];
} xs_tiled_kernels;

#define XS_LEVEL baseline
#include "tiled_kernels.h"
#undef XS_LEVEL

#if XS_X86_DISPATCH
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,bmi,bmi2,popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,bmi,bmi2,popcnt")
#endif
#define XS_LEVEL avx2
#include "tiled_kernels.h"
#undef XS_LEVEL
#if defined(__clang__)
#pragma clang attribute pop
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx512cd,avx2,fma,bmi,bmi2,popcnt"))), apply_to = function)
#else
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,avx512bw,avx512cd,avx2,fma,bmi,bmi2,popcnt")
#endif
#define XS_LEVEL avx512
#include "tiled_kernels.h"
#undef XS_LEVEL
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
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
