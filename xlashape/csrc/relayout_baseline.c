/* Relayout kernels in plain C, for any CPU (relayout_impl.h). */
#define XS_RELAYOUT_VEC 0
#include "relayout_impl.h"

const xs_relayout_kernels xs_relayout_baseline = {"baseline", xs_relayout_range};
