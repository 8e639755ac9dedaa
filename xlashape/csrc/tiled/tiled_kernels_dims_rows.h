/* The row kernel of tiled_kernels_dims.h in one arithmetic: included by it
 * twice, with XS_DNAME (the kernel's name), XS_DACC (the type of the terms
 * and the offset: uint64_t or uint32_t) and XS_DCHECK (the type each index
 * is checked in against its extent: uint64_t, or the index's own unsigned
 * type) defined; undefines them.
 *
 * Each row's offset is the sum of its tile terms and within-tile digits,
 * and of E more digits of chosen dimensions; a row with an index outside
 * its extent is found by a rescan once the pass is done. */

static ptrdiff_t XS_EFN(XS_DNAME)(const xs_tiled *t, const void *data, int64_t *restrict out,
                                  ptrdiff_t start, ptrdiff_t stop) {
    enum { R = XS_R, E = XS_E };
    const XS_T *restrict rows = (const XS_T *)data;
    XS_DCHECK extent[R], bad = 0;
    XS_DACC stride[R], mask[R], emask[E + 1];
    int shift[R], weight[R], edim[E + 1], eshift[E + 1], eweight[E + 1];
    for (int j = 0; j < R; j++) {
        extent[j] = (XS_DCHECK)t->extent[j];
        shift[j] = t->d_shift[j];
        stride[j] = (XS_DACC)t->d_stride[j];
        mask[j] = (XS_DACC)t->d_mask[j];
        weight[j] = t->d_weight[j];
    }
    for (int e = 0; e < E; e++) {
        edim[e] = t->e_dim[e];
        eshift[e] = t->e_shift[e];
        emask[e] = (XS_DACC)t->e_mask[e];
        eweight[e] = t->e_weight[e];
    }
    for (ptrdiff_t i = start; i < stop; i++) {
        XS_DACC acc = 0;
        for (int j = 0; j < R; j++) {
            XS_DCHECK wide = (XS_DCHECK)rows[i * R + j];
            bad |= wide >= extent[j];
            XS_DACC v = (XS_DACC)wide;
            acc += (v >> shift[j]) * stride[j] + ((v & mask[j]) << weight[j]);
        }
        for (int e = 0; e < E; e++)
            acc += (((XS_DACC)rows[i * R + edim[e]] >> eshift[e]) & emask[e]) << eweight[e];
        out[i] = (int64_t)acc;
    }
    if (bad) {
        for (ptrdiff_t i = start; i < stop; i++)
            for (int j = 0; j < R; j++)
                if ((XS_DCHECK)rows[i * R + j] >= extent[j]) return i;
    }
    return -1;
}

#undef XS_DNAME
#undef XS_DACC
#undef XS_DCHECK
