/* The vector contract: every vector operation that the loops of
 * kernels_impl.h, tiled_kernels.h and relayout_impl.h, and the store
 * stream of kernels_store.h, use, and what each must do. Each vector level
 * implements this list in one header: kernels_vec_avx2.h (4 lanes),
 * kernels_vec_avx512.h (8 lanes), and kernels_vec_portable.h (plain C, 4
 * or 8 lanes, any CPU: the reference that tests/test_vector_ops.py holds
 * each level to, through tests/vec_check/, which the tests build).
 *
 * A level header is included after kernels_common.h (plan.h's
 * XS_MAX_UNROLLED, XS_ALWAYS_INLINE, the store modes, XS_TWO52), inside
 * its level's target pragma, and only one level header per translation
 * unit (they share the guard XLASHAPE_KERNELS_VEC_H). It defines the
 * store operations below, then includes kernels_store.h (the store
 * stream, xs_vstream, written once over those operations), then the
 * operations that put vectors on a stream.
 *
 * This file is the list. Included after a level header (tests/vec_check/*.c do,
 * for every level), it declares each function again with its contract
 * signature, so that the compiler rejects a level whose function differs,
 * and checks the macros; it defines nothing.
 *
 * Words used below. A vector has XS_VL lanes of 64 bits; lane l of an
 * xs_vi is bytes 8l..8l+7 of its memory image (kernels_store.h copies
 * vectors to and from memory with memcpy; vec_check does too). "Lanes
 * where" means lane by lane, independently. Integer lanes are int64 bits:
 * arithmetic wraps modulo 2**64, and "unsigned" reads them as uint64. A
 * precondition is what the caller guarantees; outside it a level may
 * return anything (but must not fault or write outside what the
 * operation names). A lane of ``ok`` is "good" while its row is; an
 * operation "clears" lanes of ok and never sets one. Rows of (N, R)
 * arrays are C-contiguous: element e of XS_VL rows read as R vectors is
 * lane e % XS_VL of vector e / XS_VL, and belongs to row e / R, dimension
 * e % R.
 *
 * Where the levels differ: only AVX2 defines XS_VRAVEL_COLUMN (the loops
 * test for the optional operations with #ifdef). AVX-512 leaves ravel of
 * columns to the compiler's vectorisation of the plain loop, which has
 * the unsigned 64-bit compares and 64-bit products that AVX2 spells out
 * by hand. The rank sets XS_VROWS and XS_VRAVEL differ by measurement. A level may keep
 * helpers of its own (AVX2: xs_vkeep_offsets, xs_vwiden_offsets,
 * xs_vnarrow); no loop uses them, and they are not part of the contract.
 *
 * Relayout (relayout/relayout_impl.h: to_linear, from_linear, relayout)
 * moves elements of 1 to 8 bytes through the last group of operations
 * below (transposes of square blocks, interleaves, whole-line stores and
 * their fence); the baseline level, with no vector header, moves them in
 * plain C. The x86 levels share those operations' interleaves, line
 * stores and fence (kernels_vec_x86.h); the portable level and NEON, which
 * store no interleave past the caches, share a plain
 * xs_vinterleave_joined, a staged xs_vdeinterleave_lines (whose stage,
 * kernels_vec_staged_lines.h, AVX2 uses for 2 rows) and a memcpy
 * xs_vstore_line_blend_nt (kernels_vec_joined.h).
 */
#ifndef XLASHAPE_KERNELS_VEC_CONTRACT_H
#define XLASHAPE_KERNELS_VEC_CONTRACT_H

#ifndef XLASHAPE_KERNELS_VEC_H
#error "kernels_vec.h checks a level header: include kernels_vec_<level>.h first"
#endif

/* ---- macros ---------------------------------------------------------------
 *
 * XS_VL
 *     Lanes of 64 bits in a vector (AVX2 4, AVX-512 8). The loops take
 *     rows XS_VL at a time and leave the last (stop - start) % XS_VL to
 *     their scalar steps.
 * XS_VBYTES
 *     Bytes of a vector, 8 * XS_VL: what one put on the store stream
 *     writes. kernels_store.h derives XS_VLANES = XS_VBYTES / 4, the
 *     32-bit lanes of a vector, from it.
 * XS_VROWS(R)
 *     Nonzero for the ranks R (1 to XS_MAX_UNROLLED) whose (N, R) rows the
 *     level stores by xs_vstore_rows (and xs_vstore_rows32); a constant
 *     expression, also usable in #if. Where XS_VSTORE_ROWS32 is defined it
 *     holds for ranks 1, 2 and 4, the ranks of xs_vstore_rows32.
 * XS_VRAVEL(R)
 *     Nonzero for the ranks R whose rows ravel reads a vector of rows at a
 *     time (xs_vravel_init, _check, _rowsum, _sum); a constant expression.
 * XS_VTURN_ROWS
 *     1 where the rows of xs_vstore_rows and xs_vstore_rows32 pay for
 *     being turned into aligned slots (xs_vjoin) on a result that does
 *     not start on a vector boundary; 0 where the turn costs more than
 *     the stores across lines it saves, and unravel stores those rows
 *     plainly instead (kernels_store.h, xs_vstream_rows_mode). A constant.
 * XS_VRAVEL_COLUMN (optional)
 *     Defined (as 1) where the level has xs_vravel_column.
 * XS_VSTORE_ROWS32 (optional)
 *     Defined (as 1) where the level has xs_vstore_rows32.
 * XS_VSTORE_SLOT (optional)
 *     Defined (as 1) where the store stream stores a vector by xs_vstore
 *     rather than a memcpy (NEON: GCC 12 copied its struct of two
 *     registers through the stack).
 * XS_VSTAGE_PAIRS
 *     1 where a streamed inverse interleave of 2 rows into rows on lines
 *     stages them in L1 and stores their whole lines from there
 *     (relayout_impl.h), as one of 4 rows always does, and on x86 into
 *     rows off lines as well (kernels_vec_x86.h's xs_vdeinterleave_lines,
 *     which otherwise stores them from the registers that split them); 0
 *     where 2 rows on lines go out as they are split. A constant.
 * XS_VINVERSE_AHEAD
 *     1 where streamed inverse interleaves of 1- and 2-byte elements ask
 *     for their source ahead in the L1 prefetch mode as well as the L2
 *     one (relayout_impl.h, xs_inverse_ahead); 0 in the L2 mode alone. A
 *     constant.
 * XS_VTRANSPOSE_SIDE(size, stream)
 *     The side of the square block that xs_vtranspose moves, for
 *     elements of ``size`` bytes (1, 2, 4 or 8) and a move that streams
 *     its stores or not (``stream`` 1 or 0); 0 where the level has no
 *     block for them (relayout then moves them element by element). With
 *     ``stream``, every side other than 0 is 64 / size: each row of the
 *     block one whole 64-byte line. A constant expression for constant
 *     arguments. (AVX2: 8 for 2- and 4-byte elements, 4 for 8-byte ones,
 *     64 / size streamed; AVX-512: 64 / size, whole lines throughout.)
 */
#if !defined(XS_VL) || !defined(XS_VBYTES) || !defined(XS_VROWS) || !defined(XS_VRAVEL) || \
    !defined(XS_VTURN_ROWS) || !defined(XS_VSTAGE_PAIRS) || !defined(XS_VINVERSE_AHEAD) ||   \
    !defined(XS_VTRANSPOSE_SIDE)
#error "a vector level defines XS_VL, XS_VBYTES, XS_VROWS(R), XS_VRAVEL(R), XS_VTURN_ROWS, XS_VSTAGE_PAIRS, XS_VINVERSE_AHEAD and XS_VTRANSPOSE_SIDE(size, stream)"
#endif
#define XS_VCONTRACT_LINE_SIDE(size) \
    (XS_VTRANSPOSE_SIDE(size, 1) == 0 || XS_VTRANSPOSE_SIDE(size, 1) == 64 / (size))
#if !(XS_VCONTRACT_LINE_SIDE(1) && XS_VCONTRACT_LINE_SIDE(2) && XS_VCONTRACT_LINE_SIDE(4) && \
      XS_VCONTRACT_LINE_SIDE(8))
#error "XS_VTRANSPOSE_SIDE(size, 1) is 0 or 64 / size"
#endif
#undef XS_VCONTRACT_LINE_SIDE
#if XS_VBYTES != 8 * XS_VL
#error "XS_VBYTES is 8 * XS_VL"
#endif
#if defined(XS_VSTORE_ROWS32) && !(XS_VROWS(1) && XS_VROWS(2) && XS_VROWS(4))
#error "with XS_VSTORE_ROWS32, XS_VROWS holds for ranks 1, 2 and 4"
#endif

/* ---- types ----------------------------------------------------------------
 *
 * xs_vi
 *     XS_VL int64 lanes, exactly XS_VBYTES bytes, lane l at bytes 8l..8l+7
 *     of its memory image. A value, copied freely.
 * xs_vd
 *     XS_VL double lanes, in the same way.
 * xs_vok
 *     One flag per lane: good or not. Opaque (AVX2: the sign bit of a
 *     double lane, AVX-512: a mask bit, NEON: a 32-bit lane of all ones);
 *     made by xs_vok_all, changed by the operations that take an
 *     ``xs_vok *ok`` or return one, read only by xs_vok_bad.
 * xs_vlanes
 *     A set of the XS_VLANES 32-bit lanes of a vector (AVX2: all ones in
 *     each lane of the set, AVX-512: a mask bit per lane), for masked
 *     stores; made by xs_vlanes_below and xs_vlanes_not only.
 * xs_vrows
 *     What xs_vrows_init prepares for xs_vstore_rows: one rank and its
 *     permutation. Set up once per call of a loop, outside the rows.
 * xs_vravel
 *     What xs_vravel_init prepares for xs_vravel_check, _rowsum and _sum:
 *     one rank's extents and strides laid out by lane.
 */
typedef char xs_vcontract_vi_bytes[sizeof(xs_vi) == XS_VBYTES ? 1 : -1];
typedef char xs_vcontract_vd_bytes[sizeof(xs_vd) == XS_VBYTES ? 1 : -1];

/* ---- filling, and the lanes' flags ------------------------------------- */

/* Every lane x. */
static xs_vd xs_vd_set(double x);
/* Every lane x (the bits of x as int64). */
static xs_vi xs_vi_set(uint64_t x);
/* Every lane good. */
static xs_vok xs_vok_all(void);
/* Nonzero when some lane of ok is not good, 0 when every lane is. */
static int xs_vok_bad(xs_vok ok);
/* The lanes good in both a and b. */
static xs_vok xs_vok_and(xs_vok a, xs_vok b);
/* ok, less the lanes where x < limit does not hold (doubles, an ordered
 * compare: a NaN lane is cleared). */
static xs_vok xs_vok_below(xs_vok ok, xs_vd x, xs_vd limit);
/* ok, less the lanes where x >= limit. Precondition: every lane of x and
 * of limit in [0, 2**63), where signed and unsigned compares agree (AVX2
 * compares signed, AVX-512 unsigned). */
static xs_vok xs_vok_below_i(xs_vok ok, xs_vi x, xs_vi limit);

/* ---- loads (p: any alignment; XS_VL items readable from p) -------------- */

/* The loads of each dtype a level reads in vectors (plan.h's registry: a
 * dtype with its ``vloads`` flag), each announced by a macro defined as 1
 * beside it: XS_VLOAD_<tn> for xs_vload_<tn>, and, for a dtype that also
 * has unravel kernels, XS_VLOAD_OFFSETS_<tn> for xs_vload_ioffsets_<tn>
 * and xs_vload_offsets_<tn>. kernels/kernels_dtype.h stops the build,
 * naming the load, where a level lists such a dtype without them. */

/* XS_VL int64 items from p. */
static xs_vi xs_vload_i64(const int64_t *p);
/* XS_VL int32 items from p, each sign-extended to int64. */
static xs_vi xs_vload_i32(const int32_t *p);
/* XS_VL offsets from p (int64, or int32 sign-extended): lane l is the
 * item where 0 <= item < size, and 0 elsewhere, where ok's lane l is also
 * cleared. Precondition: size < 2**63 (AVX2 compares signed). */
static xs_vi xs_vload_ioffsets_i64(const int64_t *p, uint64_t size, xs_vok *ok);
static xs_vi xs_vload_ioffsets_i32(const int32_t *p, uint64_t size, xs_vok *ok);
/* The same lanes as doubles, exactly: xs_vi_to_vd of xs_vload_ioffsets.
 * Precondition: size <= 2**52 (the loops pass at most XS_FLOOR_DIV_LIMIT,
 * 2**50). */
static xs_vd xs_vload_offsets_i64(const int64_t *p, uint64_t size, xs_vok *ok);
static xs_vd xs_vload_offsets_i32(const int32_t *p, uint64_t size, xs_vok *ok);

/* ---- integer lanes --------------------------------------------------------*/

/* a & b. */
static xs_vi xs_vand(xs_vi a, xs_vi b);
/* n >> shift, logical, lane by lane (each lane its own count, read
 * unsigned); a count of 64 or more gives 0. */
static xs_vi xs_vshr(xs_vi n, xs_vi shift);
/* n << shift, lane by lane; a count of 64 or more gives 0. */
static xs_vi xs_vshl(xs_vi n, xs_vi shift);
/* acc | (((n >> shift) & mask) << weight), the shifts as xs_vshr and
 * xs_vshl: one digit of n moved to its place in an index. */
static xs_vi xs_vdigit(xs_vi acc, xs_vi n, xs_vi shift, xs_vi mask, xs_vi weight);
/* a * b modulo 2**64; with ``narrow`` (a compile-time constant in the
 * loops), the product of the low 32 bits of each, unsigned, as a 64-bit
 * value: equal to a * b where both lanes fit in 32 bits. */
static xs_vi xs_vmul(xs_vi a, xs_vi b, const int narrow);
/* a + b modulo 2**64. */
static xs_vi xs_vadd(xs_vi a, xs_vi b);

/* ---- double lanes, and conversions --------------------------------------*/

/* floor(n * rw + hrw), the product and sum rounded once (a fused
 * multiply-add, then floor). With rw = 1 / w rounded, hrw = rw / 2, an
 * integer 0 <= n < 2**50 and an integer w >= 1, it is n // w exactly
 * (kernels_common.h, XS_FLOOR_DIV_LIMIT, says why). */
static xs_vd xs_vfloor_fma(xs_vd n, xs_vd rw, xs_vd hrw);
/* n - q * w, rounded once (a fused negated multiply-add): with q from
 * xs_vfloor_fma as above, n % w exactly. */
static xs_vd xs_vfnmadd(xs_vd q, xs_vd w, xs_vd n);
/* The int64 lanes as doubles. Precondition: every lane in [0, 2**52)
 * (AVX2 converts through the bits of 2**52 + x). */
static xs_vd xs_vi_to_vd(xs_vi x);
/* The double lanes as int64. Precondition: every lane an integer in
 * [0, 2**52) (-0.0 included, giving 0). */
static xs_vi xs_vd_to_vi(xs_vd x);

/* ---- stores ----------------------------------------------------------- */

/* The XS_VL lanes to p (any alignment). */
static void xs_vstore(int64_t *p, xs_vi v);

/* The store stream's operations, on 32-bit lanes of the memory image
 * (lane j: bytes 4j..4j+3).
 *
 * The lanes j < n. Precondition: 0 <= n <= XS_VLANES. */
static xs_vlanes xs_vlanes_below(int n);
/* The lanes not in m. */
static xs_vlanes xs_vlanes_not(xs_vlanes m);
/* xs_vkeep and xs_vjoin make the aligned slots of kernels_store.h: with
 * 0 < lag < XS_VLANES, ``turn`` the xs_vi whose 32-bit lane j is j - lag +
 * XS_VLANES and low = xs_vlanes_below(lag) (as xs_vstream_begin makes
 * them), the vector
 *     xs_vjoin(xs_vkeep(prev, turn), v, turn, low)
 * has as lane j lane j - lag + XS_VLANES of prev for j < lag, and lane
 * j - lag of v for j >= lag: the last lag lanes of the previous vector,
 * then v moved up by lag. The lanes below lag of
 *     xs_vjoin(c, c, turn, low), c = xs_vkeep(prev, turn)
 * are those of prev's last lag lanes in the same way (the stream's tail);
 * its other lanes are unspecified. Only these two forms are in the
 * contract: what xs_vkeep returns is the level's own form of the carry
 * (AVX2 turns it already, AVX-512 keeps the vector as it is). */
static xs_vi xs_vkeep(xs_vi v, xs_vi turn);
static xs_vi xs_vjoin(xs_vi carry, xs_vi v, xs_vi turn, xs_vlanes low);
/* The 32-bit lanes of v in m to p (lane j to p + 4j); no byte of the
 * other lanes is read or written, so another thread may write them.
 * Precondition: p aligned to 4 bytes. */
static void xs_vstore_lanes(void *p, xs_vlanes m, xs_vi v);
/* v to p by a non-temporal store where the level has one (a plain store
 * is within the contract). Precondition: p aligned to XS_VBYTES. The
 * caller fences (dispatch.c, fenced_chunk) before another thread reads. */
static void xs_vstore_nt(void *p, xs_vi v);

/* ---- (N, rank) rows in registers ------------------------------------------
 *
 * Prepare t for xs_vstore_rows of ``rank`` positions: position[d] (d <
 * rank) is the position of dimension d in minor_to_major, most minor
 * first (xs_plan.position). Precondition: 1 <= rank <= XS_MAX_UNROLLED and
 * position a permutation of 0..rank-1; any such rank, not only those of
 * XS_VROWS (tiled_kernels.h prepares t whatever its rank, and stores rows
 * only where XS_VROWS holds). */
static void xs_vrows_init(xs_vrows *t, int rank, const int *position);
/* XS_VL rows of ``rank`` int64 indices, C-contiguous and in dimension
 * order, put on the store stream ``out`` as ``rank`` vectors: col[k]
 * holds position k of the XS_VL rows (lane i: row i), so that dimension d
 * of row i is lane i of col[position[d]]. Precondition: t prepared by
 * xs_vrows_init for this rank. */
static void xs_vstore_rows(xs_vstream *out, const xs_vi *col, const int rank, const xs_vrows *t);

#ifdef XS_VSTORE_ROWS32
/* The rows of xs_vstore_rows, each index narrowed to its low 32 bits
 * (the loops call it where every index is below 2**31): rank 1 stores
 * its XS_VL uint32 at ``out`` itself (half a vector, the stream
 * untouched); ranks 2 and 4 put rank / 2 vectors on the stream s (``out``
 * unused). position as for xs_vrows_init. Precondition: rank is 1, 2 or
 * 4. */
static void xs_vstore_rows32(xs_vstream *s, uint32_t *out, const xs_vi *col, const int rank,
                             const int *position);
#endif

/* ---- ravel: (N, rank) rows in registers ---------------------------------
 *
 * Prepare t for XS_VL rows of ``rank`` dimensions of the given extents and
 * strides (by dimension number). Precondition: XS_VRAVEL(rank), every
 * extent below 2**63. */
static void xs_vravel_init(xs_vravel *t, int rank, const uint64_t *extent, const uint64_t *stride);
/* ok, less the lanes l where some vector v[j] (j < rank) holds in lane l
 * an element outside [0, extent) of its dimension (read unsigned, a
 * negative index is outside). Elements are laid out as the rows of the
 * words above, v[0..rank) holding XS_VL rows: lane l of ok does not stand
 * for row l, but the loops read ok only through xs_vok_bad. */
static void xs_vravel_check(const xs_vi *v, const int rank, const xs_vravel *t, xs_vok *ok);
/* Lane r: the sum modulo 2**64 of the rank elements of row r of the XS_VL
 * rows that v[0..rank) holds. v may be overwritten. */
static xs_vi xs_vravel_rowsum(xs_vi *v, const int rank, const xs_vravel *t);
/* Lane r: the offset of row r, the sum of each element times its
 * dimension's stride (xs_vmul with ``narrow``, modulo 2**64), and ok as
 * xs_vravel_check leaves it. The loops pass ``narrow`` where every extent
 * is at most 2**32 and every stride below 2**32: a row whose products
 * then differ from the full ones has an index out of range, and is
 * flagged. v may be overwritten. */
static xs_vi xs_vravel_sum(xs_vi *v, const int rank, const xs_vravel *t, const int narrow,
                           xs_vok *ok);

#ifdef XS_VRAVEL_COLUMN
/* One vector of one dimension's indices v (a column): acc + v * stride
 * (xs_vmul with ``narrow``), and ok less the lanes where v, read signed,
 * is outside [0, extm1] (extm1: the extent less 1, read signed, so an
 * extent of 0 clears every lane). */
static xs_vi xs_vravel_column(xs_vi acc, xs_vi v, xs_vi extm1, xs_vi stride, const int narrow,
                              xs_vok *ok);
#endif

/* Rank-4 rows of 32-bit indices into 32-bit offsets (xs_ravel_cols32 of
 * kernels_impl.h): rows i, i + 1, ... of the C-contiguous (N, 4) uint32
 * array ``rows``, XS_VLANES rows at a time while i + XS_VLANES <= stop:
 * out[r] = the sum over d of rows[4r + d] * (uint32)stride[d] modulo
 * 2**32, written through a store stream begun at out + i with ``store``
 * (enum xs_store) and ended before the return, the input prefetched as
 * ``prefetch`` asks (enum xs_prefetch, kernels_common.h) at the levels
 * that prefetch for this loop (avx2, neon; the others read without).
 * ``*bad`` gains a nonzero value where some rows[4r + d] >= extent[d]
 * (unsigned, so a negative int32 is huge); it is never cleared. Returns
 * the first row not done. Precondition: every extent at most 2**31 (a
 * buffer of at most 2**31 elements). */
static ptrdiff_t xs_vravel_rows4_u32(const uint32_t *rows, const uint64_t *extent,
                                     const uint64_t *stride, uint32_t *out, ptrdiff_t i,
                                     ptrdiff_t stop, int store, int prefetch, uint64_t *bad);

/* ---- relayout: moving elements ------------------------------------------
 *
 * Elements of ``size`` bytes (1, 2, 4 or 8) moved as bytes, whatever they
 * hold; steps (ssi, dsj) in bytes, counts in elements. ``stream`` (a
 * compile-time constant in the loops): the stores may be non-temporal (a
 * plain store is within the contract); the caller runs xs_vfence after
 * its last such store, before anything reads what they wrote. Source and
 * destination do not overlap.
 *
 * The block of side s = XS_VTRANSPOSE_SIDE(size, stream), transposed:
 * element j of row i of the source (src + i * ssi + j * size) to element
 * i of row j of the result (dst + j * dsj + i * size), for i, j < s; no
 * other byte written. Precondition: s > 0; the source's s rows readable
 * and the result's s rows writable (s * size bytes each); with stream,
 * dst and dsj multiples of 64. */
static void xs_vtranspose(const char *src, int64_t ssi, char *dst, int64_t dsj, const int size,
                          const int stream);
/* ``rows`` source rows ssi apart, interleaved into one contiguous run:
 * element j of row i to element j * rows + i of dst, for j < n, where n
 * is nj less nj % (16 / size) (16 bytes of each row a step); returns n.
 * No other byte written. Precondition: rows 2 or 4, size 1, 2 or 4,
 * rows * size <= 8, nj >= 0; with stream, dst a multiple of 16. */
static int64_t xs_vinterleave(const char *src, int64_t ssi, char *dst, int64_t nj,
                              const int rows, const int size, const int stream);
/* The streamed xs_vinterleave (n as there) into any dst o = dst % 64
 * bytes past a line (o a multiple of size), which goes on from the run
 * before it where ``joined`` (one that ended at dst). ``carry`` (64 bytes,
 * 16-byte aligned) holds the line that a run ends in at the bytes' places
 * in it, good from byte *from on: those of it not yet written. Writes the
 * run's bytes and, joined, those carry holds before dst, but for the
 * bytes of its last line that it leaves in carry, *from set to the first
 * good one (without joined, the bytes before dst are not the run's). Where
 * the level streams, each line that all these bytes fill goes out by
 * non-temporal stores; another by ordinary ones. Returns n; with n 0,
 * writes nothing and, without joined, leaves nothing. The caller writes
 * carry's bytes from *from to where the run ended (in its line) where no
 * run goes on from this one. */
static int64_t xs_vinterleave_joined(const char *src, int64_t ssi, char *dst, int64_t nj,
                                     const int rows, const int size, char *carry, int *from,
                                     const int joined);
/* The inverse: the contiguous run src of groups of ``rows`` elements
 * split into ``rows`` result rows dsj apart: element i * rows + j of src
 * to element i of row j (dst + j * dsj + i * size), for i < n, where n is
 * ni less ni % (16 / size); returns n. No other byte written.
 * Precondition: as xs_vinterleave's, the rows not overlapping; with
 * stream, dst and dsj multiples of 16. */
static int64_t xs_vdeinterleave(const char *src, char *dst, int64_t dsj, int64_t ni,
                                const int rows, const int size, const int stream);
/* The streamed xs_vdeinterleave (all ni groups) into rows that start o =
 * dst % 64 bytes past a line: writes each row's bytes but its last o;
 * where ``before`` is not NULL, the rows go on from those of a run whose
 * groups end there (at least 64 bytes of each row), and it also writes
 * the o bytes before each row, from that run; else, where o > 0, not the
 * row's first 64 - o bytes either, but leaves its first 64 at head + 64 *
 * j for the caller to write. Stores only whole lines, past the caches
 * where the level has non-temporal stores. Precondition: rows 2 or 4,
 * size 1, 2 or 4, rows * size <= 8; ni * size a positive multiple of 64;
 * dst a multiple of size; dsj a multiple of 64 and at least ni * size;
 * head's rows * 64 bytes apart from the rows. */
static void xs_vdeinterleave_lines(const char *src, const char *before, char *dst, int64_t dsj,
                                   int64_t ni, const int rows, const int size, char *head);
/* The 64 bytes at src (any alignment) to dst, by non-temporal stores
 * where the level has them. Precondition: dst a multiple of 64. */
static void xs_vstore_line_nt(void *dst, const void *src);
/* n whole lines: the 64 * n bytes at src (any alignment) to dst, as
 * xs_vstore_line_nt stores each, the source read ahead of the stores
 * where the level pays for it. Precondition: dst a multiple of 64, n >= 0. */
static void xs_vstore_lines_nt(void *dst, const void *src, int64_t n);
/* The line at dst joined from two pieces, as xs_vstore_line_nt stores
 * one: the ``na`` bytes at a, then the 64 - na bytes at b (any
 * alignment), reading no byte outside the two pieces and loading the line
 * from no bytes stored just before (a line staged by ordinary stores and
 * loaded back whole waits for them). Returns 1; or 0, with nothing
 * written, at a level that declines (the caller stages the line itself).
 * Precondition: dst a multiple of 64, 0 < na < 64. */
static int xs_vstore_line_joined_nt(void *dst, const void *a, int na, const void *b);
/* The line at dst whose first n bytes are the first n at a and the rest
 * the last 64 - n at b, as xs_vstore_line_nt stores one, reading the 64
 * bytes at a and at b (any alignment). Precondition: dst a multiple of
 * 64, 0 < n < 64. */
static void xs_vstore_line_blend_nt(void *dst, const void *a, const void *b, int n);
/* The level's non-temporal stores before it are ordered before every
 * store after it (x86: sfence), so that another thread that sees a later
 * store sees them; nothing where the level has no such stores. */
static void xs_vfence(void);

#endif
