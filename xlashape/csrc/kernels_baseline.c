/* Baseline kernels: every index type, for any CPU (SSE2 on x86-64). */
#include "kernels_common.h"

#define XS_LEVEL baseline
#define XS_T int8_t
#define XS_UNRAVEL 0
#define XS_TN i8
#include "kernels_impl.h"
#undef XS_T
#undef XS_TN
#undef XS_UNRAVEL
#define XS_T int16_t
#define XS_UNRAVEL 0
#define XS_TN i16
#include "kernels_impl.h"
#undef XS_T
#undef XS_TN
#undef XS_UNRAVEL
#define XS_T int32_t
#define XS_UNRAVEL 1
#define XS_TN i32
#include "kernels_impl.h"
#undef XS_T
#undef XS_TN
#undef XS_UNRAVEL
#define XS_T int64_t
#define XS_UNRAVEL 1
#define XS_TN i64
#include "kernels_impl.h"
#undef XS_T
#undef XS_TN
#undef XS_UNRAVEL
#define XS_T uint8_t
#define XS_UNRAVEL 0
#define XS_TN u8
#include "kernels_impl.h"
#undef XS_T
#undef XS_TN
#undef XS_UNRAVEL
#define XS_T uint16_t
#define XS_UNRAVEL 0
#define XS_TN u16
#include "kernels_impl.h"
#undef XS_T
#undef XS_TN
#undef XS_UNRAVEL
#define XS_T uint32_t
#define XS_UNRAVEL 1
#define XS_TN u32
#include "kernels_impl.h"
#undef XS_T
#undef XS_TN
#undef XS_UNRAVEL
#define XS_T uint64_t
#define XS_UNRAVEL 1
#define XS_TN u64
#include "kernels_impl.h"
#undef XS_T
#undef XS_TN
#undef XS_UNRAVEL

#include "kernels_columns.h"
#include "kernels_traffic.h"
