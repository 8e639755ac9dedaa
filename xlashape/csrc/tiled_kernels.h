/* The fast tiled kernels at one CPU level, for int32 and int64 indices.
 *
 * Included by tiled.c once per level, with XS_LEVEL (the level's name)
 * defined, under that level's target pragma (as kernels_impl.h is for the
 * untiled kernels). Each
 * kernel is written per rank R, so that the compiler unrolls the loops
 * over dimensions and terms and keeps the terms in registers; each returns
 * the first bad row of rows [start, stop), or -1.
 *
 * Ravel, by terms: offset = sum over terms of ((index[dim] >> shift) &
 * mask) * stride, one term per axis of the tiled array (axes of extent 1
 * add nothing and are left out), rows read a block at a time into columns
 * and each term one pass over a column. Ravel by dimension (t->d_shift
 * set, as under one power-of-two tile): one pass over the rows, two terms
 * per dimension. Unravel: the offset split by the axes' extents, most
 * minor first (a shift and a mask for a power of two, a division in
 * doubles otherwise), each digit shifted back into its dimension's index;
 * an index past its dimension lies in tile padding.
 */

#define XS_TCAT4_(a, b, c, d) a##_##b##_##c##_##d
#define XS_TCAT4(a, b, c, d) XS_TCAT4_(a, b, c, d)
#define XS_TFN(name, R, TN) XS_TCAT4(name, R, TN, XS_LEVEL)

#define XS_TILED_RAVEL(R, T, TN)                                                           \
static ptrdiff_t XS_TFN(xs_tiled_ravel, R, TN)(const xs_tiled *t, const void *data,     \
                                           int64_t *out, ptrdiff_t start,           \
                                           ptrdiff_t stop) {                        \
    const T *rows = (const T *)data;                                          \
    uint64_t col[R][XS_TILED_BLOCK], extent[R];                                     \
    for (int j = 0; j < R; j++) extent[j] = t->extent[j];                           \
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_BLOCK) {                      \
        ptrdiff_t n = stop - b < XS_TILED_BLOCK ? stop - b : XS_TILED_BLOCK;        \
        const T *p = rows + b * R;                                               \
        uint64_t bad = 0;                                                           \
        for (ptrdiff_t r = 0; r < n; r++)                                           \
            for (int j = 0; j < R; j++) {                                           \
                col[j][r] = (uint64_t)p[r * R + j];  /* a negative becomes huge */  \
                bad |= col[j][r] >= extent[j];                                      \
            }                                                                       \
        if (bad) {                                                                  \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                for (int j = 0; j < R; j++)                                         \
                    if (col[j][r] >= extent[j]) return b + r;                       \
        }                                                                           \
        int64_t *o = out + b;                                                       \
        {                                                                           \
            const uint64_t *c = col[t->dim[0]];                                     \
            int shift = t->shift[0];                                                \
            uint64_t mask = t->mask[0], stride = t->stride[0];                      \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                o[r] = (int64_t)(((c[r] >> shift) & mask) * stride);                \
        }                                                                           \
        for (int k = 1; k < t->n_terms; k++) {                                      \
            const uint64_t *c = col[t->dim[k]];                                     \
            int shift = t->shift[k];                                                \
            uint64_t mask = t->mask[k], stride = t->stride[k];                      \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                o[r] += (int64_t)(((c[r] >> shift) & mask) * stride);               \
        }                                                                           \
    }                                                                               \
    return -1;                                                                      \
}

#define XS_TILED_RAVEL_DIMS(R, T, TN)                                                      \
static ptrdiff_t XS_TFN(xs_tiled_ravel_dims, R, TN)(const xs_tiled *t, const void *data, \
                                                int64_t *restrict out,              \
                                                ptrdiff_t start, ptrdiff_t stop) {  \
    const T *restrict rows = (const T *)data;                                 \
    uint64_t extent[R], stride[R], mask[R], bad = 0;                                \
    int shift[R], weight[R];                                                        \
    for (int j = 0; j < R; j++) {                                                   \
        extent[j] = t->extent[j];                                                   \
        shift[j] = t->d_shift[j];                                                   \
        stride[j] = t->d_stride[j];                                                 \
        mask[j] = t->d_mask[j];                                                     \
        weight[j] = t->d_weight[j];                                                 \
    }                                                                               \
    for (ptrdiff_t i = start; i < stop; i++) {                                      \
        uint64_t acc = 0;                                                           \
        for (int j = 0; j < R; j++) {                                               \
            uint64_t v = (uint64_t)rows[i * R + j];  /* a negative becomes huge */  \
            bad |= v >= extent[j];                                                  \
            acc += (v >> shift[j]) * stride[j] + ((v & mask[j]) << weight[j]);      \
        }                                                                           \
        out[i] = (int64_t)acc;                                                      \
    }                                                                               \
    if (bad) {                                                                      \
        for (ptrdiff_t i = start; i < stop; i++)                                    \
            for (int j = 0; j < R; j++)                                             \
                if ((uint64_t)rows[i * R + j] >= extent[j]) return i;               \
    }                                                                               \
    return -1;                                                                      \
}

#define XS_TILED_UNRAVEL(R, T, TN)                                                         \
static ptrdiff_t XS_TFN(xs_tiled_unravel, R, TN)(const xs_tiled *t, const void *data,   \
                                             char *out, ptrdiff_t step0,            \
                                             ptrdiff_t step1, ptrdiff_t start,      \
                                             ptrdiff_t stop) {                      \
    const T *linear = (const T *)data;                                        \
    uint64_t rest[XS_TILED_BLOCK], value[R][XS_TILED_BLOCK];                        \
    const int m = t->n_terms;                                                       \
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_BLOCK) {                      \
        ptrdiff_t n = stop - b < XS_TILED_BLOCK ? stop - b : XS_TILED_BLOCK;        \
        uint64_t bad = 0;                                                           \
        for (ptrdiff_t r = 0; r < n; r++) {                                         \
            rest[r] = (uint64_t)linear[b + r];                                      \
            bad |= rest[r] >= t->size;                                              \
        }                                                                           \
        if (bad) {                                                                  \
            for (ptrdiff_t r = 0; r < n; r++) if (rest[r] >= t->size) return b + r; \
        }                                                                           \
        for (int j = 0; j < R; j++)                                                 \
            for (ptrdiff_t r = 0; r < n; r++) value[j][r] = 0;                      \
        for (int k = 0; k < m - 1; k++) {                                           \
            uint64_t *v = value[t->u_dim[k]];                                       \
            int weight = t->u_weight[k];                                            \
            uint64_t extent = t->u_radix[k].divisor;                                \
            if (t->u_pow2[k]) {                                                     \
                int shift = t->u_shift[k];                                          \
                for (ptrdiff_t r = 0; r < n; r++) {                                 \
                    v[r] += (rest[r] & (extent - 1)) << weight;                     \
                    rest[r] >>= shift;                                              \
                }                                                                   \
            } else {                                                                \
                const int64_t w = (int64_t)extent;                                  \
                const double inverse = 1.0 / (double)extent;                        \
                for (ptrdiff_t r = 0; r < n; r++) {                                 \
                    double q = xs_round52(xs_u52_to_double(rest[r]) * inverse);     \
                    int64_t qi = (int64_t)xs_double_to_u52(q);                      \
                    int64_t d = (int64_t)rest[r] - qi * w;                          \
                    int64_t below = d >> 63;          /* -1: q one too big */       \
                    qi += below;                                                    \
                    d += w & below;                                                 \
                    int64_t above = -(int64_t)(d >= w);  /* -1: q one too small */  \
                    qi -= above;                                                    \
                    d -= w & above;                                                 \
                    v[r] += (uint64_t)d << weight;                                  \
                    rest[r] = (uint64_t)qi;                                         \
                }                                                                   \
            }                                                                       \
        }                                                                           \
        {                                                                           \
            uint64_t *v = value[t->u_dim[m - 1]];                                   \
            int weight = t->u_weight[m - 1];                                        \
            for (ptrdiff_t r = 0; r < n; r++) v[r] += rest[r] << weight;            \
        }                                                                           \
        for (int j = 0; j < R; j++) {                                               \
            uint64_t extent = t->extent[j];                                         \
            for (ptrdiff_t r = 0; r < n; r++) bad |= value[j][r] >= extent;         \
        }                                                                           \
        if (bad) {                                                                  \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                for (int j = 0; j < R; j++)                                         \
                    if (value[j][r] >= t->extent[j]) return b + r;                  \
        }                                                                           \
        if (step0 == R * (ptrdiff_t)sizeof(int64_t) && step1 == sizeof(int64_t)) { \
            int64_t *restrict row = (int64_t *)out + b * R;  /* C-contiguous */     \
            for (ptrdiff_t r = 0; r < n; r++)                                       \
                for (int j = 0; j < R; j++) row[r * R + j] = (int64_t)value[j][r];  \
        } else {                                                                    \
            for (ptrdiff_t r = 0; r < n; r++) {                                     \
                char *row = out + (b + r) * step0;                                  \
                for (int j = 0; j < R; j++)                                         \
                    *(int64_t *)(row + j * step1) = (int64_t)value[j][r];           \
            }                                                                       \
        }                                                                           \
    }                                                                               \
    return -1;                                                                      \
}

#define XS_TILED_KERNELS(R, T, TN) \
    XS_TILED_RAVEL(R, T, TN) XS_TILED_RAVEL_DIMS(R, T, TN) XS_TILED_UNRAVEL(R, T, TN)
#define XS_TILED_RANKS(T, TN)                                                       \
    XS_TILED_KERNELS(1, T, TN) XS_TILED_KERNELS(2, T, TN) XS_TILED_KERNELS(3, T, TN)  \
    XS_TILED_KERNELS(4, T, TN) XS_TILED_KERNELS(5, T, TN) XS_TILED_KERNELS(6, T, TN)  \
    XS_TILED_KERNELS(7, T, TN) XS_TILED_KERNELS(8, T, TN)
XS_TILED_RANKS(int32_t, i32)
XS_TILED_RANKS(int64_t, i64)

#define XS_TILED_BY_RANK(name, TN)                                                  \
    {NULL, XS_TFN(name, 1, TN), XS_TFN(name, 2, TN), XS_TFN(name, 3, TN),          \
     XS_TFN(name, 4, TN), XS_TFN(name, 5, TN), XS_TFN(name, 6, TN),                \
     XS_TFN(name, 7, TN), XS_TFN(name, 8, TN)}
#define XS_TILED_TABLE(TN)                                                          \
    static const xs_tiled_kernels XS_TCAT4(xs_tiled, kernels, TN, XS_LEVEL) = {     \
        XS_TILED_BY_RANK(xs_tiled_ravel, TN), XS_TILED_BY_RANK(xs_tiled_ravel_dims, TN), \
        XS_TILED_BY_RANK(xs_tiled_unravel, TN)};
XS_TILED_TABLE(i32)
XS_TILED_TABLE(i64)

#undef XS_TILED_RAVEL
#undef XS_TILED_RAVEL_DIMS
#undef XS_TILED_UNRAVEL
#undef XS_TILED_KERNELS
#undef XS_TILED_RANKS
#undef XS_TILED_BY_RANK
#undef XS_TILED_TABLE
