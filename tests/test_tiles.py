"""Tiled layouts: XLA's "Tiled layout" page and tests, the reference, the kernels.

Worked examples come from openxla/xla ``docs/tiled_layout.md`` (the "Tiled
layout" page), ``xla/shape_util.cc`` (``ShapeUtil::ArraySize``) and
``xla/layout_util.cc`` (``ValidateLayoutForShape``), each cited where used.
"""

from __future__ import annotations

import functools
import math

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import assume, given
from inputs import index_arrays
from strategies import all_multi_indices, tiled_shapes

import xlashape as xs
from xlashape import IndexOutOfBoundsError, IndexUtil, Layout, Shape, ShapeUtil, Tile, reference
from xlashape.model import tiling


def tiled(text: str) -> Shape:
    shape = ShapeUtil.parse_shape_string(text)
    assert isinstance(shape, Shape)
    return shape


def offsets(shape: Shape) -> np.ndarray:
    """The reference offset of every element, as an array of the shape's dimensions."""
    index = all_multi_indices(shape)
    return np.array([reference.linear_index_of(shape, tuple(r)) for r in index]).reshape(shape.dimensions)


# -- the page's examples ----------------------------------------------------
# docs/tiled_layout.md, Figure 1: F32[3,5]{1,0:T(2,2)}. The 2x3 tiles of 2x2
# are laid out row-major and each tile row-major inside; the white cells of
# the picture are the padding of the tiles in column 2 and row 1.
FIGURE_1 = np.array(
    [
        [0, 1, 4, 5, 8],
        [2, 3, 6, 7, 10],
        [12, 13, 16, 17, 20],
    ]
)


def test_figure_1_offsets():
    shape = tiled("f32[3,5]{1,0:T(2,2)}")
    assert shape.buffer_size == 24  # 6 tiles of 4
    assert shape.tiled_dimensions == (2, 3, 2, 2)
    np.testing.assert_array_equal(offsets(shape), FIGURE_1)
    index = all_multi_indices(shape)
    np.testing.assert_array_equal(xs.ravel(index, shape), FIGURE_1.ravel())
    np.testing.assert_array_equal(xs.unravel(FIGURE_1.ravel(), shape), index)


def test_figure_1_worked_element():
    # "element (2,3) has tile index (1,1), and within-tile index (0,1) ... = 17"
    shape = tiled("f32[3,5]{1,0:T(2,2)}")
    assert IndexUtil.multidimensional_index_to_linear_index(shape, (2, 3)) == 17
    assert IndexUtil.linear_index_to_multidimensional_index(shape, 17) == (2, 3)
    assert reference.linear_index_of(shape, (2, 3)) == 17


@pytest.mark.parametrize("offset", [9, 11, 14, 15, 18, 19, 21, 22, 23])
def test_figure_1_padding_is_refused(offset):
    shape = tiled("f32[3,5]{1,0:T(2,2)}")
    for call in (
        lambda: IndexUtil.linear_index_to_multidimensional_index(shape, offset),
        lambda: xs.unravel([0, offset], shape),
        lambda: reference.multi_index_at(shape, offset),
    ):
        with pytest.raises(IndexOutOfBoundsError, match=f"linear index {offset}.* lands on tile padding"):
            call()


def test_figure_2_repeated_tiling():
    # docs/tiled_layout.md, Figure 2: a 4x8 array tiled (2,4) then (2,1): each
    # 2x1 pair (an even row's element above an odd row's) is adjacent, as
    # in TPU BF16 packing.
    shape = Shape("bf16", (4, 8), Layout((1, 0), tiles=[(2, 4), (2, 1)]))
    expected = np.array(
        [
            [0, 2, 4, 6, 8, 10, 12, 14],
            [1, 3, 5, 7, 9, 11, 13, 15],
            [16, 18, 20, 22, 24, 26, 28, 30],
            [17, 19, 21, 23, 25, 27, 29, 31],
        ]
    )
    np.testing.assert_array_equal(offsets(shape), expected)
    np.testing.assert_array_equal(xs.ravel(all_multi_indices(shape), shape), expected.ravel())


def test_alternative_16_bit_format_example():
    # docs/tiled_layout.md, item 5: an 8x8 array tiled (2,4)(2,1,1,1); the
    # element (6,5) has linear index 51.
    shape = Shape("bf16", (8, 8), Layout((1, 0), tiles=[(2, 4), (2, 1, 1, 1)]))
    assert reference.linear_index_of(shape, (6, 5)) == 51
    assert IndexUtil.multidimensional_index_to_linear_index(shape, (6, 5)) == 51
    assert IndexUtil.linear_index_to_multidimensional_index(shape, 51) == (6, 5)
    assert shape.tiled_dimensions == (2, 2, 2, 4, 2, 1, 1, 1)


def test_bf16_32x256_tiles():
    # docs/tiled_layout.md, item 5: BF16[32,256] tiled (8,128) is (4,2,8,128),
    # then (2,1,1,1) gives (2,2,8,128,2,1,1,1).
    shape = Shape("bf16", (32, 256), Layout((1, 0), tiles=[(8, 128), (2, 1, 1, 1)]))
    assert shape.tiled_dimensions == (2, 2, 8, 128, 2, 1, 1, 1)


def test_combining_dimensions():
    # docs/tiled_layout.md, "Combining dimensions using tiles": the tile
    # (*,*,2,*,3) on F32[2,7,8,11,10]{4,3,2,1,0} tiles it as F32[112,110]{1,0}
    # tiled by (2,3).
    combined = Shape("f32", (2, 7, 8, 11, 10), Layout((4, 3, 2, 1, 0), tiles=[(-1, -1, 2, -1, 3)]))
    flat = Shape("f32", (112, 110), Layout((1, 0), tiles=[(2, 3)]))
    assert combined.buffer_size == flat.buffer_size == 56 * 37 * 6
    index = all_multi_indices(combined)
    flat_index = np.stack(
        [np.ravel_multi_index(index[:, :3].T, (2, 7, 8)), np.ravel_multi_index(index[:, 3:].T, (11, 10))],
        axis=1,
    )
    np.testing.assert_array_equal(xs.ravel(index, combined), xs.ravel(flat_index, flat))
    picked = index[:: 97]
    assert [reference.linear_index_of(combined, tuple(r)) for r in picked] == list(
        xs.ravel(picked, combined)
    )
    np.testing.assert_array_equal(xs.unravel(xs.ravel(index, combined), combined), index)


# -- sizes, against ShapeUtil::ArraySize (xla/shape_util.cc) ------------------
@pytest.mark.parametrize(
    "text, size_bytes",
    [
        # ArraySize rounds each tiled dimension up to the tile, from the most minor.
        ("f32[123,456]{0,1:T(2,128)}", 128 * 456 * 4),
        ("f32[123,456]{1,0:T(2,128)}", 124 * 512 * 4),
        # element_size_in_bits: CeilOfRatio(elements * bits, 8).
        ("s4[123,456]{1,0:T(2,128)E(4)}", 124 * 512 // 2),
        ("s4[3]{0:E(4)}", 2),
        # A tile longer than the rank counts the missing dimensions as 1.
        ("u16[]{:T(256)}", 512),
        ("u32[]{:T(128)}", 512),
        ("bf16[1,1536]{1,0:T(2,128)(2,1)}", 2 * 1536 * 2),
        ("bf16[6144]{0:T(1024)(128)(2,1)}", 6144 * 2),
        ("f32[8,128]{1,0:T(8,128)S(1)}", 8 * 128 * 4),
    ],
)
def test_byte_sizes(text, size_bytes):
    shape = tiled(text)
    assert ShapeUtil.byte_size_of(shape) == size_bytes
    assert shape.buffer_size == reference.buffer_size(shape)


def test_rank_zero_tile_places_the_scalar_first():
    shape = tiled("u16[]{:T(256)}")
    assert IndexUtil.multidimensional_index_to_linear_index(shape, ()) == 0
    assert IndexUtil.linear_index_to_multidimensional_index(shape, 0) == ()
    with pytest.raises(IndexOutOfBoundsError, match="tile padding"):
        IndexUtil.linear_index_to_multidimensional_index(shape, 1)


# -- validation (xla/layout_util.cc, ValidateLayoutForShape) -------------------
@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: Tile(()), ValueError, "layout has invalid tiles"),
        (lambda: Tile((8, 0)), ValueError, "layout has invalid tiles.*size 0"),
        (lambda: Tile((8, -2)), ValueError, "layout has invalid tiles.*size -2"),
        (lambda: Tile((8, -1)), ValueError, "ends in \\*"),
        (lambda: Layout((1, 0), (4, 4), tiles=[(2, 2)]), ValueError, "both padded_dimensions and tiles"),
        (lambda: Layout((0,), element_size_in_bits=-4), ValueError, "element_size_in_bits must be >= 0"),
        (lambda: Layout((0,), tiles=[8]), TypeError, "tile dimensions must be a sequence"),
    ],
)
def test_invalid_tiles_are_refused(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_tiled_shapes_have_no_strides():
    shape = tiled("f32[3,5]{1,0:T(2,2)}")
    with pytest.raises(ValueError, match=r"tiled layout.*no strides"):
        _ = shape.strides
    with pytest.raises(ValueError, match="no strides"):
        IndexUtil.get_dimension_stride(shape, 0)


# -- kernels against the reference -------------------------------------------
def check_against_reference(shape: Shape) -> None:
    index = all_multi_indices(shape)
    expected = [reference.linear_index_of(shape, tuple(r)) for r in index]
    for dtype in (np.int64, np.int32):  # each has kernels of its own
        assert xs.ravel(index.astype(dtype), shape).tolist() == expected
        assert xs.unravel(np.array(expected, dtype=dtype), shape).tolist() == index.tolist()
    assert len(set(expected)) == len(expected) and all(0 <= k < shape.buffer_size for k in expected)
    # The reference inverts itself, and every other offset is tile padding.
    rng = np.random.default_rng(len(expected))
    for k in rng.choice(len(expected), min(len(expected), 20), replace=False) if expected else ():
        assert reference.multi_index_at(shape, expected[k]) == tuple(index[k])
    taken = set(expected)
    padding = [k for k in rng.integers(0, shape.buffer_size, 40) if k not in taken] if shape.buffer_size else []
    for k in padding[:5]:
        with pytest.raises(IndexOutOfBoundsError, match="tile padding"):
            reference.multi_index_at(shape, int(k))
        for dtype in (np.int64, np.int32):
            with pytest.raises(IndexOutOfBoundsError, match=f"linear index {k} at row 1 .*tile padding"):
                xs.unravel(np.array([expected[0] if expected else 0, k], dtype=dtype), shape)


@given(tiled_shapes(tiles=[(8, 128)]))
def test_t8_128_agrees_with_reference(shape):
    check_against_reference(shape)


@given(tiled_shapes(tiles=[(8, 128), (2, 1)]))
def test_t8_128_2_1_agrees_with_reference(shape):
    check_against_reference(shape)


@given(st.integers(0, 40), st.integers(0, 300))
def test_t8_128_large_dims(rows, columns):
    check_against_reference(Shape("bf16", (rows, columns), Layout((1, 0), tiles=[(8, 128), (2, 1)])))


@given(tiled_shapes())
def test_any_tiling_agrees_with_reference(shape):
    check_against_reference(shape)


@pytest.mark.parametrize("rank", range(1, 9))
def test_every_rank_and_its_first_bad_row(rank):
    # One kernel per rank in csrc/tiled/tiled.h; the first bad row is the one named.
    dims = (5, 3, 7, 2, 4, 3, 19, 130)[-rank:]
    shape = Shape("f32", dims, Layout(range(rank - 1, -1, -1), tiles=[(8, 128)]))
    rng = np.random.default_rng(rank)
    index = np.stack([rng.integers(0, d, 600) for d in dims], axis=1)
    expected = [reference.linear_index_of(shape, tuple(r)) for r in index]
    assert xs.ravel(index, shape).tolist() == expected
    index[517, -1] = dims[-1]
    index[560, 0] = -1
    with pytest.raises(IndexOutOfBoundsError, match="at row 517"):
        xs.ravel(index, shape)


def test_layouts_without_a_digit_form_run_the_general_form():
    # (3) then (2): the second tile does not divide the first's 3, so there
    # are no digits, but the general form (tiling.program) runs in C.
    shape = Shape("f32", (10,), Layout((0,), tiles=[(3,), (2,)]))
    assert tiling.digits(shape.dimensions, (0,), shape.layout.tiles) is None
    assert shape._plan.compiled and not shape._plan.fast
    assert shape.tiled_dimensions == (4, 2, 2)
    check_against_reference(shape)


def test_tilings_past_the_c_form_use_the_reference():
    # 9 tiles of 64 ones need 2 + 62 (leading 1s) + 9 * 128 = 1216 slots, more
    # than XS_TILED_MAX_SLOTS.
    shape = Shape("f32", (3, 5), Layout((1, 0), tiles=[(1,) * Shape.MAX_RANK] * 9))
    assert not shape._plan.compiled
    check_against_reference(shape)
    assert xs.ravel([[4, -1], [-1, 7]], shape, mode=("wrap", "clip")).tolist() == [
        reference.linear_index_of(shape, (1, 0)),
        reference.linear_index_of(shape, (2, 4)),
    ]
    with pytest.raises(IndexOutOfBoundsError, match="index 5 is out of bounds for dimension 1 with size 5 at row 1"):
        xs.ravel([[0, 0], [1, 5]], shape)
    assert xs.ravel(np.array([[0, 1], [2, 3]]).T, shape).tolist() == [
        reference.linear_index_of(shape, (0, 2)),
        reference.linear_index_of(shape, (1, 3)),
    ]


@pytest.mark.parametrize("text", ["f32[37,300]{1,0:T(8,128)}", "bf16[37,300]{0,1:T(8,128)(2,1)}"])
def test_every_index_form(text):
    shape = tiled(text)
    rng = np.random.default_rng(7)
    index = np.stack([rng.integers(0, d, 50) for d in shape.dimensions], axis=1)
    expected = [reference.linear_index_of(shape, tuple(r)) for r in index]
    for label, value in index_arrays(index):
        assert xs.ravel(value, shape).tolist() == expected, label
    for label, value in index_arrays(np.array(expected)):
        assert xs.unravel(value, shape).tolist() == index.tolist(), label


def test_ravel_errors_and_modes():
    shape = tiled("f32[3,5]{1,0:T(2,2)}")
    with pytest.raises(IndexOutOfBoundsError, match="index 5 is out of bounds for dimension 1 with size 5 at row 1"):
        xs.ravel([[0, 0], [1, 5]], shape)
    np.testing.assert_array_equal(
        xs.ravel([[4, -1], [-1, 7]], shape, mode="wrap"),
        [reference.linear_index_of(shape, (1, 4)), reference.linear_index_of(shape, (2, 2))],
    )
    np.testing.assert_array_equal(
        xs.ravel(np.array([[4, 7]], dtype=np.uint8), shape, mode="clip"),
        [reference.linear_index_of(shape, (2, 4))],
    )


# Tilings of each kernel form (TiledPlan.kernel): the fast form by
# dimension (with 0, 1 and 2 extra digits) and by terms, the general form in
# blocks (tiles that are not powers of two, a later tile that does not
# divide an earlier one, dimensions combined by '*') and row by row.
KERNEL_FORMS = {
    "f32[43,131]{1,0:T(8,128)}": "fast by dimension, 0 extra digits",
    # (one digit per dimension: unravel as under a padded layout)
    "f32[3,2,5,43,100]{4,3,2,1,0:T(8,128)}": "fast by dimension, 0 extra digits",
    "f32[5,43,100]{2,1,0:T(8,128)}": "fast by dimension, 0 extra digits",
    "bf16[37,131]{0,1:T(8,128)(2,1)}": "fast by dimension, 1 extra digits",
    # (the second tile splits a dimension's within-tile digits, rank 4)
    "f32[3,2,37,131]{3,2,1,0:T(8,128)(2,1)}": "fast by dimension, 1 extra digits",
    "f32[5,13,37]{2,1,0:T(8,128)(2,1)}": "fast by dimension, 1 extra digits",
    "bf16[6000]{0:T(1024)(128)(2,1)}": "fast by dimension, 2 extra digits",
    # (ranks whose rows the vector levels ravel a vector at a time: 2, 3, 4, 8)
    "bf16[3,1100]{1,0:T(1024)(128)(2,1)}": "fast by dimension, 2 extra digits",
    "bf16[2,3,5,1100]{3,2,1,0:T(1024)(128)(2,1)}": "fast by dimension, 2 extra digits",
    "f32[2,1,3,1,2,3,11,131]{7,6,5,4,3,2,1,0:T(8,128)}": "fast by dimension, 0 extra digits",
    "f32[3,37,131]{2,1,0:T(8,128)(4,2)(2,1)}": "fast by terms",
    "f32[5,13,31]{2,1,0:T(3,5)}": "slots",
    "f32[7,11,31]{1,2,0:T(3)(2)}": "slots",
    "f32[3,7,131]{2,1,0:T(2,*,128)}": "slots",
    "f32[301]{0:T" + "(3)" * 16 + "}": "rows",  # 33 slots
}


def test_kernel_forms():
    for text, kernel in KERNEL_FORMS.items():
        assert tiled(text)._plan.kernel == kernel, text


LEVELS = xs.cpu_features()["supported"]


@pytest.fixture(params=LEVELS)
def level(request):
    previous = xs.cpu.set_cpu_level(request.param)
    yield request.param
    xs.cpu.set_cpu_level(previous)


@pytest.mark.parametrize("text", KERNEL_FORMS)
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint64, np.uint32, np.int16])
def test_every_level_dtype_and_thread_count(level, text, dtype):
    # 2**18 rows, enough for the driver to split them over 2 threads; the
    # answer never depends on the level or on the threads.
    shape = tiled(text)
    rng = np.random.default_rng(3)
    n = 1 << 18
    picked = rng.integers(0, shape.element_count, n)
    index = np.stack(np.unravel_index(picked, shape.dimensions), axis=1)
    expected = reference_offsets(text)[tuple(index.T)]
    for threads in (1, 2):
        np.testing.assert_array_equal(xs.ravel(index.astype(dtype), shape, threads=threads), expected)
        if dtype != np.int16:  # (no tiled buffer here fits int16 offsets)
            np.testing.assert_array_equal(xs.unravel(expected.astype(dtype), shape, threads=threads), index)


@functools.cache
def reference_offsets(text: str) -> np.ndarray:
    return offsets(tiled(text))


@pytest.mark.parametrize("text", KERNEL_FORMS)
@pytest.mark.parametrize("dtype", [np.int64, np.int32])
def test_bad_rows_at_every_level_and_thread_count(level, text, dtype):
    # The first bad row is the one named, whichever thread finds it.
    shape = tiled(text)
    n = 1 << 18
    rng = np.random.default_rng(5)
    index = np.stack([rng.integers(0, d, n) for d in shape.dimensions], axis=1).astype(dtype)
    linear = xs.ravel(index, shape).astype(dtype)
    taken = set(linear[:4096].tolist())
    pad = next(k for k in range(shape.buffer_size) if reference_is_padding(shape, k, taken))
    for threads in (1, 2):
        bad = index.copy()
        bad[200_001, 0] = shape.dimensions[0]
        bad[250_000, -1] = -1
        with pytest.raises(IndexOutOfBoundsError, match="at row 200001"):
            xs.ravel(bad, shape, threads=threads)
        bad[200_001, 0] = 0
        with pytest.raises(IndexOutOfBoundsError, match=r"index -1 is out of bounds .* at row 250000"):
            xs.ravel(bad, shape, threads=threads)
        bad_linear = linear.copy()
        bad_linear[150_003] = pad
        bad_linear[260_000] = shape.buffer_size
        with pytest.raises(IndexOutOfBoundsError, match=f"linear index {pad} at row 150003 .*tile padding"):
            xs.unravel(bad_linear, shape, threads=threads)
        bad_linear[150_010] = shape.buffer_size  # after padding, in the same block
        with pytest.raises(IndexOutOfBoundsError, match=f"linear index {pad} at row 150003 .*tile padding"):
            xs.unravel(bad_linear, shape, threads=threads)
        bad_linear[150_003] = -3
        with pytest.raises(IndexOutOfBoundsError, match=r"linear index -3 is out of bounds.* at row 150003"):
            xs.unravel(bad_linear, shape, threads=threads)


def test_int32_indices_into_buffers_past_2_31():
    # Rows take 32-bit arithmetic only where the buffer has at most 2**31
    # elements (bounds are checked at the index's own width); past that,
    # 64-bit, and a negative index is still bad.
    shape = tiled("f32[3000000000]{0:T(1024)}")
    rows = np.array([[5], [2**31 - 1], [123456789]], dtype=np.int32)
    expected = [reference.linear_index_of(shape, (int(v),)) for v in rows[:, 0]]
    assert xs.ravel(rows, shape).tolist() == expected
    assert xs.unravel(np.array(expected, dtype=np.int64), shape).tolist() == rows.tolist()
    with pytest.raises(IndexOutOfBoundsError, match=r"index -2147483648 is out of bounds .* at row 1"):
        xs.ravel(np.array([[0], [-(2**31)]], dtype=np.int32), shape)
    wide = tiled("f32[3,70000,20000]{2,1,0:T(8,128)}")  # 4.2e9 elements
    rows = np.array([[2, 69999, 19999], [1, 12345, 678]])
    expected = [reference.linear_index_of(wide, tuple(int(v) for v in r)) for r in rows]
    for dtype in (np.int32, np.int64):
        assert xs.ravel(rows.astype(dtype), wide).tolist() == expected
    with pytest.raises(IndexOutOfBoundsError, match="index 4294967296 is out of bounds"):
        xs.ravel(np.array([[0, 0, 2**32]]), tiled("f32[3,7,300]{2,1,0:T(8,128)}"))  # not 0 mod 2**32


@pytest.mark.parametrize("text", ["f32[3,5,70000,20000]{3,2,1,0:T(8,128)}",
                                  "bf16[3,5,70000,20000]{3,2,1,0:T(8,128)(2,1)}"])
@pytest.mark.parametrize("dtype", [np.int64, np.int32])
def test_offsets_past_32_bits_at_every_level(level, text, dtype):
    # 2.1e10 elements: strides past 32 bits, so the vector levels multiply
    # in 64 bits; 1001 rows, so that the last ones take the row kernel.
    shape = tiled(text)
    rng = np.random.default_rng(7)
    index = np.stack([rng.integers(0, d, 1001) for d in shape.dimensions], axis=1).astype(dtype)
    expected = [reference.linear_index_of(shape, tuple(int(v) for v in r)) for r in index]
    assert max(expected) >= 2**32
    assert xs.ravel(index, shape).tolist() == expected
    assert xs.unravel(np.array(expected), shape).tolist() == index.tolist()
    index[517, 2] = 70000
    index[900, 3] = -1
    with pytest.raises(IndexOutOfBoundsError, match=r"index 70000 is out of bounds for dimension 2 .* at row 517"):
        xs.ravel(index, shape)


# Tilings as TPUs use them and random ones, on sizes past the tiles or
# within them: every vector kernel form (ravel by dimension in registers at
# ranks 2, 3, 4 and 8; unravel by digits, split and simple) at every level,
# batches long enough for the vector loops and their tails, a bad row or
# offset anywhere in them. (The property tests above run at the default
# level only, and name padding at row 1 of 2, where no vector loop runs.)
TPU_TILES = (
    [(8, 128)],
    [(8, 128), (2, 1)],
    [(1024,), (128,), (2, 1)],
    [(2, 128), (2, 1)],
    [(8, 128), (4, 2), (2, 1)],
)


@st.composite
def tiled_batches(draw):
    """A tiled Shape of at most 4000 elements, and a batch: rows picked
    from its elements and the position of a bad one."""
    rank = draw(st.sampled_from([1, 2, 3, 4, 5, 8]))
    dims = draw(st.lists(st.sampled_from([1, 1, 2, 3, 5, 8, 13, 37, 131, 300]), min_size=rank, max_size=rank))
    for j in range(rank):
        if math.prod(dims) > 4000:
            dims[j] = min(dims[j], 3)
    m2m = draw(st.permutations(range(rank)))
    random_tiles = st.lists(
        st.lists(st.sampled_from([1, 2, 4, 8, 16, 128]), min_size=1, max_size=min(rank, 3)), min_size=1, max_size=3
    )
    tiles = draw(st.sampled_from(TPU_TILES) | random_tiles)
    shape = Shape("f32", dims, Layout(m2m, tiles=tiles))
    # tile padding can make the buffer far larger than the elements (two
    # (128, 128, 8) tiles over (2, 2, 1, 5, 5) take 2.7e9 slots): the test
    # lists every slot, so keep it to what that costs little
    assume(shape.buffer_size <= 1 << 22)
    n = draw(st.integers(1, 600))
    picks = draw(st.lists(st.integers(0, 2**32), min_size=n, max_size=n))
    return shape, picks, draw(st.integers(0, n - 1))


@given(tiled_batches())
def test_random_tilings_and_bad_rows_at_every_level(case):
    shape, picks, bad = case
    index = all_multi_indices(shape)
    expected = np.array([reference.linear_index_of(shape, tuple(r)) for r in index], dtype=np.int64)
    if not len(expected):
        return
    pick = np.array(picks) % len(expected)
    rows, linear = index[pick], expected[pick]
    free = np.ones(shape.buffer_size, dtype=bool)
    free[expected] = False
    pads = np.flatnonzero(free)  # every offset no element takes lies on tile padding
    j = bad % shape.rank
    previous = xs.cpu.set_cpu_level(LEVELS[0])
    try:
        for level in LEVELS:
            xs.cpu.set_cpu_level(level)
            for dtype in (np.int64, np.int32):
                assert xs.ravel(rows.astype(dtype), shape).tolist() == linear.tolist(), level
                assert xs.unravel(linear.astype(dtype), shape).tolist() == rows.tolist(), level
                strided = np.empty((len(rows), 2 * shape.rank), dtype=np.int64)[:, ::2]
                assert xs.unravel(linear.astype(dtype), shape, out=strided).tolist() == rows.tolist(), level
                # the bad row alone (only the vector check can see it), then
                # with more after it (the first is named)
                wrong = rows.astype(dtype)
                wrong[bad, j] = shape.dimensions[j] if bad % 2 else -1
                for _ in range(2):
                    with pytest.raises(IndexOutOfBoundsError, match=rf"dimension {j} .* at row {bad} "):
                        xs.ravel(wrong, shape)
                    wrong[bad + 1 :, 0] = -1
                if len(pads):
                    pad = int(pads[bad % len(pads)])
                    wrong = linear.astype(dtype)
                    wrong[bad] = pad
                    for _ in range(2):
                        with pytest.raises(IndexOutOfBoundsError, match=f"linear index {pad} at row {bad} .*tile padding"):
                            xs.unravel(wrong, shape)
                        wrong[bad + 1 :] = shape.buffer_size
    finally:
        xs.cpu.set_cpu_level(previous)


def reference_is_padding(shape: Shape, k: int, taken: set[int]) -> bool:
    if k in taken:
        return False
    try:
        reference.multi_index_at(shape, k)
    except IndexOutOfBoundsError:
        return True
    return False


@pytest.mark.parametrize("text", KERNEL_FORMS)
def test_modes_in_the_general_form(text):
    shape = tiled(text)
    rng = np.random.default_rng(11)
    dims = np.array(shape.dimensions)
    index = rng.integers(-3 * dims, 3 * dims, (500, shape.rank))
    for mode in ("wrap", "clip"):
        resolved = index % dims if mode == "wrap" else np.clip(index, 0, dims - 1)
        expected = [reference.linear_index_of(shape, tuple(r)) for r in resolved]
        for dtype in (np.int64, np.int32, np.int8 if dims.max() < 40 else np.int16):
            assert xs.ravel(index.astype(dtype), shape, mode=mode).tolist() == expected
    huge = np.array([[2**64 - 1] * shape.rank], dtype=np.uint64)
    assert xs.ravel(huge, shape, mode="wrap").tolist() == [
        reference.linear_index_of(shape, tuple((2**64 - 1) % d for d in shape.dimensions))
    ]



def test_unravel_into_strided_out():
    # The fast kernel writes a C-contiguous result row by row and any other
    # out= through its strides: both give the reference's indices.
    shape = tiled("f32[13,37,23]{2,1,0:T(8,128)}")
    index = all_multi_indices(shape)
    linear = np.array([reference.linear_index_of(shape, tuple(r)) for r in index], dtype=np.int64)
    np.testing.assert_array_equal(xs.unravel(linear, shape), index)
    transposed = np.empty((shape.rank, len(linear)), dtype=np.int64).T
    np.testing.assert_array_equal(xs.unravel(linear, shape, out=transposed), index)
    every_other = np.empty((len(linear), 2 * shape.rank), dtype=np.int64)[:, ::2]
    np.testing.assert_array_equal(xs.unravel(linear, shape, out=every_other), index)

# -- buffers -----------------------------------------------------------------
def test_figure_1_buffer():
    # docs/tiled_layout.md, Figure 1: the array in memory, tile by tile, with
    # zeros where the page draws white padding.
    shape = tiled("f32[3,5]{1,0:T(2,2)}")
    array = np.arange(15, dtype=np.float32).reshape(3, 5)
    buffer = xs.to_linear(array, shape)
    expected = reference.linear_values(shape, array.ravel().tolist(), fill=0.0)
    np.testing.assert_array_equal(buffer, expected)
    np.testing.assert_array_equal(buffer[FIGURE_1.ravel()], array.ravel())
    np.testing.assert_array_equal(xs.from_linear(buffer, shape), array)
    with pytest.raises(ValueError, match=r"no strides express the tiled layout.*from_linear"):
        xs.view_linear(buffer, shape)


def test_view_where_strides_express_the_tiles():
    # One whole tile: the within-tile offsets are the only ones.
    shape = tiled("f32[8,128]{1,0:T(8,128)}")
    array = np.arange(1024, dtype=np.float32).reshape(8, 128)
    view = xs.view_linear(xs.to_linear(array, shape), shape)
    np.testing.assert_array_equal(view, array)
    assert view.strides == (512, 4)


@given(tiled_shapes())
def test_buffers_round_trip(shape):
    array = np.arange(shape.element_count, dtype=np.float32).reshape(shape.dimensions)
    buffer = xs.to_linear(array, shape)
    assert buffer.size == shape.buffer_size
    np.testing.assert_array_equal(xs.from_linear(buffer, shape), array)
    expected = reference.linear_values(shape, array.ravel().tolist(), fill=0.0)
    np.testing.assert_array_equal(buffer, expected)


@pytest.mark.parametrize(
    "text, values, packed",
    [
        # xla/util.h PackIntN: the first element in the high-order bits.
        ("s4[5]{0:E(4)}", [1, -2, 3, -8, 7], [0x1E, 0x38, 0x70]),
        ("u4[4]{0:E(4)}", [1, 2, 15, 0], [0x12, 0xF0]),
        ("u2[5]{0:E(2)}", [1, 2, 3, 0, 3], [0b01101100, 0b11000000]),
        ("pred[9]{0:E(1)}", [1, 0, 1, 1, 0, 0, 0, 1, 1], [0b10110001, 0b10000000]),
    ],
)
def test_sub_byte_packing(text, values, packed):
    shape = tiled(text)
    dtype = bool if text.startswith("pred") else (np.int8 if text.startswith("s") else np.uint8)
    array = np.array(values, dtype=dtype)
    buffer = xs.to_linear(array, shape)
    assert buffer.dtype == np.uint8 and buffer.tolist() == packed
    assert buffer.size == ShapeUtil.byte_size_of(shape)
    np.testing.assert_array_equal(xs.from_linear(buffer, shape), array)
    with pytest.raises(ValueError, match=r"packs .* elements into each byte.*from_linear"):
        xs.view_linear(buffer, shape)


def test_tiled_and_packed():
    # s4[123,456]{1,0:T(2,128)E(4)}, from hlo_parser_test.cc: tiles, then two per byte.
    shape = tiled("s4[3,130]{1,0:T(2,128)E(4)}")
    array = (np.arange(390) % 16 - 8).astype(np.int8).reshape(3, 130)
    buffer = xs.to_linear(array, shape)
    assert buffer.size == ShapeUtil.byte_size_of(shape) == 4 * 256 // 2
    np.testing.assert_array_equal(xs.from_linear(buffer, shape), array)


def test_sub_byte_values_must_fit():
    with pytest.raises(ValueError, match=r"value 8 at \(1,\) does not fit s4 \(expected -8 to 7\)"):
        xs.to_linear(np.array([0, 8], dtype=np.int8), tiled("s4[2]{0:E(4)}"))
    # Without E(), each s4 takes a byte (XLA's ByteSizeOfPrimitiveType).
    buffer = xs.to_linear(np.array([-8, 7], dtype=np.int8), tiled("s4[2]"))
    assert buffer.tolist() == [-8, 7] and buffer.dtype == np.int8


# -- xlashape show -------------------------------------------------------------
def test_show_draws_figure_1():
    # docs/tiled_layout.md, Figure 1: the array, its 2x2 tiles with the white
    # padding (drawn 0), and memory tile by tile.
    from xlashape.cli.show import _describe

    lines = _describe(tiled("f32[3,5]{1,0:T(2,2)}"))
    text = "\n".join(lines)
    assert "a b c d e\nf g h i j\nk l m n o" in text
    assert "a b | c d | e 0\nf g | h i | j 0\n----+-----+----\nk l | m n | o 0\n0 0 | 0 0 | 0 0" in text
    assert "a b f g | c d h i | e 0 j 0 | k l 0 0 | m n 0 0 | o 0 0 0" in lines
    assert "buffer size:    24 elements, tile padding included" in lines


def test_show_draws_figure_2_pairs():
    # docs/tiled_layout.md, Figure 2: (2,4) then (2,1) puts each element of
    # an even row beside the one below it.
    from xlashape.cli.show import _describe

    lines = _describe(Shape("bf16", (4, 8), Layout((1, 0), tiles=[(2, 4), (2, 1)])))
    assert "a i b j c k d l | e m f n g o h p | q y r z s aa t ab | u ac v ad w ae x af" in lines
