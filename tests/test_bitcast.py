"""ShapeUtil.transpose_is_bitcast and reshape_is_bitcast, against brute force
(every element's offset) and, for unpadded shapes, XLA's own rules."""

import itertools

import numpy as np
import pytest
from buffer_strategies import element_offsets, reshape_pairs, transposes
from hypothesis import given
from hypothesis import strategies as st
from oracles import numpy_ravel
from strategies import all_multi_indices

from xlashape import Layout, LayoutUtil, PaddingValue, Shape, ShapeUtil, reference
from xlashape.linear.buffers import view_linear


def same_padding(lhs: Shape, rhs: Shape) -> bool:
    """Buffers of one size and, where they hold padding, one padding value."""
    if lhs.buffer_size != rhs.buffer_size:
        return False
    return (
        lhs.buffer_size == lhs.element_count or lhs.layout.padding_value == rhs.layout.padding_value
    )


def transpose_keeps_memory(shape: Shape, mapping: tuple[int, ...], output: Shape) -> bool:
    """Brute force: every input element and the output element it becomes
    share an offset, and the buffers match."""
    rows = all_multi_indices(shape)
    before, after = numpy_ravel(shape, rows), numpy_ravel(output, rows[:, list(mapping)])
    return (
        shape.element_type == output.element_type
        and np.array_equal(before, after)
        and same_padding(shape, output)
    )


def reshape_keeps_memory(shape: Shape, output: Shape) -> bool:
    """Brute force: the k-th elements share an offset, and the buffers match."""
    return (
        shape.element_type == output.element_type
        and shape.element_count == output.element_count
        and np.array_equal(element_offsets(shape), element_offsets(output))
        and same_padding(shape, output)
    )


def xla_unit_index_rule(shape: Shape, output: Shape) -> bool:
    """XLA's ReshapeIsBitcast test for unpadded shapes with elements, written
    from its description: every unit index (a single 1, other entries 0) of
    either shape lands at the same offset as the index of the other shape
    with the same logical (row-major) position."""

    def one_way(a: Shape, b: Shape) -> bool:
        for dim in range(a.rank):
            if a.dimensions[dim] <= 1:
                continue
            unit = [0] * a.rank
            unit[dim] = 1
            logical = reference.linear_index_of(Shape(a.element_type, a.dimensions), unit)
            other = reference.multi_index_at(Shape(b.element_type, b.dimensions), logical)
            if ravel(a, unit) != ravel(b, other):
                return False
        return True

    def ravel(s: Shape, index) -> int:
        return reference.linear_index_of(s, index)

    return one_way(shape, output) and one_way(output, shape)


# -- XLA's own examples --------------------------------------------------------
@pytest.mark.parametrize(
    "input_order, output_order", list(itertools.product([(1, 0), (0, 1)], repeat=2))
)
def test_reshape_3x4_to_6x2_is_a_bitcast_only_row_major(input_order, output_order):
    result = ShapeUtil.reshape_is_bitcast(
        Shape("f32", (3, 4), Layout(input_order)), Shape("f32", (6, 2), Layout(output_order))
    )
    assert result == (input_order == output_order == (1, 0))


def test_reshape_3x2x2_to_6x2_with_dim1_most_minor():
    source = Shape("f32", (3, 2, 2), Layout((1, 0, 2)))
    assert ShapeUtil.reshape_is_bitcast(source, Shape("f32", (6, 2), Layout((0, 1))))
    assert not ShapeUtil.reshape_is_bitcast(source, Shape("f16", (6, 2), Layout((0, 1))))


def test_transpose_needs_the_same_element_type():
    source = Shape("f32", (10, 5), Layout((1, 0)))
    assert ShapeUtil.transpose_is_bitcast(source, Shape("f32", (5, 10), Layout((0, 1))), (1, 0))
    assert not ShapeUtil.transpose_is_bitcast(source, Shape("f16", (5, 10), Layout((0, 1))), (1, 0))
    assert not ShapeUtil.transpose_is_bitcast(source, Shape("f32", (5, 10), Layout((1, 0))), (1, 0))


@pytest.mark.parametrize("minor_to_major", list(itertools.permutations(range(3))))
def test_every_transpose_has_exactly_the_bitcast_layouts(minor_to_major):
    # For each permutation, the output layouts that leave every element in
    # place (found by brute force) are exactly those called bitcasts.
    source = Shape("f32", (2, 3, 4), Layout(minor_to_major))
    for mapping in itertools.permutations(range(3)):
        dims = tuple(source.dimensions[d] for d in mapping)
        outputs = [Shape("f32", dims, Layout(order)) for order in itertools.permutations(range(3))]
        found = [out for out in outputs if ShapeUtil.transpose_is_bitcast(source, out, mapping)]
        expected = [out for out in outputs if transpose_keeps_memory(source, mapping, out)]
        assert found == expected and len(found) == 1


# -- transposes ----------------------------------------------------------------
@given(transposes())
def test_transpose_bitcasts_keep_every_element_in_place(case):
    shape, mapping, output = case
    result = ShapeUtil.transpose_is_bitcast(shape, output, mapping)
    keeps = transpose_keeps_memory(shape, mapping, output)
    if result:
        assert keeps
    if 1 not in shape.dimensions and shape.element_count:
        # Without size-1 dimensions, XLA's layout rule is exact.
        assert result == keeps


@given(
    st.lists(st.integers(2, 4), max_size=5).flatmap(
        lambda dims: st.tuples(
            st.just(tuple(dims)),
            st.permutations(range(len(dims))),
            st.permutations(range(len(dims))),
        )
    )
)
def test_numpy_transposes_of_views_are_bitcasts(case):
    # NumPy's transpose never moves memory: the shape Shape.from_array reads
    # off the transposed view must be a bitcast of the original.
    dims, order, axes = case
    shape = Shape("s16", dims, Layout(order))
    view = view_linear(np.zeros(shape.buffer_size, np.int16), shape)
    output = Shape.from_array(view.transpose(axes))
    assert ShapeUtil.transpose_is_bitcast(shape, output, axes)


def test_size_1_dimensions_follow_xla_layout_rule():
    # Moving a size-1 dimension moves no element, but XLA's rule compares
    # layouts, and so does this one.
    source = Shape("f32", (1, 4), Layout((1, 0)))
    moved = Shape("f32", (4, 1), Layout((1, 0)))
    assert transpose_keeps_memory(source, (1, 0), moved)
    assert not ShapeUtil.transpose_is_bitcast(source, moved, (1, 0))
    assert ShapeUtil.transpose_is_bitcast(source, Shape("f32", (4, 1), Layout((0, 1))), (1, 0))


def test_padded_transposes():
    source = Shape("f32", (2, 3), Layout((1, 0), (4, 5), PaddingValue.ZERO_PAD))
    same = Shape("f32", (3, 2), Layout((0, 1), (5, 4), PaddingValue.ZERO_PAD))
    assert ShapeUtil.transpose_is_bitcast(source, same, (1, 0))
    other_value = Shape("f32", (3, 2), Layout((0, 1), (5, 4), PaddingValue.UNKNOWN_PAD))
    assert not ShapeUtil.transpose_is_bitcast(source, other_value, (1, 0))
    unpadded = Shape("f32", (3, 2), Layout((0, 1)))
    assert not ShapeUtil.transpose_is_bitcast(source, unpadded, (1, 0))
    narrower = Shape("f32", (3, 2), Layout((0, 1), (3, 4), PaddingValue.ZERO_PAD))
    assert not ShapeUtil.transpose_is_bitcast(source, narrower, (1, 0))
    for output in (same, other_value, unpadded, narrower):
        assert ShapeUtil.transpose_is_bitcast(source, output, (1, 0)) == transpose_keeps_memory(
            source, (1, 0), output
        )


@pytest.mark.parametrize(
    "output, mapping, error, message",
    [
        (
            Shape("f32", (3, 2)),
            (0, 0),
            ValueError,
            r"dimension_mapping must be a permutation of 0..1 for the rank-2 input shape, got \[0, 0\]",
        ),
        (Shape("f32", (3, 2)), (1, 0, 2), ValueError, "must be a permutation of 0..1"),
        (
            Shape("f32", (3, 2, 1)),
            (1, 0),
            ValueError,
            r"output shape f32\[3,2,1\]\{2,1,0\} is not a transpose of f32\[2,3\]\{1,0\} by \[1, 0\]: expected dimensions \[3, 2\]",
        ),
        (Shape("f32", (2, 3)), (1, 0), ValueError, r"expected dimensions \[3, 2\]"),
        (Shape("f32", (3, 2)), (1.0, 0), TypeError, "dimension_mapping.0. must be an integer"),
        ([3, 2], (1, 0), TypeError, "output_shape must be a Shape, got list"),
    ],
)
def test_transpose_errors(output, mapping, error, message):
    with pytest.raises(error, match=message):
        ShapeUtil.transpose_is_bitcast(Shape("f32", (2, 3)), output, mapping)


def test_transpose_input_must_be_a_shape():
    with pytest.raises(TypeError, match="input_shape must be a Shape, got tuple"):
        ShapeUtil.transpose_is_bitcast((2, 3), Shape("f32", (3, 2)), (1, 0))


# -- reshapes ------------------------------------------------------------------
@given(reshape_pairs())
def test_reshape_bitcasts_are_exactly_those_keeping_memory(pair):
    shape, output = pair
    assert ShapeUtil.reshape_is_bitcast(shape, output) == reshape_keeps_memory(shape, output)
    assert ShapeUtil.reshape_is_bitcast(output, shape) == ShapeUtil.reshape_is_bitcast(
        shape, output
    )


@given(reshape_pairs())
def test_reshape_matches_xla_rule_without_padding(pair):
    shape, output = pair
    if LayoutUtil.is_padded(shape) or LayoutUtil.is_padded(output):
        return
    if shape.element_type != output.element_type:
        expected = False
    elif shape.element_count == 0:
        expected = True  # XLA: shapes without elements always qualify
    else:
        expected = xla_unit_index_rule(shape, output)
    assert ShapeUtil.reshape_is_bitcast(shape, output) == expected


@pytest.mark.parametrize(
    "dims, output, expected",
    [
        ((2, 3, 4), (6, 4), True),
        ((2, 3, 4), (24,), True),
        ((2, 3, 4), (1, 2, 1, 12, 1), True),
        ((2, 3, 4), (4, 6), True),
        ((2, 3), (2, 3, 1), True),
        ((0, 3), (5, 0), True),
        ((2, 3), (7,), False),
    ],
)
def test_row_major_reshapes_keep_memory(dims, output, expected):
    result = ShapeUtil.reshape_is_bitcast(Shape("f32", dims), Shape("f32", output))
    assert result == expected
    if expected:
        assert reshape_keeps_memory(Shape("f32", dims), Shape("f32", output))


def test_padded_reshapes():
    padded = Shape("f32", (2, 3), Layout((1, 0), (2, 4), PaddingValue.ONE_PAD))
    with_unit = Shape("f32", (2, 1, 3), Layout((2, 1, 0), (2, 1, 4), PaddingValue.ONE_PAD))
    assert ShapeUtil.reshape_is_bitcast(padded, with_unit)
    assert not ShapeUtil.reshape_is_bitcast(padded, Shape("f32", (6,)))  # different buffer size
    other_value = Shape("f32", (2, 1, 3), Layout((2, 1, 0), (2, 1, 4), PaddingValue.ZERO_PAD))
    assert not ShapeUtil.reshape_is_bitcast(padded, other_value)
    # Padding only past the end of the last element still changes the buffer.
    tail = Shape("f32", (2, 3), Layout((1, 0), (3, 3), PaddingValue.ONE_PAD))
    assert not ShapeUtil.reshape_is_bitcast(tail, Shape("f32", (6,)))
    # Widths equal to the sizes are no padding at all.
    exact = Shape("f32", (2, 3), Layout((1, 0), (2, 3), PaddingValue.ONE_PAD))
    assert ShapeUtil.reshape_is_bitcast(exact, Shape("f32", (6,)))
    for output in (with_unit, Shape("f32", (6,)), other_value):
        assert ShapeUtil.reshape_is_bitcast(padded, output) == reshape_keeps_memory(padded, output)


def test_reshape_errors():
    with pytest.raises(TypeError, match="input_shape must be a Shape, got bytes"):
        ShapeUtil.reshape_is_bitcast(b"f32[6]", Shape("f32", (6,)))
    with pytest.raises(TypeError, match="output_shape must be a Shape, got list"):
        ShapeUtil.reshape_is_bitcast(Shape("f32", (6,)), [6])
