/* One level of vec_check.h: each operation of kernels_vec.h applied to
 * given arguments. Included once by each vec_check_<level>.c after the
 * level's header and kernels_vec.h (which checks its signatures), with
 * XS_VCHECK_LEVEL (its name), XS_VCHECK_SUPPORTED (a function: whether
 * this CPU runs the level) and xs_vcheck_ok_bits (its xs_vok as a bit per
 * lane) defined; XS_VCHECK_KERNELS to compile the untiled loops of
 * kernels_impl.h over the level too (the portable levels). Every
 * operation ends with the level's xs_vfence, which is so exercised.
 *
 * Arguments (xs_vcheck_run): vectors are read from ``in``, one after
 * another (XS_VL items of 64 bits each, doubles as their bits), and the
 * loads read their items (int64, or int32 packed two to an item) from
 * ``in`` itself; scalars are read from ``param``; results are written to
 * ``out``, a vector at its start unless the entry says otherwise; ``*ok``
 * is the xs_vok argument and result (bit l: lane l good); ``*flag`` a
 * flag argument and result. Per operation, its params:
 *   xs_vd_set, xs_vi_set       [0] x (a double's bits for xs_vd_set)
 *   xs_vok_and                 [0] the second operand's lanes, as *ok's
 *   xs_vload_*offsets_*        [0] size
 *   xs_vmul                    [0] narrow
 *   xs_vstore                  [0] the byte offset in out (a multiple of 8)
 *   xs_vstore_lanes            [0] n, [1] 1: the lanes not below n, [2] byte offset
 *                              (a multiple of 4)
 *   xs_vstore_nt               [0] byte offset (a multiple of XS_VBYTES)
 *   xs_vjoin                   [0] lag: out holds the join of in's vectors 0 and 1,
 *                              then the stream's tail (its lanes below lag only)
 *   xs_vstore_rows(32)         [0] rank, [1, rank] position, [rank + 1] store mode,
 *                              [rank + 2] byte offset (a multiple of 4) of a stream
 *                              begun there and ended after the rows
 *   xs_vravel_check            [0] rank, [1, rank] extents
 *   xs_vravel_rowsum           [0] rank
 *   xs_vravel_sum              [0] rank, [1] narrow, then rank extents, rank strides
 *   xs_vravel_column           [0] narrow (in: acc, v, extm1, stride)
 *   xs_vravel_rows4_u32        [0] i, [1] stop, [2] store mode, [3] byte offset of out
 *                              (a multiple of 4), [4, 8) extents, [8, 12) strides,
 *                              [12] prefetch mode; the rows are in's uint32 items;
 *                              returns the first row not done, *flag the bad flag
 *   xs_vstream                 [0] count, [1] store mode, [2] byte offset, [3] 1: by
 *                              xs_vstream_put_block: count of in's vectors put on a
 *                              stream begun at out + offset, then ended
 *   xs_vtranspose              [0] size, [1] stream, [2] ssi, [3] dsj, [4] byte offset
 *                              of dst in out: the block of in's bytes (src = in);
 *                              returns its side, XS_VTRANSPOSE_SIDE (0: nothing moved)
 *   xs_vinterleave             [0] rows, [1] size, [2] stream, [3] ssi, [4] nj, [5] byte
 *                              offset of dst in out (src = in); returns n
 *   xs_vinterleave_joined      [0] rows, [1] size, [2] ssi, [3] nj (a multiple of
 *                              16 / size), [4] byte offset of dst in out (src = in),
 *                              [5] runs: that many runs one after another, each of
 *                              the rows' next nj columns, joined from the second on,
 *                              then the carry's bytes out as the caller writes them;
 *                              returns the last run's n
 *   xs_vdeinterleave           [0] rows, [1] size, [2] stream, [3] dsj, [4] ni, [5] byte
 *                              offset of dst in out (src = in); returns n
 *   xs_vdeinterleave_lines     [0] rows, [1] size, [2] dsj, [3] ni, [4] byte offset of
 *                              dst in out (src = in), [5] byte offset in in where the
 *                              groups of the run before end (0: none, before NULL);
 *                              head is out's last rows * 64 bytes
 *   xs_vstore_line_nt          [0] byte offset of dst in out (a multiple of 64), [1]
 *                              byte offset of src in in
 *   xs_vstore_lines_nt         [0] byte offset of dst in out (a multiple of 64), [1]
 *                              byte offset of src in in, [2] n (lines)
 *   xs_vstore_line_joined_nt   [0] byte offset of dst in out (a multiple of 64), [1]
 *                              byte offset of a in in, [2] na, [3] byte offset of b in
 *                              in; returns 1 (joined) or 0
 *   xs_vstore_line_blend_nt    [0] byte offset of dst in out (a multiple of 64), [1]
 *                              byte offset of a in in, [2] byte offset of b in in, [3] n
 */

#define XS_VCHECK_CAT_(a, b) a##_##b
#define XS_VCHECK_CAT(a, b) XS_VCHECK_CAT_(a, b)
#define XS_VCHECK_FN(name) XS_VCHECK_CAT(name, XS_VCHECK_LEVEL)

/* An xs_vok whose lane l is good where bit l of ``bits`` is set, by the
 * contract's own operations. */
static xs_vok XS_VCHECK_FN(xs_vcheck_ok)(unsigned bits) {
    int64_t lanes[XS_VL];
    for (int l = 0; l < XS_VL; l++) lanes[l] = (bits >> l) & 1 ? 0 : 1;
    return xs_vok_below_i(xs_vok_all(), xs_vload_i64(lanes), xs_vi_set(1));
}

/* A permutation of 0..rank-1, from param; 0 where it is not one. */
static int XS_VCHECK_FN(xs_vcheck_position)(const uint64_t *param, int rank, int *position) {
    int seen = 0;
    for (int d = 0; d < rank; d++) {
        if (param[d] >= (uint64_t)rank || (seen >> param[d]) & 1) return 0;
        position[d] = (int)param[d];
        seen |= 1 << param[d];
    }
    return 1;
}

static int64_t XS_VCHECK_FN(xs_vcheck_run)(int op, const uint64_t *in, const uint64_t *param,
                                           char *out, unsigned *ok_bits, uint64_t *flag) {
    xs_vi a[XS_MAX_UNROLLED];
    xs_vd d[3];
    for (int k = 0; k < XS_MAX_UNROLLED; k++) memcpy(&a[k], in + k * XS_VL, sizeof a[k]);
    for (int k = 0; k < 3; k++) memcpy(&d[k], in + k * XS_VL, sizeof d[k]);
    xs_vok ok = XS_VCHECK_FN(xs_vcheck_ok)(*ok_bits);
    int64_t result = 0;
    xs_vi vi = xs_vi_set(0);
    xs_vd vd = xs_vd_set(0.0);
    enum { NONE, VI, VD } written = NONE;
    const int rank = (int)(param[0] < 64 ? param[0] : 64);
    int position[XS_MAX_UNROLLED];
    switch (op) {
    case XS_VCHECK_xs_vd_set: {
        double x;
        memcpy(&x, &param[0], sizeof x);
        vd = xs_vd_set(x);
        written = VD;
        break;
    }
    case XS_VCHECK_xs_vi_set: vi = xs_vi_set(param[0]); written = VI; break;
    case XS_VCHECK_xs_vok_all: ok = xs_vok_all(); break;
    case XS_VCHECK_xs_vok_bad: result = xs_vok_bad(ok) != 0; break;
    case XS_VCHECK_xs_vok_and: ok = xs_vok_and(ok, XS_VCHECK_FN(xs_vcheck_ok)((unsigned)param[0])); break;
    case XS_VCHECK_xs_vok_below: ok = xs_vok_below(ok, d[0], d[1]); break;
    case XS_VCHECK_xs_vok_below_i: ok = xs_vok_below_i(ok, a[0], a[1]); break;
    case XS_VCHECK_xs_vload_i64: vi = xs_vload_i64((const int64_t *)in); written = VI; break;
    case XS_VCHECK_xs_vload_i32: vi = xs_vload_i32((const int32_t *)(const void *)in); written = VI; break;
    case XS_VCHECK_xs_vload_ioffsets_i64:
        vi = xs_vload_ioffsets_i64((const int64_t *)in, param[0], &ok);
        written = VI;
        break;
    case XS_VCHECK_xs_vload_ioffsets_i32:
        vi = xs_vload_ioffsets_i32((const int32_t *)(const void *)in, param[0], &ok);
        written = VI;
        break;
    case XS_VCHECK_xs_vload_offsets_i64:
        vd = xs_vload_offsets_i64((const int64_t *)in, param[0], &ok);
        written = VD;
        break;
    case XS_VCHECK_xs_vload_offsets_i32:
        vd = xs_vload_offsets_i32((const int32_t *)(const void *)in, param[0], &ok);
        written = VD;
        break;
    case XS_VCHECK_xs_vand: vi = xs_vand(a[0], a[1]); written = VI; break;
    case XS_VCHECK_xs_vshr: vi = xs_vshr(a[0], a[1]); written = VI; break;
    case XS_VCHECK_xs_vshl: vi = xs_vshl(a[0], a[1]); written = VI; break;
    case XS_VCHECK_xs_vdigit: vi = xs_vdigit(a[0], a[1], a[2], a[3], a[4]); written = VI; break;
    case XS_VCHECK_xs_vmul:
        vi = param[0] ? xs_vmul(a[0], a[1], 1) : xs_vmul(a[0], a[1], 0);
        written = VI;
        break;
    case XS_VCHECK_xs_vadd: vi = xs_vadd(a[0], a[1]); written = VI; break;
    case XS_VCHECK_xs_vfloor_fma: vd = xs_vfloor_fma(d[0], d[1], d[2]); written = VD; break;
    case XS_VCHECK_xs_vfnmadd: vd = xs_vfnmadd(d[0], d[1], d[2]); written = VD; break;
    case XS_VCHECK_xs_vi_to_vd: vd = xs_vi_to_vd(a[0]); written = VD; break;
    case XS_VCHECK_xs_vd_to_vi: vi = xs_vd_to_vi(d[0]); written = VI; break;
    case XS_VCHECK_xs_vstore:
        if (param[0] % 8 != 0 || param[0] > XS_VCHECK_OUT - XS_VBYTES) return XS_VCHECK_OUTSIDE;
        xs_vstore((int64_t *)(void *)(out + param[0]), a[0]);
        break;
    case XS_VCHECK_xs_vstore_lanes: {
        if (param[0] > XS_VBYTES / 4 || param[2] % 4 != 0 || param[2] > XS_VCHECK_OUT - XS_VBYTES)
            return XS_VCHECK_OUTSIDE;
        xs_vlanes m = xs_vlanes_below((int)param[0]);
        if (param[1]) m = xs_vlanes_not(m);
        xs_vstore_lanes(out + param[2], m, a[0]);
        break;
    }
    case XS_VCHECK_xs_vstore_nt:
        if (param[0] % XS_VBYTES != 0 || param[0] > XS_VCHECK_OUT - XS_VBYTES) return XS_VCHECK_OUTSIDE;
        xs_vstore_nt(out + param[0], a[0]);
        break;
    case XS_VCHECK_xs_vjoin: {
        const int lag = (int)param[0], lanes = XS_VBYTES / 4;
        if (param[0] < 1 || param[0] >= (uint64_t)lanes) return XS_VCHECK_OUTSIDE;
        int32_t by[XS_VBYTES / 4];
        xs_vi turn;
        for (int j = 0; j < lanes; j++) by[j] = j - lag + lanes;
        memcpy(&turn, by, sizeof turn);
        const xs_vlanes low = xs_vlanes_below(lag);
        const xs_vi carry = xs_vkeep(a[0], turn);
        const xs_vi joined = xs_vjoin(carry, a[1], turn, low);
        memcpy(out, &joined, sizeof joined);
        xs_vstore_lanes(out + XS_VBYTES, low, xs_vjoin(carry, carry, turn, low));
        break;
    }
    case XS_VCHECK_xs_vstore_rows:
    case XS_VCHECK_xs_vstore_rows32: {
#ifndef XS_VSTORE_ROWS32
        if (op == XS_VCHECK_xs_vstore_rows32) return XS_VCHECK_ABSENT;
#endif
        if (rank < 1 || rank > XS_MAX_UNROLLED || !XS_VROWS(rank) ||
            (op == XS_VCHECK_xs_vstore_rows32 && rank != 1 && rank != 2 && rank != 4) ||
            !XS_VCHECK_FN(xs_vcheck_position)(param + 1, rank, position))
            return XS_VCHECK_OUTSIDE;
        const uint64_t store = param[rank + 1], offset = param[rank + 2];
        if (store > XS_STORE_STREAM || offset % 4 != 0 ||
            offset > (uint64_t)(XS_VCHECK_OUT - rank * XS_VBYTES))
            return XS_VCHECK_OUTSIDE;
        xs_vstream s;
        xs_vstream_begin(&s, out + offset, (int)store);
        if (op == XS_VCHECK_xs_vstore_rows) {
            xs_vrows t;
            xs_vrows_init(&t, rank, position);
            xs_vstore_rows(&s, a, rank, &t);
        }
#ifdef XS_VSTORE_ROWS32
        else {
            xs_vstore_rows32(&s, (uint32_t *)(void *)(out + offset), a, rank, position);
        }
#endif
        xs_vstream_end(&s);
        break;
    }
    case XS_VCHECK_xs_vravel_check:
    case XS_VCHECK_xs_vravel_rowsum:
    case XS_VCHECK_xs_vravel_sum: {
        if (rank < 1 || rank > XS_MAX_UNROLLED || !XS_VRAVEL(rank)) return XS_VCHECK_OUTSIDE;
        uint64_t extent[XS_MAX_UNROLLED] = {0}, stride[XS_MAX_UNROLLED] = {0};
        const uint64_t *given = param + (op == XS_VCHECK_xs_vravel_sum ? 2 : 1);
        for (int j = 0; j < rank && op != XS_VCHECK_xs_vravel_rowsum; j++) {
            extent[j] = given[j];
            if (op == XS_VCHECK_xs_vravel_sum) stride[j] = given[rank + j];
        }
        xs_vravel t;
        xs_vravel_init(&t, rank, extent, stride);
        if (op == XS_VCHECK_xs_vravel_check) {
            xs_vravel_check(a, rank, &t, &ok);
        } else if (op == XS_VCHECK_xs_vravel_rowsum) {
            vi = xs_vravel_rowsum(a, rank, &t);
            written = VI;
        } else {
            vi = param[1] ? xs_vravel_sum(a, rank, &t, 1, &ok) : xs_vravel_sum(a, rank, &t, 0, &ok);
            written = VI;
        }
        break;
    }
    case XS_VCHECK_xs_vravel_column:
#ifdef XS_VRAVEL_COLUMN
        vi = param[0] ? xs_vravel_column(a[0], a[1], a[2], a[3], 1, &ok)
                      : xs_vravel_column(a[0], a[1], a[2], a[3], 0, &ok);
        written = VI;
        break;
#else
        return XS_VCHECK_ABSENT;
#endif
    case XS_VCHECK_xs_vravel_rows4_u32: {
        const uint64_t i = param[0], stop = param[1], store = param[2], offset = param[3];
        const uint64_t prefetch = param[12];
        if (i > stop || stop > 2 * XS_VCHECK_IN / 4 || store > XS_STORE_STREAM || offset % 4 != 0 ||
            offset > XS_VCHECK_OUT - 4 * stop || prefetch > XS_PREFETCH_L2)
            return XS_VCHECK_OUTSIDE;
        result = xs_vravel_rows4_u32((const uint32_t *)(const void *)in, param + 4, param + 8,
                                     (uint32_t *)(void *)(out + offset), (ptrdiff_t)i,
                                     (ptrdiff_t)stop, (int)store, (int)prefetch, flag);
        break;
    }
    case XS_VCHECK_xs_vstream: {
        const uint64_t count = param[0], store = param[1], offset = param[2];
        if (count > XS_VCHECK_OUT / XS_VBYTES || store > XS_STORE_STREAM ||
            offset > XS_VCHECK_OUT - count * XS_VBYTES)
            return XS_VCHECK_OUTSIDE;
        xs_vstream s;
        xs_vstream_begin(&s, out + offset, (int)store);
        if (param[3]) {
            xs_vstream_put_block(&s, in, (ptrdiff_t)count);
        } else {
            for (uint64_t k = 0; k < count; k++) {
                xs_vi v;
                memcpy(&v, in + k * XS_VL, sizeof v);
                xs_vstream_put(&s, v);
            }
        }
        xs_vstream_end(&s);
        break;
    }
    case XS_VCHECK_xs_vtranspose: {
        const uint64_t size = param[0], stream = param[1], ssi = param[2], dsj = param[3],
                       at = param[4];
        if ((size != 1 && size != 2 && size != 4 && size != 8) || stream > 1)
            return XS_VCHECK_OUTSIDE;
        const int side = XS_VTRANSPOSE_SIDE((int)size, (int)stream);
        result = side;
        if (side == 0) break;
        const uint64_t row = (uint64_t)side * size;
        if (ssi > sizeof(uint64_t) * XS_VCHECK_IN || dsj < row || dsj > XS_VCHECK_OUT ||
            at > XS_VCHECK_OUT ||
            (side - 1) * ssi + row > sizeof(uint64_t) * XS_VCHECK_IN ||
            at + (side - 1) * dsj + row > XS_VCHECK_OUT || (stream && (at % 64 || dsj % 64)))
            return XS_VCHECK_OUTSIDE;
        xs_vtranspose((const char *)in, (int64_t)ssi, out + at, (int64_t)dsj, (int)size,
                      (int)stream);
        break;
    }
    case XS_VCHECK_xs_vinterleave:
    case XS_VCHECK_xs_vdeinterleave: {
        const uint64_t rows = param[0], size = param[1], stream = param[2], step = param[3],
                       count = param[4], at = param[5];
        if ((rows != 2 && rows != 4) || (size != 1 && size != 2 && size != 4) ||
            rows * size > 8 || stream > 1 || count > XS_VCHECK_OUT || step > XS_VCHECK_OUT ||
            at > XS_VCHECK_OUT)
            return XS_VCHECK_OUTSIDE;
        const uint64_t run = rows * count * size, line = count * size;
        if (op == XS_VCHECK_xs_vinterleave) {  /* step: ssi */
            if ((rows - 1) * step + line > sizeof(uint64_t) * XS_VCHECK_IN ||
                at + run > XS_VCHECK_OUT || (stream && at % 16))
                return XS_VCHECK_OUTSIDE;
            result = xs_vinterleave((const char *)in, (int64_t)step, out + at, (int64_t)count,
                                    (int)rows, (int)size, (int)stream);
        } else {  /* step: dsj, the result's rows apart */
            if (run > sizeof(uint64_t) * XS_VCHECK_IN || step < line ||
                at + (rows - 1) * step + line > XS_VCHECK_OUT || (stream && (at | step) % 16))
                return XS_VCHECK_OUTSIDE;
            result = xs_vdeinterleave((const char *)in, out + at, (int64_t)step, (int64_t)count,
                                      (int)rows, (int)size, (int)stream);
        }
        break;
    }
    case XS_VCHECK_xs_vinterleave_joined: {
        const uint64_t rows = param[0], size = param[1], ssi = param[2], count = param[3],
                       at = param[4], runs = param[5];
        if ((rows != 2 && rows != 4) || (size != 1 && size != 2 && size != 4) ||
            rows * size > 8 || count > XS_VCHECK_OUT || count % (16 / size) ||
            ssi > XS_VCHECK_OUT || at > XS_VCHECK_OUT || at % size || runs < 1 || runs > 8 ||
            (rows - 1) * ssi + runs * count * size > sizeof(uint64_t) * XS_VCHECK_IN ||
            at + runs * rows * count * size > XS_VCHECK_OUT)
            return XS_VCHECK_OUTSIDE;
        _Alignas(64) char carry[64] = {0};
        int from = 0;
        char *dst = out + at;
        for (uint64_t r = 0; r < runs; r++, dst += rows * count * size)
            result = xs_vinterleave_joined((const char *)in + r * count * size, (int64_t)ssi, dst,
                                           (int64_t)count, (int)rows, (int)size, carry, &from,
                                           r > 0);
        const int end = (int)((uintptr_t)dst & 63);
        if (end > from) memcpy(dst - end + from, carry + from, (size_t)(end - from));
        break;
    }
    case XS_VCHECK_xs_vdeinterleave_lines: {
        const uint64_t rows = param[0], size = param[1], dsj = param[2], count = param[3],
                       at = param[4], before = param[5];
        if ((rows != 2 && rows != 4) || (size != 1 && size != 2 && size != 4) ||
            rows * size > 8 || count > XS_VCHECK_OUT || dsj > XS_VCHECK_OUT || dsj % 64 ||
            count * size % 64 || count == 0 || dsj < count * size || at > XS_VCHECK_OUT ||
            at % size || rows * count * size > sizeof(uint64_t) * XS_VCHECK_IN ||
            at + (rows - 1) * dsj + count * size > XS_VCHECK_OUT - 64 * rows ||
            (before && (before < 64 * rows || before > sizeof(uint64_t) * XS_VCHECK_IN)))
            return XS_VCHECK_OUTSIDE;
        xs_vdeinterleave_lines((const char *)in, before ? (const char *)in + before : NULL,
                               out + at, (int64_t)dsj, (int64_t)count, (int)rows, (int)size,
                               out + XS_VCHECK_OUT - 64 * rows);
        break;
    }
    case XS_VCHECK_xs_vstore_line_nt:
        if (param[0] % 64 || param[0] > XS_VCHECK_OUT - 64 ||
            param[1] > sizeof(uint64_t) * XS_VCHECK_IN - 64)
            return XS_VCHECK_OUTSIDE;
        xs_vstore_line_nt(out + param[0], (const char *)in + param[1]);
        break;
    case XS_VCHECK_xs_vstore_lines_nt:
        if (param[0] % 64 || param[2] > XS_VCHECK_OUT / 64 ||
            param[0] > XS_VCHECK_OUT - 64 * param[2] ||
            param[1] > sizeof(uint64_t) * XS_VCHECK_IN - 64 * param[2])
            return XS_VCHECK_OUTSIDE;
        xs_vstore_lines_nt(out + param[0], (const char *)in + param[1], (int64_t)param[2]);
        break;
    case XS_VCHECK_xs_vstore_line_joined_nt:
        if (param[0] % 64 || param[0] > XS_VCHECK_OUT - 64 || param[2] < 1 || param[2] > 63 ||
            param[1] > sizeof(uint64_t) * XS_VCHECK_IN - param[2] ||
            param[3] > sizeof(uint64_t) * XS_VCHECK_IN - (64 - param[2]))
            return XS_VCHECK_OUTSIDE;
        result = xs_vstore_line_joined_nt(out + param[0], (const char *)in + param[1],
                                          (int)param[2], (const char *)in + param[3]);
        break;
    case XS_VCHECK_xs_vstore_line_blend_nt:
        if (param[0] % 64 || param[0] > XS_VCHECK_OUT - 64 || param[3] == 0 || param[3] >= 64 ||
            param[1] > sizeof(uint64_t) * XS_VCHECK_IN - 64 ||
            param[2] > sizeof(uint64_t) * XS_VCHECK_IN - 64)
            return XS_VCHECK_OUTSIDE;
        xs_vstore_line_blend_nt(out + param[0], (const char *)in + param[1],
                                (const char *)in + param[2], (int)param[3]);
        break;
    default:
        return XS_VCHECK_OUTSIDE;
    }
    xs_vfence();
    if (written == VI) memcpy(out, &vi, sizeof vi);
    if (written == VD) memcpy(out, &vd, sizeof vd);
    *ok_bits = xs_vcheck_ok_bits(ok);
    return result;
}

#ifdef XS_VCHECK_KERNELS
/* kernels_impl.h for int32 and int64 at this level. */
#define XS_LEVEL XS_VCHECK_LEVEL
#define XS_LEVEL_DTYPES(X) XS_DTYPE_I32(X) XS_DTYPE_I64(X)
#define XS_EACH_LIST XS_LEVEL_DTYPES
#define XS_EACH_FILE "kernels/kernels_dtype.h"
#include "base/each.h"
#undef XS_LEVEL
#define XS_VCHECK_KFN_(name, tn, level) name##_##tn##_##level
#define XS_VCHECK_KFN2(name, tn, level) XS_VCHECK_KFN_(name, tn, level)
#define XS_VCHECK_KFN(name, tn) XS_VCHECK_KFN2(name, tn, XS_VCHECK_LEVEL)
#endif

/* Bit R set for each rank R of XS_RANKS where PRED(R). */
#define XS_VCHECK_RANK_BIT(R, PRED) | (PRED(R) << (R))
#define XS_VCHECK_RANKS(PRED) (0 XS_RANKS_WITH(XS_VCHECK_RANK_BIT, PRED))
#ifdef XS_VRAVEL_COLUMN
#define XS_VCHECK_HAS_COLUMN 1
#else
#define XS_VCHECK_HAS_COLUMN 0
#endif
#ifdef XS_VSTORE_ROWS32
#define XS_VCHECK_HAS_ROWS32 2
#else
#define XS_VCHECK_HAS_ROWS32 0
#endif

#define XS_VCHECK_STR_(name) #name
#define XS_VCHECK_STR(name) XS_VCHECK_STR_(name)
const xs_vcheck_level XS_VCHECK_CAT(xs_vcheck, XS_VCHECK_LEVEL) = {
    XS_VCHECK_STR(XS_VCHECK_LEVEL),
    XS_VCHECK_SUPPORTED,
    {XS_VL, XS_VBYTES, XS_VCHECK_RANKS(XS_VROWS), XS_VCHECK_RANKS(XS_VRAVEL),
     XS_VCHECK_HAS_COLUMN | XS_VCHECK_HAS_ROWS32},
    XS_VCHECK_FN(xs_vcheck_run),
#ifdef XS_VCHECK_KERNELS
    {
        .ravel_rows = {(xs_vcheck_ravel_rows_fn)XS_VCHECK_KFN(xs_ravel_rows, i32),
                       (xs_vcheck_ravel_rows_fn)XS_VCHECK_KFN(xs_ravel_rows, i64)},
        .ravel_cols = {XS_VCHECK_KFN(xs_ravel_cols, i32), XS_VCHECK_KFN(xs_ravel_cols, i64)},
        .ravel_cols32 = {XS_VCHECK_KFN(xs_ravel_cols32, i32), XS_VCHECK_KFN(xs_ravel_cols32, i64)},
        .unravel_rows = {(xs_vcheck_unravel_rows_fn)XS_VCHECK_KFN(xs_unravel_rows, i32),
                         (xs_vcheck_unravel_rows_fn)XS_VCHECK_KFN(xs_unravel_rows, i64)},
#ifdef XS_VSTORE_ROWS32
        .unravel32 = {(xs_vcheck_unravel32_fn)XS_VCHECK_KFN(xs_unravel32, i32),
                      (xs_vcheck_unravel32_fn)XS_VCHECK_KFN(xs_unravel32, i64)},
#endif
    },
#endif
};
