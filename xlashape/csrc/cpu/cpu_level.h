/* The CPU level in use: picked once, at import, as the best this CPU
 * supports (xs_select_level(-1)), or as asked (xlashape.cpu.set_cpu_level).
 * Its struct of kernels (levels/kernels.h), with the baseline's kernels for
 * the dtypes it lacks, is what the driver, tiled.c and relayout.c run. */
#ifndef XLASHAPE_CPU_LEVEL_H
#define XLASHAPE_CPU_LEVEL_H

#include "levels/kernels.h"

/* The level running now, the best this CPU supports, and each level's
 * name. xs_select_level(-1) picks the best; otherwise the level asked for,
 * if this CPU supports it (returns -1 when it does not). */
int xs_level(void);
int xs_best_level(void);
const char *xs_level_name(int level);
int xs_select_level(int level);

/* The struct of the level in use (picking the best on the first call). */
const xs_kernels *xs_active_kernels(void);

/* The bench's in-cache limit at the level in use: read n_in int64 and
 * write n_out, one a multiple of the other, in contiguous streams
 * (kernels_traffic.h). */
void xs_traffic(const int64_t *in, ptrdiff_t n_in, int64_t *out, ptrdiff_t n_out);
#endif
