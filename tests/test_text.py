"""Shapes as text: human strings and parse_shape_string."""

import pytest
from hypothesis import given
from strategies import shapes

from xlashape import Layout, NonArrayShape, Shape, ShapeUtil, Tile, TupleShape


@pytest.mark.parametrize(
    "shape, plain, with_layout",
    [
        (Shape("f32", [2, 3]), "f32[2,3]", "f32[2,3]{1,0}"),
        (Shape("pred", []), "pred[]", "pred[]"),  # XLA prints no {} for a scalar
        (Shape("bf16", [4, 0, 1], Layout([0, 2, 1])), "bf16[4,0,1]", "bf16[4,0,1]{0,2,1}"),
        # Issue 22: the padding printed as xlashape's PAD (it was lost: {0,1})
        (Shape("s64", [2, 3], Layout([0, 1], [3, 5])), "s64[2,3]", "s64[2,3]{0,1:PAD(3,5)}"),
    ],
)
def test_human_strings(shape, plain, with_layout):
    assert ShapeUtil.human_string(shape) == plain
    assert ShapeUtil.human_string_with_layout(shape) == with_layout
    assert str(shape) == with_layout


@given(shapes())
def test_parse_reads_human_strings_back(shape):
    assert ShapeUtil.parse_shape_string(ShapeUtil.human_string_with_layout(shape)) == shape
    plain = ShapeUtil.parse_shape_string(ShapeUtil.human_string(shape))
    assert ShapeUtil.compatible(plain, shape)
    assert plain.layout == Layout(range(shape.rank - 1, -1, -1))


def test_parse_tolerates_spaces():
    assert ShapeUtil.parse_shape_string(" f32[2, 3]{0, 1} ") == Shape("f32", [2, 3], Layout([0, 1]))


@pytest.mark.parametrize(
    "text, message",
    [
        ("f33[2]", "unknown element type 'f33'"),
        ("f32[2,-3]", "unexpected character '-' at position 6"),
        ("f32[2,x]", "expected a dimension size, found 'x'"),
        ("f32[<=]", "expected a dimension size, found ']'"),
        ("f32[<=?,784]", "expected a dimension size, found '\\?'"),
        ("f32[2,3]{1,0:T(8,128)L(0)}", "tail_padding_alignment_in_elements must be >= 1"),
        ("f32[2,3]{1,0:PAD(3,5:huge)}", "unknown padding value 'huge'"),
        # Issue 22: XLA's parser reads lower-case element types only
        ("F32[2,3]", "element type 'F32' is not lower case; XLA's text writes 'f32'"),
        # Issue 22: D(C+~) got a character-level error, D(D,C) this message
        ("f32[2,3]{1,0:D(C+~)}", "sparse layouts are not modelled by xlashape"),
        ("f32[2,3]{1,0:D(D,C)}", "sparse layouts are not modelled by xlashape"),
        ("f32[2,3]{1,0:T}", "T must be followed by at least one tile"),
        ("f32[2,3]{1,0:T(8,128)T(2,1)}", "attribute T appears twice"),
        ("f32[2,3]{1,0:T(8,*)}", "ends in \\*"),
        ("f32[2,3]{1,0:Q(1)}", "unknown layout attribute 'Q'"),
        ("f32[2,3]{1,1}", "duplicate values"),
        ("f32[2,3]{0}", "contains 1 elements, but shape has 2 dimensions"),
        ("(f32[2], s32[]", "expected ',' or '\\)' in a tuple, found the end"),
        ("f32", "expected '\\[', found the end"),
        ("f32[2,3]{1,0}x", "unexpected 'x' after the shape"),
        ("tuple[2]", "a tuple is written"),
        ("token[2]", "token shapes have no dimensions"),
        ("", "expected the form TYPE"),
    ],
)
def test_parse_errors_quote_the_text(text, message):
    with pytest.raises(ValueError, match=message) as info:
        ShapeUtil.parse_shape_string(text)
    assert repr(text) in str(info.value)


def test_parse_rejects_non_strings():
    with pytest.raises(TypeError, match="must be a str"):
        ShapeUtil.parse_shape_string(b"f32[2]")


@pytest.mark.parametrize(
    "text, message",
    [
        ("f32[99999999999,99999999999]", "more than the int64 maximum"),
        ("f32[0,18446744073709551616]", "more than the int64 maximum"),
        ("f32[\u0663,2]", "unexpected character"),
        ("f32[" + "9" * 5000 + "]", "a dimension size: Exceeds the limit"),
    ],
)
def test_parse_errors_are_value_errors_quoting_the_text(text, message):
    with pytest.raises(ValueError, match=message) as info:
        ShapeUtil.parse_shape_string(text)
    assert repr(text)[:40] in str(info.value)


# Shape strings from openxla/xla, each with where it appears. Those printed
# with a full layout read back to the same text.
XLA_STRINGS = [
    # xla/hlo/parser/hlo_parser_test.cc, ParseShapeStringWithTilingLayout
    ("f32[123,456]{0,1:T(2,128)}", "f32[123,456]{0,1:T(2,128)}"),
    ("f32[123,456,789]{0,1,2:T(2, * , 128)}", "f32[123,456,789]{0,1,2:T(2,*,128)}"),
    ("bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}", "bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}"),
    # ... ParseShapeStringWithElementSizeInBits
    ("s4[123,456]{1,0:T(2,128)E(4)}", "s4[123,456]{1,0:T(2,128)E(4)}"),
    # ... ParseShapeStringWithMemorySpaceLayout
    ("pred[123,456]{1,0:T(2,128)S(3)}", "pred[123,456]{1,0:T(2,128)S(3)}"),
    ("pred[123,456]{1,0:S(3)}", "pred[123,456]{1,0:S(3)}"),
    # ... ParseShapeStringR2F32, ParseShapeStringWithLayout
    ("f32[123,456]", "f32[123,456]{1,0}"),
    ("f32[123,456]{0,1}", "f32[123,456]{0,1}"),
    # ... ParseShapeStringTupleOfArrays, ParseShapeStringNestedTuple
    ("(f32[1572864],s8[5120,1024])", "(f32[1572864]{0}, s8[5120,1024]{1,0})"),
    ("(f32[1],(f32[2], token[]), opaque[], f32[3])", "(f32[1]{0}, (f32[2]{0}, token[]), opaque[], f32[3]{0})"),
    # ... ParseTokenType, ParseOpaqueType
    ("token[]", "token[]"),
    ("opaque[]", "opaque[]"),
    # ... ParseDynamicArray, ParseDynamicTuple
    ("f32[123,<=456]", "f32[123,<=456]{1,0}"),
    ("(f32[42], u32[<=123,<=456])", "(f32[42]{0}, u32[<=123,<=456]{1,0})"),
    # ... ReplicaIdWithLayout; AllowShapeWhitespace
    ("u32[]{:T(128)}", "u32[]{:T(128)}"),
    ("f32[ 1, 2,3, 4, 5]{0, 1, 2,3, 4 }", "f32[1,2,3,4,5]{0,1,2,3,4}"),
    # docs/tiled_layout.md: Figure 1 and the BF16 and combining examples
    # (the page writes F32[3,5]: XLA's parser refuses upper case, see below)
    ("f32[3,5]{1,0:T(2,2)}", "f32[3,5]{1,0:T(2,2)}"),
    ("bf16[32,256]{1,0:T(8,128)(2,1,1,1)}", "bf16[32,256]{1,0:T(8,128)(2,1,1,1)}"),
    ("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"),
    # xla/service/host_offloader_test.cc (ParameterStreaming), entry layouts
    ("(s32[2,1]{1,0:T(2,128)S(5)}, s32[2,1]{1,0:T(2,128)})", "(s32[2,1]{1,0:T(2,128)S(5)}, s32[2,1]{1,0:T(2,128)})"),
    # HLO tests with TPU layouts (in-place pairs, all-reduce fusions)
    ("bf16[2,8192,6144]{2,1,0:T(8,128)(2,1)}", "bf16[2,8192,6144]{2,1,0:T(8,128)(2,1)}"),
    ("bf16[6144]{0:T(1024)(128)(2,1)}", "bf16[6144]{0:T(1024)(128)(2,1)}"),
    # Issue 10's own examples
    ("s4[1024]{0:E(4)}", "s4[1024]{0:E(4)}"),
    ("f32[8,128]{1,0:T(8,128)S(1)}", "f32[8,128]{1,0:T(8,128)S(1)}"),
    ("(f32[2,3]{1,0}, s32[])", "(f32[2,3]{1,0}, s32[])"),
    ("f32[<=16,3]{1,0}", "f32[<=16,3]{1,0}"),
    ("pred[]", "pred[]"),
]


@pytest.mark.parametrize("text, printed", XLA_STRINGS)
def test_xla_strings_round_trip(text, printed):
    shape = ShapeUtil.parse_shape_string(text)
    assert ShapeUtil.human_string_with_layout(shape) == printed
    assert ShapeUtil.parse_shape_string(printed) == shape


def test_parsed_fields():
    shape = ShapeUtil.parse_shape_string("bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)S(1)}")
    assert shape.layout.tiles == (Tile((2, Tile.COMBINE, 128)), Tile((2, 1)))
    assert shape.layout.memory_space == 1
    dynamic = ShapeUtil.parse_shape_string("f32[<=16,3]")
    assert dynamic.dimensions == (16, 3) and dynamic.is_dynamic_dimension(0)
    assert not dynamic.is_dynamic_dimension(-1)
    assert dynamic != Shape("f32", (16, 3))  # XLA's Equal compares dynamic dimensions
    assert dynamic.buffer_size == 48  # laid out at its bound
    nested = ShapeUtil.parse_shape_string("(f32[1],(f32[2], token[]), opaque[], f32[3])")
    assert ShapeUtil.tuple_element_count(nested) == 4
    assert ShapeUtil.get_tuple_element_shape(nested, 1) == TupleShape(
        [Shape("f32", [2]), NonArrayShape("token")]
    )
    assert ShapeUtil.byte_size_of(nested) == 4 * (1 + 2 + 3)
