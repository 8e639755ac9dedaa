/* The level "neon" of vec_check.h: vec_check_impl.h over
 * kernels_vec_neon.h, compiled as kernels_neon.c is; aarch64 with GCC or
 * clang only (levels.h). */
#include "vec_check.h"
#include "base/levels.h"

#if XS_ARM_LEVELS

/* As xs_best_level: NEON's empty list of features, which every aarch64
 * CPU has. */
static int xs_vcheck_neon_supported(void) { return xs_cpu_supports(XS_FEATURES_neon); }

#include "kernels/kernels_common.h"
#include "vec/kernels_vec_neon.h"
#include "vec/kernels_vec.h"

static unsigned xs_vcheck_ok_bits(xs_vok ok) {
    return (unsigned)(vgetq_lane_u32(ok.on, 0) & 1) | (unsigned)(vgetq_lane_u32(ok.on, 1) & 2) |
           (unsigned)(vgetq_lane_u32(ok.on, 2) & 4) | (unsigned)(vgetq_lane_u32(ok.on, 3) & 8);
}

#define XS_VCHECK_LEVEL neon
#define XS_VCHECK_SUPPORTED xs_vcheck_neon_supported
#include "vec_check_impl.h"
#endif
