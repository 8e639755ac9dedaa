/* kernels_impl.h once for each index dtype of XS_LEVEL_DTYPES (the level's
 * share of plan.h's XS_DTYPES list), with XS_T, XS_TN and XS_UNRAVEL set
 * from its entry, so that a dtype added to the list needs no edit here.
 *
 * The preprocessor cannot include a file once per entry of a list, so this
 * file includes kernels_dtype.h once per position (up to 16), and that
 * file compiles the entry at position XS_DT_K where the list is that long,
 * picking it out of the list turned into arguments. */
#define XS_DT_ARGS(CODE, tn, T, unravel) (CODE, tn, T, unravel),
#define XS_DT_COUNT(CODE, tn, T, unravel) +1
#define XS_DT_APPLY(macro, args) macro args
#define XS_DT_PICK(k, ...) XS_DT_PICK_(k, __VA_ARGS__)
#define XS_DT_PICK_(k, ...) XS_DT_PICK_##k(__VA_ARGS__)
/* Entry k of the list, as (CODE, tn, T, unravel). */
#define XS_DT_AT(k) XS_DT_PICK(k, XS_LEVEL_DTYPES(XS_DT_ARGS) ())
#define XS_DT_TYPE(CODE, tn, T, unravel) T
#define XS_DT_SHORT(CODE, tn, T, unravel) tn
#define XS_DT_UNRAVEL(CODE, tn, T, unravel) unravel
#define XS_DT_PICK_0(a0, ...) a0
#define XS_DT_PICK_1(a0, a1, ...) a1
#define XS_DT_PICK_2(a0, a1, a2, ...) a2
#define XS_DT_PICK_3(a0, a1, a2, a3, ...) a3
#define XS_DT_PICK_4(a0, a1, a2, a3, a4, ...) a4
#define XS_DT_PICK_5(a0, a1, a2, a3, a4, a5, ...) a5
#define XS_DT_PICK_6(a0, a1, a2, a3, a4, a5, a6, ...) a6
#define XS_DT_PICK_7(a0, a1, a2, a3, a4, a5, a6, a7, ...) a7
#define XS_DT_PICK_8(a0, a1, a2, a3, a4, a5, a6, a7, a8, ...) a8
#define XS_DT_PICK_9(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, ...) a9
#define XS_DT_PICK_10(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, ...) a10
#define XS_DT_PICK_11(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, ...) a11
#define XS_DT_PICK_12(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, ...) a12
#define XS_DT_PICK_13(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, ...) a13
#define XS_DT_PICK_14(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, ...) a14
#define XS_DT_PICK_15(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, ...) a15

#define XS_DT_K 0
#include "kernels/kernels_dtype.h"
#define XS_DT_K 1
#include "kernels/kernels_dtype.h"
#define XS_DT_K 2
#include "kernels/kernels_dtype.h"
#define XS_DT_K 3
#include "kernels/kernels_dtype.h"
#define XS_DT_K 4
#include "kernels/kernels_dtype.h"
#define XS_DT_K 5
#include "kernels/kernels_dtype.h"
#define XS_DT_K 6
#include "kernels/kernels_dtype.h"
#define XS_DT_K 7
#include "kernels/kernels_dtype.h"
#define XS_DT_K 8
#include "kernels/kernels_dtype.h"
#define XS_DT_K 9
#include "kernels/kernels_dtype.h"
#define XS_DT_K 10
#include "kernels/kernels_dtype.h"
#define XS_DT_K 11
#include "kernels/kernels_dtype.h"
#define XS_DT_K 12
#include "kernels/kernels_dtype.h"
#define XS_DT_K 13
#include "kernels/kernels_dtype.h"
#define XS_DT_K 14
#include "kernels/kernels_dtype.h"
#define XS_DT_K 15
#include "kernels/kernels_dtype.h"
