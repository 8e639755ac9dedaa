/* xs_vdeinterleave_lines (kernels_vec.h) through the level's own
 * xs_vdeinterleave and xs_vstore_line_nt, as xs_staged_lines: each move's
 * rows staged in L1, then their whole lines stored from the stage. NEON
 * and the portable level move every inverse interleave so
 * (kernels_vec_joined.h), AVX2 those of 2 rows (kernels_vec_x86.h,
 * XS_VSTAGE_PAIRS). Included after those operations; not a level of its
 * own. */
#ifndef XLASHAPE_KERNELS_VEC_STAGED_LINES_H
#define XLASHAPE_KERNELS_VEC_STAGED_LINES_H

#include <stdint.h>
#include <string.h>

/* Each row staged XS_STAGED_PART bytes at a time, with the 32 bytes before
 * them (64 where its lines start more than 32 bytes past a line) split
 * again from the run before (``before``, or the part before) behind them,
 * after the part's own, then its whole lines stored from the stage. With
 * the 64 bytes before split first and the part before's last bytes carried
 * by memcpy (this header's earlier form), bf16[4096,8192]
 * {1,0:T(8,128)(2,1)} from_linear took 1.13-1.31x as long at 32 and 48
 * bytes past a line as at 2 in seven runs of eight (0.88x in the
 * eighth); in this form, 0.98-1.05x in four (a C probe of the library's
 * moves, AMD EPYC Zen 3, avx2, one thread). */
#define XS_STAGED_PART 256

static XS_ALWAYS_INLINE void xs_staged_lines(const char *src, const char *before, char *dst,
                                             int64_t dsj, int64_t ni, const int rows,
                                             const int size, char *head) {
    _Alignas(64) char stage[4][64 + XS_STAGED_PART];
    const int64_t o = (int64_t)((uintptr_t)dst & 63), per = XS_STAGED_PART / size;
    for (int64_t i = 0; i < ni; i += per) {
        const int64_t n = ni - i < per ? ni - i : per, bytes = n * size;
        const char *run = src + i * rows * size, *behind = i > 0 ? run : before;
        xs_vdeinterleave(run, stage[0] + 64, (int64_t)sizeof stage[0], n, rows, size, 0);
        if (o && behind) {
            xs_vdeinterleave(behind - 32 * rows, stage[0] + 32, (int64_t)sizeof stage[0],
                             32 / size, rows, size, 0);
            if (o > 32)
                xs_vdeinterleave(behind - 64 * rows, stage[0], (int64_t)sizeof stage[0],
                                 32 / size, rows, size, 0);
        }
        for (int j = 0; j < rows; j++) {
            char *to = dst - o + j * dsj + i * size;
            const char *from = stage[j] + 64 - o;
            for (int64_t m = 0; m + 64 - o <= bytes; m += 64) {
                if (i + m == 0 && o && !before) memcpy(head + 64 * j, stage[j] + 64, 64);
                else xs_vstore_line_nt(to + m, from + m);
            }
        }
    }
}

#endif
