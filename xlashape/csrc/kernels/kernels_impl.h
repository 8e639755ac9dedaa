/* The batch kernels of one index type at one CPU level.
 *
 * Included by kernels_dtype.h once per index dtype of a level, with XS_T
 * (the C type), XS_TN (its short name), XS_UNRAVEL and XS_HAS_VLOADS (the
 * registry's flags, plan.h) and XS_LEVEL (the level's name) defined. The level's
 * file sets the compiler's target for the whole inclusion, so the same
 * loops become SSE2, AVX2 or AVX-512 code; no global -m flag is needed.
 *
 * Unravel kernels are compiled only where XS_UNRAVEL is 1 (32- and 64-bit
 * types); 8- and 16-bit offsets take the general kernel of
 * kernels_generic.c. The vector loops, and with them the store stream,
 * only where XS_HAS_VLOADS is 1 (the level's vector header loads the dtype).
 *
 * Ravel also has a kernel of rank contiguous columns (xs_ravel_cols).
 *
 * The kernels take rows [start, stop) of C-contiguous arrays and return
 * nonzero when some row is bad (an index out of range, or an offset
 * outside the buffer or on padding); the caller then finds the first bad
 * row with the exact row steps of plan.h. The rank is a compile-time
 * constant (a switch over XS_RANKS) and checks are or-ed into a flag
 * instead of branching. Ravel's loop is written for the compiler to
 * vectorise. Unravel, at a level with vector operations (XS_VL, from
 * kernels_vec_<level>.h), keeps a vector of rows in registers from the
 * offsets' load to the result's store; at the baseline, or past 2**50
 * elements, it works on blocks of rows one position at a time.
 */

#define XS_CAT3_(a, b, c) a##_##b##_##c
#define XS_CAT3(a, b, c) XS_CAT3_(a, b, c)
#define XS_CAT2_(a, b) a##b
#define XS_CAT2(a, b) XS_CAT2_(a, b)
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

#if defined(XS_VL) && XS_HAS_VLOADS
/* Ravel XS_VL rows at a time, read as they lie in memory (kernels_vec_*.h
 * says how); ``narrow``: every extent and stride fits in 32 bits. The
 * last (stop - start) % XS_VL rows take the loop above. */
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_vector)(
        const xs_plan *p, const XS_T *restrict rows, int64_t *restrict out,
        ptrdiff_t start, ptrdiff_t stop, const int R, const int narrow, int store) {
    xs_vravel t;
    xs_vravel_init(&t, R, p->extent, p->stride);
    xs_vok ok = xs_vok_all();
    const ptrdiff_t vstop = stop - (stop - start) % XS_VL;
    const int prefetch = xs_prefetch_of(store);  /* kernels_common.h */
    xs_vstream s;
    xs_vstream_begin(&s, out + start, store);
    for (ptrdiff_t i = start; i < vstop; i += XS_VL) {
        xs_vi v[XS_MAX_UNROLLED];
        xs_prefetch_ahead(rows + i * R, R * (int)sizeof(XS_T) * XS_VL, prefetch);
        for (int j = 0; j < R; j++) v[j] = XS_CAT2(xs_vload_, XS_TN)(rows + i * R + j * XS_VL);
        xs_vstream_put(&s, xs_vravel_sum(v, R, &t, narrow, &ok));
    }
    xs_vstream_end(&s);
    return (uint64_t)xs_vok_bad(ok) | XS_FN(xs_ravel_ranked)(p, rows, out, vstop, stop, R);
}

static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_cols32_ranked)(
        const xs_plan *p, const char *const *column, void *restrict out, ptrdiff_t start,
        ptrdiff_t stop, const int R, const int step, const int wide);

/* Rows for results stored other than plainly, by a loop without vectors
 * of its own: blocks of offsets on the stack, each put on the store
 * stream; the last items past a whole vector are copied after the stream
 * ends. The rows are those of ``rows`` (xs_ravel_ranked: a rank the level
 * reads one at a time) or, where ``column`` is not NULL, those of its
 * contiguous columns in 32-bit arithmetic (xs_ravel_cols32_ranked, wide:
 * 32-bit indices, a buffer of at most 2**31 elements). */
#define XS_STAGED_ROWS 512
/* Rows of a block of columns: the columns' loads and the block's streamed
 * stores then alternate finely enough to keep both in flight. On an AMD
 * EPYC (Zen 4, avx2), rank 4 int32 columns, a plain-C probe: blocks of 64
 * rows took 0.85x the time of blocks of 512 at 10^6 rows, 0.86-0.92x at
 * 10^7. */
#define XS_STAGED_COLUMN_ROWS 64
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_staged)(
        const xs_plan *p, const XS_T *restrict rows, const char *const *column,
        int64_t *restrict out, ptrdiff_t start, ptrdiff_t stop, const int R, int store) {
    int64_t block[XS_STAGED_ROWS];
    const char *at[XS_MAX_UNROLLED];  /* the columns from the block's first row */
    const ptrdiff_t per_vector = XS_VBYTES / (ptrdiff_t)sizeof *block;
    const ptrdiff_t most = column == NULL ? XS_STAGED_ROWS : XS_STAGED_COLUMN_ROWS;
    uint64_t bad = 0;
    ptrdiff_t n = 0;  /* the rows of the block in hand */
    xs_vstream s;
    xs_vstream_begin(&s, out + start, store);
    for (ptrdiff_t b0 = start; b0 < stop; b0 += n) {
        n = stop - b0 < most ? stop - b0 : most;
        if (column == NULL) {
            bad |= XS_FN(xs_ravel_ranked)(p, rows + b0 * R, block, 0, n, R);
        } else {
            for (int j = 0; j < R; j++) at[j] = column[j] + b0 * (ptrdiff_t)sizeof(XS_T);
            bad |= XS_FN(xs_ravel_cols32_ranked)(p, at, block, 0, n, R, 1, 1);
        }
        xs_vstream_put_block(&s, block, n / per_vector);
    }
    xs_vstream_end(&s);
    const ptrdiff_t left = n % per_vector;  /* the last block's items past its whole vectors */
    memcpy(out + stop - left, block + n - left, (size_t)left * sizeof *block);
    return bad;
}

/* Rows of rank R, by the loop that suits them. Each vector loop is
 * compiled twice: for plain stores, where the store stream's put is one
 * unaligned store and nothing else, and for the other ways
 * (kernels_store.h). */
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_rows_rank)(
        const xs_plan *p, const XS_T *rows, int64_t *out, ptrdiff_t start, ptrdiff_t stop,
        int store, const int R) {
    int narrow = 1;  /* xs_ravel_vector's */
    for (int j = 0; j < R; j++)
        narrow &= p->extent[j] <= ((uint64_t)1 << 32) && p->stride[j] < ((uint64_t)1 << 32);
    if (XS_VRAVEL(R) && store == XS_STORE_PLAIN)
        return narrow ? XS_FN(xs_ravel_vector)(p, rows, out, start, stop, R, 1, XS_STORE_PLAIN)
                      : XS_FN(xs_ravel_vector)(p, rows, out, start, stop, R, 0, XS_STORE_PLAIN);
    if (XS_VRAVEL(R))
        return narrow ? XS_FN(xs_ravel_vector)(p, rows, out, start, stop, R, 1, store)
                      : XS_FN(xs_ravel_vector)(p, rows, out, start, stop, R, 0, store);
    if (store != XS_STORE_PLAIN)
        return XS_FN(xs_ravel_staged)(p, rows, NULL, out, start, stop, R, store);
    return XS_FN(xs_ravel_ranked)(p, rows, out, start, stop, R);
}
#else
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_rows_rank)(
        const xs_plan *p, const XS_T *rows, int64_t *out, ptrdiff_t start, ptrdiff_t stop,
        int store, const int R) {
    (void)store;  /* at levels without a store stream */
    return XS_FN(xs_ravel_ranked)(p, rows, out, start, stop, R);
}
#endif

uint64_t XS_FN(xs_ravel_rows)(const xs_plan *p, const XS_T *rows, int64_t *out,
                              ptrdiff_t start, ptrdiff_t stop, int store) {
#define XS_CASE_RAVEL_ROWS_RANK(R) case R: return XS_FN(xs_ravel_rows_rank)(p, rows, out, start, stop, store, R);
    switch (p->rank) { XS_RANKS(XS_CASE_RAVEL_ROWS_RANK) }
#undef XS_CASE_RAVEL_ROWS_RANK
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

/* -- ravel of columns ------------------------------------------------------ */

/* Ravel of R contiguous columns of XS_T (NumPy's multi_index form, and a
 * (rank, N) array read in place): each row's R indices are read from the
 * R columns at once, so that each column streams through once and out is
 * written once, in a loop written for the compiler to vectorise.
 * ``narrow``: every extent and stride fits in 32 bits, so that a
 * 32x32-bit product serves (an index that does not fit is out of range,
 * and flagged). */
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_cols_ranked)(
        const xs_plan *p, const char *const *column, int64_t *restrict out, ptrdiff_t start,
        ptrdiff_t stop, const int R, const int narrow) {
    const XS_T *c[XS_MAX_UNROLLED];
    uint64_t extent[XS_MAX_UNROLLED], stride[XS_MAX_UNROLLED], bad = 0;
    for (int j = 0; j < R; j++) {
        c[j] = (const XS_T *)column[j];
        extent[j] = p->extent[j];
        stride[j] = p->stride[j];
    }
    for (ptrdiff_t i = start; i < stop; i++) {
        uint64_t acc = 0;
        XS_UNROLL_DIMS
        for (int j = 0; j < R; j++) {
            uint64_t v = (uint64_t)c[j][i];  /* a negative becomes huge */
            bad |= v >= extent[j];
            acc += narrow ? (uint64_t)(uint32_t)v * (uint32_t)stride[j] : v * stride[j];
        }
        out[i] = (int64_t)acc;
    }
    return bad;
}

#if defined(XS_VRAVEL_COLUMN) && XS_HAS_VLOADS
/* The loop above, XS_VL rows at a time in vector registers, for levels
 * whose vector header has xs_vravel_column; the last (stop - start) % XS_VL
 * rows take the loop above. */
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_cols_vector)(
        const xs_plan *p, const char *const *column, int64_t *restrict out, ptrdiff_t start,
        ptrdiff_t stop, const int R, const int narrow, int store) {
    const XS_T *c[XS_MAX_UNROLLED];
    xs_vi extm1[XS_MAX_UNROLLED], stride[XS_MAX_UNROLLED];
    for (int j = 0; j < R; j++) {
        c[j] = (const XS_T *)column[j];
        extm1[j] = xs_vi_set(p->extent[j] - 1);
        stride[j] = xs_vi_set(p->stride[j]);
    }
    xs_vok ok = xs_vok_all();
    const ptrdiff_t vstop = stop - (stop - start) % XS_VL;
    xs_vstream s;
    xs_vstream_begin(&s, out + start, store);
    for (ptrdiff_t i = start; i < vstop; i += XS_VL) {
        xs_vi acc = xs_vi_set(0);
        XS_UNROLL_DIMS
        for (int j = 0; j < R; j++)
            acc = xs_vravel_column(acc, XS_CAT2(xs_vload_, XS_TN)(c[j] + i), extm1[j], stride[j],
                                   narrow, &ok);
        xs_vstream_put(&s, acc);
    }
    xs_vstream_end(&s);
    return (uint64_t)xs_vok_bad(ok) | XS_FN(xs_ravel_cols_ranked)(p, column, out, vstop, stop, R, narrow);
}

static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_cols_rank)(
        const xs_plan *p, const char *const *column, int64_t *out, ptrdiff_t start,
        ptrdiff_t stop, int narrow, int store, const int R) {
    if (store == XS_STORE_PLAIN)  /* compiled for plain stores, as xs_ravel_rows_rank's */
        return narrow ? XS_FN(xs_ravel_cols_vector)(p, column, out, start, stop, R, 1, XS_STORE_PLAIN)
                      : XS_FN(xs_ravel_cols_vector)(p, column, out, start, stop, R, 0, XS_STORE_PLAIN);
    return narrow ? XS_FN(xs_ravel_cols_vector)(p, column, out, start, stop, R, 1, store)
                  : XS_FN(xs_ravel_cols_vector)(p, column, out, start, stop, R, 0, store);
}
#else
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_cols_rank)(
        const xs_plan *p, const char *const *column, int64_t *out, ptrdiff_t start,
        ptrdiff_t stop, int narrow, int store, const int R) {
    (void)store;  /* the compiler's vectorisation: no store stream */
    return narrow ? XS_FN(xs_ravel_cols_ranked)(p, column, out, start, stop, R, 1)
                  : XS_FN(xs_ravel_cols_ranked)(p, column, out, start, stop, R, 0);
}
#endif

/* Rows [start, stop) of ``rank`` (at most XS_MAX_UNROLLED) contiguous
 * columns of XS_T; nonzero when some index is out of range. */
uint64_t XS_FN(xs_ravel_cols)(const xs_plan *p, const char *const *column, int64_t *out,
                              ptrdiff_t start, ptrdiff_t stop, int store) {
#if defined(XS_VL) && XS_HAS_VLOADS
    /* 32-bit indices into a buffer of at most 2**31 elements: in 32-bit
     * arithmetic, twice the rows a vector, widened as they are stored;
     * streamed by blocks put on the store stream, otherwise stored
     * plainly (aligned slots by blocks lost to plain stores from 10^5 to
     * 10^6 rows). On an AMD EPYC (Zen 4), rank 4, one thread, against the
     * 64-bit loops below: 0.53-0.57x the time at 10^4 to 10^5 rows, avx2
     * and avx512; 0.60x (avx512) and 0.82x (avx2) at 10^6, streamed. */
    if (sizeof(XS_T) == 4 && p->size <= ((uint64_t)1 << 31)) {
#define XS_CASE_RAVEL_COLS_WIDE(R)                                                            \
    case R:                                                                                   \
        return store == XS_STORE_STREAM                                                       \
            ? XS_FN(xs_ravel_staged)(p, NULL, column, out, start, stop, R, XS_STORE_STREAM)  \
            : XS_FN(xs_ravel_cols32_ranked)(p, column, out, start, stop, R, 1, 1);
        switch (p->rank) { XS_RANKS(XS_CASE_RAVEL_COLS_WIDE) default: break; }
#undef XS_CASE_RAVEL_COLS_WIDE
    }
#endif
    int narrow = 1;
    for (int j = 0; j < p->rank; j++)
        narrow &= p->extent[j] <= ((uint64_t)1 << 32) && p->stride[j] < ((uint64_t)1 << 32);
#define XS_CASE_RAVEL_COLS_RANK(R) case R: return XS_FN(xs_ravel_cols_rank)(p, column, out, start, stop, narrow, store, R);
    switch (p->rank) { XS_RANKS(XS_CASE_RAVEL_COLS_RANK) default: break; }
#undef XS_CASE_RAVEL_COLS_RANK
    return XS_FN(xs_ravel_cols_rank)(p, column, out, start, stop, narrow, store, XS_MAX_UNROLLED);  /* ranks past the list: none reach here */
}

/* Ravel of R columns of XS_T in 32-bit arithmetic, for a buffer of at
 * most 2**31 elements: every term of a valid row then fits, and a 32-bit
 * index is checked in 32 bits, so that a vector holds twice the rows. Row
 * i of column j is column[j][i * step]: step 1 for contiguous columns, R
 * for the columns of one C-contiguous (N, R) array. The offsets go to out
 * as uint32, or (``wide``) widened to int64 as each is stored. */
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_cols32_ranked)(
        const xs_plan *p, const char *const *column, void *restrict out, ptrdiff_t start,
        ptrdiff_t stop, const int R, const int step, const int wide) {
    uint32_t *restrict out32 = out;
    int64_t *restrict out64 = out;
    const XS_T *c[XS_MAX_UNROLLED];
    uint64_t extent[XS_MAX_UNROLLED];
    uint32_t extent32[XS_MAX_UNROLLED], stride[XS_MAX_UNROLLED], bad32 = 0;
    uint64_t bad = 0;
    for (int j = 0; j < R; j++) {
        c[j] = (const XS_T *)column[j];
        extent[j] = p->extent[j];
        extent32[j] = (uint32_t)p->extent[j];  /* at most 2**31 */
        stride[j] = (uint32_t)p->stride[j];
    }
    for (ptrdiff_t i = start; i < stop; i++) {
        uint32_t acc = 0;
        XS_UNROLL_DIMS
        for (int j = 0; j < R; j++) {
            const XS_T v = c[j][i * step];
            if (sizeof(XS_T) == 4)  /* a negative int32 becomes at least 2**31 */
                bad32 |= (uint32_t)v >= extent32[j];
            else
                bad |= (uint64_t)v >= extent[j];
            acc += (uint32_t)v * stride[j];
        }
        if (wide)
            out64[i] = (int64_t)acc;
        else
            out32[i] = acc;
    }
    return bad | bad32;
}

static XS_ALWAYS_INLINE uint64_t XS_FN(xs_ravel_cols32_rank)(
        const xs_plan *p, const char *const *column, uint32_t *out, ptrdiff_t start,
        ptrdiff_t stop, int rows, int store, const int R) {
    (void)store;  /* at levels without a store stream */
#ifdef XS_VL
    if (rows && R == 4 && sizeof(XS_T) == 4) {  /* a vector of rows at a time */
        uint64_t bad = 0;
        const uint32_t *r = (const uint32_t *)(const void *)column[0];
        start = store == XS_STORE_PLAIN  /* compiled for plain stores, as xs_ravel_rows_rank's */
            ? xs_vravel_rows4_u32(r, p->extent, p->stride, out, start, stop, XS_STORE_PLAIN,
                                  XS_PREFETCH_OFF, &bad)
            : xs_vravel_rows4_u32(r, p->extent, p->stride, out, start, stop, store,
                                  xs_prefetch_of(store), &bad);
        return bad | XS_FN(xs_ravel_cols32_ranked)(p, column, out, start, stop, R, R, 0);
    }
#endif
    return rows ? XS_FN(xs_ravel_cols32_ranked)(p, column, out, start, stop, R, R, 0)
                : XS_FN(xs_ravel_cols32_ranked)(p, column, out, start, stop, R, 1, 0);
}

/* Rows [start, stop) of ``rank`` (at most XS_MAX_UNROLLED) columns of XS_T
 * into 32-bit offsets, where the buffer has at most 2**31 elements: the
 * columns contiguous, or (``rows``) those of one C-contiguous (N, rank)
 * array; nonzero when some index is out of range. */
uint64_t XS_FN(xs_ravel_cols32)(const xs_plan *p, const char *const *column, uint32_t *out,
                                ptrdiff_t start, ptrdiff_t stop, int rows, int store) {
#define XS_CASE_RAVEL_COLS32_RANK(R) case R: return XS_FN(xs_ravel_cols32_rank)(p, column, out, start, stop, rows, store, R);
    switch (p->rank) { XS_RANKS(XS_CASE_RAVEL_COLS32_RANK) default: break; }
#undef XS_CASE_RAVEL_COLS32_RANK
    return XS_FN(xs_ravel_cols32_rank)(p, column, out, start, stop, rows, store, XS_MAX_UNROLLED);  /* ranks past the list: none reach here */
}

/* -- unravel --------------------------------------------------------------- */
#if XS_UNRAVEL

/* Rows [b0, b0 + nb) of the result from their positions: row i,
 * dimension d is column[d][i - b0], written to out[i * s0 + d * s1]. */
static XS_ALWAYS_INLINE void XS_FN(xs_write_positions)(
        int64_t *restrict out, const int64_t *const *column, ptrdiff_t s0, ptrdiff_t s1,
        ptrdiff_t b0, int nb, const int R) {
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

#if defined(XS_VL) && XS_HAS_VLOADS
/* Unravel XS_VL rows at a time in vector registers: in doubles, where the
 * buffer holds at most XS_FLOOR_DIV_LIMIT elements (kernels_common.h says
 * why the division needs no correction there), or (``pow2``) in int64 by
 * shift and mask, where every width is a power of two. With ``direct`` (a
 * C-contiguous result of a rank the level transposes, or a 32-bit result
 * by contiguous columns: s0 1, R above 1), each vector of rows goes
 * straight to the result; otherwise positions collect in blocks that
 * xs_write_positions lays out. The last stop - start % XS_VL rows take
 * the exact row step. */
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_unravel_vector)(
        const xs_plan *p, const XS_T *restrict linear, int64_t *restrict out,
        uint32_t *restrict out32, ptrdiff_t s0, ptrdiff_t s1, ptrdiff_t start, ptrdiff_t stop,
        const int R, const int padded, const int direct, const int pow2, int store) {
    xs_vd rw[XS_MAX_UNROLLED], hrw[XS_MAX_UNROLLED], w[XS_MAX_UNROLLED], ext[XS_MAX_UNROLLED];
    for (int k = 0; k < R; k++) {
        rw[k] = xs_vd_set(p->reciprocal[k]);
        hrw[k] = xs_vd_set(0.5 * p->reciprocal[k]);
        w[k] = xs_vd_set((double)p->divisor[k].divisor);
        ext[k] = xs_vd_set((double)p->order_extent[k]);
    }
    /* Dimension d of the result is digit order[d] of the vectors: by
     * shift and mask (pow2), each digit is taken from the offset by its own
     * shift straight into its dimension's place, so that the stores index
     * the vectors by constants. By the digits' order, the stores of 32-bit
     * rows indexed them by p->position, which the compiler reloaded after
     * each store (they go through a char pointer), the vectors by way of
     * the stack: 10**7 int32 offsets, rank 4, into C rows, one thread, AMD
     * EPYC Zen 3 (avx2), took 27.0 ms so streamed and 19.1 stored plainly,
     * against 21.4 and 15.1 in the result's order. */
    int order[XS_MAX_UNROLLED];
    xs_vi dshift[XS_MAX_UNROLLED], dmask[XS_MAX_UNROLLED], dext[XS_MAX_UNROLLED];
    uint64_t below[XS_MAX_UNROLLED + 1];  /* digit k's shift from the offset */
    below[0] = 0;
    for (int k = 0; k < R; k++) below[k + 1] = below[k] + (uint64_t)p->divisor[k].shift;
    for (int d = 0; d < R; d++) {
        const unsigned k = (unsigned)p->position[d];
        order[d] = pow2 ? d : (int)k;
        dshift[d] = xs_vi_set(below[k]);
        dmask[d] = xs_vi_set(k < (unsigned)(R - 1) ? p->divisor[k].divisor - 1 : ~(uint64_t)0);
        dext[d] = xs_vi_set(p->order_extent[k]);
    }
    xs_vrows rows;
    if (direct) xs_vrows_init(&rows, R, order);
    int64_t pos[XS_MAX_UNROLLED][XS_BLOCK];  /* unused when direct */
    /* C-contiguous rows of a rank the level does not transpose in
     * registers, stored other than plainly: each block's rows are laid out
     * here, then put on the store stream */
    const int staged = !direct && out32 == NULL && store != XS_STORE_PLAIN && s0 == R && s1 == 1;
    int64_t rows_block[XS_MAX_UNROLLED * XS_BLOCK];
    const int64_t *column[XS_MAX_UNROLLED];
    for (int d = 0; d < R; d++) column[d] = pos[order[d]];
    xs_vok ok = xs_vok_all();
    const uint64_t size = p->size;  /* read once: for all the compiler knows, a store may change it */
    const ptrdiff_t vstop = stop - (stop - start) % XS_VL;
    /* Rows that go straight to the result run as one block: by blocks,
     * GCC 12 reloaded the block's bounds from the stack for every vector,
     * about 3% of an in-cache call (Intel Xeon, avx512, rank 4). */
    const ptrdiff_t block = direct ? vstop - start : XS_BLOCK;
    /* the result's rows, when they go straight to it */
    xs_vstream s;
    xs_vstream_begin(&s, out32 != NULL ? (void *)(out32 + start * s0) : (void *)(out + start * R),
                     direct || out32 != NULL || staged ? store : XS_STORE_PLAIN);

    for (ptrdiff_t b0 = start; b0 < vstop; b0 += block) {
        const ptrdiff_t nb = vstop - b0 < block ? vstop - b0 : block;
        for (ptrdiff_t i = 0; i < nb; i += XS_VL) {
            xs_vi col[XS_MAX_UNROLLED];
            xs_vok in = xs_vok_all();  /* this vector's checks: no chain across vectors */
            if (pow2) {
                const xs_vi n = XS_CAT2(xs_vload_ioffsets_, XS_TN)(linear + b0 + i, size, &in);
                for (int d = 0; d < R; d++) {
                    col[d] = xs_vand(xs_vshr(n, dshift[d]), dmask[d]);
                    if (padded) in = xs_vok_below_i(in, col[d], dext[d]);
                }
            } else {
                xs_vd n = XS_CAT2(xs_vload_offsets_, XS_TN)(linear + b0 + i, size, &in);
                for (int k = 0; k < R - 1; k++) {
                    xs_vd q = xs_vfloor_fma(n, rw[k], hrw[k]);
                    xs_vd r = xs_vfnmadd(q, w[k], n);
                    if (padded) in = xs_vok_below(in, r, ext[k]);
                    col[k] = xs_vd_to_vi(r);
                    n = q;
                }
                if (padded) in = xs_vok_below(in, n, ext[R - 1]);
                col[R - 1] = xs_vd_to_vi(n);
            }
            ok = xs_vok_and(ok, in);
#ifdef XS_VSTORE_ROWS32
            if (out32 != NULL && s0 == 1 && R > 1)  /* contiguous columns, s1 apart */
                for (int d = 0; d < R; d++)
                    xs_vstore_rows32(&s, out32 + d * s1 + b0 + i, col, 1, order + d);
            else if (out32 != NULL)
                xs_vstore_rows32(&s, out32 + (b0 + i) * R, col, R, order);
            else
#endif
            if (direct && XS_VROWS(R))  /* (int64 rows go direct at these ranks only) */
                xs_vstore_rows(&s, col, R, &rows);
            else
                for (int k = 0; k < R; k++) xs_vstore(pos[k] + i, col[k]);
        }
        /* (not direct below: blocks of XS_BLOCK rows, so nb fits an int) */
        if (staged) {  /* nb * R int64: whole vectors, as nb is a multiple of XS_VL */
            XS_FN(xs_write_positions)(rows_block, column, R, 1, 0, (int)nb, R);
            xs_vstream_put_block(&s, rows_block, nb * R * 8 / XS_VBYTES);
        } else if (!direct) {
            XS_FN(xs_write_positions)(out, column, s0, s1, b0, (int)nb, R);
        }
    }
    xs_vstream_end(&s);
    uint64_t bad = (uint64_t)xs_vok_bad(ok);
    for (ptrdiff_t i = vstop; i < stop; i++) {
        if (out32 == NULL) {
            bad |= xs_unravel_value(p, (uint64_t)linear[i], (char *)(out + i * s0), 8 * s1);
            continue;
        }
        int64_t row[XS_MAX_UNROLLED];
        bad |= xs_unravel_value(p, (uint64_t)linear[i], (char *)row, 8);
        for (int d = 0; d < R; d++) out32[i * s0 + d * s1] = (uint32_t)row[d];
    }
    return bad;
}
#endif

/* Unravel in blocks of rows, one position at a time: by shift and mask
 * where every width is a power of two, otherwise by the exact 128-bit
 * division. */
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_unravel_ranked)(
        const xs_plan *p, const XS_T *restrict linear, int64_t *restrict out,
        ptrdiff_t s0, ptrdiff_t s1, ptrdiff_t start, ptrdiff_t stop,
        const int R, const int padded, const int pow2) {
    uint64_t extent[XS_MAX_UNROLLED], width[XS_MAX_UNROLLED], mask[XS_MAX_UNROLLED];
    int shift[XS_MAX_UNROLLED];
    xs_divisor divisor[XS_MAX_UNROLLED];
    for (int k = 0; k < R; k++) {
        extent[k] = p->order_extent[k];
        divisor[k] = p->divisor[k];
        width[k] = p->divisor[k].divisor;
        mask[k] = width[k] - 1;
        shift[k] = p->divisor[k].shift;
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
        for (int k = 0; k < R - 1; k++) {
            int64_t *restrict out_k = pos[k];
            for (int i = 0; i < nb; i++) {
                uint64_t q, r;
                if (pow2) {
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
        /* What is left is the most major position: no division needed. */
        {
            int64_t *restrict out_k = pos[R - 1];
            for (int i = 0; i < nb; i++) {
                if (padded) bad |= n[i] >= extent[R - 1];
                out_k[i] = (int64_t)n[i];
            }
        }
        XS_FN(xs_write_positions)(out, column, s0, s1, b0, nb, R);
    }
    return bad;
}

/* Rows of rank R of a layout padded or not (both constants), by the loop
 * that suits them. The loops that store rows straight to the result are
 * compiled for plain stores too, as xs_ravel_rows_rank's. */
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_unravel_form)(
        const xs_plan *p, const XS_T *linear, int64_t *out, ptrdiff_t s0, ptrdiff_t s1,
        ptrdiff_t start, ptrdiff_t stop, int store, const int R, const int padded) {
#if defined(XS_VL) && XS_HAS_VLOADS
    const int vector = p->size <= XS_FLOOR_DIV_LIMIT;
    const int direct = s0 == R && s1 == 1;
    if (direct && XS_VROWS(R)) store = xs_vstream_rows_mode(out + start * R, store);
    /* The vector loop where ``when``, with ``pow2`` a constant: straight to
     * the result with plain stores, straight with the stores picked, or by
     * blocks. */
#define XS_UNRAVEL_VECTOR(direct_, pow2_, store_)                                          \
    XS_FN(xs_unravel_vector)(p, linear, out, NULL, s0, s1, start, stop, R, padded, direct_, \
                             pow2_, store_)
#define XS_UNRAVEL_VECTOR_FORMS(when, pow2_)                                               \
    if (when && direct && XS_VROWS(R) && store == XS_STORE_PLAIN)                           \
        return XS_UNRAVEL_VECTOR(1, pow2_, XS_STORE_PLAIN);                                 \
    if (when && direct && XS_VROWS(R)) return XS_UNRAVEL_VECTOR(1, pow2_, store);          \
    if (when) return XS_UNRAVEL_VECTOR(0, pow2_, store);
    XS_UNRAVEL_VECTOR_FORMS(p->pow2, 1)
    XS_UNRAVEL_VECTOR_FORMS(vector, 0)
#undef XS_UNRAVEL_VECTOR_FORMS
#undef XS_UNRAVEL_VECTOR
#else
    (void)store;  /* at levels without a store stream */
#endif
    if (p->pow2)
        return XS_FN(xs_unravel_ranked)(p, linear, out, s0, s1, start, stop, R, padded, 1);
    return XS_FN(xs_unravel_ranked)(p, linear, out, s0, s1, start, stop, R, padded, 0);
}

static XS_ALWAYS_INLINE uint64_t XS_FN(xs_unravel_rank)(
        const xs_plan *p, const XS_T *linear, int64_t *out, ptrdiff_t s0, ptrdiff_t s1,
        ptrdiff_t start, ptrdiff_t stop, int store, const int R) {
    return p->padded ? XS_FN(xs_unravel_form)(p, linear, out, s0, s1, start, stop, store, R, 1)
                     : XS_FN(xs_unravel_form)(p, linear, out, s0, s1, start, stop, store, R, 0);
}

/* Rows [start, stop) of a contiguous ``linear``; row i, dimension d of the
 * result is out[i * s0 + d * s1] (strides in elements). */
uint64_t XS_FN(xs_unravel_rows)(const xs_plan *p, const XS_T *linear, int64_t *out,
                                ptrdiff_t s0, ptrdiff_t s1, ptrdiff_t start, ptrdiff_t stop,
                                int store) {
#define XS_CASE_UNRAVEL_RANK(R) case R: return XS_FN(xs_unravel_rank)(p, linear, out, s0, s1, start, stop, store, R);
    switch (p->rank) { XS_RANKS(XS_CASE_UNRAVEL_RANK) }
#undef XS_CASE_UNRAVEL_RANK
    uint64_t bad = 0;
    for (ptrdiff_t i = start; i < stop; i++)
        bad |= xs_unravel_value(p, (uint64_t)linear[i], (char *)(out + i * s0), 8 * s1);
    return bad;
}

#if defined(XS_VSTORE_ROWS32) && XS_HAS_VLOADS
/* Rows [start, stop) of a contiguous ``linear`` into a 32-bit result
 * (every index below 2**31), in vector registers, for the buffers the
 * vector unravel divides: C-contiguous (N, rank) rows (``step`` 0), for
 * the ranks the level stores as rows, or (``step`` not 0) contiguous
 * columns ``step`` elements apart (the transpose of a (rank, N) result),
 * ranks 2 to 4, each index vector stored plainly at its column. ``*bad``
 * gains a nonzero value where an offset is outside the buffer or on
 * padding. Returns the first row not done: stop, or start for a plan or
 * rank it does not take (dispatch.c narrows an int64 block then). Into
 * columns, rank 4, 10**6 int32 offsets, one thread, AMD EPYC Zen 3
 * (avx2): 4.2-4.5 ms by narrowed int64 blocks, 1.2-1.8 ms so (jax.jit of
 * jnp.unravel_index 3.1-3.6). */
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_unravel32_stored)(
        const xs_plan *p, const XS_T *linear, uint32_t *out, ptrdiff_t s0, ptrdiff_t s1,
        ptrdiff_t start, ptrdiff_t stop, int store, const int R) {
    if (p->pow2)
        return p->padded ? XS_FN(xs_unravel_vector)(p, linear, NULL, out, s0, s1, start, stop, R, 1, 1, 1, store)
                         : XS_FN(xs_unravel_vector)(p, linear, NULL, out, s0, s1, start, stop, R, 0, 1, 1, store);
    return p->padded ? XS_FN(xs_unravel_vector)(p, linear, NULL, out, s0, s1, start, stop, R, 1, 1, 0, store)
                     : XS_FN(xs_unravel_vector)(p, linear, NULL, out, s0, s1, start, stop, R, 0, 1, 0, store);
}

/* C-contiguous rows, compiled for plain stores too, as
 * xs_ravel_rows_rank's loops (columns are stored plainly only:
 * XS_UNRAVEL32_COLUMNS below). */
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_unravel32_rows)(
        const xs_plan *p, const XS_T *linear, uint32_t *out, ptrdiff_t start, ptrdiff_t stop,
        int store, const int R) {
    store = xs_vstream_rows_mode(out + start * R, store);
    return store == XS_STORE_PLAIN
        ? XS_FN(xs_unravel32_stored)(p, linear, out, R, 1, start, stop, XS_STORE_PLAIN, R)
        : XS_FN(xs_unravel32_stored)(p, linear, out, R, 1, start, stop, store, R);
}

#define XS_UNRAVEL32_COLUMNS(R) \
    XS_FN(xs_unravel32_stored)(p, linear, out, 1, step, start, stop, XS_STORE_PLAIN, R)

ptrdiff_t XS_FN(xs_unravel32)(const xs_plan *p, const XS_T *linear, uint32_t *out, ptrdiff_t step,
                              ptrdiff_t start, ptrdiff_t stop, int store, uint64_t *bad) {
    if (!(p->pow2 || p->size <= XS_FLOOR_DIV_LIMIT)) return start;
    if (step) {
        switch (p->rank) {  /* columns */
        case 2: *bad |= XS_UNRAVEL32_COLUMNS(2); break;
        case 3: *bad |= XS_UNRAVEL32_COLUMNS(3); break;
        case 4: *bad |= XS_UNRAVEL32_COLUMNS(4); break;
        default: return start;
        }
        return stop;
    }
    switch (p->rank) {  /* rows: the ranks of xs_vstore_rows32 */
    case 1: *bad |= XS_FN(xs_unravel32_rows)(p, linear, out, start, stop, store, 1); break;
    case 2: *bad |= XS_FN(xs_unravel32_rows)(p, linear, out, start, stop, store, 2); break;
    case 4: *bad |= XS_FN(xs_unravel32_rows)(p, linear, out, start, stop, store, 4); break;
    default: return start;
    }
    return stop;
}
#undef XS_UNRAVEL32_COLUMNS
#endif

#endif
#undef XS_FN
