/* Baseline kernels for the general forms (kernels_generic.c), and the
 * column kernels of each level (kernels_columns.h). */
#ifndef XLASHAPE_KERNELS_GENERIC_H
#define XLASHAPE_KERNELS_GENERIC_H

#include "dispatch.h"

/* Rows per block of the column kernels: the block of out being summed
 * stays in L1. Also the block by which dispatch.c runs a raise kernel
 * under 'wrap' or 'clip'. */
#define XS_COLUMN_BLOCK 2048

/* Ravel of the job's columns, any dtypes, strides and modes, at each level
 * (kernels_columns.h); nonzero when an index of a 'raise' dimension is out
 * of range. */
uint64_t xs_ravel_columns_baseline(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
#if XS_X86_DISPATCH
uint64_t xs_ravel_columns_avx2(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
uint64_t xs_ravel_columns_avx512(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
#endif

/* The bench's traffic loop at each level (kernels_traffic.h). */
void xs_traffic_baseline(const int64_t *in, ptrdiff_t n_in, int64_t *out, ptrdiff_t n_out);
#if XS_X86_DISPATCH
void xs_traffic_avx2(const int64_t *in, ptrdiff_t n_in, int64_t *out, ptrdiff_t n_out);
void xs_traffic_avx512(const int64_t *in, ptrdiff_t n_in, int64_t *out, ptrdiff_t n_out);
#endif

ptrdiff_t xs_ravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
uint64_t xs_unravel_strided(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
ptrdiff_t xs_unravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);

#endif
