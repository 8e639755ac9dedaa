"""Tiled layouts: the plan of a Shape whose layout has tiles, in C.

A ``TiledPlan`` is a LayoutPlan that also holds the tiled layout's C form
(``xs_tiled``, csrc/tiled/tiled.h):

- the general form, which every tiling has: XLA's pad-reshape-transpose
  as operations on numbered slots (:func:`xlashape.model.tiling.program`);
- where every digit is a shift and a mask of one dimension
  (:func:`xlashape.model.tiling.digits`, as under ``T(8,128)`` and
  ``T(8,128)(2,1)``), the fast form, whose block kernels csrc/driver/tiled_chunks.c runs.

Batches go through the one C driver of _batch (a job whose ``tiled`` is
this plan's C form), so tiled and untiled calls share the dtype switch,
the CPU level and the worker pool. The single-index calls of IndexUtil
run the general form's row steps here. A tiling with more slots than the C
form keeps on the stack (XS_TILED_MAX_SLOTS) takes the plain-Python
reference instead.
"""

from cpython.mem cimport PyMem_Free
from libc.stdint cimport int64_t, uint64_t

from xlashape.core._plan cimport _alloc, _fast_divisor as _divisor

from xlashape import reference
from xlashape.model import tiling


cdef extern from "base/plan.h":
    int XS_WRAP, XS_CLIP


cdef inline bint _pow2(uint64_t value) noexcept nogil:
    return value != 0 and (value & (value - 1)) == 0


cdef int _log2(uint64_t value) noexcept nogil:
    cdef int k = 0
    while (<uint64_t> 1 << k) < value:
        k += 1
    return k


cdef int _shift(uint64_t value) noexcept nogil:
    """log2 of a power of two; -1 for any other value."""
    return _log2(value) if _pow2(value) else -1


_KINDS = {"tile": XS_OP_TILE, "combine": XS_OP_COMBINE, "lead": XS_OP_LEAD}


cdef class TiledPlan(LayoutPlan):
    """The plan of a tiled layout: its C form, general and fast."""

    @staticmethod
    def build(tuple dimensions, layout):
        """The plan of ``dimensions`` under a tiled ``layout`` (already valid)."""
        cdef TiledPlan plan = TiledPlan(dimensions, layout.minor_to_major, dimensions)
        plan._setup(layout)
        return plan

    cdef _setup(self, layout):
        cdef Py_ssize_t k, m
        form = tiling.program(self.dimensions, self.minor_to_major, layout.tiles)
        self.layout = layout
        self.program = form
        self.digits = tiling.digits(self.dimensions, self.minor_to_major, layout.tiles)
        self.widths = self.dimensions
        self.padded = True
        self.c.padded = 1
        self.size = 1
        for extent in form.extents:
            self.size *= extent
        self.c.size = <uint64_t> self.size
        self.t.rank = <int> self.rank
        self.t.size = <uint64_t> self.size
        self.t.extent = self.c.extent
        if form.slots > XS_TILED_MAX_SLOTS:
            return
        self.ops = <xs_tile_op*> _alloc(len(form.ops), sizeof(xs_tile_op))
        for k, op in enumerate(form.ops):
            self.ops[k].kind = _KINDS[op.kind]
            self.ops[k].source = op.sources[0] if op.sources else 0
            self.ops[k].minor = op.sources[1] if len(op.sources) > 1 else 0
            self.ops[k].target = op.targets[0]
            self.ops[k].inner = op.targets[1] if len(op.targets) > 1 else 0
            self.ops[k].shift = _shift(op.size)
            self.ops[k].extent = op.extent
            self.ops[k].div = _divisor(op.size)
        m = len(form.final)
        self.final_int = <int*> _alloc(2 * m, sizeof(int))
        self.final_stride = <uint64_t*> _alloc(m, sizeof(uint64_t))
        self.final_extent = <xs_divisor*> _alloc(m, sizeof(xs_divisor))
        self.slot_stride = <uint64_t*> _alloc(form.slots, sizeof(uint64_t))
        for k in range(form.slots):
            self.slot_stride[k] = 0
        stride = 1
        for k in range(m - 1, -1, -1):
            self.final_int[k] = form.final[k]
            self.final_int[m + k] = _shift(form.extents[k])
            self.final_stride[k] = stride
            self.slot_stride[form.final[k]] = stride
            self.final_extent[k] = _divisor(form.extents[k])
            stride *= form.extents[k]
        self.t.n_ops = <int> len(form.ops)
        self.t.n_final = <int> m
        self.t.op = self.ops
        self.t.final = self.final_int
        self.t.final_shift = self.final_int + m
        self.t.final_stride = self.final_stride
        self.t.final_extent = self.final_extent
        self.t.slot_stride = self.slot_stride
        if (form.slots <= XS_TILED_BLOCK_SLOTS and self.size < (1 << 52)
                and 1 <= self.rank <= XS_TILED_MAX_RANK):
            self.t.block_slots = <int> form.slots
        self.compiled = True
        self._setup_fast(self.digits)

    cdef _setup_fast(self, form):
        """The fast form's terms: every axis of extent > 1, when each is a
        shift and a mask of one dimension."""
        cdef Py_ssize_t k, m
        if form is None:
            return
        terms = [(axis, stride) for axis, stride in zip(form.axes, form.strides) if axis.extent > 1]
        m = len(terms)
        single = all(len(group.dimensions) == 1 for group in form.groups)
        shifts = all(_pow2(axis.divisor) and (not axis.modulus or _pow2(axis.modulus))
                     for axis in form.axes)
        if not (shifts and single and 1 <= m <= XS_TILED_MAX_TERMS
                and 1 <= self.rank <= XS_TILED_MAX_RANK and self.size < (1 << 52)):
            return
        self.term_int = <int*> _alloc(6 * m, sizeof(int))
        self.term_u64 = <uint64_t*> _alloc(2 * m, sizeof(uint64_t))
        self.term_radix = <xs_divisor*> _alloc(m, sizeof(xs_divisor))
        for k, (axis, stride) in enumerate(terms):
            self.term_int[k] = form.groups[axis.group].dimensions[0]
            self.term_int[m + k] = _log2(axis.divisor)
            self.term_u64[k] = (axis.modulus - 1) if axis.modulus else <uint64_t> -1
            self.term_u64[m + k] = stride
        digits = []  # (dimension, divisor, extent), most minor first
        for axis, _ in reversed(terms):
            d = form.groups[axis.group].dimensions[0]
            last = digits[len(digits) - 1] if digits else (-1, 0, 0)
            if last[0] == d and last[1] * last[2] == axis.divisor:
                digits[len(digits) - 1] = (d, last[1], last[2] * axis.extent)
            else:
                digits.append((d, axis.divisor, axis.extent))
        for k, (d, divisor, extent) in enumerate(digits):
            self.term_int[2 * m + k] = d
            self.term_int[3 * m + k] = _log2(divisor)
            self.term_int[4 * m + k] = _pow2(extent)
            self.term_int[5 * m + k] = _log2(extent)
            self.term_radix[k] = _divisor(extent)
        self.t.u_terms = <int> len(digits)
        # One digit per dimension, of weight 1: a padded layout's unravel.
        units = sorted(d for d, divisor, _ in digits if divisor == 1)
        self.t.u_simple = len(digits) == self.rank and units == list(range(self.rank))
        self.t.n_terms = <int> m
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
        self._setup_bits(digits)
        self._setup_dims(terms, form)

    cdef _setup_bits(self, digits):
        """The unravel digits by dimension (csrc/tiled/tiled.h's b_count), when
        every digit but the most major has a power-of-two extent: then each
        is a shift and a mask of the offset, as under ``T(8,128)(2,1)``."""
        cdef Py_ssize_t j, k = 0, r = self.rank, m = len(digits)
        if not all(_pow2(extent) for _, _, extent in digits[:m - 1]):
            return
        self.bits_int = <int*> _alloc(r + 2 * m, sizeof(int))
        self.bits_u64 = <uint64_t*> _alloc(m, sizeof(uint64_t))
        place = []  # (dimension, shift, weight, mask)
        shift = 0
        for d, divisor, extent in digits:
            mask = (extent - 1) if len(place) < m - 1 else <uint64_t> -1
            place.append((d, shift, _log2(divisor), mask))
            shift += _log2(extent) if len(place) < m else 0
        place.sort(key=lambda digit: digit[0])
        for j in range(r):
            self.bits_int[j] = sum(1 for digit in place if digit[0] == j)
        for k, (_, shift, weight, mask) in enumerate(place):
            self.bits_int[r + k] = shift
            self.bits_int[r + m + k] = weight
            self.bits_u64[k] = mask
        self.t.b_count = self.bits_int
        self.t.b_shift = self.bits_int + r
        self.t.b_weight = self.bits_int + r + m
        self.t.b_mask = self.bits_u64

    cdef _setup_dims(self, terms, form):
        """Ravel by dimension (csrc/tiled/tiled_kernels.h), when each dimension
        has at most a tile index (no mask) and within-tile digits with
        power-of-two strides: one per dimension without a shift, and up to
        XS_TILED_EXTRA more in all, as under ``T(8,128)`` (none) or
        ``T(8,128)(2,1)`` (one)."""
        cdef Py_ssize_t d, e, r = self.rank
        high = [None] * r
        low = [None] * r
        extra = []
        for axis, stride in terms:
            d = form.groups[axis.group].dimensions[0]
            if not axis.modulus and high[d] is None:
                high[d] = (_log2(axis.divisor), stride)
            elif axis.modulus and _pow2(stride) and axis.divisor == 1 and low[d] is None:
                low[d] = (axis.modulus - 1, _log2(stride))
            elif axis.modulus and _pow2(stride) and len(extra) < XS_TILED_EXTRA:
                extra.append((d, _log2(axis.divisor), axis.modulus - 1, _log2(stride)))
            else:
                return
        e = len(extra)
        self.dim_int = <int*> _alloc(2 * r + 3 * e, sizeof(int))
        self.dim_u64 = <uint64_t*> _alloc(2 * r + e, sizeof(uint64_t))
        for d in range(r):
            self.dim_int[d], self.dim_u64[d] = high[d] or (0, 0)
            self.dim_u64[r + d], self.dim_int[r + d] = low[d] or (0, 0)
        for k, (d, shift, mask, weight) in enumerate(extra):
            self.dim_int[2 * r + k] = d
            self.dim_int[2 * r + e + k] = shift
            self.dim_int[2 * r + 2 * e + k] = weight
            self.dim_u64[2 * r + k] = mask
        self.t.d_extra = <int> e
        self.t.d_shift = self.dim_int
        self.t.d_stride = self.dim_u64
        self.t.d_mask = self.dim_u64 + r
        self.t.d_weight = self.dim_int + r
        self.t.e_dim = self.dim_int + 2 * r
        self.t.e_shift = self.dim_int + 2 * r + e
        self.t.e_weight = self.dim_int + 2 * r + 2 * e
        self.t.e_mask = self.dim_u64 + 2 * r

    def __dealloc__(self):
        PyMem_Free(self.ops)
        PyMem_Free(self.final_int)
        PyMem_Free(self.final_stride)
        PyMem_Free(self.final_extent)
        PyMem_Free(self.slot_stride)
        PyMem_Free(self.term_int)
        PyMem_Free(self.term_u64)
        PyMem_Free(self.term_radix)
        PyMem_Free(self.dim_int)
        PyMem_Free(self.dim_u64)
        PyMem_Free(self.bits_int)
        PyMem_Free(self.bits_u64)

    @property
    def kernel(self):
        """Which C kernels run C-contiguous int32 and int64 batches (with
        every dimension 'raise'): 'fast by dimension, E extra digits',
        'fast by terms', 'slots' (the general form in blocks), 'rows' (the
        general form's row steps, as for any other batch), or 'reference'."""
        if not self.compiled:
            return "reference"
        if self.t.d_shift != NULL:
            return f"fast by dimension, {self.t.d_extra} extra digits"
        if self.t.n_terms:
            return "fast by terms"
        return "slots" if self.t.block_slots else "rows"

    # -- one index (IndexUtil's single form) ---------------------------------
    cdef object ravel_one(self, object multi_index):
        cdef uint64_t slot[XS_TILED_MAX_SLOTS]
        cdef Py_ssize_t j
        idx = multi_index if type(multi_index) is tuple else tuple(multi_index)
        if not self.compiled or len(idx) != self.rank:
            return reference.linear_index_of(self, idx)
        for j in range(self.rank):
            item = idx[j]
            if type(item) is not int or not 0 <= item < self.c.extent[j]:
                return reference.linear_index_of(self, idx)
            slot[j] = item
        return <int64_t> xs_tiled_offset(&self.t, slot)

    cdef object unravel_one(self, object linear_index):
        cdef uint64_t slot[XS_TILED_MAX_SLOTS]
        cdef Py_ssize_t j
        if (not self.compiled or type(linear_index) is not int
                or not 0 <= linear_index < self.size
                or not xs_tiled_position(&self.t, <uint64_t> linear_index, slot)):
            return reference.multi_index_at(self, linear_index)
        return tuple([<int64_t> slot[j] for j in range(self.rank)])

    # -- batches past the C form (through _batch) ----------------------------
    def ravel_reference(self, rows, codes, out):
        """``out`` filled with the offsets of (N, rank) ``rows`` by the
        reference, each dimension's mode applied (``codes``: _batch's mode
        codes, None for all 'raise')."""
        for r in range(rows.shape[0]):
            row = [int(v) for v in rows[r]]
            if codes is not None:
                for dim, (code, size) in enumerate(zip(codes, self.dimensions)):
                    if code == XS_WRAP:
                        row[dim] %= size
                    elif code == XS_CLIP:
                        row[dim] = min(max(row[dim], 0), size - 1)
            out[r] = reference.linear_index_of(self, row, r)
        return out

    def unravel_reference(self, linear, out):
        """``out`` filled with the indices of 1-D ``linear`` by the reference."""
        for r in range(linear.shape[0]):
            out[r] = reference.multi_index_at(self, int(linear[r]), r)
        return out
