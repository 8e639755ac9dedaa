"""Issue 22, items 1-6: XLA's call order and attributes, tuples that compare,
the text XLA refuses, padded text that reads back, and today's names.

XLA's strings and calls are used verbatim, each beside the XLA test it comes
from (xla/hlo/parser/hlo_parser_test.cc, xla/shape_util_test.cc,
xla/layout_test.cc, xla/shape_test.cc).
"""

import inspect
import math
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import shapes

import xlashape as xs
from xlashape import (
    Layout,
    LayoutUtil,
    NonArrayShape,
    PaddingValue,
    Shape,
    ShapeUtil,
    SplitConfig,
    Tile,
    TupleShape,
)
from xlashape.reference import linear_index_of

parse = ShapeUtil.parse_shape_string
dense = ShapeUtil.make_shape_with_dense_layout


# -- item 1: XLA's call order ---------------------------------------------------------


def test_dense_layout_parameters_are_xlas_order():
    """xla/shape_util.h MakeShapeWithDenseLayout(element_type, dimensions,
    minor_to_major, tiles, tail_padding_alignment_in_elements,
    element_size_in_bits, memory_space, split_configs)."""
    names = list(inspect.signature(dense).parameters)
    assert names == [
        "element_type", "dimensions", "minor_to_major", "tiles",
        "tail_padding_alignment_in_elements", "element_size_in_bits", "memory_space",
        "split_configs",
    ]


@pytest.mark.parametrize(
    "source, call, text",
    [
        # The issue's call: before, E(1) S(4), with no error.
        ("ParseShapeStringWithElementSizeInBits",
         ("s4", [123, 456], [1, 0], [(2, 128)], 1, 4), "s4[123,456]{1,0:T(2,128)E(4)}"),
        ("ParseShapeStringWithMemorySpaceLayout",
         ("pred", [123, 456], [1, 0], [(2, 128)], 1, 0, 3), "pred[123,456]{1,0:T(2,128)S(3)}"),
        ("ParseShapeStringWithMemorySpaceLayout",
         ("pred", [123, 456], [1, 0], [], 1, 0, 3), "pred[123,456]{1,0:S(3)}"),
        ("ParseShapeStringWithSplitConfigLayout",
         ("pred", [123, 456], [1, 0], [(2, 128)], 1, 0, 3, [SplitConfig(1, [200])]),
         "pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}"),
        ("ParseShapeStringWithSplitConfigLayout",
         ("pred", [123, 456], [1, 0], [], 1, 0, 3, [SplitConfig(0, [10]), SplitConfig(1, [4, 5])]),
         "pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}"),
        ("ParseShapeStringWithSplitConfigLayout",
         ("pred", [123, 456], [1, 0], [], 1, 0, 0, [SplitConfig(1, [50, 200])]),
         "pred[123,456]{1,0:SC(1:50,200)}"),
    ],
)
def test_xla_positional_calls_mean_what_they_mean_in_xla(source, call, text):
    """hlo_parser_test.cc: each test builds its expected shape with this
    positional MakeShapeWithDenseLayout call and parses this string."""
    shape = dense(*call)
    assert str(shape) == text
    assert parse(text) == shape


def test_element_size_of_the_types_own_width_is_stored_as_zero():
    # MakeShapeWithLayoutInternal: "Only set element_size_in_bits if it's
    # different from the default value."
    assert dense("f32", [2], [0], (), 1, 32) == Shape("f32", [2])


@pytest.mark.parametrize("bits, packs", [(1, False), (3, False), (4, True), (8, True), (9, False), (32, False)])
def test_any_element_size_builds_and_buffers_refuse_what_they_cannot_hold(bits, packs):
    """XLA's ValidateLayoutForShape refuses only a negative element size
    (xla/layout_util.cc), so every size builds, parses and validates; a
    buffer refuses, when one is made, a size it cannot hold."""
    shape = dense("s4", [123, 456], [1, 0], [(2, 128)], 1, bits)
    assert shape.layout.element_size_in_bits == (0 if bits == 8 else bits)
    assert parse(f"s4[123,456]{{1,0:T(2,128)E({bits})}}").layout.element_size_in_bits == bits
    LayoutUtil.validate_layout_for_shape(Layout([1, 0], element_size_in_bits=bits), Shape("s4", [123, 456]))
    flat = Shape("s4", [6], Layout([0], element_size_in_bits=bits))
    if packs:
        xs.to_linear(np.arange(6, dtype=np.int8), flat)
        return
    with pytest.raises(ValueError, match=f"stores s4 elements in {bits} bits; buffers pack only"):
        xs.to_linear(np.arange(6, dtype=np.int8), flat)


def test_pred_with_a_32_bit_element_size_builds_and_prints():
    """LayoutUtilTest.HumanStringWithTiling (xla/layout_util_test.cc) prints
    pred[8,8,8]{0,2,1:T(8,128)E(32)} and pred[8,8,8]{0,2,1:E(32)}."""
    tiled = dense("pred", [8, 8, 8], [0, 2, 1], [(8, 128)], 1, 32)
    assert ShapeUtil.human_string_with_layout(tiled) == "pred[8,8,8]{0,2,1:T(8,128)E(32)}"
    untiled = dense("pred", [8, 8, 8], [0, 2, 1], (), 1, 32)
    assert ShapeUtil.human_string_with_layout(untiled) == "pred[8,8,8]{0,2,1:E(32)}"
    assert parse("pred[8,8,8]{0,2,1:E(32)}") == untiled
    assert ShapeUtil.byte_size_of(untiled) == 512 * 4
    with pytest.raises(ValueError, match="stores pred elements in 32 bits"):
        xs.from_linear(np.zeros(2048, np.uint8), untiled)


def test_pred_packs_into_one_bit():
    assert ShapeUtil.byte_size_of(parse("pred[9]{0:E(1)}")) == 2


def test_optional_arguments_without_an_xla_order_are_keyword_only():
    """MakeShapeWithLayout (2017) took nothing after minor_to_major, and
    MakeLayout takes the sparse dim_level_types there: a positional ported
    call must fail, not read its tiles or level types as padded widths."""
    with pytest.raises(TypeError):
        ShapeUtil.make_shape_with_layout("f32", [2, 3], [0, 1], [3, 5])  # type: ignore[misc]
    with pytest.raises(TypeError):
        LayoutUtil.make_layout([1, 0], [4, 8])  # type: ignore[misc]
    assert LayoutUtil.make_layout(
        [1, 0], tiles=[(8, 128)], tail_padding_alignment_in_elements=2,
        split_configs=[(0, [4])], dynamic_shape_metadata_prefix_bytes=8,
    ) == parse("f32[16,256]{1,0:T(8,128)L(2)SC(0:4)M(8)}").layout


# -- item 2: tuples, tokens and opaque shapes -----------------------------------------

PAIR = "(f32[3,2], pred[4,5])"


@pytest.mark.parametrize(
    "source, lhs, rhs, compatible, equal",
    [
        # shape_util_test.cc CompatibleTuples (the issue's pair)
        ("CompatibleTuples", PAIR, PAIR, True, True),
        ("CompatibleTuples", PAIR, "(f32[3,2]{0,1}, pred[4,5])", True, False),
        ("IncompatibleTuplesWithSwappedElements",
         "(pred[4,5], f32[3,2])", "(f32[3,2], pred[4,5])", False, False),
        ("IncompatibleTuplesWithDifferentPrimitiveType",
         "(pred[4,5], f32[3,2])", "(pred[4,5], s32[3,2])", False, False),
        ("IncompatibleTuplesWithDifferentDimensions",
         "(pred[4,5], f32[3,2])", "(pred[4,5], f32[4,2])", False, False),
        ("IncompatibleScalarVsTuple", "f32[]", "(f32[3,2], u32[])", False, False),
        ("OpaqueVsArray", "f32[5,7]", "opaque[]", False, False),
        ("(tokens and opaque values by kind)", "token[]", "token[]", True, True),
        ("(tokens and opaque values by kind)", "token[]", "opaque[]", False, False),
        ("(nested)", "((f32[2], token[]), s8[])", "((f32[2]{0}, token[]), s8[])", True, True),
    ],
)
def test_comparisons_take_every_kind_of_shape(source, lhs, rhs, compatible, equal):
    a, b = parse(lhs), parse(rhs)
    for x, y in ((a, b), (b, a)):
        assert ShapeUtil.compatible(x, y) is compatible, source
        assert ShapeUtil.equal(x, y) is equal, source


def test_comparisons_read_text_and_refuse_what_is_not_a_shape():
    assert ShapeUtil.compatible(parse(PAIR), PAIR) and ShapeUtil.equal(PAIR, parse(PAIR))
    with pytest.raises(TypeError, match="rhs must be a Shape, TupleShape or NonArrayShape, got bytes"):
        ShapeUtil.compatible(parse(PAIR), b"f32[3,2]")


def test_layout_util_takes_tuples_tokens_and_opaque_shapes():
    # LayoutUtil::GetDefaultLayoutForShape: "Opaque and token types have empty layouts."
    assert LayoutUtil.get_default_layout_for_shape(NonArrayShape("token")) == Layout(())
    # LayoutUtil::ValidateLayoutForShape
    with pytest.raises(ValueError, match="a single Layout is not valid for tuple shapes"):
        LayoutUtil.validate_layout_for_shape(Layout([0]), parse(PAIR))
    with pytest.raises(ValueError, match="should not have a non-trivial layout"):
        LayoutUtil.validate_layout_for_shape(Layout([0]), NonArrayShape("opaque"))
    LayoutUtil.validate_layout_for_shape(Layout(()), NonArrayShape("opaque"))
    assert not LayoutUtil.is_padded(parse(PAIR))
    assert not LayoutUtil.is_padded(NonArrayShape("token"))


# -- item 3: L, M, SC and unbounded dimensions ----------------------------------------

# (string, its source, XLA's ArraySize in bytes or None for no buffer)
ATTRIBUTE_STRINGS = [
    # layout_test.cc ToStringForTailPaddingAlignment ({3,2,1,0:L(100)}); untiled,
    # so ArraySize is ByteSizeOfElements: no tail padding
    ("f32[1,2,3,4]{3,2,1,0:L(100)}", "ToStringForTailPaddingAlignment", 4 * 24),
    # hlo_parser_test.cc; M(n) is in no size function
    ("f32[123,456]{1,0:T(16,128)M(1024)}", "ParseShapeStringWithDynamicShapeMetadataPrefix",
     4 * 128 * 512),
    # hlo_parser_test.cc; ArraySize tiles dimension 1's largest piece, 456 - 200
    ("pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}", "ParseShapeStringWithSplitConfigLayout",
     124 * 256),
    # untiled: ByteSizeOfElements, no split counted
    ("pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}", "ParseShapeStringWithSplitConfigLayout",
     123 * 456),
    ("pred[123,456]{1,0:SC(1:50,200)}", "ParseShapeStringWithSplitConfigLayout", 123 * 456),
    # hlo_parser_test.cc ParseShapeStringUnbounded, shape_test.cc DynamicShapeToString
    ("f32[?,784]", "ParseShapeStringUnbounded", None),
]


@pytest.mark.parametrize("text, source, array_size", ATTRIBUTE_STRINGS)
def test_attributes_xla_writes_are_read(text, source, array_size):
    shape = parse(text)
    printed = ShapeUtil.human_string_with_layout(shape)
    assert printed.startswith(text), source  # XLA's text, plus the default layout if absent
    assert parse(printed) == shape
    assert pickle.loads(pickle.dumps(shape)) == shape
    if array_size is not None:
        assert ShapeUtil.byte_size_of(shape) == array_size, source


def test_the_parsed_fields_are_xlas():
    assert parse("f32[1,2,3,4]{3,2,1,0:L(100)}").layout.tail_padding_alignment_in_elements == 100
    assert parse("f32[123,456]{1,0:T(16,128)M(1024)}").layout == Layout(
        [1, 0], tiles=[Tile((16, 128))], dynamic_shape_metadata_prefix_bytes=1024
    )
    assert parse("pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}").layout.split_configs == (
        SplitConfig(0, (10,)), SplitConfig(1, (4, 5)),
    )
    # ParseShapeStringUnbounded: MakeShape(F32, {Shape::kUnboundedSize, 784}, {true, false})
    unbounded = parse("f32[?,784]")
    assert unbounded == Shape("f32", [Shape.UNBOUNDED_SIZE, 784], None, [True, False])
    assert unbounded == ShapeUtil.make_shape("f32", [Shape.UNBOUNDED_SIZE, 784])
    assert unbounded.is_unbounded_dynamic and unbounded.is_unbounded_dynamic_dimension(0)
    assert not unbounded.is_unbounded_dynamic_dimension(1)


@pytest.mark.parametrize("text", [t for t, _, _ in ATTRIBUTE_STRINGS if "L(" in t or "SC(" in t or "M(" in t])
def test_attributes_jax_lacks_are_not_dropped_on_the_way_to_jax(text):
    with pytest.raises(ValueError, match=r"JAX's layouts carry none|memory space"):
        parse(text).to_jax_layout()


def test_tail_padding_rounds_a_tiled_buffer_up():
    """ShapeUtil::ArraySize: the tiled element count rounded up to L."""
    shape = parse("f32[3,5]{1,0:T(2,2)L(7)}")
    assert shape.buffer_size == 24  # elements placed: L adds none
    assert ShapeUtil.byte_size_of(shape) == 4 * 28
    assert ShapeUtil.byte_size_of(parse("s4[3,5]{1,0:T(2,2)L(7)E(4)}")) == 14


@given(shapes(pad=False, min_rank=1, max_rank=4), st.integers(1, 9), st.integers(0, 64))
def test_tail_padding_and_metadata_move_no_element(shape, alignment, prefix):
    """L and M change no offset (XLA's LinearIndex reads neither), nor do
    split configs."""
    layout = shape.layout
    splits = [(0, [1])] if shape.rank and shape.dimensions[layout.minor_to_major[-1]] > 1 else []
    other = Shape(shape.element_type, shape.dimensions, Layout(
        layout.minor_to_major, tail_padding_alignment_in_elements=alignment,
        dynamic_shape_metadata_prefix_bytes=prefix, split_configs=splits,
    ))
    assert other.buffer_size == shape.buffer_size
    if shape.element_count:
        rows = np.stack(np.unravel_index(np.arange(shape.element_count), shape.dimensions), axis=1)
        assert np.array_equal(xs.ravel(rows, other), xs.ravel(rows, shape))
        assert xs.ravel(rows[:1], other)[0] == linear_index_of(shape, rows[0])


@pytest.mark.parametrize(
    "operation",
    [
        lambda s: s.buffer_size,
        lambda s: s.element_count,
        lambda s: s.strides,
        lambda s: s.padded_dimensions,
        lambda s: s.tiled_dimensions,
        lambda s: ShapeUtil.byte_size_of(s),
        lambda s: ShapeUtil.elements_in(s),
        lambda s: xs.ravel(np.zeros((1, 2), np.int64), s),
        lambda s: xs.unravel(np.zeros(1, np.int64), s),
        lambda s: xs.IndexUtil.multidimensional_index_to_linear_index(s, [0, 0]),
    ],
)
def test_unbounded_shapes_have_no_buffer(operation):
    with pytest.raises(ValueError, match=r"f32\[\?,784\]\{1,0\} has an unbounded dynamic dimension \(dimension 0, '\?'\)"):
        operation(parse("f32[?,784]"))


def test_unbounded_shapes_compare_and_count_dimensions():
    unbounded = parse("f32[?,784]")
    assert ShapeUtil.compatible(unbounded, parse("f32[?,784]{1,0}"))
    assert not ShapeUtil.compatible(unbounded, parse("f32[<=5,784]"))
    assert ShapeUtil.true_num_dimensions(unbounded) == 2
    assert unbounded.rank == 2
    with pytest.raises(ValueError, match="for a dynamic dimension only"):
        Shape("f32", [Shape.UNBOUNDED_SIZE, 784], None, [False, False])


# -- item 4: text XLA refuses ---------------------------------------------------------


@pytest.mark.parametrize("text", ["F32[2,3]", "F32[3,5]{1,0:T(2,2)}", "Pred[]", "(f32[2], S32[])"])
def test_upper_case_types_are_refused_as_xla_refuses_them(text):
    with pytest.raises(ValueError, match="is not lower case; XLA's text writes"):
        parse(text)


@pytest.mark.parametrize(
    "text",
    ["f32[2,3]{1,0:D(C+~)}", "f32[2,3]{1,0:D(D,C)}", "f32[2,3]{1,0:D(C+,S~)#(u32)*(u16)}",
     "f32[2,3]{1,0:#(u32)}"],
)
def test_sparse_layouts_are_refused_by_name(text):
    with pytest.raises(ValueError, match="sparse layouts are not modelled by xlashape"):
        parse(text)


# -- item 5: padded shapes print as text that reads back ------------------------------


def test_the_issues_padded_shape_reads_back_padded():
    padded = Shape("f32", [2, 3], Layout([0, 1], [3, 5]))
    text = ShapeUtil.human_string_with_layout(padded)
    assert text == "f32[2,3]{0,1:PAD(3,5)}"
    assert parse(text) == padded
    assert ShapeUtil.byte_size_of(parse(text)) == 60  # was 24: 36 bytes lost


@pytest.mark.parametrize("value", list(PaddingValue))
def test_every_padding_value_reads_back(value):
    shape = Shape("s8", [2, 3], Layout([1, 0], [4, 3], value))
    assert parse(str(shape)) == shape
    assert parse(str(TupleShape([shape, shape]))) == TupleShape([shape, shape])


@given(shapes())
def test_text_never_names_a_different_buffer(shape):
    back = parse(str(shape))
    assert back == shape
    assert back.buffer_size == shape.buffer_size and back.strides == shape.strides


def test_xla_names_the_padding_attribute_unknown():
    """The attribute is xlashape's own: no XLA layout letter is PAD, so XLA
    refuses the text rather than read a padded buffer as an unpadded one."""
    assert Layout([0, 1], [3, 5], PaddingValue.ZERO_PAD).__str__() == "{0,1:PAD(3,5:zero)}"


# -- item 6: today's names, and what counts bytes -------------------------------------


def test_true_num_dimensions_is_true_rank():
    shape = Shape("f32", [2, 1, 0, 1, 3])
    assert ShapeUtil.true_num_dimensions(shape) == ShapeUtil.true_rank(shape) == 3
    assert shape.true_num_dimensions == 3


def test_buffer_size_counts_elements_and_byte_size_of_bytes():
    shape = Shape("f64", [2, 3], Layout([0, 1], [3, 5]))
    assert shape.buffer_size == 15
    assert ShapeUtil.byte_size_of(shape) == 15 * 8
    assert "ArraySize" in (ShapeUtil.byte_size_of.__doc__ or "")
    assert "not bytes" in (Shape.buffer_size.__doc__ or "")
    assert math.prod(shape.padded_dimensions) == shape.buffer_size
