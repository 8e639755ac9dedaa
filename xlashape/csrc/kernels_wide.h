/* The int32 and int64 kernels of one vector level: included by
 * kernels_avx2.c and kernels_avx512.c inside their target pragmas, with
 * XS_LEVEL defined. */
#define XS_UNRAVEL 1
#define XS_T int32_t
#define XS_TN i32
#include "kernels_impl.h"
#undef XS_T
#undef XS_TN
#define XS_T int64_t
#define XS_TN i64
#include "kernels_impl.h"
#undef XS_T
#undef XS_TN
#undef XS_UNRAVEL
