/* The baseline level: every kernel in plain C for any CPU (SSE2 on
 * x86-64), every index dtype of plan.h's list, and the level's struct
 * (kernels.h). */
#include "levels/kernels.h"
#include "kernels/kernels_common.h"
#include "kernels/kernels_generic.h"

#define XS_LEVEL baseline
#define XS_LEVEL_DTYPES XS_DTYPES
#define XS_EACH_LIST XS_LEVEL_DTYPES
#define XS_EACH_FILE "kernels/kernels_dtype.h"
#include "base/each.h"
#include "kernels/kernels_columns.h"
#include "kernels/kernels_traffic.h"
#include "tiled/tiled_kernels.h"
#include "relayout/relayout_impl.h"
#include "levels/kernels_table.h"
