/* xs_vinterleave_joined (kernels_vec.h) by plain stores, through the
 * level's own xs_vinterleave: for the levels that store no interleave
 * past the caches (the portable level and NEON), where there is no
 * 16-byte boundary to keep to. Included by their headers after their
 * xs_vinterleave; not a level of its own. */
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

#endif
