/* Baseline kernels for the general forms (kernels_generic.c). */
#ifndef XLASHAPE_KERNELS_GENERIC_H
#define XLASHAPE_KERNELS_GENERIC_H

#include "dispatch.h"

uint64_t xs_ravel_columns(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
ptrdiff_t xs_ravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
uint64_t xs_unravel_strided(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);
ptrdiff_t xs_unravel_first_bad(const xs_job *job, ptrdiff_t start, ptrdiff_t stop);

#endif
