"""Tiled layouts in C: the digit form of :mod:`xlashape.tiling`, run nogil.

A ``TiledPlan`` is the LayoutPlan of a Shape whose layout has tiles. It keeps
each axis of the tiled array as a digit of a group value (a physical
dimension, or several combined by ``*``) with a stride, so that

- ravel sums ``((group // divisor) % modulus) * stride`` over the axes, and
- unravel splits the offset by the axes' extents, sums each group's digits
  times their divisors and refuses a group value past the group's extent
  (tile padding).

Where every divisor and modulus is a power of two (nearly every real tile),
each digit is a shift and a mask; otherwise a precomputed fast divisor.
Layouts with no digit form go through the plain-Python reference.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int64_t, uint64_t

from xlashape._plan cimport LayoutPlan, _fast_divisor as _divisor, xs_divisor
from xlashape._types cimport MODE_CLIP, MODE_RAISE, MODE_WRAP, index_t

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from xlashape import _batch, reference, tiling
from xlashape.errors import index_out_of_bounds


cdef extern from "plan.h" nogil:
    uint64_t xs_divide(uint64_t n, const xs_divisor* d)


cdef extern from "tiled.h" nogil:
    int XS_TILED_MAX_TERMS
    int XS_TILED_MAX_RANK
    ctypedef struct xs_tiled:
        int rank
        int n_terms
        uint64_t size
        const uint64_t* extent
        const int* dim
        const int* shift
        const uint64_t* mask
        const uint64_t* stride
        const int* u_dim
        const int* u_weight
        const int* u_pow2
        const int* u_shift
        const xs_divisor* u_radix
        const int* d_shift
        const uint64_t* d_stride
        const uint64_t* d_mask
        const int* d_weight
    ctypedef Py_ssize_t (*xs_tiled_ravel_fn)(const xs_tiled*, const int64_t*, int64_t*,
                                             Py_ssize_t, Py_ssize_t)
    ctypedef Py_ssize_t (*xs_tiled_unravel_fn)(const xs_tiled*, const int64_t*, char*,
                                               Py_ssize_t, Py_ssize_t, Py_ssize_t, Py_ssize_t)
    xs_tiled_ravel_fn* xs_tiled_ravel_by_rank
    xs_tiled_ravel_fn* xs_tiled_ravel_dims_by_rank
    xs_tiled_unravel_fn* xs_tiled_unravel_by_rank

cdef enum:
    MAX_SLOTS = 128  # the most groups, axes or dimensions a kernel keeps on its stack


cdef void* _alloc(Py_ssize_t count, size_t itemsize) except NULL:
    cdef void* p = PyMem_Malloc(max(count, 1) * itemsize)
    if p == NULL:
        raise MemoryError()
    return p


cdef inline bint _pow2(uint64_t value) noexcept nogil:
    return value != 0 and (value & (value - 1)) == 0


cdef int _log2(uint64_t value) noexcept nogil:
    cdef int k = 0
    while (<uint64_t> 1 << k) < value:
        k += 1
    return k


cdef class TiledPlan(LayoutPlan):
    """The plan of a tiled layout: groups and axes as C arrays."""

    cdef readonly object layout           # the Layout (tiles and all)
    cdef readonly object digits           # tiling.Digits, or None: reference only
    cdef Py_ssize_t n_groups, n_axes
    cdef bint shifts                      # every divisor and modulus a power of two
    # Per group: its members (dimension numbers, major first) and extent.
    cdef Py_ssize_t* member_start         # n_groups + 1 offsets into member_dim
    cdef Py_ssize_t* member_dim
    cdef uint64_t* member_size
    cdef uint64_t* group_extent
    # Per axis, most major first.
    cdef Py_ssize_t* axis_group
    cdef uint64_t* axis_stride
    cdef uint64_t* axis_extent
    cdef int* axis_shift                  # log2 divisor (shifts only)
    cdef uint64_t* axis_mask              # modulus - 1, or all ones (shifts only)
    cdef xs_divisor* axis_divisor        # divisor (general)
    cdef xs_divisor* axis_modulus        # modulus, divisor 0 for none (general)
    cdef xs_divisor* axis_radix          # extent, for unravel
    cdef uint64_t* axis_weight            # divisor, as a multiplier for unravel
    # The fast path (csrc/tiled.h): shifts of single dimensions, int64 input.
    cdef readonly bint fast
    cdef xs_tiled t
    cdef int* term_int                    # dim, shift, u_dim, u_weight, u_pow2, u_shift
    cdef uint64_t* term_u64               # mask, stride
    cdef xs_divisor* term_radix
    cdef int* dim_int                     # d_shift, d_weight
    cdef uint64_t* dim_u64                # d_stride, d_mask

    @staticmethod
    def build(tuple dimensions, layout):
        """The plan of ``dimensions`` under a tiled ``layout`` (already valid)."""
        cdef TiledPlan plan = TiledPlan(dimensions, layout.minor_to_major, dimensions)
        plan._setup(layout)
        return plan

    cdef _setup(self, layout):
        cdef Py_ssize_t g, a, k
        form = tiling.digits(self.dimensions, self.minor_to_major, layout.tiles)
        self.layout = layout
        self.digits = form
        self.size = reference.buffer_size(self) if form is None else form.size
        self.c.size = <uint64_t> self.size
        self.widths = self.dimensions
        self.padded = True
        self.c.padded = 1
        if form is None:
            return
        self.n_groups = len(form.groups)
        self.n_axes = len(form.axes)
        members = [d for group in form.groups for d in group.dimensions]
        self.member_start = <Py_ssize_t*> _alloc(self.n_groups + 1, sizeof(Py_ssize_t))
        self.member_dim = <Py_ssize_t*> _alloc(len(members), sizeof(Py_ssize_t))
        self.member_size = <uint64_t*> _alloc(len(members), sizeof(uint64_t))
        self.group_extent = <uint64_t*> _alloc(self.n_groups, sizeof(uint64_t))
        self.axis_group = <Py_ssize_t*> _alloc(self.n_axes, sizeof(Py_ssize_t))
        self.axis_stride = <uint64_t*> _alloc(self.n_axes, sizeof(uint64_t))
        self.axis_extent = <uint64_t*> _alloc(self.n_axes, sizeof(uint64_t))
        self.axis_shift = <int*> _alloc(self.n_axes, sizeof(int))
        self.axis_mask = <uint64_t*> _alloc(self.n_axes, sizeof(uint64_t))
        self.axis_divisor = <xs_divisor*> _alloc(self.n_axes, sizeof(xs_divisor))
        self.axis_modulus = <xs_divisor*> _alloc(self.n_axes, sizeof(xs_divisor))
        self.axis_radix = <xs_divisor*> _alloc(self.n_axes, sizeof(xs_divisor))
        self.axis_weight = <uint64_t*> _alloc(self.n_axes, sizeof(uint64_t))
        k = 0
        for g, group in enumerate(form.groups):
            self.member_start[g] = k
            self.group_extent[g] = group.extent
            for d in group.dimensions:
                self.member_dim[k] = d
                self.member_size[k] = self.dimensions[d]
                k += 1
        self.member_start[self.n_groups] = k
        self.shifts = True
        for a, (axis, stride) in enumerate(zip(form.axes, form.strides)):
            self.axis_group[a] = axis.group
            self.axis_stride[a] = stride
            self.axis_extent[a] = axis.extent
            self.axis_weight[a] = axis.divisor
            self.axis_divisor[a] = _divisor(axis.divisor)
            self.axis_modulus[a] = _divisor(axis.modulus)
            self.axis_radix[a] = _divisor(axis.extent)
            self.axis_shift[a] = _log2(axis.divisor)
            self.axis_mask[a] = (axis.modulus - 1) if axis.modulus else <uint64_t> -1
            if not _pow2(axis.divisor) or (axis.modulus and not _pow2(axis.modulus)):
                self.shifts = False
        self._setup_fast(form)

    cdef _setup_fast(self, form):
        """The fast path's terms: every axis of extent > 1, when each is a
        shift and a mask of one dimension."""
        cdef Py_ssize_t k, m
        terms = [(axis, stride) for axis, stride in zip(form.axes, form.strides) if axis.extent > 1]
        m = len(terms)
        single = all(len(group.dimensions) == 1 for group in form.groups)
        if not (self.shifts and single and 1 <= m <= XS_TILED_MAX_TERMS
                and 1 <= self.rank <= XS_TILED_MAX_RANK and self.size < (1 << 52)):
            return
        self.term_int = <int*> _alloc(6 * m, sizeof(int))
        self.term_u64 = <uint64_t*> _alloc(2 * m, sizeof(uint64_t))
        self.term_radix = <xs_divisor*> _alloc(m, sizeof(xs_divisor))
        for k, (axis, stride) in enumerate(terms):
            dim = form.groups[axis.group].dimensions[0]
            self.term_int[k] = dim
            self.term_int[m + k] = _log2(axis.divisor)
            self.term_u64[k] = (axis.modulus - 1) if axis.modulus else <uint64_t> -1
            self.term_u64[m + k] = stride
        for k, (axis, stride) in enumerate(reversed(terms)):  # most minor first
            self.term_int[2 * m + k] = form.groups[axis.group].dimensions[0]
            self.term_int[3 * m + k] = _log2(axis.divisor)
            self.term_int[4 * m + k] = _pow2(axis.extent)
            self.term_int[5 * m + k] = _log2(axis.extent)
            self.term_radix[k] = _divisor(axis.extent)
        self.t.rank = <int> self.rank
        self.t.n_terms = <int> m
        self.t.size = <uint64_t> self.size
        self.t.extent = self.c.extent
        self.t.dim = self.term_int
        self.t.shift = self.term_int + m
        self.t.mask = self.term_u64
        self.t.stride = self.term_u64 + m
        self.t.u_dim = self.term_int + 2 * m
        self.t.u_weight = self.term_int + 3 * m
        self.t.u_pow2 = self.term_int + 4 * m
        self.t.u_shift = self.term_int + 5 * m
        self.t.u_radix = self.term_radix
        self.fast = True
        self._setup_dims(terms, form)

    cdef _setup_dims(self, terms, form):
        """Ravel by dimension (csrc/tiled.h), when each dimension has at most
        a tile index (no mask) and a within-tile index (no shift, a
        power-of-two stride), as under one power-of-two tile."""
        cdef Py_ssize_t d, r = self.rank
        high = [None] * r
        low = [None] * r
        for axis, stride in terms:
            d = form.groups[axis.group].dimensions[0]
            if not axis.modulus and high[d] is None:
                high[d] = (_log2(axis.divisor), stride)
            elif axis.modulus and axis.divisor == 1 and _pow2(stride) and low[d] is None:
                low[d] = (axis.modulus - 1, _log2(stride))
            else:
                return
        self.dim_int = <int*> _alloc(2 * r, sizeof(int))
        self.dim_u64 = <uint64_t*> _alloc(2 * r, sizeof(uint64_t))
        for d in range(r):
            self.dim_int[d], self.dim_u64[d] = high[d] or (0, 0)
            self.dim_u64[r + d], self.dim_int[r + d] = low[d] or (0, 0)
        self.t.d_shift = self.dim_int
        self.t.d_stride = self.dim_u64
        self.t.d_mask = self.dim_u64 + r
        self.t.d_weight = self.dim_int + r

    def __dealloc__(self):
        PyMem_Free(self.member_start)
        PyMem_Free(self.member_dim)
        PyMem_Free(self.member_size)
        PyMem_Free(self.group_extent)
        PyMem_Free(self.axis_group)
        PyMem_Free(self.axis_stride)
        PyMem_Free(self.axis_extent)
        PyMem_Free(self.axis_shift)
        PyMem_Free(self.axis_mask)
        PyMem_Free(self.axis_divisor)
        PyMem_Free(self.axis_modulus)
        PyMem_Free(self.axis_radix)
        PyMem_Free(self.axis_weight)
        PyMem_Free(self.term_int)
        PyMem_Free(self.term_u64)
        PyMem_Free(self.term_radix)
        PyMem_Free(self.dim_int)
        PyMem_Free(self.dim_u64)

    def ravel_batch(self, indices, mode="raise", out=None, threads=None):
        """xlashape.ravel on this plan (what _batch hands tiled plans to)."""
        return ravel_batch(self, indices, mode, out, threads)

    def unravel_batch(self, offsets, out=None, threads=None):
        """xlashape.unravel on this plan (what _batch hands tiled plans to)."""
        return unravel_batch(self, offsets, out, threads)

    @property
    def compiled(self):
        """Whether the kernels run in C (the layout has a digit form)."""
        return (self.digits is not None and self.rank <= MAX_SLOTS
                and self.n_groups <= MAX_SLOTS and self.n_axes <= MAX_SLOTS)

    # -- one index (IndexUtil's single form) ---------------------------------
    cdef object ravel_one(self, object multi_index):
        cdef uint64_t values[MAX_SLOTS]
        cdef Py_ssize_t j
        idx = multi_index if type(multi_index) is tuple else tuple(multi_index)
        if not self.compiled or len(idx) != self.rank or self.rank > MAX_SLOTS:
            return reference.linear_index_of(self, idx)
        for j in range(self.rank):
            item = idx[j]
            if type(item) is not int or not 0 <= item < self.c.extent[j]:
                return reference.linear_index_of(self, idx)
            values[j] = item
        return <int64_t> self._offset(values)

    cdef object unravel_one(self, object linear_index):
        cdef int64_t position[MAX_SLOTS]
        cdef Py_ssize_t j
        if (not self.compiled or type(linear_index) is not int or self.rank > MAX_SLOTS
                or not 0 <= linear_index < self.size):
            return reference.multi_index_at(self, linear_index)
        if not self._index(<uint64_t> linear_index, position):
            return reference.multi_index_at(self, linear_index)
        return tuple([position[j] for j in range(self.rank)])

    # -- the digit arithmetic, shared by every kernel ------------------------
    cdef inline uint64_t _offset(self, const uint64_t* values) noexcept nogil:
        """The offset of in-range logical indices ``values``."""
        cdef uint64_t group[MAX_SLOTS]
        cdef uint64_t v, offset = 0
        cdef Py_ssize_t g, k, a
        for g in range(self.n_groups):
            v = 0
            for k in range(self.member_start[g], self.member_start[g + 1]):
                v = v * self.member_size[k] + values[self.member_dim[k]]
            group[g] = v
        if self.shifts:
            for a in range(self.n_axes):
                offset += ((group[self.axis_group[a]] >> self.axis_shift[a])
                           & self.axis_mask[a]) * self.axis_stride[a]
        else:
            for a in range(self.n_axes):
                v = xs_divide(group[self.axis_group[a]], &self.axis_divisor[a])
                if self.axis_modulus[a].divisor:
                    v -= xs_divide(v, &self.axis_modulus[a]) * self.axis_modulus[a].divisor
                offset += v * self.axis_stride[a]
        return offset

    cdef inline bint _index(self, uint64_t n, int64_t* position) noexcept nogil:
        """Fill ``position`` with the logical index at offset ``n`` (< size);
        False if the offset lies in tile padding."""
        cdef uint64_t group[MAX_SLOTS]
        cdef uint64_t q, v
        cdef Py_ssize_t g, k, a
        for g in range(self.n_groups):
            group[g] = 0
        for a in range(self.n_axes - 1, 0, -1):
            if _pow2(self.axis_extent[a]):
                q = n >> (self.axis_radix[a].shift)
            else:
                q = xs_divide(n, &self.axis_radix[a])
            group[self.axis_group[a]] += (n - q * self.axis_extent[a]) * self.axis_weight[a]
            n = q
        if self.n_axes:
            group[self.axis_group[0]] += n * self.axis_weight[0]
        for g in range(self.n_groups):
            v = group[g]
            if v >= self.group_extent[g]:
                return False
            for k in range(self.member_start[g + 1] - 1, self.member_start[g] - 1, -1):
                if k == self.member_start[g]:
                    position[self.member_dim[k]] = <int64_t> v
                else:
                    q = v // self.member_size[k]
                    position[self.member_dim[k]] = <int64_t> (v - q * self.member_size[k])
                    v = q
        return True


# -- batch kernels (nogil; each returns the first bad row of its chunk or -1) --
def ravel_rows(TiledPlan plan, const index_t[:, :] rows, const unsigned char[:] modes,
               bint any_mode, int64_t[::1] out, Py_ssize_t start, Py_ssize_t stop):
    """Offsets of rows [start, stop) of an (N, rank) index array, any strides."""
    cdef uint64_t values[MAX_SLOTS]
    cdef Py_ssize_t r, j, bad = -1
    cdef int64_t v, size
    cdef uint64_t u
    with nogil:
        for r in range(start, stop):
            for j in range(plan.rank):
                u = <uint64_t> rows[r, j]
                if u >= plan.c.extent[j]:
                    if not any_mode or modes[j] == MODE_RAISE:
                        bad = r
                        break
                    size = <int64_t> plan.c.extent[j]
                    if index_t is uint64_t:
                        v = <int64_t> (u % <uint64_t> size) if modes[j] == MODE_WRAP else size - 1
                    else:
                        v = <int64_t> rows[r, j]
                        if modes[j] == MODE_WRAP:
                            v = v % size
                            if v < 0:
                                v += size
                        else:
                            v = 0 if v < 0 else size - 1
                    u = <uint64_t> v
                values[j] = u
            if bad >= 0:
                break
            out[r] = <int64_t> plan._offset(values)
    return bad


def unravel(TiledPlan plan, const index_t[:] linear, int64_t[:, :] out,
            Py_ssize_t start, Py_ssize_t stop):
    """Logical indices of offsets [start, stop) into ``out`` (any strides)."""
    cdef int64_t position[MAX_SLOTS]
    cdef Py_ssize_t r, j, bad = -1
    cdef uint64_t n
    with nogil:
        for r in range(start, stop):
            n = <uint64_t> linear[r]
            if n >= <uint64_t> plan.size or not plan._index(n, position):
                bad = r
                break
            for j in range(plan.rank):
                out[r, j] = position[j]
    return bad


def ravel_fast(TiledPlan plan, const int64_t[:, ::1] rows, int64_t[::1] out,
               Py_ssize_t start, Py_ssize_t stop):
    """The fast path of ravel_rows (C-contiguous int64 rows)."""
    cdef Py_ssize_t bad
    cdef xs_tiled_ravel_fn kernel = xs_tiled_ravel_by_rank[plan.t.rank]
    if plan.t.d_shift != NULL:
        kernel = xs_tiled_ravel_dims_by_rank[plan.t.rank]
    if stop <= start:
        return -1
    with nogil:
        bad = kernel(&plan.t, &rows[0, 0], &out[0], start, stop)
    return bad


def unravel_fast(TiledPlan plan, const int64_t[::1] linear, int64_t[:, :] out,
                 Py_ssize_t start, Py_ssize_t stop):
    """The fast path of unravel (contiguous int64 offsets)."""
    cdef Py_ssize_t bad
    cdef xs_tiled_unravel_fn kernel = xs_tiled_unravel_by_rank[plan.t.rank]
    if stop <= start:
        return -1
    with nogil:
        bad = kernel(&plan.t, &linear[0], <char*> &out[0, 0], out.strides[0], out.strides[1],
                     start, stop)
    return bad


# -- whole batches: what xlashape.ravel/unravel (through _batch) call -------
def _by_dtype(kernel):
    """A fused kernel's specialisations keyed by index dtype."""
    return {np.dtype(name.removesuffix("_t")): f for name, f in kernel.__signatures__.items()}


_RAVEL_ROWS = _by_dtype(ravel_rows)
_UNRAVEL = _by_dtype(unravel)
# Rows per thread below which a batch stays on the calling thread.
MIN_ROWS_PER_THREAD = 1 << 16
_pool = None


def _forget_pool_in_child():
    """A forked child inherits the pool object but not its threads, and
    work submitted to it would wait for ever: start afresh."""
    global _pool
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_in_child)


def _run(kernel, tuple args, Py_ssize_t n, int threads):
    """``kernel(*args, start, stop)`` over [0, n), split over ``threads``
    threads when the batch is large; the first bad row, or -1."""
    global _pool
    cdef Py_ssize_t count = min(threads, n // MIN_ROWS_PER_THREAD)
    if count <= 1:
        return kernel(*args, 0, n)
    if _pool is None:
        _pool = ThreadPoolExecutor(thread_name_prefix="xlashape-tiled")
    bounds = [n * k // count for k in range(count + 1)]
    futures = [_pool.submit(kernel, *args, bounds[k], bounds[k + 1]) for k in range(1, count)]
    results = [kernel(*args, bounds[0], bounds[1])] + [f.result() for f in futures]
    bad = [row for row in results if row >= 0]
    return min(bad) if bad else -1


def ravel_batch(TiledPlan plan, indices, mode="raise", out=None, threads=None):
    """``xlashape.ravel`` for a tiled shape: offsets of an (N, rank) batch."""
    rows = _batch.as_index_array(indices, "multi-indices")
    if rows.ndim != 2 or rows.shape[1] != plan.rank:
        raise ValueError(
            f"a batch of multi-indices must be an (N, {plan.rank}) array for a "
            f"rank-{plan.rank} shape, got shape {rows.shape}"
        )
    cdef Py_ssize_t n = rows.shape[0]
    out = _batch.check_out(out, (n,), (rows, indices))
    modes = _batch.mode_codes(mode, plan.rank)
    codes = bytes(modes) if modes is not None else bytes(plan.rank)
    if modes is not None and n:
        for dim, (code, size) in enumerate(zip(codes, plan.dimensions)):
            if code != MODE_RAISE and size == 0:
                name = "wrap" if code == MODE_WRAP else "clip"
                raise ValueError(f"cannot {name} indices into dimension {dim} of size 0")
    if plan.rank == 0:
        out.fill(0)
        return out
    if not plan.compiled:
        for r in range(n):
            row = [int(v) for v in rows[r]]
            out[r] = reference.linear_index_of(plan, _apply_modes(row, codes, plan.dimensions), r)
        return out
    if plan.fast and modes is None and np.can_cast(rows.dtype, np.int64, "safe"):
        # Other strides and narrower dtypes are widened, losslessly, into one
        # C-contiguous int64 copy: far cheaper than the general kernel.
        wide = np.ascontiguousarray(rows, dtype=np.int64)
        bad = _run(ravel_fast, (plan, wide, out), n, _batch.check_threads(threads))
    else:
        args = (plan, rows, np.frombuffer(codes, dtype=np.uint8), any(codes), out)
        bad = _run(_RAVEL_ROWS[rows.dtype], args, n, _batch.check_threads(threads))
    if bad >= 0:
        values = tuple(int(v) for v in rows[bad])
        for dim, (value, size) in enumerate(zip(values, plan.dimensions)):
            if codes[dim] == MODE_RAISE and not 0 <= value < size:
                raise index_out_of_bounds(value, dim, size, values, bad)
        raise AssertionError(f"kernel flagged row {bad} but it is in bounds")  # pragma: no cover
    return out


def _apply_modes(list row, bytes codes, tuple dimensions):
    for dim, (code, size) in enumerate(zip(codes, dimensions)):
        if code == MODE_WRAP:
            row[dim] %= size
        elif code == MODE_CLIP:
            row[dim] = min(max(row[dim], 0), size - 1)
    return row


def unravel_batch(TiledPlan plan, offsets, out=None, threads=None):
    """``xlashape.unravel`` for a tiled shape: indices of a 1-D batch of offsets."""
    linear = _batch.as_index_array(offsets, "linear indices")
    if linear.ndim != 1:
        raise ValueError(f"a batch of linear indices must be 1-D, got shape {linear.shape}")
    cdef Py_ssize_t n = linear.shape[0]
    out = _batch.check_out(out, (n, plan.rank), (linear, offsets))
    if not plan.compiled or plan.rank == 0:
        for r in range(n):
            out[r] = reference.multi_index_at(plan, int(linear[r]), r)
        return out
    if plan.fast and np.can_cast(linear.dtype, np.int64, "safe") and n:
        wide = np.ascontiguousarray(linear, dtype=np.int64)  # lossless, as in ravel_batch
        bad = _run(unravel_fast, (plan, wide, out), n, _batch.check_threads(threads))
    else:
        bad = _run(_UNRAVEL[linear.dtype], (plan, linear, out), n, _batch.check_threads(threads))
    if bad >= 0:
        reference.multi_index_at(plan, int(linear[bad]), bad)
        raise AssertionError(f"kernel flagged row {bad} but it is valid")  # pragma: no cover
    return out
