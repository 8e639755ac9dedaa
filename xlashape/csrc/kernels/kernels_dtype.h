/* One entry of a level's dtype list, compiled by kernels_impl.h: the entry
 * at position XS_DT_K, if the list is that long (kernels_dtypes.h). No
 * include guard: included once per position. */
#if XS_DT_K < (0 XS_LEVEL_DTYPES(XS_DT_COUNT))
#define XS_T XS_DT_APPLY(XS_DT_TYPE, XS_DT_AT(XS_DT_K))
#define XS_TN XS_DT_APPLY(XS_DT_SHORT, XS_DT_AT(XS_DT_K))
#define XS_UNRAVEL XS_DT_APPLY(XS_DT_UNRAVEL, XS_DT_AT(XS_DT_K))
#include "kernels/kernels_impl.h"
#undef XS_T
#undef XS_TN
#undef XS_UNRAVEL
#endif
#undef XS_DT_K
