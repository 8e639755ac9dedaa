/* Ravel of separate columns, one column at a time, at one CPU level: any
 * index dtypes and strides, and the 'wrap' and 'clip' modes. It serves the
 * multi_index forms the fused column kernel (kernels_impl.h) does not, and
 * redoes exactly, in each dimension's mode, a block in which the raise
 * kernels found an index out of range (dispatch.c).
 *
 * Included by each level's kernel file (kernels_baseline.c, and
 * kernels_avx2.c and kernels_avx512.c after their target pragmas) with
 * XS_LEVEL defined, so that the compiler vectorises the same loops for
 * each level; its xs_ravel_columns_<level> is the level's ``columns``
 * (kernels.h). */
#include "kernels/kernels_generic.h"

#define XS_COLUMN_CAT_(a, b) a##_##b
#define XS_COLUMN_CAT(a, b) XS_COLUMN_CAT_(a, b)
#define XS_COLUMN_FN(name) XS_COLUMN_CAT(name, XS_LEVEL)

/* Add one column's share of rows [start, stop) into out (``first``: out
 * is unset): the index at column + i * step, an item of xs_dtype
 * ``dtype``, taken in ``mode``. Returns nonzero when an index of a 'raise'
 * column is out of range. 'clip' is a branch-free min and max; 'wrap'
 * checks as 'raise' does and, only where some index of the rows was out of
 * range, corrects those rows by the exact xs_resolve_index, so that
 * in-range indices cost no division. dtype, mode, first and (for a
 * contiguous column) step are compile-time constants. */
static XS_ALWAYS_INLINE uint64_t XS_COLUMN_FN(xs_column_pass)(
        const char *column, const ptrdiff_t step, int64_t *restrict out, ptrdiff_t start,
        ptrdiff_t stop, uint64_t extent, uint64_t stride, const int dtype, const int mode,
        const int first) {
    uint64_t bad = 0;
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t v = xs_load_index(column + i * step, dtype);
        if (mode == XS_CLIP) {
            uint64_t low = xs_dtype_signed(dtype) && (int64_t)v < 0;
            v = v >= extent ? extent - 1 : v;
            v = low ? 0 : v;
        } else {
            bad |= v >= extent;
        }
        out[i] = (int64_t)((first ? 0 : (uint64_t)out[i]) + v * stride);
    }
    if (mode != XS_WRAP || !bad) return bad;
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t v = xs_load_index(column + i * step, dtype);
        if (v >= extent)  /* out[i] holds v * stride: add the difference, modulo 2**64 */
            out[i] = (int64_t)((uint64_t)out[i] +
                               (xs_resolve_index(v, dtype, extent, XS_WRAP) - v) * stride);
    }
    return 0;
}

/* xs_column_pass with ``mode`` and ``first`` as constants, and a contiguous
 * column's step too: XS_COLUMN_MODES lists the modes tested before the
 * last, 'raise'. */
#define XS_COLUMN_MODES(X) X(XS_CLIP) X(XS_WRAP)
#define XS_COLUMN_PASS(step_, mode_, first_)                                                \
    XS_COLUMN_FN(xs_column_pass)(column, step_, out, start, stop, extent, stride, dtype, mode_, \
                                 first_)
#define XS_COLUMN_FIRST(MODE) first ? XS_COLUMN_PASS(size, MODE, 1) : XS_COLUMN_PASS(size, MODE, 0)
#define XS_COLUMN_CONTIGUOUS(MODE) if (mode == MODE) return XS_COLUMN_FIRST(MODE);
#define XS_COLUMN_STRIDED(MODE) if (mode == MODE) return XS_COLUMN_PASS(step, MODE, first);
static XS_ALWAYS_INLINE uint64_t XS_COLUMN_FN(xs_column_typed)(
        const char *column, ptrdiff_t step, int64_t *out, ptrdiff_t start, ptrdiff_t stop,
        uint64_t extent, uint64_t stride, const int dtype, int mode, int first) {
    const ptrdiff_t size = xs_dtype_size(dtype);
    if (step == size) {
        XS_COLUMN_MODES(XS_COLUMN_CONTIGUOUS)
        return XS_COLUMN_FIRST(XS_RAISE);
    }
    XS_COLUMN_MODES(XS_COLUMN_STRIDED)
    return XS_COLUMN_PASS(step, XS_RAISE, first);
}
#undef XS_COLUMN_MODES
#undef XS_COLUMN_PASS
#undef XS_COLUMN_FIRST
#undef XS_COLUMN_CONTIGUOUS
#undef XS_COLUMN_STRIDED

static uint64_t XS_COLUMN_FN(xs_column)(const char *column, ptrdiff_t step, int64_t *out,
                                        ptrdiff_t start, ptrdiff_t stop, uint64_t extent,
                                        uint64_t stride, int dtype, int mode, int first) {
#define XS_COLUMN_CASE(CODE, tn, T, unravel, vloads) \
    case XS_##CODE: return XS_COLUMN_FN(xs_column_typed)(column, step, out, start, stop, extent, stride, XS_##CODE, mode, first);
    switch (dtype) { XS_DTYPES(XS_COLUMN_CASE) }
#undef XS_COLUMN_CASE
    return 0;
}

static uint64_t XS_COLUMN_FN(xs_ravel_columns)(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    const xs_plan *p = job->plan;
    uint64_t bad = 0;
    for (ptrdiff_t b0 = start; b0 < stop; b0 += XS_COLUMN_BLOCK) {
        ptrdiff_t b1 = stop - b0 < XS_COLUMN_BLOCK ? stop : b0 + XS_COLUMN_BLOCK;
        for (int j = 0; j < p->rank; j++)
            bad |= XS_COLUMN_FN(xs_column)(job->column[j], job->column_step[j], job->out, b0, b1,
                                           p->extent[j], p->stride[j], job->column_dtype[j],
                                           job->mode ? job->mode[j] : XS_RAISE, j == 0);
    }
    return bad;
}

#undef XS_COLUMN_FN
#undef XS_COLUMN_CAT
#undef XS_COLUMN_CAT_
