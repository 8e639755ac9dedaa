"""The layout algebra against the buffer itself: every function that claims
to keep elements in place is checked offset by offset (``ravel``, checked
elsewhere against NumPy and the reference), and the functions are tied to
each other as XLA ties them."""

import itertools
import math

import hypothesis.strategies as st
import numpy as np
import pytest
from buffer_strategies import layouts, regrouped
from hypothesis import given
from strategies import all_multi_indices, shapes, tiled_shapes

import xlashape as xs
from xlashape import IndexUtil, Layout, LayoutUtil, Shape, ShapeUtil

P = ShapeUtil.parse_shape_string
any_shapes = st.one_of(shapes(max_rank=4, max_elements=512), tiled_shapes())


def offsets(shape: Shape, rows: np.ndarray) -> np.ndarray:
    return xs.ravel(rows, shape)


# -- properties the issue names ---------------------------------------------------
@given(any_shapes, st.data())
def test_permute_dimensions_is_a_transpose_bitcast(shape, data):
    permutation = data.draw(st.permutations(range(shape.rank)))
    permuted = ShapeUtil.permute_dimensions(permutation, shape)
    assert ShapeUtil.transpose_is_bitcast(shape, permuted, permutation)
    # ... and it is one: every element keeps its offset, tiles included.
    rows = all_multi_indices(shape)
    assert np.array_equal(offsets(shape, rows), offsets(permuted, rows[:, list(permutation)]))
    assert ShapeUtil.deduce_transpose_dimensions_for_bitcast(shape, permuted) in (list(permutation), None)


@given(shapes(max_rank=4, max_elements=512), st.data())
def test_align_layouts_makes_the_reshape_a_bitcast(shape, data):
    dims = data.draw(regrouped(shape.dimensions))
    aligned = ShapeUtil.align_layouts(shape, Shape(shape.element_type, dims))
    if aligned is not None:
        assert aligned.dimensions == dims
        assert ShapeUtil.reshape_is_bitcast(shape, aligned)
    elif shape.buffer_size == shape.element_count and 1 not in dims and 0 not in dims:
        # XLA's alignment fails only where no layout at all makes a bitcast.
        for order in itertools.permutations(range(len(dims))):
            assert not ShapeUtil.reshape_is_bitcast(shape, Shape(shape.element_type, dims, Layout(order)))


def regions(shape: Shape):
    """A region of ``shape``: base, count and incr per dimension, some
    dimensions pinned (count 0)."""
    def one(size):
        if size == 0:
            return st.just((0, 0, 1))
        return st.tuples(st.integers(0, size - 1), st.integers(1, 2 * size), st.integers(1, 3)).map(
            lambda t: (t[0], min(t[1], size - t[0]), t[2])
        ) | st.integers(0, size - 1).map(lambda b: (b, 0, 0))
    return st.tuples(*(one(size) for size in shape.dimensions)) if shape.rank else st.just(())


def region_rows(shape: Shape, region) -> np.ndarray:
    """Brute force: every index of the region, row-major."""
    axes = [range(b, b + 1) if c == 0 else range(b, b + c, i) for b, c, i in region]
    if shape.element_count == 0:
        return np.zeros((0, shape.rank), dtype=np.int64)
    return np.array(list(itertools.product(*axes)), dtype=np.int64).reshape(-1, shape.rank) if axes else (
        np.zeros((1, 0), dtype=np.int64))


@given(any_shapes, st.data())
def test_indices_in_physical_order_then_ravel_increases(shape, data):
    region = data.draw(regions(shape))
    base, count, incr = (list(column) for column in zip(*region)) if region else ([], [], [])
    rows = ShapeUtil.indices_in_physical_order(shape, base, count, incr)
    linear = offsets(shape, rows)
    assert rows.dtype == np.int64 and rows.shape[1] == shape.rank
    assert np.all(np.diff(linear) > 0)
    expected = region_rows(shape, region)
    assert sorted(map(tuple, rows.tolist())) == sorted(map(tuple, expected.tolist()))
    visited = []
    ShapeUtil.for_each_index(shape, base, count, incr, visited.append)
    assert sorted(visited) == sorted(map(tuple, expected.tolist()))
    if not shape.is_tiled:  # memory order is the layout's order
        assert visited == list(map(tuple, rows.tolist()))


@given(any_shapes)
def test_indices_in_physical_order_of_the_whole_shape(shape):
    rows = ShapeUtil.indices_in_physical_order(shape)
    assert np.array_equal(rows, xs.unravel(np.sort(offsets(shape, all_multi_indices(shape))), shape))


@pytest.mark.parametrize(
    "text, region",
    [
        # digits of whole dimensions repeat in a box; a region over one of them makes it partial
        ("f32[8,6,12]{0,1,2:T(2,4)}", None),
        ("f32[8,6,12]{0,1,2:T(2,4)}", ((1, 0, 0), (6, 6, 12), (2, 1, 1))),
        ("f32[8,6,12]{0,1,2:T(2,4)}", ((0, 1, 3), (8, 4, 7), (1, 3, 2))),
        # two tile levels, tile padding along both dimensions
        ("bf16[19,300]{1,0:T(8,128)(2,1)}", None),
        ("bf16[19,300]{1,0:T(8,128)(2,1)}", ((3, 5), (15, 290), (2, 7))),
        ("s8[21,260]{0,1:T(8,128)(4,1)}", ((0, 130), (21, 0), (1, 0))),
    ],
)
def test_indices_in_physical_order_of_tiled_regions(text, region):
    shape = P(text)
    base, count, incr = (list(column) for column in region) if region else (None, None, None)
    rows = ShapeUtil.indices_in_physical_order(shape, base, count, incr)
    expected = region_rows(shape, list(zip(*region)) if region else [(0, n, 1) for n in shape.dimensions])
    order = np.argsort(offsets(shape, expected))
    np.testing.assert_array_equal(rows, expected[order])


# -- dimension surgery keeps elements where they are --------------------------------
@given(shapes(max_rank=4, max_elements=512), st.data())
def test_deleting_size_1_dimensions_keeps_offsets(shape, data):
    # Untiled, and of padded width 1: other size-1 dimensions hold padding.
    ones = [d for d in range(shape.rank) if shape.padded_dimensions[d] == 1]
    doomed = data.draw(st.lists(st.sampled_from(ones), unique=True)) if ones else []
    smaller = ShapeUtil.delete_dimensions(doomed, shape)
    rows = all_multi_indices(shape)
    kept = [d for d in range(shape.rank) if d not in doomed]
    assert np.array_equal(offsets(shape, rows), offsets(smaller, rows[:, kept]))
    if not doomed:
        assert ShapeUtil.drop_degenerate_dimensions(shape) == ShapeUtil.filter_dimensions(
            lambda d: shape.dimensions[d] != 1, shape)


@given(any_shapes)
def test_descending_layout_with_the_same_physical_layout_keeps_offsets(shape):
    same = ShapeUtil.make_shape_with_descending_layout_and_same_physical_layout(shape)
    rows = all_multi_indices(shape)
    assert LayoutUtil.is_monotonic_with_dim0_major(same.layout)
    assert same.buffer_size == shape.buffer_size
    assert np.array_equal(offsets(shape, rows), offsets(same, rows[:, list(shape.layout.major_to_minor)]))
    if not same.is_tiled and same.buffer_size == same.element_count:
        assert ShapeUtil.reshape_is_bitcast(same, ShapeUtil.make_shape_with_descending_layout(
            same.element_type, same.dimensions))


@given(shapes(max_rank=4, max_elements=512, pad=False), st.integers(0, 3))
def test_appended_dimensions(shape, bound):
    for appended, place in [(ShapeUtil.append_major_dimension(bound, shape), -1),
                            (ShapeUtil.append_minor_dimension(bound, shape), 0)]:
        assert appended.dimensions == shape.dimensions + (bound,)
        assert appended.layout.minor_to_major[place] == shape.rank
        assert ShapeUtil.delete_dimension(shape.rank, appended) == shape


# -- reshapes ---------------------------------------------------------------------
@given(shapes(max_rank=4, max_elements=512, pad=False), st.data())
def test_dimensions_unmodified_by_reshape_keep_their_index(shape, data):
    dims = data.draw(regrouped(shape.dimensions))
    output = Shape(shape.element_type, dims)
    pairs = ShapeUtil.dimensions_unmodified_by_reshape(shape, output)
    assert pairs == sorted(pairs) and [o for _, o in pairs] == sorted(o for _, o in pairs)
    rows = all_multi_indices(Shape(shape.element_type, shape.dimensions))
    reshaped = xs.unravel(offsets(Shape(shape.element_type, shape.dimensions), rows), output)
    for i, o in pairs:  # the logical reshape carries the index along
        assert np.array_equal(rows[:, i], reshaped[:, o])
    inputs = [i for i, _ in pairs]
    assert ShapeUtil.reshape_leaves_dimensions_unmodified(shape, output, inputs) == [o for _, o in pairs]
    if len(inputs) > 1:
        assert ShapeUtil.reshape_leaves_dimensions_unmodified(shape, output, inputs[::-1]) is None
    found = ShapeUtil.inserted_or_deleted_1_sized_dimensions(shape, output)
    only_ones = [d for d in shape.dimensions if d != 1] == [d for d in dims if d != 1]
    assert (found is not None) == only_ones or 0 in shape.dimensions


@given(st.data())
def test_is_reshape_or_transpose_bitcast(data):
    shape = data.draw(shapes(max_rank=3, max_elements=128, pad=False))
    dims = data.draw(regrouped(shape.dimensions))
    other = Shape(shape.element_type, dims, data.draw(layouts(dims)))
    expected = ShapeUtil.reshape_is_bitcast(shape, other) or (
        ShapeUtil.deduce_transpose_dimensions_for_bitcast(shape, other) is not None)
    assert ShapeUtil.is_reshape_or_transpose_bitcast(shape, other) == expected


# -- sizes --------------------------------------------------------------------------
@given(shapes(max_rank=4, max_elements=512))
def test_byte_strides_are_the_buffer_strides(shape):
    assert ShapeUtil.byte_strides(shape) == shape.byte_strides
    assert ShapeUtil.byte_size_of_elements(shape) == ShapeUtil.byte_size_of(shape)


@given(tiled_shapes())
def test_array_size_and_linear_index_follow_the_first_tile(shape):
    tiles = shape.layout.tiles
    if len(tiles) == 1 and xs.Tile.COMBINE not in tiles[0].dimensions:  # XLA's estimates are exact
        assert ShapeUtil.array_size(shape) == ShapeUtil.byte_size_of(shape)
        if shape.rank > 1:
            for row in all_multi_indices(shape)[:50]:
                assert LayoutUtil.linear_index(shape, row) == IndexUtil.multidimensional_index_to_linear_index(
                    shape, row)


def test_byte_strides_of_tiled_and_packed_shapes_follow_xla():
    # XLA ignores tiles; packing below a byte has no byte strides.
    assert ShapeUtil.byte_strides(P("f32[3,5]{1,0:T(2,2)}")) == (20, 4)
    assert ShapeUtil.byte_strides(P("s4[8]{0:E(4)}")) is None
    # XLA's ArraySize rounds the '*' dimension to its default packing
    # (32 // 16 bits = 2) instead of combining it: 1024 * 4 * 2 elements; the
    # page combines 3 * 1004 = 3012 into 24 tiles of (2, 128).
    combined = P("bf16[2,3,1004]{2,1,0:T(2,*,128)}")
    assert ShapeUtil.array_size(combined) == math.prod((1024, 4, 2)) * 2
    assert ShapeUtil.byte_size_of(combined) == 24 * 256 * 2


# -- predicates and sub-shapes over tuples ---------------------------------------------
def test_predicates_take_tuples_where_xla_does():
    t = P("(f32[], (s8[1,1], token[]))")
    assert not ShapeUtil.is_scalar(t) and not ShapeUtil.is_effective_scalar(t)
    assert ShapeUtil.is_scalar(P("f32[]")) and ShapeUtil.is_effective_scalar(P("s8[1,1]"))
    assert not ShapeUtil.is_scalar(P("token[]"))
    assert ShapeUtil.same_element_type(t, P("()")) and not ShapeUtil.same_element_type(t, P("f32[]"))
    assert ShapeUtil.equal_ignoring_element_type(t, P("(s32[], (u8[1,1], token[]))"))
    assert not ShapeUtil.equal_ignoring_element_type(t, P("(s32[], (u8[1,1], opaque[]))"))
    assert ShapeUtil.equal_structure(t, P("(token[], (f32[9], f32[]))"))
    assert not ShapeUtil.equal_structure(t, P("(f32[], s8[1,1], token[])"))
    assert ShapeUtil.same_rank(P("f32[2,3]"), P("s8[1,1]")) and not ShapeUtil.same_rank(P("f32[2]"), P("f32[]"))
    with pytest.raises(TypeError, match="elements_in_recursive counts arrays"):
        ShapeUtil.elements_in_recursive(t)
    with pytest.raises(TypeError, match="lhs must be a Shape, got TupleShape"):
        ShapeUtil.same_rank(t, t)


def test_sub_shape_indices():
    t = P("(f32[2], (s8[3], token[]))")
    assert ShapeUtil.index_is_valid(t, ()) and ShapeUtil.index_is_valid(t, [1, 1])
    for bad in [(2,), (-1,), (0, 0), (1, 2)]:
        assert not ShapeUtil.index_is_valid(t, bad) and ShapeUtil.try_get_subshape(t, bad) is None
    with pytest.raises(IndexError, match=r"the sub-shape at \(0,\) is f32\[2\]\{0\}, not a tuple"):
        ShapeUtil.get_subshape(t, (0, 0))
    with pytest.raises(IndexError, match="entry 1 is 2, but the tuple there has 2 elements"):
        ShapeUtil.get_subshape(t, (1, 2))
    assert ShapeUtil.get_leaf_count(P("()")) == 0 and ShapeUtil.get_leaf_shapes(P("((), ())")) == []


# -- layouts -------------------------------------------------------------------------
def test_layout_helpers():
    layout = Layout((2, 0, 1), tiles=[(8, 128)], memory_space=2)
    assert LayoutUtil.make_layout_from_major_to_minor([1, 0, 2]) == Layout((2, 0, 1))
    assert LayoutUtil.minor_to_major(layout) == (2, 0, 1) == LayoutUtil.minor_to_major(Shape("f32", (1, 2, 3), layout))
    assert LayoutUtil.are_dimensions_consecutive(layout, [1, 0]) and LayoutUtil.are_dimensions_consecutive(layout, [])
    assert not LayoutUtil.are_dimensions_consecutive(layout, [2, 1])
    assert LayoutUtil.move_dim_to_major(layout, 0) == Layout((2, 1, 0), tiles=[(8, 128)], memory_space=2)
    shape = Shape("f32", (8, 256, 3), layout)
    assert LayoutUtil.memory_space(shape) == 2
    assert LayoutUtil.clear_tiles(shape) == Shape("f32", (8, 256, 3), Layout((2, 0, 1), memory_space=2))
    assert ShapeUtil.move_dim_to_major(shape, 0) == Shape("f32", (8, 256, 3), Layout((2, 1, 0)))  # as XLA: plain
    with pytest.raises(IndexError, match="dimension 3 is not in layout"):
        LayoutUtil.are_dimensions_consecutive(layout, [3])


def test_linear_index_refusals():
    with pytest.raises(ValueError, match="tile with"):
        LayoutUtil.linear_index(P("bf16[2,3,1004]{2,1,0:T(2,*,128)}"), (0, 0, 0))
    with pytest.raises(xs.IndexOutOfBoundsError, match=r"index \[2, 0\] is not inside shape"):
        LayoutUtil.linear_index(P("f32[2,3]"), (2, 0))
    # XLA returns a rank-1 index as it is, tiles or not.
    assert LayoutUtil.linear_index(P("f32[300]{0:T(256)(2)}"), [257]) == 257


# -- refusals that name what was expected and received ---------------------------------
@pytest.mark.parametrize("call, error, message", [
    (lambda: ShapeUtil.permute_dimensions([0, 0], P("f32[2,3]")), ValueError, r"permutation of 0..1.*\[0, 0\]"),
    (lambda: ShapeUtil.delete_dimensions([1, 1], P("f32[2,3]")), ValueError, "names a dimension twice"),
    (lambda: ShapeUtil.delete_dimension(2, P("f32[2,3]")), IndexError, "dimension 2 is out of range"),
    (lambda: ShapeUtil.move_dim_to_major(P("f32[2,3]"), 5), IndexError, "dim 5 is out of range"),
    (lambda: ShapeUtil.change_element_type(P("(f32[2], token[])"), "s8"), ValueError, "got token"),
    (lambda: ShapeUtil.change_element_type(P("f32[2]"), "tuple"), ValueError, "TUPLE is not an array"),
    (lambda: ShapeUtil.byte_size_of_primitive_type("opaque"), ValueError, "OPAQUE has no element byte size"),
    (lambda: ShapeUtil.align_layouts(P("f32[4,4]{1,0:T(2,2)}"), P("f32[16]")), ValueError, "is tiled"),
    (lambda: ShapeUtil.align_layouts(P("f32[4,4]"), P("f32[15]")), ValueError, "holds 16"),
    (lambda: ShapeUtil.dimensions_unmodified_by_reshape(P("f32[4]"), P("f32[5]")), ValueError, "holds 4"),
    (lambda: ShapeUtil.for_each_index(P("f32[2,3]"), [0], [2, 3], [1, 1], print), ValueError, "base has 1"),
    (lambda: ShapeUtil.for_each_index(P("f32[2,3]"), [0, 0], [2, 3], [1, -1], print), ValueError,
     "incr -1 must be >= 0"),
    (lambda: ShapeUtil.indices_in_physical_order(P("f32[2,3]"), [0, 0], [2, 3], [1, 0]), ValueError,
     "dimension 1 has incr 0 where its count is not 0, so the region never ends"),
    (lambda: ShapeUtil.indices_in_physical_order(P("f32[2,3]"), [1, 0], [2, 3]), IndexError,
     "reaches index 2, outside the extent 2"),
    (lambda: LayoutUtil.copy_layout_between_shapes(P("token[]"), P("f32[]")), ValueError, "only arrays"),
    (lambda: LayoutUtil.make_descending_layout(-1), ValueError, "rank must be >= 0"),
])
def test_refusals(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_inputs_are_left_as_they_are():
    base, count, incr = [0, 1], [2, 2], [1, 1]
    ShapeUtil.indices_in_physical_order(P("f32[2,3]"), base, count, incr)
    assert (base, count, incr) == ([0, 1], [2, 2], [1, 1])


def test_make_static_shape_and_change_element_type():
    assert ShapeUtil.make_static_shape(P("f32[<=4,3]{0,1}")) == P("f32[4,3]{0,1}")
    assert ShapeUtil.change_element_type(P("(f32[2], (s8[3]{0:S(1)}))"), "bf16") == P("(bf16[2], (bf16[3]{0:S(1)}))")
    assert ShapeUtil.make_shape_with_descending_layout("f32", [2, 3]) == P("f32[2,3]{1,0}")
    assert ShapeUtil.get_leaf_count(P("(f32[2], token[], opaque[])")) == 3
