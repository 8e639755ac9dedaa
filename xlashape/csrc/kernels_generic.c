/* Kernels for the less common forms, at baseline: ravel of separate
 * columns (any dtypes and strides, 'wrap' and 'clip' modes), and the
 * rescans that find the first bad row of a flagged chunk with the row
 * steps of plan.h. */
#include "kernels_generic.h"

#include "kernels_common.h"

/* One index as uint64 (a negative one becomes huge), and whether its type
 * is signed. */
static inline uint64_t load_index(const char *p, int dtype) {
    switch (dtype) {
    case XS_I8: return (uint64_t)*(const int8_t *)p;
    case XS_I16: return (uint64_t)*(const int16_t *)p;
    case XS_I32: return (uint64_t)*(const int32_t *)p;
    case XS_I64: return (uint64_t)*(const int64_t *)p;
    case XS_U8: return *(const uint8_t *)p;
    case XS_U16: return *(const uint16_t *)p;
    case XS_U32: return *(const uint32_t *)p;
    default: return *(const uint64_t *)p;
    }
}

static inline int is_signed(int dtype) { return dtype <= XS_I64; }

/* The in-range index that 'wrap' or 'clip' makes of ``v`` (extent >= 1). */
static inline uint64_t resolve(uint64_t v, int is_signed_type, uint64_t extent, int mode) {
    if (mode == XS_WRAP) {
        if (is_signed_type) {
            int64_t r = (int64_t)v % (int64_t)extent;  /* extent <= int64 max */
            return (uint64_t)(r < 0 ? r + (int64_t)extent : r);
        }
        return v % extent;
    }
    if (is_signed_type && (int64_t)v < 0) return 0;
    return v >= extent ? extent - 1 : v;
}

static inline uint64_t column_value(const xs_job *job, int j, ptrdiff_t i) {
    int dtype = job->column_dtype[j];
    uint64_t v = load_index(job->column[j] + i * job->column_step[j], dtype);
    int mode = job->mode ? job->mode[j] : XS_RAISE;
    return mode == XS_RAISE ? v : resolve(v, is_signed(dtype), job->plan->extent[j], mode);
}

/* The active level's column adders (kernels_columns.h). */
static const xs_add_column_fn *column_adders(void) {
#if XS_X86_DISPATCH
    switch (xs_level()) {
    case XS_AVX512: return xs_add_column_avx512_table;
    case XS_AVX2: return xs_add_column_avx2_table;
    default: break;
    }
#endif
    return xs_add_column_baseline_table;
}

/* Rows per block: the block of out being summed stays in L1. */
#define XS_COLUMN_BLOCK 2048

uint64_t xs_ravel_columns(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    const xs_plan *p = job->plan;
    const xs_add_column_fn *add_column = column_adders();
    uint64_t bad = 0;
    for (ptrdiff_t b0 = start; b0 < stop; b0 += XS_COLUMN_BLOCK) {
        ptrdiff_t b1 = stop - b0 < XS_COLUMN_BLOCK ? stop : b0 + XS_COLUMN_BLOCK;
        for (int j = 0; j < p->rank; j++) {
            int mode = job->mode ? job->mode[j] : XS_RAISE;
            if (mode == XS_RAISE) {
                bad |= add_column[job->column_dtype[j]](job->column[j], job->column_step[j],
                                                        job->out, b0, b1, p->extent[j],
                                                        p->stride[j], j == 0);
            } else {
                for (ptrdiff_t i = b0; i < b1; i++) {
                    uint64_t v = column_value(job, j, i) * p->stride[j];
                    job->out[i] = (int64_t)(j == 0 ? v : (uint64_t)job->out[i] + v);
                }
            }
        }
    }
    return bad;
}

ptrdiff_t xs_ravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    const xs_plan *p = job->plan;
    uint64_t value[XS_MAX_UNROLLED];
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t bad = 0;
        for (int j0 = 0; j0 < p->rank; j0 += XS_MAX_UNROLLED) {
            int m = p->rank - j0 < XS_MAX_UNROLLED ? p->rank - j0 : XS_MAX_UNROLLED;
            for (int j = 0; j < m; j++) value[j] = column_value(job, j0 + j, i);
            xs_ravel_row(value, p->extent + j0, p->stride + j0, m, &bad);
        }
        if (bad) return i;
    }
    return -1;
}

uint64_t xs_unravel_strided(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    uint64_t bad = 0;
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t n = load_index(job->linear + i * job->linear_step, job->linear_dtype);
        bad |= xs_unravel_value(job->plan, n, job->rows_out + i * job->out_step0, job->out_step1);
    }
    return bad;
}

ptrdiff_t xs_unravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    int64_t scratch[XS_MAX_UNROLLED];
    const xs_plan *p = job->plan;
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t n = load_index(job->linear + i * job->linear_step, job->linear_dtype);
        if (p->rank <= XS_MAX_UNROLLED) {
            if (xs_unravel_value(p, n, (char *)scratch, 8)) return i;
        } else if (n >= p->size) {
            return i;
        } else {
            /* Large ranks: the row step writes into the caller's row, which
             * this call is filling anyway. */
            if (xs_unravel_value(p, n, job->rows_out + i * job->out_step0, job->out_step1))
                return i;
        }
    }
    return -1;
}
