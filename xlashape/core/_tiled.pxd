# The plan of a tiled layout, for the batch glue (_batch) that runs it.

from libc.stdint cimport uint64_t

from xlashape.core._plan cimport LayoutPlan, xs_divisor


cdef extern from "tiled/tiled.h" nogil:
    enum:
        XS_TILED_MAX_SLOTS
        XS_TILED_MAX_TERMS
        XS_TILED_MAX_RANK
        XS_TILED_EXTRA
        XS_TILED_BLOCK_SLOTS
    int XS_OP_TILE, XS_OP_COMBINE, XS_OP_LEAD

    ctypedef struct xs_tile_op:
        int kind
        int source, minor
        int target, inner
        int shift
        uint64_t extent
        xs_divisor div

    ctypedef struct xs_tiled:
        int rank
        uint64_t size
        const uint64_t* extent
        int n_ops, n_final
        const xs_tile_op* op
        const int* final
        const uint64_t* final_stride
        const xs_divisor* final_extent
        const int* final_shift
        const uint64_t* slot_stride
        int n_terms
        const int* dim
        const int* shift
        const uint64_t* mask
        const uint64_t* stride
        int u_terms
        int u_simple
        const int* u_dim
        const int* u_weight
        const int* u_pow2
        const int* u_shift
        const xs_divisor* u_radix
        const int* b_count
        const int* b_shift
        const int* b_weight
        const uint64_t* b_mask
        int d_extra
        const int* d_shift
        const uint64_t* d_stride
        const uint64_t* d_mask
        const int* d_weight
        const int* e_dim
        const int* e_shift
        const uint64_t* e_mask
        const int* e_weight
        int block_slots

    uint64_t xs_tiled_offset(const xs_tiled* t, uint64_t* slot)
    int xs_tiled_position(const xs_tiled* t, uint64_t n, uint64_t* slot)


cdef class TiledPlan(LayoutPlan):
    cdef readonly object layout           # the Layout (tiles and all)
    cdef readonly object program          # tiling.Program: the general form
    cdef readonly object digits           # tiling.Digits, or None where it has none
    cdef readonly bint compiled           # the C form exists (else the reference)
    cdef readonly bint fast               # it has a fast form
    cdef xs_tiled t                       # the C form; its arrays are owned here
    cdef xs_tile_op* ops
    cdef int* final_int                   # final, final_shift
    cdef uint64_t* final_stride
    cdef uint64_t* slot_stride
    cdef xs_divisor* final_extent
    cdef int* term_int                    # dim, shift, u_dim, u_weight, u_pow2, u_shift
    cdef uint64_t* term_u64               # mask, stride
    cdef xs_divisor* term_radix
    cdef int* dim_int                     # d_shift, d_weight, e_dim, e_shift, e_weight
    cdef uint64_t* dim_u64                # d_stride, d_mask, e_mask
    cdef int* bits_int                    # b_count, b_shift, b_weight
    cdef uint64_t* bits_u64               # b_mask

    cdef _setup(self, layout)
    cdef _setup_fast(self, form)
    cdef _setup_dims(self, terms, form)
    cdef _setup_bits(self, digits)
