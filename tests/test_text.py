"""Shapes as text: human strings and parse_shape_string."""

import pytest
from hypothesis import given
from strategies import shapes

from xlashape import Layout, Shape, ShapeUtil


@pytest.mark.parametrize(
    "shape, plain, with_layout",
    [
        (Shape("f32", [2, 3]), "f32[2,3]", "f32[2,3]{1,0}"),
        (Shape("pred", []), "pred[]", "pred[]{}"),
        (Shape("bf16", [4, 0, 1], Layout([0, 2, 1])), "bf16[4,0,1]", "bf16[4,0,1]{0,2,1}"),
        (Shape("s64", [2, 3], Layout([0, 1], [3, 5])), "s64[2,3]", "s64[2,3]{0,1}"),
    ],
)
def test_human_strings(shape, plain, with_layout):
    assert ShapeUtil.human_string(shape) == plain
    assert ShapeUtil.human_string_with_layout(shape) == with_layout
    assert str(shape) == with_layout


@given(shapes(pad=False))
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
        ("f32[2,-3]", "dimensions must be non-negative integers"),
        ("f32[2,x]", "dimensions must be non-negative integers"),
        ("f32[<=4]", "dimensions must be non-negative integers"),
        ("f32[2,3]{1,0:T(8,128)}", "layout attributes after ':'"),
        ("f32[2,3]{1,1}", "duplicate values"),
        ("f32[2,3]{0}", "contains 1 elements, but shape is rank 2"),
        ("(f32[2], s32[])", "tuple shapes are not supported"),
        ("f32", "expected the form TYPE"),
        ("f32[2,3]{1,0}x", "expected the form TYPE"),
        ("tuple[2]", "not an array element type"),
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
        ("f32[\u0663,2]", "dimensions must be non-negative integers"),
        ("f32[" + "9" * 5000 + "]", "dimensions: Exceeds the limit"),
    ],
)
def test_parse_errors_are_value_errors_quoting_the_text(text, message):
    with pytest.raises(ValueError, match=message) as info:
        ShapeUtil.parse_shape_string(text)
    assert repr(text)[:40] in str(info.value)
