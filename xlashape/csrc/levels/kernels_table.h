/* The struct of kernels.h for the level being compiled: included last by
 * each level's file, with XS_LEVEL its name and XS_LEVEL_DTYPES(X) the
 * entries of plan.h's registry whose kernels (kernels/kernels_dtype.h) it
 * has compiled. A dtype's unravel kernels are there where its entry says
 * so; the 32-bit ones where they also read it in vectors. */
#define XS_TABLE_CAT_(a, b, c) a##_##b##_##c
#define XS_TABLE_CAT(a, b, c) XS_TABLE_CAT_(a, b, c)
#define XS_TABLE_FN(name, tn) XS_TABLE_CAT(name, tn, XS_LEVEL)
#define XS_TABLE_LFN_(name, level) name##_##level
#define XS_TABLE_LFN2(name, level) XS_TABLE_LFN_(name, level)
#define XS_TABLE_LFN(name) XS_TABLE_LFN2(name, XS_LEVEL)
#define XS_TABLE_STR_(name) #name
#define XS_TABLE_STR(name) XS_TABLE_STR_(name)

#define XS_UNRAVEL_OF_0(tn) NULL
#define XS_UNRAVEL_OF_1(tn) (xs_unravel_rows_fn)XS_TABLE_FN(xs_unravel_rows, tn)
#define XS_UNRAVEL32_OF_0_0(tn) NULL
#define XS_UNRAVEL32_OF_0_1(tn) NULL
#define XS_UNRAVEL32_OF_1_0(tn) NULL
#define XS_UNRAVEL32_OF_1_1(tn) (xs_unravel32_fn)XS_TABLE_FN(xs_unravel32, tn)
#define XS_RAVEL_ENTRY(CODE, tn, T, unravel, vloads) \
    [XS_##CODE] = (xs_ravel_rows_fn)XS_TABLE_FN(xs_ravel_rows, tn),
#define XS_COLS_ENTRY(CODE, tn, T, unravel, vloads) [XS_##CODE] = XS_TABLE_FN(xs_ravel_cols, tn),
#define XS_COLS32_ENTRY(CODE, tn, T, unravel, vloads) \
    [XS_##CODE] = XS_TABLE_FN(xs_ravel_cols32, tn),
#define XS_UNRAVEL_ENTRY(CODE, tn, T, unravel, vloads) [XS_##CODE] = XS_UNRAVEL_OF_##unravel(tn),
#define XS_UNRAVEL32_ENTRY(CODE, tn, T, unravel, vloads) \
    [XS_##CODE] = XS_UNRAVEL32_OF_##unravel##_##vloads(tn),

const xs_kernels XS_TABLE_LFN(xs_kernels) = {
    .name = XS_TABLE_STR(XS_LEVEL),
    .ravel = {XS_LEVEL_DTYPES(XS_RAVEL_ENTRY)},
    .ravel_cols = {XS_LEVEL_DTYPES(XS_COLS_ENTRY)},
    .ravel_cols32 = {XS_LEVEL_DTYPES(XS_COLS32_ENTRY)},
    .unravel = {XS_LEVEL_DTYPES(XS_UNRAVEL_ENTRY)},
#ifdef XS_VSTORE_ROWS32  /* the level stores 32-bit rows from its registers */
    .unravel32 = {XS_LEVEL_DTYPES(XS_UNRAVEL32_ENTRY)},
#endif
    .columns = XS_TABLE_LFN(xs_ravel_columns),
    .traffic = XS_TABLE_LFN(xs_traffic),
    .tiled_i32 = &XS_TABLE_FN(xs_tiled_kernels, i32),
    .tiled_i64 = &XS_TABLE_FN(xs_tiled_kernels, i64),
    .relayout = xs_relayout_range,  /* relayout_impl.h, compiled for this level */
};
