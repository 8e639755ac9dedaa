/* The table of vec_check.h's levels: the portable ones everywhere, the x86
 * ones where GCC or clang compiles for x86, NEON where they compile for
 * aarch64. */
#include "vec_check.h"

#include "base/levels.h"
#include "kernels/kernels_common.h"

static const xs_vcheck_level *const levels[] = {
    &xs_vcheck_portable4,
    &xs_vcheck_portable8,
#if XS_X86_DISPATCH
    &xs_vcheck_avx2,
    &xs_vcheck_avx512,
#endif
#if XS_ARM_LEVELS
    &xs_vcheck_neon,
#endif
};

/* The prefetch mode that the portable levels' kernels ask for, which
 * driver/dispatch.c holds in the package: the one reaching farthest, so
 * that their loops run with a prefetch in them. */
int xs_prefetch_mode(void) { return XS_PREFETCH_L2; }

int xs_vcheck_nlevels(void) { return (int)(sizeof levels / sizeof *levels); }

const xs_vcheck_level *xs_vcheck_level_at(int k) {
    return k >= 0 && k < xs_vcheck_nlevels() ? levels[k] : NULL;
}

#define XS_VCHECK_NAME(name) #name,
static const char *const op_names[XS_VCHECK_NOPS] = {XS_VCHECK_OPS(XS_VCHECK_NAME)};

const char *xs_vcheck_op_name(int op) {
    return op >= 0 && op < XS_VCHECK_NOPS ? op_names[op] : NULL;
}
