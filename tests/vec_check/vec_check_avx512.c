/* The level "avx512" of vec_check.h: vec_check_impl.h over
 * kernels_vec_avx512.h, compiled for AVX-512 by the target pragma of
 * levels.h as kernels_avx512.c is; x86 with GCC or clang only. */
#include "vec_check.h"
#include "base/levels.h"

#if XS_X86_DISPATCH

/* Outside the target pragma: it runs on every CPU. As xs_best_level. */
static int xs_vcheck_avx512_supported(void) { return xs_cpu_supports(XS_FEATURES_avx512); }

XS_TARGET_BEGIN(XS_FEATURES_avx512)
#include "kernels/kernels_common.h"
#include "vec/kernels_vec_avx512.h"
#include "vec/kernels_vec.h"

static unsigned xs_vcheck_ok_bits(xs_vok ok) { return (unsigned)ok; }

#define XS_VCHECK_LEVEL avx512
#define XS_VCHECK_SUPPORTED xs_vcheck_avx512_supported
#include "vec_check_impl.h"
XS_TARGET_END()
#endif
