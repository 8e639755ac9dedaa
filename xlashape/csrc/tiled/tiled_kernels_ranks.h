/* tiled_kernels_impl.h once per rank up to XS_TILED_MAX_RANK's 8, for the
 * index type XS_T that tiled_kernels.h has set. No include guard: included
 * once per index type. */
#define XS_R 1
#include "tiled/tiled_kernels_impl.h"
#undef XS_R
#define XS_R 2
#include "tiled/tiled_kernels_impl.h"
#undef XS_R
#define XS_R 3
#include "tiled/tiled_kernels_impl.h"
#undef XS_R
#define XS_R 4
#include "tiled/tiled_kernels_impl.h"
#undef XS_R
#define XS_R 5
#include "tiled/tiled_kernels_impl.h"
#undef XS_R
#define XS_R 6
#include "tiled/tiled_kernels_impl.h"
#undef XS_R
#define XS_R 7
#include "tiled/tiled_kernels_impl.h"
#undef XS_R
#define XS_R 8
#include "tiled/tiled_kernels_impl.h"
#undef XS_R
