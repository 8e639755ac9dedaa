/* Ravel by dimension with E extra digits, for one index type and rank at
 * one CPU level: included by tiled_kernels_impl.h once per E (0, 1, 2),
 * with XS_E defined besides its own parameters. E is a constant from the
 * start, as the rank is (tiled_kernels_impl.h says why).
 *
 * Each dimension's index takes a tile term ((v >> shift) * stride) and a
 * within-tile digit ((v & mask) << weight), and E more within-tile digits
 * of chosen dimensions are added; one pass over the rows. The row kernel
 * (tiled_kernels_dims_rows.h) is compiled twice, in 64-bit and in 32-bit
 * arithmetic: the types set the width of the lanes that the compiler
 * vectorises it in.
 */

#define XS_EFN(name) XS_TFN(XS_TCAT2(name, XS_E), XS_R, XS_TN)

/* The row kernel in 64-bit arithmetic, every index checked as a uint64
 * (a negative one becomes huge), and in 32-bit arithmetic, for a buffer of
 * at most 2**31 elements (every term of a valid row then fits), each
 * index checked at its own width (a negative one becomes at least 2**31):
 * the compiler vectorises the second in 32-bit lanes. */
#define XS_DNAME xs_tiled_ravel_dims
#define XS_DACC uint64_t
#define XS_DCHECK uint64_t
#include "tiled/tiled_kernels_dims_rows.h"
#define XS_DNAME xs_tiled_ravel_dims32_
#define XS_DACC uint32_t
#define XS_DCHECK XS_U
#include "tiled/tiled_kernels_dims_rows.h"

#ifdef XS_VL
/* At a vector level, for the ranks whose rows the level reads a vector at
 * a time (XS_VRAVEL): XS_VL rows as they lie in memory, each element
 * checked against its extent and turned in place into its share of the
 * offset, the sum of its dimension's terms of xs_tiled_dim_terms, and each
 * row's shares summed as the untiled vector ravel sums them
 * (kernels_vec_*.h). A term is a lane pattern of shifts and one of factors
 * (the dimension of each lane's element picks its own); P patterns serve
 * every vector. A bad row sends the rows read so far to the row kernel,
 * which names it; the last rows take it too. */
static XS_ALWAYS_INLINE xs_vok XS_EFN(xs_tiled_vravel_loop)(
        const XS_T *restrict rows, int64_t *restrict out, ptrdiff_t start, ptrdiff_t stop,
        const xs_vravel *base, xs_vi (*vshift)[XS_FN(xs_tiled_vpatterns)],
        xs_vi (*vcoef)[XS_FN(xs_tiled_vpatterns)], const int narrow) {
    enum { R = XS_R, P = XS_FN(xs_tiled_vpatterns), M = XS_E + 2 };
    xs_vok ok = xs_vok_all();
    xs_vstream s;
    xs_vstream_begin(&s, out + start, XS_STORE_PLAIN);
    for (ptrdiff_t i = start; i < stop; i += XS_VL) {
        xs_vi v[R];
        for (int j = 0; j < R; j++) v[j] = XS_TCAT2(xs_vload_, XS_TN)(rows + i * R + j * XS_VL);
        xs_vravel_check(v, R, base, &ok);
        for (int j = 0; j < R; j++) {
            const int k = j % P;
            xs_vi share = xs_vshl(v[j], vshift[0][k]);
            for (int p = 1; p < M; p++)
                share = xs_vadd(share, xs_vmul(xs_vshr(v[j], vshift[p][k]), vcoef[p][k], narrow));
            v[j] = share;
        }
        xs_vstream_put(&s, xs_vravel_rowsum(v, R, base));
    }
    xs_vstream_end(&s);
    return ok;
}

/* The row kernel by dimension for the rows the vector one leaves (other
 * ranks, the last rows, a block with a bad row): in 32-bit arithmetic for
 * a buffer of at most 2**31 elements, as the table has it at the baseline. */
#define XS_TILED_ROW_DIMS(t)                                                            \
    ((t)->size <= ((uint64_t)1 << 31) ? XS_EFN(xs_tiled_ravel_dims32_)                  \
                                      : XS_EFN(xs_tiled_ravel_dims))

static ptrdiff_t XS_EFN(xs_tiled_vravel_dims)(const xs_tiled *t, const void *data,
                                              int64_t *restrict out, ptrdiff_t start,
                                              ptrdiff_t stop) {
    enum { R = XS_R, P = XS_FN(xs_tiled_vpatterns), M = XS_E + 2 };  /* M: 1 + terms */
    if (!XS_VRAVEL(R)) return XS_TILED_ROW_DIMS(t)(t, data, out, start, stop);
    uint64_t shift[M][R], coef[M][R];  /* shift[0]: the left shift; [1, M): terms */
    int narrow = 1;  /* factors and extents fit 32 bits */
    for (int j = 0; j < R; j++) {
        uint64_t s[M - 1], c[M - 1];
        int n = xs_tiled_dim_terms(t, j, M - 1, &shift[0][j], s, c);
        if (n < 0) return XS_TILED_ROW_DIMS(t)(t, data, out, start, stop);
        narrow &= t->extent[j] <= ((uint64_t)1 << 32);
        for (int p = 1; p < M; p++) {
            shift[p][j] = p <= n ? s[p - 1] : 0;
            coef[p][j] = p <= n ? c[p - 1] : 0;
            narrow &= coef[p][j] < ((uint64_t)1 << 32);
        }
    }
    xs_vravel base;  /* the extents' patterns, and the row sums */
    xs_vravel_init(&base, R, t->extent, t->d_stride);
    xs_vi vshift[M][P], vcoef[M][P];  /* (vcoef[0] unused) */
    for (int p = 0; p < M; p++)
        for (int k = 0; k < P; k++) {
            vshift[p][k] = XS_TLFN(xs_vpattern)(shift[p], R, k);
            if (p > 0) vcoef[p][k] = XS_TLFN(xs_vpattern)(coef[p], R, k);
        }
    const XS_T *rows = (const XS_T *)data;
    const ptrdiff_t vstop = stop - (stop - start) % XS_VL;
    xs_vok ok = narrow
        ? XS_EFN(xs_tiled_vravel_loop)(rows, out, start, vstop, &base, vshift, vcoef, 1)
        : XS_EFN(xs_tiled_vravel_loop)(rows, out, start, vstop, &base, vshift, vcoef, 0);
    if (xs_vok_bad(ok)) return XS_TILED_ROW_DIMS(t)(t, data, out, start, vstop);
    return XS_TILED_ROW_DIMS(t)(t, data, out, vstop, stop);
}
#undef XS_TILED_ROW_DIMS
#endif

#undef XS_EFN
