/* The batch kernels of one index type at one CPU level.
 *
 * Included by a level's file (kernels_baseline.c, kernels_avx2.c,
 * kernels_avx512.c) once per index type, with XS_T (the C type), XS_TN
 * (its short name) and XS_LEVEL (the level's name) defined. The level's
 * file sets the compiler's target for the whole inclusion, so the same
 * loops become SSE2, AVX2 or AVX-512 code; no global -m flag is needed.
 *
 * Unravel kernels are compiled only where XS_UNRAVEL is 1 (32- and 64-bit
 * types); 8- and 16-bit offsets take the general kernel of
 * kernels_generic.c.
 *
 * Both kernels take rows [start, stop) of C-contiguous arrays and return
 * nonzero when some row is bad (an index out of range, or an offset
 * outside the buffer or on padding); the caller then finds the first bad
 * row with the exact row steps of plan.h. Loops are written so that the
 * compiler vectorises them: the rank is a compile-time constant (a switch
 * over ranks 1-8), checks are or-ed into a flag instead of branching, and
 * unravel works on blocks of rows one position at a time.
 */

#define XS_CAT3_(a, b, c) a##_##b##_##c
#define XS_CAT3(a, b, c) XS_CAT3_(a, b, c)
#define XS_FN(name) XS_CAT3(name, XS_TN, XS_LEVEL)

/* -- ravel ----------------------------------------------------------------- */

static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_ranked)(
        const xs_plan *p, const XS_T *restrict rows, int64_t *restrict out,
        ptrdiff_t start, ptrdiff_t stop, const int R) {
    uint64_t extent[XS_MAX_UNROLLED], stride[XS_MAX_UNROLLED], bad = 0;
    for (int j = 0; j < R; j++) {
        extent[j] = p->extent[j];
        stride[j] = p->stride[j];
    }
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t acc = 0;
        for (int j = 0; j < R; j++) {
            uint64_t v = (uint64_t)rows[i * R + j];  /* a negative becomes huge */
            bad |= v >= extent[j];
            acc += v * stride[j];
        }
        out[i] = (int64_t)acc;
    }
    return bad;
}

uint64_t XS_FN(xs_ravel_rows)(const xs_plan *p, const XS_T *rows, int64_t *out,
                              ptrdiff_t start, ptrdiff_t stop) {
    switch (p->rank) {
    case 1: return XS_FN(xs_ravel_ranked)(p, rows, out, start, stop, 1);
    case 2: return XS_FN(xs_ravel_ranked)(p, rows, out, start, stop, 2);
    case 3: return XS_FN(xs_ravel_ranked)(p, rows, out, start, stop, 3);
    case 4: return XS_FN(xs_ravel_ranked)(p, rows, out, start, stop, 4);
    case 5: return XS_FN(xs_ravel_ranked)(p, rows, out, start, stop, 5);
    case 6: return XS_FN(xs_ravel_ranked)(p, rows, out, start, stop, 6);
    case 7: return XS_FN(xs_ravel_ranked)(p, rows, out, start, stop, 7);
    case 8: return XS_FN(xs_ravel_ranked)(p, rows, out, start, stop, 8);
    }
    uint64_t bad = 0, value[XS_MAX_UNROLLED];
    const int rank = p->rank;
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t acc = 0;
        for (int j0 = 0; j0 < rank; j0 += XS_MAX_UNROLLED) {
            int m = rank - j0 < XS_MAX_UNROLLED ? rank - j0 : XS_MAX_UNROLLED;
            for (int j = 0; j < m; j++) value[j] = (uint64_t)rows[i * rank + j0 + j];
            acc += xs_ravel_row(value, p->extent + j0, p->stride + j0, m, &bad);
        }
        out[i] = (int64_t)acc;
    }
    return bad;
}

/* -- unravel --------------------------------------------------------------- */
#if XS_UNRAVEL

static XS_ALWAYS_INLINE uint64_t XS_FN(xs_unravel_ranked)(
        const xs_plan *p, const XS_T *restrict linear, int64_t *restrict out,
        ptrdiff_t s0, ptrdiff_t s1, ptrdiff_t start, ptrdiff_t stop,
        const int R, const int padded, const int method) {
    uint64_t extent[XS_MAX_UNROLLED], width[XS_MAX_UNROLLED], mask[XS_MAX_UNROLLED];
    double reciprocal[XS_MAX_UNROLLED];
    int shift[XS_MAX_UNROLLED];
    xs_divisor divisor[XS_MAX_UNROLLED];
    for (int k = 0; k < R; k++) {
        extent[k] = p->order_extent[k];
        divisor[k] = p->divisor[k];
        width[k] = p->divisor[k].divisor;
        mask[k] = width[k] - 1;
        shift[k] = p->divisor[k].shift;
        reciprocal[k] = p->reciprocal[k];
    }
    const uint64_t size = p->size;
    uint64_t bad = 0;
    uint64_t n[XS_BLOCK];
    int64_t pos[XS_MAX_UNROLLED][XS_BLOCK];
    const int64_t *column[XS_MAX_UNROLLED];  /* dimension d's indices */
    for (int d = 0; d < R; d++) column[d] = pos[p->position[d]];

    for (ptrdiff_t b0 = start; b0 < stop; b0 += XS_BLOCK) {
        const int nb = (int)(stop - b0 < XS_BLOCK ? stop - b0 : XS_BLOCK);
        const XS_T *lin = linear + b0;
        for (int i = 0; i < nb; i++) {
            uint64_t v = (uint64_t)lin[i];  /* a negative becomes huge */
            uint64_t outside = v >= size;
            bad |= outside;
            n[i] = outside ? 0 : v;        /* flagged; keep the arithmetic in range */
        }
        if (method == XS_DIV_DOUBLE) {
            /* Exact while offsets stay below 2**52: the quotient rounded
             * from n * (1 / w) is off by at most one, and the remainder,
             * computed in integers, says which way. Integer selects, not
             * branches, so that every level vectorises the loop. */
            for (int k = 0; k < R - 1; k++) {
                const int64_t w = (int64_t)width[k];
                const double rw = reciprocal[k];
                int64_t *restrict out_k = pos[k];
                for (int i = 0; i < nb; i++) {
                    double q = xs_round52(xs_u52_to_double(n[i]) * rw);
                    int64_t qi = (int64_t)xs_double_to_u52(q);
                    int64_t r = (int64_t)n[i] - qi * w;
                    int64_t below = r >> 63;                  /* -1 when q was one too big */
                    qi += below;
                    r += w & below;
                    int64_t above = -(int64_t)(r >= w);       /* -1 when q was one too small */
                    qi -= above;
                    r -= w & above;
                    if (padded) bad |= (uint64_t)r >= extent[k];
                    out_k[i] = r;
                    n[i] = (uint64_t)qi;
                }
            }
        } else {
            for (int k = 0; k < R - 1; k++) {
                int64_t *restrict out_k = pos[k];
                for (int i = 0; i < nb; i++) {
                    uint64_t q, r;
                    if (method == XS_DIV_POW2) {
                        q = n[i] >> shift[k];
                        r = n[i] & mask[k];
                    } else {
                        q = xs_divide(n[i], &divisor[k]);
                        r = n[i] - q * width[k];
                    }
                    if (padded) bad |= r >= extent[k];
                    out_k[i] = (int64_t)r;
                    n[i] = q;
                }
            }
        }
        /* What is left is the most major position: no division needed. */
        {
            int64_t *restrict out_k = pos[R - 1];
            for (int i = 0; i < nb; i++) {
                if (padded) bad |= n[i] >= extent[R - 1];
                out_k[i] = (int64_t)n[i];
            }
        }
        if (s0 == R && s1 == 1) {  /* a C-contiguous (N, rank) result */
            int64_t *restrict row = out + b0 * R;
            for (int i = 0; i < nb; i++)
                for (int d = 0; d < R; d++) row[i * R + d] = column[d][i];
        } else {                   /* e.g. the (rank, N) result of unravel_index */
            for (int d = 0; d < R; d++) {
                int64_t *restrict o = out + b0 * s0 + d * s1;
                const int64_t *restrict c = column[d];
                if (s0 == 1)
                    for (int i = 0; i < nb; i++) o[i] = c[i];
                else
                    for (int i = 0; i < nb; i++) o[i * s0] = c[i];
            }
        }
    }
    return bad;
}

#define XS_UNRAVEL_RANKS(padded, method)                                                \
    switch (p->rank) {                                                                  \
    case 1: return XS_FN(xs_unravel_ranked)(p, linear, out, s0, s1, start, stop, 1, padded, method); \
    case 2: return XS_FN(xs_unravel_ranked)(p, linear, out, s0, s1, start, stop, 2, padded, method); \
    case 3: return XS_FN(xs_unravel_ranked)(p, linear, out, s0, s1, start, stop, 3, padded, method); \
    case 4: return XS_FN(xs_unravel_ranked)(p, linear, out, s0, s1, start, stop, 4, padded, method); \
    case 5: return XS_FN(xs_unravel_ranked)(p, linear, out, s0, s1, start, stop, 5, padded, method); \
    case 6: return XS_FN(xs_unravel_ranked)(p, linear, out, s0, s1, start, stop, 6, padded, method); \
    case 7: return XS_FN(xs_unravel_ranked)(p, linear, out, s0, s1, start, stop, 7, padded, method); \
    case 8: return XS_FN(xs_unravel_ranked)(p, linear, out, s0, s1, start, stop, 8, padded, method); \
    }                                                                                   \
    break;

/* Rows [start, stop) of a contiguous ``linear``; row i, dimension d of the
 * result is out[i * s0 + d * s1] (strides in elements). */
uint64_t XS_FN(xs_unravel_rows)(const xs_plan *p, const XS_T *linear, int64_t *out,
                                ptrdiff_t s0, ptrdiff_t s1, ptrdiff_t start, ptrdiff_t stop) {
    /* The double-precision division pays only where it vectorises (AVX2 and
     * up: measured 2.8x and 4.5x the 128-bit multiply's speed at rank 4);
     * the baseline keeps the 128-bit multiply, which is faster scalar. */
    const int method = p->pow2 ? XS_DIV_POW2
                       : (XS_VECTOR_DIVISION && p->exact_double) ? XS_DIV_DOUBLE
                                                                 : XS_DIV_EXACT;
    if (p->rank <= XS_MAX_UNROLLED) {
        if (p->padded) {
            switch (method) {
            case XS_DIV_POW2: XS_UNRAVEL_RANKS(1, XS_DIV_POW2)
            case XS_DIV_DOUBLE: XS_UNRAVEL_RANKS(1, XS_DIV_DOUBLE)
            default: XS_UNRAVEL_RANKS(1, XS_DIV_EXACT)
            }
        } else {
            switch (method) {
            case XS_DIV_POW2: XS_UNRAVEL_RANKS(0, XS_DIV_POW2)
            case XS_DIV_DOUBLE: XS_UNRAVEL_RANKS(0, XS_DIV_DOUBLE)
            default: XS_UNRAVEL_RANKS(0, XS_DIV_EXACT)
            }
        }
    }
    uint64_t bad = 0;
    for (ptrdiff_t i = start; i < stop; i++)
        bad |= xs_unravel_value(p, (uint64_t)linear[i], (char *)(out + i * s0), 8 * s1);
    return bad;
}

#undef XS_UNRAVEL_RANKS
#endif
#undef XS_FN
