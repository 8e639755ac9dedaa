/* The baseline level: every kernel in plain C for any CPU (SSE2 on
 * x86-64), every index dtype of plan.h's list, and the level's struct
 * (kernels.h). */
#include "kernels.h"
#include "kernels_common.h"
#include "kernels_generic.h"

#define XS_LEVEL baseline
#define XS_LEVEL_DTYPES XS_DTYPES
#include "kernels_dtypes.h"
#include "kernels_columns.h"
#include "kernels_traffic.h"
#include "tiled_kernels.h"
#define XS_RELAYOUT_VEC 0
#include "relayout_impl.h"
#include "kernels_table.h"
