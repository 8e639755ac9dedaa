"""XLA's own unit tests for the rest of its shape toolbox, ported.

Each test names the openxla/xla test it ports (``xla/shape_util_test.cc``,
``xla/layout_util_test.cc``, ``xla/index_util_test.cc``,
``xla/shape_test.cc``, ``xla/layout_test.cc``); XLA's mutating calls
return the new shape here. Where a test exercises what xlashape does not
model (sparse layouts, protos, mutable or layout-less shapes, parallel
visitors), its docstring says so and the test checks the counterpart that
xlashape offers instead.
"""

import pickle
import threading
import warnings

import numpy as np
import pytest

import xlashape as xs
from xlashape import IndexUtil, Layout, LayoutUtil, Shape, ShapeUtil, SplitConfig, Tile, TupleShape

P = ShapeUtil.parse_shape_string
dense = ShapeUtil.make_shape_with_dense_layout
make = ShapeUtil.make_shape
tup = ShapeUtil.make_tuple_shape
token = ShapeUtil.make_token_shape()
opaque = ShapeUtil.make_opaque_shape()
UNBOUNDED = Shape.UNBOUNDED_SIZE


# -- shape_util_test.cc: dimensions ------------------------------------------------------


def test_get_dimension_helper_can_negative_index():
    """ShapeUtilTest.GetDimensionHelperCanNegativeIndex and
    GetDimensionHelperExampleInDocumentationTest."""
    matrix = make("f32", [2, 3])
    assert ShapeUtil.get_dimension(matrix, -1) == 3
    assert ShapeUtil.get_dimension(matrix, -2) == 2
    assert ShapeUtil.get_dimension(make("f32", [1, 2, 3, 4]), -1) == 4
    assert ShapeUtil.get_dimension_number(matrix, -1) == 1 and ShapeUtil.get_dimension_number(matrix, 0) == 0


def test_negative_index_oob_fails():
    """ShapeUtilTest.NegativeIndexOobFails: XLA dies; xlashape raises."""
    with pytest.raises(IndexError):
        ShapeUtil.get_dimension(make("f32", [2, 3]), -3)
    with pytest.raises(IndexError):
        ShapeUtil.get_dimension_number(make("f32", [2, 3]), -3)


@pytest.mark.parametrize("dims", [[3], [3, 2], [3, 2, 7], [3, 2, 7, 8]])
def test_rank_dimension_indexing(dims):
    """ShapeUtilTest.Rank1DimensionIndexing, Rank2DimensionIndexing,
    Rank3DimensionIndexing, Rank4DimensionIndexing and
    CreateRank3DimensionVectorFromShape (``Shape.dimensions`` is the
    vector)."""
    shape = make("f32", dims)
    assert [shape.dimensions[i] for i in range(len(dims))] == dims
    assert ShapeUtil.create_dimension_vector_from_shape(shape) == dims
    assert ShapeUtil.create_dimension_vector_from_shape(tup([shape])) == []


def test_prepend_major_dimension():
    """ShapeUtilTest.PrependMajorDimension."""
    assert ShapeUtil.prepend_major_dimension(40, make("f32", [10, 20, 30])) == make("f32", [40, 10, 20, 30])
    assert ShapeUtil.prepend_major_dimension(40, dense("f32", [10, 20, 30], [0, 2, 1])) == dense(
        "f32", [40, 10, 20, 30], [1, 3, 2, 0]
    )
    assert ShapeUtil.prepend_major_dimension(40, dense("f32", [10, 20, 30], [2, 1, 0])) == dense(
        "f32", [40, 10, 20, 30], [3, 2, 1, 0]
    )


def test_is_effectively_most_major_dimension():
    """ShapeUtilTest.IsEffectivelyMostMajorDimension (its last check asks
    about shape2, as XLA's does)."""
    assert ShapeUtil.is_effectively_most_major_dimension(dense("f32", [1, 1, 16, 1, 279], [4, 0, 1, 2, 3]), 2)
    assert ShapeUtil.is_effectively_most_major_dimension(dense("f32", [1, 1, 16, 1, 279], [4, 1, 2, 3, 0]), 2)
    shape2 = dense("f32", [1, 1, 16, 1, 279], [0, 1, 2, 3, 4])
    assert not ShapeUtil.is_effectively_most_major_dimension(shape2, 2)
    assert ShapeUtil.is_effectively_most_major_dimension(shape2, 4)


def test_reorder_dimensions():
    """ShapeUtilTest.ReorderDimensionsTest."""
    shape = ShapeUtil.reorder_logical_dimensions(dense("f32", [16, 3, 12, 17], [1, 2, 0, 3]), [0, 2, 1, 3])
    assert ShapeUtil.human_string_with_layout(shape) == "f32[16,12,3,17]{2,1,0,3}"


def test_invalid_dynamic_dimension():
    """ShapeUtilTest.InvalidDynamicDimension: an unbounded size marked
    static is refused, in the words of XLA's MakeValidatedShape today
    ("Invalid dimension size"; the test's older text was "Cannot mark a
    dynamic dimension at dim=1 as static")."""
    with pytest.raises(ValueError, match=f"Invalid dimension size {UNBOUNDED}, is_dynamic=false"):
        make("f32", [UNBOUNDED, UNBOUNDED], [True, False])


def test_update_dynamic_dimensions():
    """ShapeUtilTest.UpdateDynamicDimensions: shapes are immutable here, so
    the counterpart builds the tuple with the dimension dynamic."""
    tuple_shape = tup([make("f32", [10, 100, 1000], [False, True, False])])
    assert ShapeUtil.get_subshape(tuple_shape, (0,)).is_dynamic_dimension(1)


# -- shape_util_test.cc: comparisons -------------------------------------------------------


def test_compatible_and_equal_basics():
    """ShapeUtilTest.CompatibleIdenticalShapes, CompatibleNotIdenticalShapes,
    IncompatibleDifferentElementShapes, TokenCompatibility,
    TokensEqualShapes and ScalarDefaultLayoutEqualsScalarEmptyMin2Maj."""
    assert ShapeUtil.compatible(make("f32", [3, 2]), make("f32", [3, 2]))
    col, row = dense("f32", [3, 2], [0, 1]), dense("f32", [3, 2], [1, 0])
    assert not ShapeUtil.equal(col, row) and ShapeUtil.compatible(col, row)
    assert not ShapeUtil.compatible(make("f32", [3, 2]), make("pred", [3, 2]))
    assert ShapeUtil.compatible(token, token)
    assert not ShapeUtil.compatible(token, make("f32", []))
    assert not ShapeUtil.compatible(make("f32", []), token)
    assert ShapeUtil.compatible(tup([token]), tup([token]))
    assert ShapeUtil.equal(token, token)
    assert not ShapeUtil.equal(token, make("f32", []))
    assert not ShapeUtil.equal(make("f32", []), token)
    assert ShapeUtil.equal(tup([token, dense("s32", [3, 4], [0, 1])]), tup([token, dense("s32", [3, 4], [0, 1])]))
    assert not ShapeUtil.equal(tup([token, dense("s32", [3, 4], [0, 1])]), tup([token, dense("s32", [3, 4], [1, 0])]))
    assert ShapeUtil.equal(make("f32", []), dense("f32", [], []))


def test_equal_dynamic_shapes():
    """ShapeUtilTest.EqualDynamicShapes."""
    assert ShapeUtil.equal(make("f32", [4, 3], [True, False]), make("f32", [4, 3], [True, False]))
    assert not ShapeUtil.equal(make("f32", [4, 3], [True, False]), make("f32", [4, 3], [False, False]))
    assert not ShapeUtil.equal(make("f32", [UNBOUNDED], [True]), make("f32", [2], [True]))


def test_compatible_ignoring_fp_precision():
    """ShapeUtilTest.CompatibleIgnoringFpPrecision,
    IncompatibleIgnoringFpPrecision, CompatibleTuplesIgnoringFpPrecision and
    IncompatibleTuplesIgnoringFpPrecision."""
    assert ShapeUtil.compatible_ignoring_fp_precision(make("bf16", [3, 2]), make("f32", [3, 2]))
    assert not ShapeUtil.compatible_ignoring_fp_precision(make("bf16", [3, 2]), make("f32", [2, 2]))
    assert ShapeUtil.compatible_ignoring_fp_precision(
        tup([make("bf16", [3, 2]), make("f32", [4, 5])]), tup([make("f64", [3, 2]), make("bf16", [4, 5])])
    )
    assert not ShapeUtil.compatible_ignoring_fp_precision(
        tup([make("bf16", [4, 5]), make("f32", [3, 2])]), tup([make("f32", [3, 2]), make("bf16", [4, 5])])
    )


def test_equal_ignoring_fp_precision():
    """ShapeUtilTest.EqualIgnoringFpPrecision and UnequalIgnoringFpPrecision."""
    assert ShapeUtil.equal_ignoring_fp_precision(dense("f32", [4, 3], [0, 1]), dense("f16", [4, 3], [0, 1]))
    assert not ShapeUtil.equal_ignoring_fp_precision(dense("f32", [4, 3], [0, 1]), dense("f16", [3, 4], [0, 1]))
    assert not ShapeUtil.equal_ignoring_fp_precision(dense("f32", [3, 4], [0, 1]), dense("f16", [3, 4], [1, 0]))
    assert not ShapeUtil.equal_ignoring_fp_precision(dense("f32", [4, 3], [0, 1]), dense("pred", [4, 3], [0, 1]))


def test_scalar_and_opaque_against_tuples_ignoring_fp_precision():
    """ShapeUtilTest.IncompatibleScalarVsTuple and OpaqueVsArray, their
    CompatibleIgnoringFpPrecision checks."""
    scalar, pair = make("f32", []), tup([make("f32", [3, 2]), make("u32", [])])
    array = make("f32", [5, 7])
    for a, b in ((scalar, pair), (pair, scalar), (array, opaque), (opaque, array)):
        assert not ShapeUtil.compatible_ignoring_fp_precision(a, b)


def test_same_dimensions():
    """ShapeUtilTest.SameDimensions."""
    same = [([], []), ([1], [1]), ([0], [0]), ([2], [2])]
    different = [([1], [2]), ([0, 0], [0]), ([1], [1, 1]), ([], [1]), ([1], [1, 0]), ([1, 1], [1, 2])]
    for a, b in same:
        assert ShapeUtil.same_dimensions(make("s32", a), make("f32", b))
    for a, b in different:
        assert not ShapeUtil.same_dimensions(make("s32", a), make("f32", b))


# -- shape_util_test.cc: tuples --------------------------------------------------------------


def test_make_maybe_tuple_shape():
    """ShapeUtilTest.MakeMaybeTupleShape."""
    s1 = ShapeUtil.make_maybe_tuple_shape([make("f32", [3, 2])])
    assert ShapeUtil.compatible(s1, make("f32", [3, 2]))
    assert ShapeUtil.make_maybe_tuple_shape([s1, s1]) == tup([s1, s1])
    assert ShapeUtil.make_maybe_tuple_shape([]) == tup([])


def test_nil_shape():
    """ShapeUtilTest.NilShape."""
    assert ShapeUtil.is_empty_tuple(ShapeUtil.make_nil()) and ShapeUtil.make_nil() == tup([])
    assert not ShapeUtil.is_empty_tuple(make("f32", [1, 2, 3]))
    assert not ShapeUtil.is_empty_tuple(make("f32", [0, 1]))
    assert not ShapeUtil.is_empty_tuple(tup([make("s32", [])]))
    assert not ShapeUtil.is_empty_tuple(tup([make("f32", [0])]))


def test_nested_tuple():
    """ShapeUtilTest.NestedTuple and NestedTupleWithPtrs."""
    nil, s32 = tup([]), make("s32", [])
    assert not ShapeUtil.is_nested_tuple(nil)
    assert not ShapeUtil.is_nested_tuple(tup([s32]))
    assert ShapeUtil.is_nested_tuple(tup([nil]))
    assert not ShapeUtil.is_nested_tuple(tup([s32, s32]))
    assert ShapeUtil.is_nested_tuple(tup([s32, nil]))
    assert ShapeUtil.is_nested_tuple(tup([nil, s32]))
    assert ShapeUtil.is_nested_tuple(tup([nil, nil]))
    assert not ShapeUtil.is_nested_tuple(s32)


def test_has_primitive_type():
    """ShapeUtilTest.HasPrimitiveType."""
    assert ShapeUtil.has_primitive_type(make("s32", []), "s32")
    assert not ShapeUtil.has_primitive_type(make("s32", []), "s16")
    assert ShapeUtil.has_primitive_type(make("s32", [0]), "s32")
    assert not ShapeUtil.has_primitive_type(tup([]), "s32")
    assert ShapeUtil.has_primitive_type(tup([make("s32", []), make("s32", [])]), "s32")
    assert ShapeUtil.has_primitive_type(tup([make("s32", []), tup([make("s16", [])])]), "s16")


def test_is_leaf_index():
    """ShapeUtilTest.IsLeafIndex."""
    array = make("f32", [42, 42, 123])
    assert ShapeUtil.is_leaf_index(array, ())
    pair = tup([array, array])
    assert not ShapeUtil.is_leaf_index(pair, ())
    assert ShapeUtil.is_leaf_index(pair, (0,)) and ShapeUtil.is_leaf_index(pair, (1,))
    nested = tup([array, tup([array, array]), tup([tup([array, array]), array])])
    assert not ShapeUtil.is_leaf_index(nested, ())
    assert ShapeUtil.is_leaf_index(nested, (0,))
    assert not ShapeUtil.is_leaf_index(nested, (1,))
    assert ShapeUtil.is_leaf_index(nested, (1, 0)) and ShapeUtil.is_leaf_index(nested, (1, 1))
    with pytest.raises(IndexError):
        ShapeUtil.is_leaf_index(nested, (0, 0))


def test_for_each_subshape_array():
    """ShapeUtilTest.ForEachSubshapeArray."""
    shape = make("f32", [2, 3])
    calls = []
    ShapeUtil.for_each_subshape(shape, lambda s, i: calls.append((s, i)))
    assert calls == [(shape, ())]
    assert ShapeUtil.subshape_count(shape) == 1


def test_for_each_leaf_shape():
    """ShapeUtilTest.ForEachMutableSubshapeNestedTuple and
    ForEachMutableLeafShapeTest: shapes are immutable here, so the
    counterparts are the walks that read: five sub-shapes, outside in, and
    three leaves of 42, 101 and 33 elements."""
    shape = tup([make("f32", [42]), tup([make("f32", [101]), make("pred", [33])])])
    seen = []
    ShapeUtil.for_each_subshape(shape, lambda s, i: seen.append(i))
    assert seen[0] == () and len(seen) == ShapeUtil.subshape_count(shape) == 5
    leaves = ShapeUtil.flatten_tuple_shape(shape)
    assert [ShapeUtil.elements_in(s) for s in leaves] == [42, 101, 33]
    visited = []
    ShapeUtil.for_each_leaf_shape(shape, lambda s, i: visited.append((ShapeUtil.elements_in(s), i)))
    assert visited == [(42, (0,)), (101, (1, 0)), (33, (1, 1))]
    with pytest.raises(AttributeError):
        shape._tuple_shapes = ()


def test_slice_tuple():
    """XLA has no SliceTuple test; Python's slicing is the oracle."""
    elements = [make("f32", [2]), make("s8", []), token, tup([])]
    shape = tup(elements)
    for start in range(5):
        for limit in range(start, 5):
            assert ShapeUtil.slice_tuple(shape, start, limit) == tup(elements[start:limit])
    with pytest.raises(IndexError, match="0 <= start <= limit <= 4"):
        ShapeUtil.slice_tuple(shape, 3, 2)
    with pytest.raises(IndexError):
        ShapeUtil.slice_tuple(shape, 0, 5)
    with pytest.raises(TypeError, match="must be a tuple shape"):
        ShapeUtil.slice_tuple(make("f32", [2]), 0, 0)


# -- shape_util_test.cc: sizes and strides -------------------------------------------------


def test_byte_strides():
    """ShapeUtilTest.ByteStrides, for both byte_strides and
    unpacked_byte_strides."""
    assert ShapeUtil.byte_strides(make("f32", [3, 5, 7])) == (140, 28, 4)
    assert ShapeUtil.byte_strides(make("f16", [5, 7, 9])) == (126, 18, 2)
    assert ShapeUtil.unpacked_byte_strides(make("f32", [3, 5, 7])) == (140, 28, 4)


def test_int4_shape_size():
    """ShapeUtilTest.Int4ShapeSize: ArrayDataSize and ArraySize."""
    int4 = Shape("s4", [64, 128], Layout([1, 0], element_size_in_bits=4))
    assert ShapeUtil.array_data_size(int4) == 64 * 128 // 2
    assert ShapeUtil.array_size(int4) == 64 * 128 // 2
    int4_tiled = Shape("s4", [9216, 6144], Layout([1, 0], tiles=[(8 * (32 // 4), 128), (32 // 4, 1)],
                                                  element_size_in_bits=4))
    assert ShapeUtil.array_data_size(int4_tiled) == 9216 * 6144 // 2
    assert ShapeUtil.array_size(int4_tiled) == 9216 * 6144 // 2


@pytest.mark.parametrize("dims", [[0, 64, 128], [128, 0, 64], [64, 128, 0], [0, 63, 127], [127, 0, 63], [63, 127, 0]])
def test_zero_size(dims):
    """XlaShapeUtilTest.ZeroSize: ArrayDataSize and ArraySize."""
    int4 = Shape("s4", dims, Layout([2, 1, 0], element_size_in_bits=4))
    assert ShapeUtil.array_data_size(int4) == 0
    assert ShapeUtil.array_size(int4) == 0


def test_b_250640044_and_b_251055887():
    """ShapeUtilTest.B_250640044 and B_251055887 (fuzzer protos): no protos
    here, so the same shapes as text and fields. The first's layout is
    sparse (refused by name); the second names dimension 6 twice."""
    with pytest.raises(ValueError, match="sparse layouts are not modelled"):
        P("(s8[137438953472]{0:D(C)})")
    dims = [0, 8, 0, 0, 4, 1, 1, 6, 281474976710657, 1]
    with pytest.raises(ValueError, match="duplicate values"):
        Shape("s8", dims, Layout([1, 3, 0, 5, 4, 6, 8, 7, 6, 9]))


# -- shape_util_test.cc: ForEachIndex ------------------------------------------------------


def test_for_each_index_with_status():
    """ShapeUtilTest.ForEachIndexWithStatus: an incr of 0 in dimension 0
    walks (0,0)..(0,4) until the visitor's error, as in XLA, and warns that
    the walk never ends by itself."""
    invocations = []

    def visitor(index):
        invocations.append(index)
        if len(invocations) == 5:
            raise NotImplementedError("Cannot increment beyond 5.")
        return True

    with (
        pytest.warns(RuntimeWarning, match="dimension 0 has incr 0"),
        pytest.raises(NotImplementedError, match=r"Cannot increment beyond 5\."),
    ):
        ShapeUtil.for_each_index(make("f32", [10, 10]), [0, 0], [10, 10], [0, 1], visitor)
    assert invocations == [(0, j) for j in range(5)]


def test_for_each_index_with_zero_incr_repeats_its_cycle():
    """XLA's IncrementDim never moves a dimension of incr 0, so the walk
    goes round the more minor dimensions until the visitor stops it."""
    seen = []
    with pytest.warns(RuntimeWarning, match="never ends"):
        ShapeUtil.for_each_index(P("f32[3,4,5]{2,0,1}"), [0, 1, 2], [3, 3, 1], [1, 0, 1],
                                 lambda i: len(seen) < 7 and seen.append(i) is None)
    cycle = [(0, 1, 2), (1, 1, 2), (2, 1, 2)]  # dimension 2, then 0, vary; 1 (incr 0) stays
    assert seen == (cycle * 3)[:7]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ShapeUtil.for_each_index(make("f32", [0, 4]), [0, 0], [0, 4], [0, 0], lambda i: pytest.fail("visited"))
    assert ShapeUtil.indices_in_physical_order(make("f32", [0, 4]), [0, 0], [0, 4], [0, 0]).shape == (0, 2)


@pytest.mark.parametrize(
    "xla_test, dims, base, count, incr, expected",
    [
        ("ForEachIndexParallel", [10, 10], [0, 0], [10, 10], [1, 1], [(i, j) for i in range(10) for j in range(10)]),
        ("ForEachIndexParallel_Rank0", [], [], [], [], [()]),
        ("ForEachIndexParallel_Empty", [2, 0], [0, 0], [2, 0], [1, 1], []),
        ("ForEachIndexParallel_DimensionPinnedWithZeros", [2, 2], [1, 0], [0, 2], [0, 1], [(1, 0), (1, 1)]),
        ("ForEachIndexParallel_WithSkips", [10, 10], [2, 3], [3, 1], [2, 1], [(2, 3), (4, 3)]),
    ],
)
def test_for_each_index_parallel(xla_test, dims, base, count, incr, expected):
    """ShapeUtilTest.ForEachIndexParallel*: xlashape's parallel counterpart
    is indices_in_physical_order (every index at once, by the worker pool),
    so the indices XLA's visitors write are compared as a set."""
    rows = ShapeUtil.indices_in_physical_order(make("f32", dims), base, count, incr)
    assert sorted(map(tuple, rows.tolist())) == sorted(expected), xla_test


def test_for_each_index_parallel_called_from_multiple_threads():
    """ShapeUtilTest.ForEachIndexParallel_CalledFromMultipleThreads and
    ForEachIndexParallel_CalledTwice. (GetForEachIndexParallelThreadCount
    has no counterpart: no visitor runs on a thread of its own here.)"""
    shape = make("f32", [10, 10])
    results = [None] * 10

    def run(t):
        results[t] = ShapeUtil.indices_in_physical_order(shape)

    threads = [threading.Thread(target=run, args=(t,)) for t in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    expected = np.array([(i, j) for i in range(10) for j in range(10)])
    for rows in results + [ShapeUtil.indices_in_physical_order(shape)]:
        np.testing.assert_array_equal(rows, expected)


# -- layout_util_test.cc -------------------------------------------------------------------


def test_default_layout_getters_major_to_minor():
    """LayoutUtilTest.DefaultLayoutGettersMajorToMinor."""
    assert LayoutUtil.equal(LayoutUtil.make_layout([1, 0]), LayoutUtil.get_default_layout_for_r2())
    assert LayoutUtil.equal(LayoutUtil.make_layout([2, 1, 0]), LayoutUtil.get_default_layout_for_r3())
    assert LayoutUtil.equal(LayoutUtil.make_layout([3, 2, 1, 0]), LayoutUtil.get_default_layout_for_r4())
    for rank in (2, 3, 4):
        assert LayoutUtil.get_default_layout_for_rank(rank) == LayoutUtil.make_layout(range(rank - 1, -1, -1))
    assert LayoutUtil.get_default_layout_for_shape(make("f32", [10, 20, 30, 15, 25])) == Layout([4, 3, 2, 1, 0])


def test_validate_layout_invalid_array_layout():
    """LayoutUtilTest.ValidateLayout_InvalidArrayLayout,
    CopyLayoutBogusLayout and ValidateLayout_TupleSubshapesWithMissingLayouts
    (its invalid sub-layout), in the words of today's XLA ("has N
    dimensions"; the tests' older text says "is rank N"). A shape cannot
    hold a layout of another rank here, so CopyLayoutBogusLayout's source is
    the bogus layout itself; layouts cannot be missing, so the
    missing-layout halves and ValidateLayout_MissingArrayLayout have no
    counterpart."""
    with pytest.raises(ValueError, match="layout minor_to_major field contains 3 elements, but shape has 2 dimensions"):
        LayoutUtil.validate_layout_for_shape(Layout([0, 1, 2]), make("f32", [2, 3]))
    with pytest.raises(ValueError, match="contains 4 elements, but shape has 2 dimensions"):
        LayoutUtil.validate_layout_for_shape(Layout([1, 2, 3, 0]), make("f32", [2, 3]))
    with pytest.raises(ValueError, match="contains 3 elements, but shape has 1 dimensions"):
        Shape("f32", [9], Layout([0, 2, 3]))


@pytest.mark.parametrize(
    "text",
    ["f32[2,3]{1,0:D(D,C)}", "f32[2,3]{0,1:D(D,D,D)}", "f32[2,3]{1,0:D(D,C)T(10,10)}",
     "f32[2,3]{1,0:D(D,C)P(f32[6]{0})}", "f32[2,3]{1,0:D(D,D+)}"],
)
def test_sparse_layout_tests_cannot_be_ported(text):
    """LayoutUtilTest.CopyLayoutCSRArray, ValidateLayout_InvalidDimLevelTypes,
    ValidateLayout_Sparse and layout_test.cc's ToStringForDimensionAttributes,
    ToStringForIndexPrimitiveType, ToStringForPointerPrimitiveType,
    ToStringForPhysicalShape, DimensionIsUniqueByDefault and
    DimensionIsOrderedByDefault build sparse layouts, which xlashape does not
    model: their text is refused by name."""
    with pytest.raises(ValueError, match="sparse layouts are not modelled"):
        P(text)


def test_clear_layout_tuple():
    """LayoutUtilTest.ClearLayoutTuple and ClearLayoutOpaqueAndToken: every
    array carries a layout here, so has_layout holds and ClearLayout is not
    offered."""
    shape = tup([make("f32", [2, 3]), tup([make("f32", []), opaque, token])])
    assert LayoutUtil.has_layout(shape)
    assert not hasattr(LayoutUtil, "clear_layout")


@pytest.mark.parametrize(
    "xla_test, strides, expected",
    [
        ("StridesIsMajorToMinor", [3960, 440, 44, 4], True),
        ("StridesNotMajorToMinorInnerMostStrideIncorrect", [1880, 220, 22, 2], False),
        ("StridesNotMajorToMinor", [1880, 440, 44, 4], False),
    ],
)
def test_byte_strides_is_major_to_minor(xla_test, strides, expected):
    """LayoutUtilTest.StridesIsMajorToMinor and its two negatives."""
    assert LayoutUtil.byte_strides_is_major_to_minor(strides, [8, 9, 10, 11], "f32") is expected, xla_test


def test_byte_strides_is_major_to_minor_matches_numpy_c_order():
    """NumPy's C-contiguous strides are major to minor; its F order's are not
    (for more than one dimension of size > 1)."""
    for dims in ([8, 9, 10, 11], [3, 1, 2], [5], []):
        c = np.zeros(tuple(dims), np.float32)
        assert LayoutUtil.byte_strides_is_major_to_minor(c.strides, dims, "f32")
        assert LayoutUtil.byte_strides_is_major_to_minor(np.zeros(tuple(dims), np.float32, order="F").strides, dims, "f32") == (
            sum(d > 1 for d in dims) < 2
        )
    with pytest.raises(ValueError, match="one stride per dimension"):
        LayoutUtil.byte_strides_is_major_to_minor([4], [2, 3], "f32")


def test_has_custom_element_size_in_bits():
    """LayoutUtilTest.HasCustomElementSizeInBits."""
    assert not LayoutUtil.has_custom_element_size_in_bits(make("f32", [1, 2]))
    assert not LayoutUtil.has_custom_element_size_in_bits(Shape("f32", [1, 2], Layout([1, 0], element_size_in_bits=0)))
    e32 = Shape("f32", [1, 2], Layout([1, 0], element_size_in_bits=32))
    assert LayoutUtil.has_custom_element_size_in_bits(e32)
    plain = tup([tup([make("f32", [1, 2]), make("f32", [1, 2])]), make("f32", [1, 2])])
    assert not LayoutUtil.has_custom_element_size_in_bits(plain)
    assert LayoutUtil.has_custom_element_size_in_bits(tup([tup([make("f32", [1, 2]), e32]), make("f32", [1, 2])]))


def test_max_split_size_and_elements_in_per_split():
    """LayoutUtilTest.MaxSplitSize and MaxElementsInPerSplit."""
    split = Shape("f32", [150, 200, 100], Layout([0, 1, 2], split_configs=[(0, [30]), (1, [40, 130])]))
    assert [LayoutUtil.max_split_size(split, d) for d in range(3)] == [150, 90, 70]
    assert LayoutUtil.max_elements_in_per_split(Shape("f32", [150, 200, 100], Layout([0, 1, 2]))) == 150 * 200 * 100
    assert LayoutUtil.max_elements_in_per_split(split) == 150 * 90 * 70


# -- index_util_test.cc --------------------------------------------------------------------


def test_vector_indexing():
    """IndexUtilTest.VectorIndexing."""
    vector = make("f32", [100])
    assert IndexUtil.multidimensional_index_to_linear_index(vector, [42]) == 42
    assert list(IndexUtil.linear_index_to_multidimensional_index(vector, 42)) == [42]


@pytest.mark.parametrize(
    "xla_test, dims, minor_to_major, index, linear",
    [
        ("MatrixIndexingRowMajor", [10, 20], [0, 1], [0, 0], 0),
        ("MatrixIndexingRowMajor", [10, 20], [0, 1], [9, 19], 199),
        ("MatrixIndexingRowMajor", [10, 20], [0, 1], [3, 5], 53),
        ("MatrixIndexingColumnMajor", [10, 20], [1, 0], [0, 0], 0),
        ("MatrixIndexingColumnMajor", [10, 20], [1, 0], [9, 19], 199),
        ("MatrixIndexingColumnMajor", [10, 20], [1, 0], [3, 5], 65),
        ("ThreeDArrayIndexing210", [10, 20, 30], [2, 1, 0], [3, 5, 7], 1957),
        ("ThreeDArrayIndexing210", [10, 20, 30], [2, 1, 0], [8, 15, 27], 5277),
        ("ThreeDArrayIndexing120", [10, 20, 30], [1, 2, 0], [3, 5, 7], 1945),
        ("ThreeDArrayIndexing120", [10, 20, 30], [1, 2, 0], [8, 15, 27], 5355),
        ("FourDArrayIndexing3210", [10, 20, 30, 40], [3, 2, 1, 0], [3, 5, 7, 9], 78289),
        ("FourDArrayIndexing3210", [10, 20, 30, 40], [3, 2, 1, 0], [8, 15, 27, 33], 211113),
    ],
)
def test_index_util_cases(xla_test, dims, minor_to_major, index, linear):
    """IndexUtilTest.MatrixIndexingRowMajor, MatrixIndexingColumnMajor,
    ThreeDArrayIndexing210, ThreeDArrayIndexing120 and
    FourDArrayIndexing3210 (XLA's test names, whose layouts read the other
    way round), both directions."""
    shape = Shape("f32", dims, Layout(minor_to_major))
    assert IndexUtil.multidimensional_index_to_linear_index(shape, index) == linear, xla_test
    assert list(IndexUtil.linear_index_to_multidimensional_index(shape, linear)) == index


def test_linear_to_multi_to_linear():
    """IndexUtilTest.LinearToMultiToLinear."""
    for order in ([6, 5, 4, 3, 2, 1, 0], [0, 1, 2, 3, 4, 5, 6], [4, 5, 1, 2, 6, 0, 3]):
        shape = Shape("f32", [10, 20, 30, 40, 30, 20, 10], Layout(order))
        for linear in (0, 1439999999, 1145567336, 43883404, 617295214, 1117613654):
            multi = IndexUtil.linear_index_to_multidimensional_index(shape, linear)
            assert IndexUtil.multidimensional_index_to_linear_index(shape, multi) == linear


def test_bump_indices_2x2():
    """IndexUtilTest.BumpIndices2x2."""
    shape, indices = make("s32", [2, 2]), [0, 0]
    for expected in ([0, 1], [1, 0], [1, 1]):
        assert IndexUtil.bump_indices(shape, indices)
        assert indices == expected
    assert not IndexUtil.bump_indices(shape, indices)


# -- layout_test.cc ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "xla_test, layout, text",
    [
        ("ToStringForEmpty", Layout([]), "{}"),
        ("ToStringForMinorToMajorOnly", Layout([1, 2, 0]), "{1,2,0}"),
        ("ToStringForTiles", Layout([3, 2, 1, 0], tiles=[(42, 123), (4, 5)]), "{3,2,1,0:T(42,123)(4,5)}"),
        ("ToStringForTileWithCombinedDimensions",
         Layout([3, 2, 1, 0], tiles=[(Tile.COMBINE, Tile.COMBINE, 42, 123)]), "{3,2,1,0:T(*,*,42,123)}"),
        ("ToStringForTailPaddingAlignment", Layout([3, 2, 1, 0], tail_padding_alignment_in_elements=100),
         "{3,2,1,0:L(100)}"),
        ("ToStringForElementSize", Layout([3, 2, 1, 0], element_size_in_bits=42), "{3,2,1,0:E(42)}"),
        ("ToStringForMemorySpace", Layout([3, 2, 1, 0], memory_space=3), "{3,2,1,0:S(3)}"),
        ("ToStringForSplitConfigs", Layout([0, 1], split_configs=[SplitConfig(0, [3]), SplitConfig(1, [0, 4])]),
         "{0,1:SC(0:3)(1:0,4)}"),
        ("ToStringForDynamicShapeMetadataPrefixBytes", Layout([0, 1], dynamic_shape_metadata_prefix_bytes=123),
         "{0,1:M(123)}"),
        ("ToStringForMutipleProperties",
         Layout([3, 2, 1, 0], tiles=[(42, 123), (4, 5)], element_size_in_bits=42,
                tail_padding_alignment_in_elements=100),
         "{3,2,1,0:T(42,123)(4,5)L(100)E(42)}"),
        ("StreamOut", Layout([0, 1, 2]), "{0,1,2}"),
    ],
)
def test_layout_to_string(xla_test, layout, text):
    """Layout.ToStringFor* and StreamOut (layout_test.cc)."""
    assert str(layout) == text, xla_test
    assert LayoutUtil.human_string(layout) == text


def test_split_config_of_an_empty_first_piece_reads_back():
    """Layout.ToStringForSplitConfigs's layout in a shape: XLA's text reads
    back; sizing a tiled buffer needs the indices to cut pieces."""
    shape = P("f32[8,6]{0,1:T(2,2)SC(0:3)(1:0,4)}")
    assert str(shape.layout) == "{0,1:T(2,2)SC(0:3)(1:0,4)}"
    # physical 0 is dimension 1 (6, cut at 3), physical 1 dimension 0 (8, cut at 0 and 4)
    assert [LayoutUtil.max_split_size(shape, d) for d in range(2)] == [4, 3]
    assert ShapeUtil.byte_size_of(shape) == ShapeUtil.array_size(shape) == 4 * 4 * 4  # T(2,2) over 4 x 3
    with pytest.raises(ValueError, match=r"does not cut physical dimension 1 .* into pieces"):
        ShapeUtil.byte_size_of(P("f32[8,6]{0,1:T(2,2)SC(1:5,4)}"))
    with pytest.raises(ValueError, match=r"names physical dimension 2, but shape .* has 2 dimensions"):
        ShapeUtil.array_size(P("f32[8,6]{0,1:T(2,2)SC(2:1)}"))
    twice = P("f32[8,6]{0,1:T(2,2)SC(0:3)(0:2)}")
    assert LayoutUtil.max_split_size(twice, 1) == 3  # the first, as XLA's loop finds it
    with pytest.raises(ValueError, match=r"split a physical dimension twice: dimensions \[0, 0\]"):
        ShapeUtil.byte_size_of(twice)


def test_stream_out_tile():
    """Layout.StreamOut's tile."""
    assert str(Tile((7, 8))) == "(7,8)"


def test_layout_equality():
    """Layout.Equality, without Layout::Equal's Ignore* switches, which
    xlashape does not offer for layouts (ShapeUtil's comparisons ignore
    whole layouts instead)."""
    assert Layout([]) == Layout(())
    assert Layout([0, 1, 2, 3]) == Layout([0, 1, 2, 3])
    assert Layout([0, 1, 2, 3]) != Layout([0, 1, 2])
    assert Layout([0, 1, 2], tiles=[(42, 44)]) == Layout([0, 1, 2], tiles=[(42, 44)])
    assert Layout([0, 1, 2], tiles=[(42, 44)]) != Layout([0, 1, 2], tiles=[(42, 45)])
    assert Layout([0, 1, 2], tiles=[(42, 44)]) != Layout([0, 1, 2, 3])
    assert Layout([0, 1, 2], element_size_in_bits=33) == Layout([0, 1, 2], element_size_in_bits=33)
    assert Layout([0, 1, 2], element_size_in_bits=33) != Layout([0, 1, 2], element_size_in_bits=7)
    assert Layout([0, 1, 2], memory_space=3) == Layout([0, 1, 2], memory_space=3)
    assert Layout([0, 1, 2], memory_space=1) != Layout([0, 1, 2], memory_space=3)
    assert Layout([0, 1, 2], tiles=[(42, 44)]) != Layout([0, 1, 2])
    assert Layout([0, 1, 2], split_configs=[(0, [2])]) == Layout([0, 1, 2], split_configs=[(0, [2])])
    assert Layout([0, 1, 2], split_configs=[(0, [2])]) != Layout([0, 1, 2], split_configs=[(0, [3])])


def test_layout_to_from_proto():
    """Layout.LayoutToFromProto: no protos here, so pickle is the round trip
    (its sparse cases are not modelled)."""
    for layout in (Layout([]), Layout([1, 3, 2, 0]), Layout([0, 1], element_size_in_bits=42),
                   Layout([3, 2, 1, 0], tiles=[(42, 123), (4, 5)]),
                   Layout([0, 1], tiles=[(123,)], split_configs=[(0, [3]), (1, [0, 4])])):
        assert pickle.loads(pickle.dumps(layout)) == layout


def test_delete_dimension_keeps_the_rest_of_the_order():
    """Layout.DeleteDimensionWorksForDeletingLastDimFromDenseLayout and
    DeleteDimensionWorksForDeletingNonLastDimFromDenseLayout:
    Layout::DeleteDimension is reached through ShapeUtil.delete_dimension
    here; the dim_unique halves, and
    DeleteDimensionWorksForDeletingLastDimFromSparseLayout and
    DeleteDimensionWorksForDeletingNonLastDimFromSparseLayout, are sparse."""
    assert ShapeUtil.delete_dimension(1, P("f32[2,3]{0,1}")).layout == Layout([0])
    assert ShapeUtil.delete_dimension(0, P("f32[2,3]{1,0}")).layout == Layout([0])


# -- shape_test.cc -------------------------------------------------------------------------

MATRIX = make("u32", [1, 2])
MATRIX2 = dense("s32", [3, 4], [0, 1])
TUPLE = tup([opaque, make("f32", []), MATRIX, MATRIX2])
NESTED = tup([TUPLE, MATRIX, token])
DYNAMIC = make("s32", [5, 2], [True, False])
UNBOUNDED_SHAPE = make("f32", [UNBOUNDED, 784], [True, False])


def test_shape_to_string():
    """ShapeTest.ShapeToString and DynamicShapeToString."""
    assert ShapeUtil.human_string(opaque) == "opaque[]" and ShapeUtil.human_string(token) == "token[]"
    assert ShapeUtil.human_string(make("f32", [])) == "f32[]"
    assert ShapeUtil.human_string(MATRIX) == "u32[1,2]" and ShapeUtil.human_string(MATRIX2) == "s32[3,4]"
    assert ShapeUtil.human_string(TUPLE) == "(opaque[], f32[], u32[1,2], s32[3,4])"
    assert ShapeUtil.human_string(NESTED) == "((opaque[], f32[], u32[1,2], s32[3,4]), u32[1,2], token[])"
    assert ShapeUtil.human_string_with_layout(make("f32", [])) == "f32[]"
    assert ShapeUtil.human_string_with_layout(dense("f32", [], [], [(256,)])) == "f32[]{:T(256)}"
    assert ShapeUtil.human_string_with_layout(MATRIX) == "u32[1,2]{1,0}"
    assert ShapeUtil.human_string_with_layout(TUPLE) == "(opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1})"
    assert ShapeUtil.human_string_with_layout(NESTED) == (
        "((opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1}), u32[1,2]{1,0}, token[])"
    )
    assert ShapeUtil.human_string(make("f32", [23, 44, 55], [True, False, True])) == "f32[<=23,44,<=55]"
    assert ShapeUtil.human_string(make("f32", [23, 44, 55], [True, False, False])) == "f32[<=23,44,55]"
    assert ShapeUtil.human_string(UNBOUNDED_SHAPE) == "f32[?,784]"


def test_shape_equality():
    """ShapeTest.EqualityTest, ArrayCtorTreatsEmptyDynamicDimensionsAsAllStatic
    and SupportsAbslHash (Python's hash)."""
    assert dense("f32", [23, 44], [1, 0]) != dense("f32", [23, 44], [0, 1])
    assert dense("f32", [44, 23], [1, 0]) != dense("f32", [23, 44], [1, 0])
    assert dense("s32", [44, 23], [1, 0]) != dense("f32", [23, 44], [1, 0])
    assert dense("f32", [23, 44], [1, 0]) == dense("f32", [23, 44], [1, 0])
    assert Shape("f32", [1, 2, 3], None, ()).is_static
    shapes = [opaque, token, make("f32", []), dense("f32", [], [], [(256,)]), MATRIX, MATRIX2, TUPLE, NESTED, DYNAMIC]
    assert len({hash(s) for s in shapes}) == len(shapes)
    assert all(hash(s) == hash(pickle.loads(pickle.dumps(s))) for s in shapes)


def test_shape_is_static_and_dynamic():
    """ShapeTest.IsStatic, IsDynamic, IsDynamicDimension and
    IsStaticDimension, on arrays (a tuple's are its arrays')."""
    assert MATRIX.is_static and not MATRIX.is_dynamic and not MATRIX.is_unbounded_dynamic
    assert DYNAMIC.is_dynamic and not DYNAMIC.is_unbounded_dynamic
    assert UNBOUNDED_SHAPE.is_dynamic and UNBOUNDED_SHAPE.is_unbounded_dynamic and not UNBOUNDED_SHAPE.is_static
    dynamic_matrix = make("u32", [1, 2], [False, True])
    assert not dynamic_matrix.is_dynamic_dimension(0) and dynamic_matrix.is_dynamic_dimension(1)
    assert dynamic_matrix.is_static_dimension(0) and not dynamic_matrix.is_static_dimension(1)
    assert UNBOUNDED_SHAPE.is_dynamic_dimension(0) and not UNBOUNDED_SHAPE.is_dynamic_dimension(1)
    assert not UNBOUNDED_SHAPE.is_static_dimension(0) and UNBOUNDED_SHAPE.is_static_dimension(1)


def test_delete_dimensions_unordered():
    """ShapeTest.DeleteDimensions and DeleteDimensionsUnordered."""
    shape = dense("f32", [5, 3, 2, 7, 9], [2, 0, 1, 4, 3])
    for doomed in ([1, 2, 3], [3, 1, 2]):
        assert ShapeUtil.delete_dimensions(doomed, shape) == dense("f32", [5, 9], [0, 1])


def test_shape_tests_without_a_counterpart():
    """ShapeTest.Empty, Array, MutationRemovesSharing, Copy, Move,
    ShapeToFromProto, ProgramShapeToFromProto, ProgramShapeToString,
    Fingerprint, FingerprintEmpty, MutationChangesFingerprint and
    AllMutationsChangeFingerprint test uninitialized, mutable, proto-backed
    and program shapes, none of which xlashape has: a Shape is immutable and
    valid once built, which is what is checked here. AreAllLeavesIntegers
    is not offered."""
    shape = Shape("f32", [1, 2, 3])
    with pytest.raises(AttributeError):
        shape._element_type = xs.PrimitiveType.S32
    with pytest.raises(TypeError):
        Shape()  # type: ignore[call-arg]
    assert pickle.loads(pickle.dumps(NESTED)) == NESTED


def test_ignore_splits_comparison():
    """ShapeTest.IgnoreSplitsComparison: xlashape has no IgnoreSplitConfig
    switch; compatible (layouts ignored) is the nearest, and equal tells
    the split apart."""
    shape = dense("f32", [256, 256], [1, 0])
    split = dense("f32", [256, 256], [1, 0], (), 1, 0, 0, [(0, [128])])
    assert ShapeUtil.compatible(shape, split) and not ShapeUtil.equal(shape, split)
    assert isinstance(TUPLE, TupleShape)
