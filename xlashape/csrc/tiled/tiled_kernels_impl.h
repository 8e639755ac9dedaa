/* The tiled block kernels of one index type and one rank at one CPU level.
 *
 * Included by tiled_kernels.h once per entry of XS_TILED_CASES, an index
 * type and a rank of XS_RANKS (base/each.h), with XS_LEVEL (the level's
 * name) defined; the entry gives XS_T (the C type), XS_TN (its short name),
 * XS_U (its unsigned twin) and XS_R (the rank). Each function takes its
 * rank from XS_R, a constant in its own text, rather than from an argument
 * of an always-inline function (kernels_impl.h's way): GCC optimises and
 * estimates the branch frequencies of such a function on its own before it
 * inlines it, with the rank unknown, and the code it then made for the
 * vector loops differed, with loops left unaligned and values spilled
 * (measured: 10**6 int64 offsets of f32[1024,1024] under T(8,128) at
 * AVX-512 unravelled 13% slower). XS_FN names the functions that
 * tiled_kernels.h's tables hold.
 */

#define XS_T XS_EACH_ENTRY(XS_TILED_CASE_T)
#define XS_TN XS_EACH_ENTRY(XS_TILED_CASE_TN)
#define XS_U XS_EACH_ENTRY(XS_TILED_CASE_U)
#define XS_R XS_EACH_ENTRY(XS_TILED_CASE_R)
#define XS_FN(name) XS_TFN(name, XS_R, XS_TN)

/* -- the fast form --------------------------------------------------------- */

/* Ravel by terms (tiled_kernels.h says how). */
static ptrdiff_t XS_FN(xs_tiled_ravel)(const xs_tiled *t, const void *data, int64_t *out,
                                       ptrdiff_t start, ptrdiff_t stop) {
    enum { R = XS_R };
    const XS_T *rows = (const XS_T *)data;
    uint64_t col[R][XS_TILED_BLOCK], extent[R];
    for (int j = 0; j < R; j++) extent[j] = t->extent[j];
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_BLOCK) {
        ptrdiff_t n = stop - b < XS_TILED_BLOCK ? stop - b : XS_TILED_BLOCK;
        const XS_T *p = rows + b * R;
        uint64_t bad = 0;
        for (ptrdiff_t r = 0; r < n; r++)
            for (int j = 0; j < R; j++) {
                col[j][r] = (uint64_t)p[r * R + j];  /* a negative becomes huge */
                bad |= col[j][r] >= extent[j];
            }
        if (bad) {
            for (ptrdiff_t r = 0; r < n; r++)
                for (int j = 0; j < R; j++)
                    if (col[j][r] >= extent[j]) return b + r;
        }
        int64_t *o = out + b;
        {
            const uint64_t *c = col[t->dim[0]];
            int shift = t->shift[0];
            uint64_t mask = t->mask[0], stride = t->stride[0];
            for (ptrdiff_t r = 0; r < n; r++)
                o[r] = (int64_t)(((c[r] >> shift) & mask) * stride);
        }
        for (int k = 1; k < t->n_terms; k++) {
            const uint64_t *c = col[t->dim[k]];
            int shift = t->shift[k];
            uint64_t mask = t->mask[k], stride = t->stride[k];
            for (ptrdiff_t r = 0; r < n; r++)
                o[r] += (int64_t)(((c[r] >> shift) & mask) * stride);
        }
    }
    return -1;
}

#ifdef XS_VL
/* The lane patterns of the vector ravel by dimension (tiled_kernels_dims.h):
 * one serves every vector where XS_VL is a multiple of R. */
enum { XS_FN(xs_tiled_vpatterns) = XS_VL % XS_R == 0 ? 1 : XS_R };
#endif

/* Ravel by dimension (xs_tiled_ravel_dims*), and at the vector levels in
 * vector registers (xs_tiled_vravel_dims*): tiled_kernels_dims.h, once per
 * count E of extra digits, 0 up to XS_TILED_EXTRA (its parameters written
 * out: base/each.h's loops do not nest). */
#if XS_TILED_EXTRA != 2
#error "tiled_kernels_impl.h compiles 0, 1 and 2 extra digits, and tiled_kernels.h tables them: XS_TILED_EXTRA (tiled.h) changed"
#endif
#define XS_E 0
#include "tiled/tiled_kernels_dims.h"
#undef XS_E
#define XS_E 1
#include "tiled/tiled_kernels_dims.h"
#undef XS_E
#define XS_E 2
#include "tiled/tiled_kernels_dims.h"
#undef XS_E

/* The n offsets of the block at row b as uint64 into rest; nonzero where
 * one is outside the buffer (a negative one becomes huge). */
static XS_ALWAYS_INLINE uint64_t XS_FN(xs_tiled_load_block)(const XS_T *linear, ptrdiff_t b,
                                                            uint64_t *rest, ptrdiff_t n,
                                                            uint64_t size) {
    uint64_t bad = 0;
    for (ptrdiff_t r = 0; r < n; r++) {
        rest[r] = (uint64_t)linear[b + r];
        bad |= rest[r] >= size;
    }
    return bad;
}

/* Unravel, a block of rows at a time: at the baseline, past
 * XS_FLOOR_DIV_LIMIT elements, and for the rows the vector unravel leaves. */
static ptrdiff_t XS_FN(xs_tiled_unravel)(const xs_tiled *t, const void *data, char *out,
                                         ptrdiff_t step0, ptrdiff_t step1, ptrdiff_t start,
                                         ptrdiff_t stop) {
    enum { R = XS_R };
    const XS_T *linear = (const XS_T *)data;
    uint64_t rest[XS_TILED_BLOCK], value[R][XS_TILED_BLOCK];
    const int m = t->u_terms;
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_BLOCK) {
        ptrdiff_t n = stop - b < XS_TILED_BLOCK ? stop - b : XS_TILED_BLOCK;
        uint64_t bad = XS_FN(xs_tiled_load_block)(linear, b, rest, n, t->size);
        if (bad) {  /* an earlier row of the block may land on padding */
            uint64_t scratch[XS_TILED_MAX_SLOTS];
            for (ptrdiff_t r = 0; r < n; r++)
                if (!xs_tiled_position(t, rest[r], scratch)) return b + r;
        }
        for (int j = 0; j < R; j++)
            for (ptrdiff_t r = 0; r < n; r++) value[j][r] = 0;
        for (int k = 0; k < m - 1; k++) {
            uint64_t *v = value[t->u_dim[k]];
            int weight = t->u_weight[k];
            uint64_t extent = t->u_radix[k].divisor;
            if (t->u_pow2[k]) {
                int shift = t->u_shift[k];
                for (ptrdiff_t r = 0; r < n; r++) {
                    v[r] += (rest[r] & (extent - 1)) << weight;
                    rest[r] >>= shift;
                }
            } else {
                const double inverse = 1.0 / (double)extent;
                for (ptrdiff_t r = 0; r < n; r++) {
                    uint64_t d;
                    rest[r] = xs_tiled_div52(rest[r], extent, inverse, &d);
                    v[r] += d << weight;
                }
            }
        }
        {
            uint64_t *v = value[t->u_dim[m - 1]];
            int weight = t->u_weight[m - 1];
            for (ptrdiff_t r = 0; r < n; r++) v[r] += rest[r] << weight;
        }
        for (int j = 0; j < R; j++) {
            uint64_t extent = t->extent[j];
            for (ptrdiff_t r = 0; r < n; r++) bad |= value[j][r] >= extent;
        }
        if (bad) {
            for (ptrdiff_t r = 0; r < n; r++)
                for (int j = 0; j < R; j++)
                    if (value[j][r] >= t->extent[j]) return b + r;
        }
        XS_TLFN(xs_tiled_write)(value[0], XS_TILED_BLOCK, R, out, step0, step1, b, n);
    }
    return -1;
}

#ifdef XS_VL
/* The fast form's unravel at a vector level, XS_VL rows at a time in
 * registers (in the untiled vector kernel's form, kernels_impl.h), in one
 * of three forms: the digits by dimension (t->b_count), each a shift and a
 * mask; simple (t->u_simple: one digit per dimension, as under a padded
 * layout), each digit by the division of kernels_common.h with no
 * correction step (the buffer holds at most XS_FLOOR_DIV_LIMIT elements);
 * and split (xs_tiled_split), shifts and masks for the low digits and that
 * division for the high part. Every fast form has one of them: its
 * within-tile digits are powers of two, below every tile index.
 * Rows go straight to a C-contiguous result of a rank the level transposes
 * and through xs_tiled_write otherwise; a block with a bad row is scanned
 * again with the row step, and the last rows take the block kernel. */
typedef struct {
    xs_vd rw[XS_R], hrw[XS_R], w[XS_R], ext[XS_R];  /* simple and split: the divisions */
    /* bits and split: each slot's (low) digits, the slot's extent, and its
     * high digit's weight (split); slot k holds dimension slot_dim[k] */
    xs_vi bshift[XS_R][XS_TILED_MAX_TERMS], bmask[XS_R][XS_TILED_MAX_TERMS];
    xs_vi bweight[XS_R][XS_TILED_MAX_TERMS], iext[XS_R], hweight[XS_R], split;
    int count[XS_R], slot_dim[XS_R], direct;
    xs_vrows rows;
} XS_FN(xs_tiled_vctx);

static XS_ALWAYS_INLINE ptrdiff_t XS_FN(xs_tiled_vblocks)(
        const xs_tiled *t, const XS_FN(xs_tiled_vctx) *c, const XS_T *linear, char *out,
        ptrdiff_t step0, ptrdiff_t step1, ptrdiff_t start, ptrdiff_t vstop, const int form) {
    enum { R = XS_R };
    int64_t pos[R][XS_TILED_BLOCK];  /* unused when direct */
    xs_vstream s;  /* direct: the rows */
    xs_vstream_begin(&s, (int64_t *)out + start * R, XS_STORE_PLAIN);
    for (ptrdiff_t b = start; b < vstop; b += XS_TILED_BLOCK) {
        ptrdiff_t nb = vstop - b < XS_TILED_BLOCK ? vstop - b : XS_TILED_BLOCK;
        xs_vok ok = xs_vok_all();
        for (ptrdiff_t i = 0; i < nb; i += XS_VL) {
            xs_vi col[R];
            if (form == XS_VFORM_BITS || form == XS_VFORM_SPLIT) {
                /* col[j]: an OR of slot j's digits */
                xs_vi n = XS_TCAT2(xs_vload_ioffsets_, XS_TN)(linear + b + i, t->size, &ok);
                xs_vd high[R];
                if (form == XS_VFORM_SPLIT)
                    XS_TLFN(xs_vradix)(xs_vi_to_vd(xs_vshr(n, c->split)), c->rw, c->hrw, c->w, R,
                                       high);
                XS_UNROLL_DIMS
                for (int j = 0; j < R; j++) {
                    xs_vi v = form == XS_VFORM_SPLIT
                        ? xs_vshl(xs_vd_to_vi(high[j]), c->hweight[j]) : xs_vi_set(0);
                    for (int e = 0; e < c->count[j]; e++)
                        v = xs_vdigit(v, n, c->bshift[j][e], c->bmask[j][e], c->bweight[j][e]);
                    ok = xs_vok_below_i(ok, v, c->iext[j]);
                    col[j] = v;
                }
            } else {
                xs_vd n = XS_TCAT2(xs_vload_offsets_, XS_TN)(linear + b + i, t->size, &ok);
                xs_vd value[R];
                XS_TLFN(xs_vradix)(n, c->rw, c->hrw, c->w, R, value);  /* digit k */
                for (int j = 0; j < R; j++) {
                    ok = xs_vok_below(ok, value[j], c->ext[j]);
                    col[j] = xs_vd_to_vi(value[j]);
                }
            }
            if (XS_VROWS(R) && c->direct)  /* (direct only there) */
                xs_vstore_rows(&s, col, R, &c->rows);
            else
                for (int j = 0; j < R; j++) xs_vstore(pos[c->slot_dim[j]] + i, col[j]);
        }
        if (xs_vok_bad(ok)) {
            uint64_t scratch[XS_TILED_MAX_SLOTS];
            for (ptrdiff_t r = 0; r < nb; r++)
                if (!xs_tiled_position(t, (uint64_t)linear[b + r], scratch)) return b + r;
        }
        if (!c->direct)
            XS_TLFN(xs_tiled_write)((const uint64_t *)pos[0], XS_TILED_BLOCK, R, out, step0,
                                    step1, b, nb);
    }
    xs_vstream_end(&s);
    return -1;
}

static ptrdiff_t XS_FN(xs_tiled_vunravel)(const xs_tiled *t, const void *data, char *out,
                                          ptrdiff_t step0, ptrdiff_t step1, ptrdiff_t start,
                                          ptrdiff_t stop) {
    enum { R = XS_R };
    const XS_T *linear = (const XS_T *)data;
    if (t->size > XS_FLOOR_DIV_LIMIT)
        return XS_FN(xs_tiled_unravel)(t, data, out, step0, step1, start, stop);
    xs_tiled_split sp = {0};
    const int form = t->b_count != NULL ? XS_VFORM_BITS
                   : t->u_simple ? XS_VFORM_SIMPLE
                   : xs_tiled_split_init(t, &sp) ? XS_VFORM_SPLIT : -1;
    if (form < 0)  /* (no fast form comes here: see above) */
        return XS_FN(xs_tiled_unravel)(t, data, out, step0, step1, start, stop);
    XS_FN(xs_tiled_vctx) c;
    const int bits = form == XS_VFORM_BITS, split = form == XS_VFORM_SPLIT;
    int position[R];  /* the slot of each dimension */
    c.split = xs_vi_set((uint64_t)sp.bits);
    for (int k = 0, e = 0; (bits || split) && k < R; k++)
        for (int d = 0; d < (bits ? t->b_count[k] : sp.count[k]); d++, e++) {
            c.bshift[k][d] = xs_vi_set((uint64_t)(split ? sp.shift[e] : t->b_shift[e]));
            c.bmask[k][d] = xs_vi_set(split ? sp.mask[e] : t->b_mask[e]);
            c.bweight[k][d] = xs_vi_set((uint64_t)(split ? sp.low_weight[e] : t->b_weight[e]));
        }
    for (int k = 0; k < R; k++) {
        c.count[k] = bits ? t->b_count[k] : split ? sp.count[k] : 0;
        c.hweight[k] = xs_vi_set((uint64_t)sp.weight[k]);
        int d = c.slot_dim[k] = split ? sp.dim[k] : form == XS_VFORM_SIMPLE ? t->u_dim[k] : k;
        c.iext[k] = xs_vi_set(t->extent[d]);
        c.ext[k] = xs_vd_set((double)t->extent[d]);
        position[d] = k;
        if (split || form == XS_VFORM_SIMPLE) {  /* (split: the high part's) */
            double extent = (double)(split ? sp.extent[k] : t->u_radix[k].divisor);
            c.rw[k] = xs_vd_set(1.0 / extent);
            c.hrw[k] = xs_vd_set(0.5 / extent);
            c.w[k] = xs_vd_set(extent);
        }
    }
    c.direct = XS_VROWS(R) && step0 == R * (ptrdiff_t)sizeof(int64_t) &&
               step1 == sizeof(int64_t);
    xs_vrows_init(&c.rows, R, position);
    const ptrdiff_t vstop = stop - (stop - start) % XS_VL;
    ptrdiff_t bad;
    switch (form) {
    case XS_VFORM_BITS:
        bad = XS_FN(xs_tiled_vblocks)(t, &c, linear, out, step0, step1, start, vstop,
                                      XS_VFORM_BITS);
        break;
    case XS_VFORM_SPLIT:
        bad = XS_FN(xs_tiled_vblocks)(t, &c, linear, out, step0, step1, start, vstop,
                                      XS_VFORM_SPLIT);
        break;
    default:
        bad = XS_FN(xs_tiled_vblocks)(t, &c, linear, out, step0, step1, start, vstop,
                                      XS_VFORM_SIMPLE);
    }
    if (bad >= 0) return bad;
    return XS_FN(xs_tiled_unravel)(t, data, out, step0, step1, vstop, stop);
}
#endif

/* -- the general form ------------------------------------------------------ */

static ptrdiff_t XS_FN(xs_tiled_ravel_slots)(const xs_tiled *t, const void *data, int64_t *out,
                                             ptrdiff_t start, ptrdiff_t stop) {
    enum { R = XS_R };
    const XS_T *rows = (const XS_T *)data;
    XS_TLFN(xs_slot_block) slot[XS_TILED_BLOCK_SLOTS];
    uint64_t extent[R], stride[R];
    for (int j = 0; j < R; j++) {
        extent[j] = t->extent[j];
        stride[j] = t->slot_stride[j];
    }
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_SLOT_BLOCK) {
        ptrdiff_t n = stop - b < XS_TILED_SLOT_BLOCK ? stop - b : XS_TILED_SLOT_BLOCK;
        const XS_T *p = rows + b * R;
        uint64_t bad = 0;
        for (ptrdiff_t r = 0; r < n; r++) {
            uint64_t acc = 0;
            for (int j = 0; j < R; j++) {
                slot[j][r] = (uint64_t)p[r * R + j];  /* a negative becomes huge */
                bad |= slot[j][r] >= extent[j];
                acc += slot[j][r] * stride[j];
            }
            out[b + r] = (int64_t)acc;
        }
        if (bad) {
            for (ptrdiff_t r = 0; r < n; r++)
                for (int j = 0; j < R; j++)
                    if (slot[j][r] >= extent[j]) return b + r;
        }
        XS_TLFN(xs_tiled_forward)(t, slot, out + b, n);
    }
    return -1;
}

static ptrdiff_t XS_FN(xs_tiled_unravel_slots)(const xs_tiled *t, const void *data, char *out,
                                               ptrdiff_t step0, ptrdiff_t step1,
                                               ptrdiff_t start, ptrdiff_t stop) {
    enum { R = XS_R };
    const XS_T *linear = (const XS_T *)data;
    XS_TLFN(xs_slot_block) slot[XS_TILED_BLOCK_SLOTS];
    uint64_t rest[XS_TILED_SLOT_BLOCK];
    for (ptrdiff_t b = start; b < stop; b += XS_TILED_SLOT_BLOCK) {
        ptrdiff_t n = stop - b < XS_TILED_SLOT_BLOCK ? stop - b : XS_TILED_SLOT_BLOCK;
        uint64_t bad = XS_FN(xs_tiled_load_block)(linear, b, rest, n, t->size);
        if (!bad) bad = XS_TLFN(xs_tiled_backward)(t, slot, rest, n);
        if (bad) {
            uint64_t scratch[XS_TILED_BLOCK_SLOTS];
            for (ptrdiff_t r = 0; r < n; r++)
                if (!xs_tiled_position(t, (uint64_t)linear[b + r], scratch)) return b + r;
        }
        XS_TLFN(xs_tiled_write)(slot[0], XS_TILED_SLOT_BLOCK, R, out, step0, step1, b, n);
    }
    return -1;
}

#undef XS_FN
#undef XS_T
#undef XS_TN
#undef XS_U
#undef XS_R
