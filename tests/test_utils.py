"""ShapeUtil and LayoutUtil."""

import pytest

from xlashape import Layout, LayoutUtil, PaddingValue, PrimitiveType, Shape, ShapeUtil


def test_make_shape_variants():
    assert ShapeUtil.make_shape("f32", [2, 3]) == Shape("f32", [2, 3], Layout([1, 0]))
    assert ShapeUtil.make_shape_with_layout(PrimitiveType.S8, [2, 3], [0, 1], padded_dimensions=[4, 3]) == Shape(
        "s8", [2, 3], Layout([0, 1], [4, 3])
    )
    assert ShapeUtil.make_shape_with_monotonic_dim0_major_layout("f32", [4, 5, 6]).layout == Layout(
        [2, 1, 0]
    )


def test_sizes():
    shape = ShapeUtil.make_shape_with_layout("f32", [2, 3], [0, 1], padded_dimensions=[3, 5])
    assert ShapeUtil.elements_in(shape) == 6
    assert ShapeUtil.byte_size_of(shape) == 15 * 4
    assert ShapeUtil.byte_size_of(Shape("c128", [2, 3])) == 6 * 16
    assert ShapeUtil.byte_size_of(Shape("pred", [])) == 1
    assert ShapeUtil.rank(shape) == 2
    assert ShapeUtil.true_rank(Shape("f32", [1, 5, 1])) == 1
    assert ShapeUtil.get_dimension(shape, -1) == 3
    with pytest.raises(TypeError, match="shape must be a Shape, got tuple"):
        ShapeUtil.elements_in((2, 3))


def test_comparisons():
    row = ShapeUtil.make_shape("f32", [2, 3])
    col = ShapeUtil.make_shape_with_layout("f32", [2, 3], [0, 1])
    padded = ShapeUtil.make_shape_with_layout("f32", [2, 3], [1, 0], padded_dimensions=[2, 4])
    ints = ShapeUtil.make_shape("s32", [2, 3])
    assert ShapeUtil.equal(row, ShapeUtil.make_shape("f32", [2, 3]))
    assert not ShapeUtil.equal(row, col)
    assert not ShapeUtil.equal(row, padded)  # padding counts
    assert ShapeUtil.compatible(row, col) and ShapeUtil.compatible(row, padded)
    assert not ShapeUtil.compatible(row, ints)
    assert ShapeUtil.same_dimensions(row, ints)
    assert not ShapeUtil.same_dimensions(row, ShapeUtil.make_shape("f32", [3, 2]))
    assert ShapeUtil.equal(row, "f32[2,3]")  # shape text is read as the Shape it names
    with pytest.raises(TypeError, match="rhs must be a Shape"):
        ShapeUtil.equal(row, [2, 3])


def test_layout_construction():
    assert LayoutUtil.make_layout([0, 1], padded_dimensions=[3, 5], padding_value=PaddingValue.ONE_PAD) == Layout(
        (0, 1), (3, 5), PaddingValue.ONE_PAD
    )
    assert LayoutUtil.get_default_layout_for_rank(3) == Layout((2, 1, 0))
    assert LayoutUtil.get_default_layout_for_rank(0) == Layout(())
    assert LayoutUtil.get_default_layout_for_shape(Shape("f32", [4, 4])) == Layout((1, 0))
    with pytest.raises(ValueError, match="rank must be >= 0"):
        LayoutUtil.get_default_layout_for_rank(-1)


def test_validate_layout_for_shape():
    shape = Shape("f32", [2, 3])
    LayoutUtil.validate_layout_for_shape(Layout([0, 1], [2, 3]), shape)
    with pytest.raises(ValueError, match="contains 1 elements, but shape has 2 dimensions"):
        LayoutUtil.validate_layout_for_shape(Layout([0]), shape)
    with pytest.raises(ValueError, match=r"dimension padding \(1\) is smaller"):
        LayoutUtil.validate_layout_for_shape(Layout([0, 1], [1, 3]), shape)
    with pytest.raises(TypeError, match="layout must be a Layout"):
        LayoutUtil.validate_layout_for_shape([0, 1], shape)


def test_padding_queries():
    plain = Shape("f32", [2, 3])
    same = Shape("f32", [2, 3], Layout([1, 0], [2, 3], PaddingValue.ZERO_PAD))
    padded = Shape("f32", [2, 3], Layout([0, 1], [3, 5], PaddingValue.HIGHEST_PAD))
    assert not LayoutUtil.is_padded(plain)
    assert not LayoutUtil.is_padded(same)  # widths equal to the sizes: no padding
    assert LayoutUtil.is_padded(padded)
    assert LayoutUtil.padded_dimensions(plain) == ()
    assert LayoutUtil.padded_dimensions(padded) == (3, 5)
    assert LayoutUtil.padded_dimension(padded, 1) == 5
    assert LayoutUtil.padded_dimension(padded, -2) == 3
    assert LayoutUtil.padded_dimension(plain, 1) == 3
    assert LayoutUtil.get_padding_value(padded) is PaddingValue.HIGHEST_PAD
    assert LayoutUtil.get_padding_value(plain) is PaddingValue.INVALID_PAD


def test_minor_major_and_physical_order():
    layout = Layout([2, 0, 1])
    assert [LayoutUtil.minor(layout, p) for p in range(3)] == [2, 0, 1]
    assert [LayoutUtil.major(layout, p) for p in range(3)] == [1, 0, 2]
    # Dimension 1 is most major (physical 0), then 0, then 2.
    assert LayoutUtil.make_logical_to_physical(layout) == (1, 0, 2)
    assert LayoutUtil.make_logical_to_physical(Layout([1, 0])) == (0, 1)
    for bad in (3, -1):
        with pytest.raises(IndexError, match=f"position {bad} is out of range for a rank-3 layout"):
            LayoutUtil.minor(layout, bad)


def test_monotonic_orders():
    assert LayoutUtil.is_monotonic_with_dim0_major(Layout([2, 1, 0]))
    assert not LayoutUtil.is_monotonic_with_dim0_major(Layout([0, 1, 2]))
    assert LayoutUtil.is_monotonic_with_dim0_minor(Layout([0, 1, 2]))
    assert not LayoutUtil.is_monotonic_with_dim0_minor(Layout([2, 0, 1]))
    assert not LayoutUtil.is_monotonic_with_dim0_major(Layout([2, 0, 1]))
    for trivial in (Layout([]), Layout([0])):
        assert LayoutUtil.is_monotonic_with_dim0_major(trivial)
        assert LayoutUtil.is_monotonic_with_dim0_minor(trivial)


def test_layout_text_and_equality():
    assert LayoutUtil.human_string(Layout([1, 0])) == "{1,0}"
    assert LayoutUtil.human_string(Layout([])) == "{}"
    assert LayoutUtil.equal(Layout([1, 0]), Layout((1, 0)))
    assert not LayoutUtil.equal(Layout([1, 0]), Layout([1, 0], [2, 2]))
