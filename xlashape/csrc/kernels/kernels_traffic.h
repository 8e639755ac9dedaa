/* The bench's in-cache limit (xlashape bench, 'of traffic limit'): a loop
 * that reads and writes as many bytes as a conversion, in contiguous
 * streams, with nothing else to do, so that the compiler vectorises it
 * whole. Included by each level's kernel file with XS_LEVEL defined, as
 * kernels_columns.h is; its xs_traffic_<level> is the level's ``traffic``
 * (kernels.h). */
#include "base/job.h"

#define XS_TRAFFIC_CAT_(a, b) a##_##b
#define XS_TRAFFIC_CAT(a, b) XS_TRAFFIC_CAT_(a, b)

/* Rows per block: the block of the smaller side stays in L1. */
#define XS_TRAFFIC_BLOCK 1024

/* Read n_in int64 and write n_out, one a multiple k of the other: the
 * sum of k streams of the input where it is the larger (as ravel reads
 * more than it writes), or k copies of the input where the output is (as
 * unravel writes more). */
static void XS_TRAFFIC_CAT(xs_traffic, XS_LEVEL)(const int64_t *restrict in, ptrdiff_t n_in,
                                          int64_t *restrict out, ptrdiff_t n_out) {
    if (n_in <= 0 || n_out <= 0) return;
    if (n_in >= n_out) {
        const ptrdiff_t k = n_in / n_out;
        for (ptrdiff_t b0 = 0; b0 < n_out; b0 += XS_TRAFFIC_BLOCK) {
            const ptrdiff_t b1 = n_out - b0 < XS_TRAFFIC_BLOCK ? n_out : b0 + XS_TRAFFIC_BLOCK;
            for (ptrdiff_t i = b0; i < b1; i++) out[i] = in[i];
            for (ptrdiff_t j = 1; j < k; j++)
                for (ptrdiff_t i = b0; i < b1; i++) out[i] += in[j * n_out + i];
        }
        return;
    }
    const ptrdiff_t k = n_out / n_in;
    for (ptrdiff_t b0 = 0; b0 < n_in; b0 += XS_TRAFFIC_BLOCK) {
        const ptrdiff_t b1 = n_in - b0 < XS_TRAFFIC_BLOCK ? n_in : b0 + XS_TRAFFIC_BLOCK;
        for (ptrdiff_t j = 0; j < k; j++)
            for (ptrdiff_t i = b0; i < b1; i++) out[j * n_in + i] = in[i];
    }
}

#undef XS_TRAFFIC_BLOCK
#undef XS_TRAFFIC_CAT
#undef XS_TRAFFIC_CAT_
