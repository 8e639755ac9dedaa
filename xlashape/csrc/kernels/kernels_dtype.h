/* One index dtype's kernels at one CPU level: the template that a level's
 * file includes once per entry of its XS_LEVEL_DTYPES (base/each.h), which
 * sets XS_T, XS_TN, XS_UNRAVEL and XS_HAS_VLOADS from the entry (plan.h's
 * registry says what each means) and compiles kernels_impl.h with them.
 *
 * At a vector level (XS_VL), a dtype whose loops read it in vectors needs
 * its loads from the level's vector header, which announces each
 * (XS_VLOAD_<tn>, XS_VLOAD_OFFSETS_<tn>); a missing one stops the build
 * here, by name, rather than deep in kernels_impl.h. */
#define XS_T XS_EACH_ENTRY(XS_DTYPE_T)
#define XS_TN XS_EACH_ENTRY(XS_DTYPE_TN)
#define XS_UNRAVEL XS_EACH_ENTRY(XS_DTYPE_UNRAVEL)
#define XS_HAS_VLOADS XS_EACH_ENTRY(XS_DTYPE_VLOADS)
#define XS_DT_CAT_(a, b) a##b
#define XS_DT_CAT(a, b) XS_DT_CAT_(a, b)

#if defined(XS_VL) && XS_HAS_VLOADS && !XS_DT_CAT(XS_VLOAD_, XS_TN)
_Static_assert(0, "this level lists a dtype whose vector loops read it, and its vector header "
                  "has no " XS_EACH_STR(XS_DT_CAT(xs_vload_, XS_TN)) " (XS_VLOAD_<tn>)");
#error "kernels_dtype.h: a vector load is missing, named by the assertion above"
#elif defined(XS_VL) && XS_HAS_VLOADS && XS_UNRAVEL && !XS_DT_CAT(XS_VLOAD_OFFSETS_, XS_TN)
_Static_assert(0, "this level lists a dtype whose vector unravel reads it, and its vector header "
                  "has no " XS_EACH_STR(XS_DT_CAT(xs_vload_offsets_, XS_TN)) " and "
                  XS_EACH_STR(XS_DT_CAT(xs_vload_ioffsets_, XS_TN)) " (XS_VLOAD_OFFSETS_<tn>)");
#error "kernels_dtype.h: a vector load is missing, named by the assertion above"
#else
#include "kernels/kernels_impl.h"
#endif

#undef XS_T
#undef XS_TN
#undef XS_UNRAVEL
#undef XS_HAS_VLOADS
#undef XS_DT_CAT_
#undef XS_DT_CAT
