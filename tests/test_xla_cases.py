"""XLA's own cases for ShapeUtil and LayoutUtil, ported as data.

Each case names the test of openxla/xla's ``xla/shape_util_test.cc`` or
``xla/layout_util_test.cc`` it comes from. Shapes are written as XLA's
text; XLA's mutating calls return the new shape here. Where XLA uses an
unbounded size (``?``), which has no buffer and is refused here, a bound
stands in for it.
"""

import itertools

import pytest

from xlashape import Layout, LayoutUtil, Shape, ShapeUtil, Tile

P = ShapeUtil.parse_shape_string


# -- ShapeUtil: (XLA test, call, expected) ---------------------------------------
SHAPE_UTIL_CASES = [
    ("MoveDimToMajor", lambda: ShapeUtil.move_dim_to_major(P("f32[10,10,10]"), 0), P("f32[10,10,10]")),
    ("MoveDimToMajor", lambda: ShapeUtil.move_dim_to_major(P("f32[10,10,10]"), 1), P("f32[10,10,10]{2,0,1}")),
    ("MoveDimToMajor", lambda: ShapeUtil.move_dim_to_major(P("f32[10,10,10]{0,2,1}"), 0), P("f32[10,10,10]{2,1,0}")),
    ("MoveDimToMajor",
     lambda: ShapeUtil.move_dim_to_major(P("(f32[10,10,10], f32[10,10,10]{0,2,1})"), 0),
     P("(f32[10,10,10], f32[10,10,10]{2,1,0})")),
    ("DeleteDimensions", lambda: ShapeUtil.delete_dimensions([1], P("f32[5,3,2]{2,0,1}")), P("f32[5,2]{1,0}")),
    ("DeleteDimensionsUnsorted",
     lambda: ShapeUtil.delete_dimensions([1, 2, 3], P("f32[5,3,2,7,9]{2,0,1,4,3}")), P("f32[5,9]{0,1}")),
    ("DeleteDimensionsUnsorted",
     lambda: ShapeUtil.delete_dimensions([3, 2, 1], P("f32[5,3,2,7,9]{2,0,1,4,3}")), P("f32[5,9]{0,1}")),
    ("AppendMinorDimension", lambda: ShapeUtil.append_minor_dimension(40, P("f32[10,20,30]")),
     P("f32[10,20,30,40]")),
    ("AppendMinorDimension", lambda: ShapeUtil.append_minor_dimension(40, P("f32[10,20,30]{2,1,0}")),
     P("f32[10,20,30,40]{3,2,1,0}")),
    ("AppendMinorDimension", lambda: ShapeUtil.append_minor_dimension(40, P("f32[10,20,30]{0,2,1}")),
     P("f32[10,20,30,40]{3,0,2,1}")),
    ("MakeShapeWithDescendingLayoutAndSamePhysicalLayout",
     lambda: ShapeUtil.make_shape_with_descending_layout_and_same_physical_layout(
         P("f32[128,24,4,48,48]{2,4,3,1,0}")),
     P("f32[128,24,48,48,4]{4,3,2,1,0}")),
    ("MakeShapeWithDescendingLayoutAndSamePhysicalLayoutWithDynamicDims",
     lambda: ShapeUtil.make_shape_with_descending_layout_and_same_physical_layout(
         P("f32[128,24,<=4,48,48]{2,4,3,1,0}")),
     P("f32[128,24,48,48,<=4]{4,3,2,1,0}")),
    ("DeduceTransposeDimensionsForBitcast",
     lambda: ShapeUtil.deduce_transpose_dimensions_for_bitcast(P("f32[5,3]{1,0}"), P("f32[3,5]{0,1}")), [1, 0]),
    ("DeduceTransposeDimensionsForBitcastNegative",
     lambda: ShapeUtil.deduce_transpose_dimensions_for_bitcast(P("f32[5,3]{1,0}"), P("f32[3,5]{1,0}")), None),
    ("DecomposeBitcastToTranspose",  # its transpose, found by DeduceTransposeDimensionsForBitcast
     lambda: ShapeUtil.deduce_transpose_dimensions_for_bitcast(
         P("f32[3,7,6,4]{3,2,1,0}"), P("f32[3,6,4,7]{2,1,3,0}")), [0, 2, 3, 1]),
    ("DimensionsUnmodifiedByReshape_1x1x1x1_to_1x1x1",
     lambda: ShapeUtil.dimensions_unmodified_by_reshape(P("s32[1,1,1,1]"), P("s32[1,1,1]")),
     [(0, 0), (1, 1), (2, 2)]),
    ("DimensionsUnmodifiedByReshape_1x1x1_to_1x1x1x1",
     lambda: ShapeUtil.dimensions_unmodified_by_reshape(P("s32[1,1,1]"), P("s32[1,1,1,1]")),
     [(0, 0), (1, 1), (2, 2)]),
    ("DimensionsUnmodifiedByReshape_4x1x3x5x6x7_to_2x6x1x5x1x42",
     lambda: ShapeUtil.dimensions_unmodified_by_reshape(P("s32[4,1,3,5,6,7]"), P("s32[2,6,1,5,1,42]")),
     [(3, 3)]),
    ("InsertedOrDeleted1SizedDimensions",
     lambda: ShapeUtil.inserted_or_deleted_1_sized_dimensions(P("s32[9,1,4]"), P("s32[1,9,4,1]")) is not None,
     True),
    ("InsertedOrDeleted1SizedDimensions",
     lambda: ShapeUtil.inserted_or_deleted_1_sized_dimensions(P("s32[9,1,4]"), P("s32[3,1,12]")), None),
    ("ReshapeIsBitcast_3x2x2_6x2_Dim1IsMostMinor",
     lambda: ShapeUtil.reshape_is_bitcast(P("f32[3,2,2]{1,0,2}"), P("f32[6,2]{0,1}")), True),
    ("ReshapeIsBitcast_3x2x2_6x2_Dim0IsMostMinor",
     lambda: ShapeUtil.reshape_is_bitcast(P("f32[3,2,2]{0,1,2}"), P("f32[6,2]{0,1}")), False),
    ("ReshapeIsBitcastIgnoreElementType",
     lambda: ShapeUtil.reshape_is_bitcast(P("f32[3,2,2]{1,0,2}"), P("f16[6,2]{0,1}"), ignore_element_type=True),
     True),
    ("ReshapeIsBitcastIgnoreElementType",
     lambda: ShapeUtil.reshape_is_bitcast(P("f32[3,2,2]{1,0,2}"), P("f16[6,2]{0,1}")), False),
    ("TransposeIsBitcastIgnoreElementType",
     lambda: ShapeUtil.transpose_is_bitcast(P("f32[10,5]{1,0}"), P("f16[5,10]{0,1}"), [1, 0],
                                            ignore_element_type=True), True),
    ("TransposeIsBitcastIgnoreElementType",
     lambda: ShapeUtil.transpose_is_bitcast(P("f32[10,5]{1,0}"), P("f16[5,10]{0,1}"), [1, 0]), False),
    ("IsReshapeOrTransposeBitcast",
     lambda: ShapeUtil.is_reshape_or_transpose_bitcast(P("f32[10,5]{1,0}"), P("f32[5,10]{0,1}")), True),
    ("DecomposeBitcastToReshape",  # a reshape bitcast, so IsReshapeOrTransposeBitcast holds
     lambda: ShapeUtil.is_reshape_or_transpose_bitcast(P("f32[1,16,17,3]{3,2,1,0}"), P("f32[16,51]{1,0}")),
     True),
    ("DecomposeBitcastToReshape2",
     lambda: ShapeUtil.is_reshape_or_transpose_bitcast(P("f32[17,3,1,16]{1,0,3,2}"), P("f32[51,16]{0,1}")),
     True),
    ("DecomposeBitcastToReshapeAndTranspose",  # needs both: neither alone
     lambda: ShapeUtil.is_reshape_or_transpose_bitcast(P("f32[16,17,3]{2,1,0}"), P("f32[51,16]{0,1}")), False),
    ("HasDegenerateDimensions", lambda: ShapeUtil.has_degenerate_dimensions(P("f32[3,1,2]")), True),
    ("HasDegenerateDimensions", lambda: ShapeUtil.has_degenerate_dimensions(P("f32[3,1,1]")), True),
    ("HasDegenerateDimensions", lambda: ShapeUtil.has_degenerate_dimensions(P("f32[3,3,5]")), False),
    ("HasDegenerateDimensions", lambda: ShapeUtil.has_degenerate_dimensions(P("f32[3,0,5]")), False),
    ("Int4ShapeSize", lambda: ShapeUtil.array_size(P("s4[64,128]{1,0:E(4)}")), 64 * 128 // 2),
    ("Int4ShapeSize", lambda: ShapeUtil.array_size(P("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}")), 9216 * 6144 // 2),
    ("Int4ShapeSize",
     lambda: ShapeUtil.change_element_type(P("s4[64,128]{1,0:E(4)}"), "pred").layout.element_size_in_bits, 0),
    ("Int4ShapeSize",
     lambda: ShapeUtil.change_element_type(P("s4[64,128]{1,0:E(4)}"), "u8").layout.element_size_in_bits, 0),
    ("Int4ShapeSize",
     lambda: ShapeUtil.change_element_type(P("s4[64,128]{1,0:E(4)}"), "u4").layout.element_size_in_bits, 4),
    ("ByteSizeOfWithoutPadding", lambda: ShapeUtil.byte_size_of_primitive_type("f32"), 4),
    ("ByteSizeOfWithoutPadding", lambda: ShapeUtil.byte_size_of_primitive_type("f64"), 8),
    ("ByteSizeOfWithoutPadding", lambda: ShapeUtil.byte_size_of_primitive_type("c64"), 8),
    ("ByteSizeOfWithoutPadding", lambda: ShapeUtil.byte_size_of_primitive_type("token"), 0),
    ("ByteSizeOfWithoutPadding", lambda: ShapeUtil.byte_size_of_elements(P("f32[10,20]")), 800),
    ("ByteSizeOfWithoutPadding", lambda: ShapeUtil.byte_size_of_elements(P("f64[]")), 8),
    ("ByteSizeOfWithoutPadding", lambda: ShapeUtil.byte_size_of_elements(P("c64[10,20]")), 1600),
    ("EqualIgnoringElementType",
     lambda: ShapeUtil.equal_ignoring_element_type(P("f32[4,3]{0,1}"), P("f16[4,3]{0,1}")), True),
    ("EqualIgnoringElementType",
     lambda: ShapeUtil.equal_ignoring_element_type(P("s32[4,3]{0,1}"), P("f16[4,3]{0,1}")), True),
    ("EqualIgnoringElementType",
     lambda: ShapeUtil.equal_ignoring_element_type(P("f32[4,3]{0,1}"), P("pred[4,3]{0,1}")), True),
    ("UnequalIgnoringElementType",
     lambda: ShapeUtil.equal_ignoring_element_type(P("f32[4,3]{0,1}"), P("f16[3,4]{0,1}")), False),
    ("UnequalIgnoringElementType",
     lambda: ShapeUtil.equal_ignoring_element_type(P("f32[3,4]{0,1}"), P("f16[3,4]{1,0}")), False),
    ("IncompatibleTuplesWithSwappedElements",
     lambda: ShapeUtil.compatible_ignoring_element_type(P("(pred[4,5], f32[3,2])"), P("(f32[3,2], pred[4,5])")),
     False),
    ("IncompatibleTuplesWithDifferentPrimitiveType",
     lambda: ShapeUtil.compatible_ignoring_element_type(P("(pred[4,5], f32[3,2])"), P("(pred[4,5], s32[3,2])")),
     True),
    ("IncompatibleScalarVsTuple",
     lambda: ShapeUtil.compatible_ignoring_element_type(P("f32[]"), P("(f32[3,2], u32[])")), False),
    ("IncompatibleScalarVsTuple",
     lambda: ShapeUtil.compatible_ignoring_element_type(P("(f32[3,2], u32[])"), P("f32[]")), False),
    ("OpaqueVsArray", lambda: ShapeUtil.compatible_ignoring_element_type(P("f32[5,7]"), P("opaque[]")), False),
    ("OpaqueVsArray", lambda: ShapeUtil.compatible_ignoring_element_type(P("opaque[]"), P("f32[5,7]")), False),
    ("CompatibleDynamicShapes",  # layouts and dynamic flags are ignored
     lambda: ShapeUtil.compatible_ignoring_element_type(P("f32[<=4,3]{1,0}"), P("s8[4,<=3]{0,1}")), True),
    ("GetSubshape", lambda: ShapeUtil.get_subshape(P("f32[42,42,123]"), ()), P("f32[42,42,123]")),
    ("GetSubshape",
     lambda: ShapeUtil.get_subshape(P("(f32[1], (f32[2], f32[3]), ((f32[4], f32[5]), f32[6]))"), (2, 0)),
     P("(f32[4], f32[5])")),
    ("GetSubshape",
     lambda: ShapeUtil.get_subshape(P("(f32[1], (f32[2], f32[3]), ((f32[4], f32[5]), f32[6]))"), (1,)),
     P("(f32[2], f32[3])")),
]

# ElementsIn and IsZeroElementArray: (dimensions, elements).
ELEMENT_COUNTS = [
    ((), 1), ((0,), 0), ((1,), 1), ((1, 1), 1), ((2,), 2), ((2, 1), 2), ((3, 5), 15),
    ((3, 0, 5), 0), ((0, 3, 0), 0), ((1, 3, 5), 15), ((13, 17), 221),
]


@pytest.mark.parametrize("xla_test, call, expected", SHAPE_UTIL_CASES, ids=[c[0] for c in SHAPE_UTIL_CASES])
def test_shape_util_case(xla_test, call, expected):
    assert call() == expected


@pytest.mark.parametrize("dimensions, elements", ELEMENT_COUNTS)
def test_elements_in_and_is_zero_element_array(dimensions, elements):
    # XLA tests ElementsIn and IsZeroElementArray.
    shape = Shape("s32", dimensions)
    assert ShapeUtil.elements_in_recursive(shape) == elements
    assert ShapeUtil.elements_in_recursive(ShapeUtil.make_tuple_shape([shape, shape])) == 2 * elements
    assert ShapeUtil.is_zero_element_array(shape) == (elements == 0)
    assert not ShapeUtil.is_zero_element_array(ShapeUtil.make_tuple_shape([shape]))


def test_is_zero_element_array_of_tuples():
    # XLA test IsZeroElementArray: never a tuple.
    assert not ShapeUtil.is_zero_element_array(P("()"))
    assert not ShapeUtil.is_zero_element_array(P("(s32[0,3,0])"))


@pytest.mark.parametrize("dimensions", [(3, 0, 5), (0, 64, 128), (128, 0, 64), (63, 127, 0)])
def test_zero_size(dimensions):
    # XLA test XlaShapeUtilTest.ZeroSize.
    shape = Shape("s4", dimensions, Layout(range(len(dimensions) - 1, -1, -1), element_size_in_bits=4))
    assert ShapeUtil.array_size(shape) == 0


@pytest.mark.parametrize("layout", list(itertools.permutations(range(3))))
def test_permute_dimensions_layout(layout):
    # XLA test PermuteDimensionsLayout: every layout and permutation.
    shape = Shape("f32", (10, 100, 1000), Layout(layout))
    for permutation in itertools.permutations(range(3)):
        permuted = ShapeUtil.permute_dimensions(permutation, shape)
        assert ShapeUtil.transpose_is_bitcast(shape, permuted, permutation)


def test_permute_dynamic_dimensions():
    # XLA test PermuteDynamicDimensions.
    shape = Shape("f32", (10, 100, 1000), dynamic_dimensions=(False, True, True))
    for permutation in itertools.permutations(range(3)):
        permuted = ShapeUtil.permute_dimensions(permutation, shape)
        assert permuted.dimensions == tuple(shape.dimensions[p] for p in permutation)
        assert permuted.dynamic_dimensions == tuple(shape.dynamic_dimensions[p] for p in permutation)


@pytest.mark.parametrize("input_order, output_order", list(itertools.product([(1, 0), (0, 1)], repeat=2)))
def test_reshape_is_bitcast_3x4_6x2(input_order, output_order):
    # XLA test ReshapeIsBitcast_3x4_6x2.
    result = ShapeUtil.reshape_is_bitcast(Shape("f32", (3, 4), Layout(input_order)),
                                          Shape("f32", (6, 2), Layout(output_order)))
    assert result == (input_order == output_order == (1, 0))


# AlignmentTest.*: (test, input, output dimensions, expected minor_to_major or None).
ALIGNMENTS = [
    ("AlignLayoutsWithoutTrivialDimensions", "f32[3,8,5,7,11]{3,2,1,0,4}", (4, 3, 2, 7, 5, 11), (4, 3, 2, 1, 0, 5)),
    ("AlignLayoutsWithoutTrivialDimensions", "f32[3,8,5,7,11]{3,2,1,0,4}", (3, 2, 4, 35, 11), (3, 2, 1, 0, 4)),
    ("AlignLayoutsWithTrivialDimensions", "f32[1,3,8,1,5,7,1,11,1,1]{5,0,4,2,1,3,6,7,9,8}",
     (1, 4, 1, 3, 2, 7, 5, 11, 1), "bitcast"),
    ("AlignLayoutsWithAllTrivialDimensions", "f32[1,1,1,1]{0,1,3,2}", (1, 1, 1, 1, 1), "bitcast"),
    ("AlignLayoutsWithoutTrivialDimensionsWrongInputLayout", "f32[3,8,5,7,11]{2,3,1,0,4}", (4, 3, 2, 7, 5, 11), None),
    ("AlignLayoutsWithoutTrivialDimensionsNonConsecutiveAlignmentPart", "f32[3,8,5,7,11]{3,2,1,0,4}",
     (4, 3, 2, 5, 77), None),
]


@pytest.mark.parametrize("xla_test, source, dimensions, expected", ALIGNMENTS, ids=[a[0] for a in ALIGNMENTS])
def test_align_layouts(xla_test, source, dimensions, expected):
    shape = P(source)
    aligned = ShapeUtil.align_layouts(shape, Shape("f32", dimensions))
    if expected is None:
        assert aligned is None
        return
    assert aligned is not None and aligned.dimensions == dimensions
    assert ShapeUtil.reshape_is_bitcast(shape, aligned)
    if expected != "bitcast":
        assert aligned.layout.minor_to_major == expected


def test_insert_or_delete_descriptor():
    # XLA test InsertedOrDeleted1SizedDimensions, with the dimensions spelled out.
    found = ShapeUtil.inserted_or_deleted_1_sized_dimensions(P("s32[9,1,4]"), P("s32[1,9,4,1]"))
    assert found is not None
    assert (found.deleted_dimensions, found.inserted_dimensions) == ([1], [0, 3])


def test_sub_shapes():
    # XLA tests GetSubshape, IsLeafIndex and ForEachSubshapeNestedTuple.
    nested = P("(f32[1], (f32[2], f32[3]), ((f32[4], f32[5]), f32[6]))")
    leaves = [leaf.index for leaf in ShapeUtil.get_leaf_shapes(nested)]
    assert leaves == [(0,), (1, 0), (1, 1), (2, 0, 0), (2, 0, 1), (2, 1)]
    assert ShapeUtil.get_leaf_count(nested) == 6 and ShapeUtil.get_leaf_count(P("f32[2]")) == 1
    visits = []
    shape = P("(f32[42], (f32[101], pred[33]))")
    ShapeUtil.for_each_subshape(shape, lambda s, i: visits.append((s, i)))
    assert len(visits) == 5 and visits[0] == (shape, ())
    assert all(ShapeUtil.get_subshape(shape, i) == s for s, i in visits)
    assert ShapeUtil.elements_in_recursive(visits[4][0]) == 33


# ForEachIndex: (dimensions, invocations).
FOR_EACH_INDEX = [((), 1), ((0,), 0), ((16,), 16), ((3, 0), 0), ((0, 2), 0), ((4, 16), 64),
                  ((6, 11, 17), 1122), ((6, 11, 5, 17), 5610)]


@pytest.mark.parametrize("dimensions, invocations", FOR_EACH_INDEX)
def test_for_each_index(dimensions, invocations):
    visited = []
    shape = Shape("f32", dimensions)
    ShapeUtil.for_each_index(shape, [0] * len(dimensions), dimensions, [1] * len(dimensions), visited.append)
    assert len(visited) == invocations


# ForEachIndexParallel_*, run in order: (test, shape, base, count, incr, visited).
FOR_EACH_INDEX_REGIONS = [
    ("ForEachIndexParallel_DimensionPinnedWithZeros", (2, 2), (1, 0), (0, 2), (0, 1), [(1, 0), (1, 1)]),
    ("ForEachIndexParallel_WithSkips", (10, 10), (2, 3), (3, 1), (2, 1), [(2, 3), (4, 3)]),
    ("ForEachIndexParallel_WithOddIncr", (10, 10), (0, 0), (10, 10), (3, 3),
     [(i, j) for i in range(0, 10, 3) for j in range(0, 10, 3)]),
    ("ForEachIndexParallel_Scalar", (), (), (), (), [()]),
    ("ForEachIndexParallel_Empty", (2, 0), (0, 0), (2, 0), (1, 1), []),
]


@pytest.mark.parametrize("xla_test, dims, base, count, incr, visited", FOR_EACH_INDEX_REGIONS,
                         ids=[r[0] for r in FOR_EACH_INDEX_REGIONS])
def test_for_each_index_regions(xla_test, dims, base, count, incr, visited):
    seen = []
    ShapeUtil.for_each_index(Shape("f32", dims), base, count, incr, seen.append)
    assert seen == visited  # row-major shapes: the last dimension fastest


def test_for_each_index_stops_when_the_visitor_returns_false():
    # XLA test ForEachIndexWithStatus stops at the fifth call (there with an error).
    seen = []
    ShapeUtil.for_each_index(Shape("f32", (10, 10)), None, None, None, lambda i: seen.append(i) or len(seen) < 5)
    assert seen == [(0, j) for j in range(5)]


# -- LayoutUtil -------------------------------------------------------------------
def test_tuple_layout_comparison():
    # XLA test TupleLayoutComparison.
    shape, other = P("(f32[2,3]{0,1})"), P("(f32[2,2]{0,1})")
    tuple0, tuple1, tuple2 = P("()"), ShapeUtil.make_tuple_shape([shape]), ShapeUtil.make_tuple_shape([shape, shape])
    equal = LayoutUtil.layouts_in_shapes_equal
    assert equal(tuple0, tuple0) and equal(tuple1, tuple1) and equal(tuple2, tuple2)
    for a, b in [(tuple0, tuple1), (tuple0, tuple2), (tuple1, tuple2)]:
        assert not equal(a, b) and not equal(b, a)
    other_tuple2 = ShapeUtil.make_tuple_shape([shape, other])
    assert equal(tuple2, other_tuple2) and equal(other_tuple2, tuple2)


COPY_LAYOUTS = [
    ("CopyLayoutDenseArray", "f32[2,3]{0,1}", "f32[2,3]{1,0}"),
    ("CopyLayoutTuple", "(f32[2,3]{0,1}, f32[42,123]{1,0}, (f32[], f32[1,2,3]{0,2,1}))",
     "(f32[2,3]{1,0}, f32[42,123]{1,0}, (f32[], f32[1,2,3]{1,2,0}))"),
    ("CopyLayoutNotCompatibleSameRank", "f32[123,42,7]{2,0,1}", "f32[2,3,5]"),
    ("CopyTokenLayout", "token[]", "token[]"),
    ("CopyOpaqueLayout", "opaque[]", "opaque[]"),
    ("CopyTupleLayoutWithTokenAndOpaque",
     "(f32[2,3]{0,1}, f32[42,123]{1,0}, token[], (opaque[], f32[], f32[1,2,3]{0,2,1}))",
     "(f32[2,3]{1,0}, f32[42,123]{1,0}, token[], (opaque[], f32[], f32[1,2,3]{1,2,0}))"),
]


@pytest.mark.parametrize("xla_test, src, dst", COPY_LAYOUTS, ids=[c[0] for c in COPY_LAYOUTS])
def test_copy_layout(xla_test, src, dst):
    copied = LayoutUtil.copy_layout_between_shapes(P(src), P(dst))
    assert LayoutUtil.layouts_in_shapes_equal(P(src), copied)
    assert ShapeUtil.compatible_ignoring_element_type(copied, P(dst))


@pytest.mark.parametrize("xla_test, src, dst", [
    ("CopyLayoutNotCompatibleDifferentRank", "f32[123,42,7]{2,0,1}", "f32[2,3]{1,0}"),
    ("CopyLayoutNotCompatibleTuple", "(f32[2,3]{0,1}, f32[42,123]{1,0}, (f32[1,2,3]{0,2,1}))",
     "(f32[2,3]{1,0}, f32[42,123]{1,0}, (f32[], f32[1,2,3]{1,2,0}))"),
])
def test_copy_layout_refused(xla_test, src, dst):
    with pytest.raises(ValueError, match="cannot copy layout from shape"):
        LayoutUtil.copy_layout_between_shapes(P(src), P(dst))


def test_set_to_default_layout_tuple():
    # XLA test SetToDefaultLayoutTuple.
    shape = P("(f32[2,3,4]{1,0,2}, f32[42,123,7]{1,2,0}, (f32[], f32[1,2,3,4]{3,1,2,0}))")
    reset = LayoutUtil.get_with_default_layout(shape)
    assert reset[0].layout == reset[1].layout == LayoutUtil.get_default_layout_for_shape(reset[0])
    assert reset[2][1].layout == Layout((3, 2, 1, 0))


@pytest.mark.parametrize("rank, descending", [(5, (4, 3, 2, 1, 0)), (1, (0,)), (0, ())])
def test_make_descending_and_ascending(rank, descending):
    # XLA tests MakeDescending and MakeAscending.
    assert LayoutUtil.make_descending_layout(rank) == Layout(descending)
    assert LayoutUtil.make_ascending_layout(rank) == Layout(descending[::-1])


def test_layout_move_dim_to_major():
    # XLA test LayoutUtilTest.MoveDimToMajor.
    layout = Layout((2, 1, 0))
    assert LayoutUtil.move_dim_to_major(layout, 0) == layout
    assert LayoutUtil.move_dim_to_major(layout, 1) == Layout((2, 0, 1))


def test_validate_layout_in_shape():
    # XLA test ValidateLayout_ValidArrayLayout (an invalid one cannot be built here).
    LayoutUtil.validate_layout_in_shape(P("f32[2,3]{0,1}"))


def test_opaque_and_token_have_layouts():
    # XLA test ClearLayoutOpaqueAndToken: they trivially have layouts.
    assert LayoutUtil.has_layout(P("opaque[]")) and LayoutUtil.has_layout(P("token[]"))


def test_linear_index_with_and_without_tiles():
    # XLA test LinearIndexWithAndWithoutTiles: element 13 of f32[8,4] lies at
    # 11 tiled by (2,2) and at 13 untiled.
    shape = Shape("f32", (8, 4), Layout((1, 0), tiles=[Tile((2, 2))]))
    assert LayoutUtil.linear_index(shape, (3, 1)) == 11
    assert LayoutUtil.linear_index(LayoutUtil.clear_tiles(shape), (3, 1)) == 13
