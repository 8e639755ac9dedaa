/* Baseline kernels for the general forms (kernels_generic.c). */
#ifndef XLASHAPE_KERNELS_GENERIC_H
#define XLASHAPE_KERNELS_GENERIC_H

#include "dispatch.h"

/* Add one column's share of rows [start, stop) into out (first: out is
 * unset); nonzero if some index is out of range (kernels_columns.h). */
typedef uint64_t (*xs_add_column_fn)(const char *column, ptrdiff_t step, int64_t *out,
                                     ptrdiff_t start, ptrdiff_t stop, uint64_t extent,
                                     uint64_t stride, int first);
extern const xs_add_column_fn xs_add_column_baseline_table[XS_NDTYPES];
#if XS_X86_DISPATCH
extern const xs_add_column_fn xs_add_column_avx2_table[XS_NDTYPES];
extern const xs_add_column_fn xs_add_column_avx512_table[XS_NDTYPES];
#endif

uint64_t xs_ravel_columns(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
ptrdiff_t xs_ravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
uint64_t xs_unravel_strided(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
ptrdiff_t xs_unravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);

#endif
