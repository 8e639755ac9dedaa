/* Kernels for the less common forms, at baseline: unravel of any dtype and
 * strides, and the rescans that find the first bad row of a flagged chunk with the row
 * steps of plan.h. */
#include "kernels/kernels_generic.h"

#include "kernels/kernels_common.h"

ptrdiff_t xs_ravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    const xs_plan *p = job->plan;
    uint64_t value[XS_MAX_UNROLLED];
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t bad = 0;
        for (int j0 = 0; j0 < p->rank; j0 += XS_MAX_UNROLLED) {
            int m = p->rank - j0 < XS_MAX_UNROLLED ? p->rank - j0 : XS_MAX_UNROLLED;
            for (int j = 0; j < m; j++) value[j] = xs_column_value(job, j0 + j, i);
            xs_ravel_row(value, p->extent + j0, p->stride + j0, m, &bad);
        }
        if (bad) return i;
    }
    return -1;
}

uint64_t xs_unravel_strided(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    uint64_t bad = 0;
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t n = xs_load_index(job->linear + i * job->linear_step, job->linear_dtype);
        bad |= xs_unravel_value(job->plan, n, job->rows_out + i * job->out_step0, job->out_step1);
    }
    return bad;
}

ptrdiff_t xs_unravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    int64_t scratch[XS_MAX_UNROLLED];
    const xs_plan *p = job->plan;
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t n = xs_load_index(job->linear + i * job->linear_step, job->linear_dtype);
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
