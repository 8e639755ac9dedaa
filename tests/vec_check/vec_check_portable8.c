/* The level "portable8" of vec_check.h: vec_check_impl.h over
 * kernels_vec_portable.h with 8 lanes (as AVX-512, with its rank sets), and
 * the untiled loops of kernels_impl.h compiled over it. Any CPU, any
 * compiler. */
#include "vec_check.h"

#include "kernels/kernels_common.h"
#define XS_PORTABLE_VL 8
#include "vec/kernels_vec_portable.h"
#include "vec/kernels_vec.h"

static int xs_vcheck_anywhere(void) { return 1; }

static unsigned xs_vcheck_ok_bits(xs_vok ok) {
    unsigned bits = 0;
    for (int l = 0; l < XS_VL; l++) bits |= (unsigned)ok.good[l] << l;
    return bits;
}

#define XS_VCHECK_LEVEL portable8
#define XS_VCHECK_SUPPORTED xs_vcheck_anywhere
#define XS_VCHECK_KERNELS 1
#include "vec_check_impl.h"
