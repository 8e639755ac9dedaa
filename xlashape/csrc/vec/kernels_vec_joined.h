/* xs_vinterleave_joined (kernels_vec.h) by plain stores, through the
 * level's own xs_vinterleave, leaving nothing in the carry, and
 * xs_vstore_line_blend_nt and xs_vdeinterleave_lines
 * (kernels_vec_staged_lines.h) through its xs_vdeinterleave and
 * xs_vstore_line_nt: for the levels that store no
 * interleave past the caches (the portable level and NEON), where there
 * is no 16-byte boundary to keep to. Included by their headers after
 * those operations; not a level of its own. */
#ifndef XLASHAPE_KERNELS_VEC_JOINED_H
#define XLASHAPE_KERNELS_VEC_JOINED_H

#include <stdint.h>
#include <string.h>

static inline int64_t xs_vinterleave_joined(const char *src, int64_t ssi, char *dst, int64_t nj,
                                            const int rows, const int size, char *carry,
                                            int *from, const int joined) {
    (void)carry, (void)joined;  /* a run before left nothing in the carry */
    const int64_t n = xs_vinterleave(src, ssi, dst, nj, rows, size, 0);
    *from = (int)((uintptr_t)(dst + n * rows * size) & 63);  /* nothing left to write */
    return n;
}

static inline void xs_vstore_line_blend_nt(void *dst, const void *a, const void *b, int n) {
    _Alignas(64) char line[64];
    memcpy(line, a, (size_t)n);
    memcpy(line + n, (const char *)b + n, (size_t)(64 - n));
    xs_vstore_line_nt(dst, line);
}

#include "vec/kernels_vec_staged_lines.h"

static inline void xs_vdeinterleave_lines(const char *src, const char *before, char *dst,
                                          int64_t dsj, int64_t ni, const int rows,
                                          const int size, char *head) {
    xs_staged_lines(src, before, dst, dsj, ni, rows, size, head);
}

#endif
