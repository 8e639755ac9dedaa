/* xs_vinterleave_joined (kernels_vec.h) by plain stores, through the
 * level's own xs_vinterleave, and xs_vstore_line_blend_nt and
 * xs_vdeinterleave_lines (kernels_vec_staged_lines.h) through its
 * xs_vdeinterleave and xs_vstore_line_nt: for the levels that store no
 * interleave past the caches (the portable level and NEON), where there
 * is no 16-byte boundary to keep to. Included by their headers after
 * those operations; not a level of its own. */
#ifndef XLASHAPE_KERNELS_VEC_JOINED_H
#define XLASHAPE_KERNELS_VEC_JOINED_H

#include <stdint.h>
#include <string.h>

static inline int64_t xs_vinterleave_joined(const char *src, int64_t ssi, char *dst, int64_t nj,
                                            const int rows, const int size, char *carry,
                                            const int joined) {
    const int64_t step = 16 / size, n = nj - nj % step;
    if (n == 0) return 0;
    const size_t d = (uintptr_t)dst & 15, last_bytes = (size_t)(16 * rows);
    char last[64];  /* the last step, rows * 16 bytes */
    if (joined) memcpy(dst - d, carry + 16 - d, d);
    xs_vinterleave(src, ssi, dst, n - step, rows, size, 0);
    xs_vinterleave(src + (n - step) * size, ssi, last, step, rows, size, 0);
    memcpy(dst + (n - step) * rows * size, last, last_bytes - d);
    memcpy(carry, last + last_bytes - 16, 16);
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
