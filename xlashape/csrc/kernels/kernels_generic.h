/* Baseline kernels for the general forms (kernels_generic.c), and the
 * block size of the column kernels (kernels_columns.h). */
#ifndef XLASHAPE_KERNELS_GENERIC_H
#define XLASHAPE_KERNELS_GENERIC_H

#include "base/job.h"

/* Rows per block of the column kernels: the block of out being summed
 * stays in L1. Also the block by which dispatch.c runs a raise kernel
 * under 'wrap' or 'clip'. */
#define XS_COLUMN_BLOCK 2048

/* Row i's index of dimension j of a ravel job, as 'wrap' or 'clip' makes
 * it if that is the dimension's mode (under 'raise', as read: a negative
 * index is a huge value). */
static inline uint64_t xs_column_value(const xs_job *job, int j, ptrdiff_t i) {
    int dtype = job->column_dtype[j];
    uint64_t v = xs_load_index(job->column[j] + i * job->column_step[j], dtype);
    int mode = job->mode ? job->mode[j] : XS_RAISE;
    return mode == XS_RAISE ? v : xs_resolve_index(v, dtype, job->plan->extent[j], mode);
}

ptrdiff_t xs_ravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
uint64_t xs_unravel_strided(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
ptrdiff_t xs_unravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);

#endif
