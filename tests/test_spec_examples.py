"""Every example of the spec ("Shapes and Layout"), verbatim."""

import numpy as np
import pytest

from xlashape import IndexUtil, Layout, LayoutUtil, PaddingValue, Shape, ShapeUtil, reference

# The spec's 2 x 3 array:
#   a b c
#   d e f
LETTERS = "a b c d e f".split()


def lay_out(shape: Shape, values=LETTERS, fill="0") -> str:
    """The linear memory of ``values`` (row-major) as the spec draws it,
    each element placed by the batch IndexUtil path."""
    rows = np.indices(shape.dimensions).reshape(shape.rank, -1).T
    offsets = IndexUtil.multidimensional_index_to_linear_index(shape, rows)
    memory = [fill] * shape.buffer_size
    for offset, value in zip(offsets.tolist(), values):
        memory[offset] = value
    return " ".join(memory)


def test_minor_to_major_0_1_is_column_major():
    shape = ShapeUtil.make_shape_with_layout("f32", [2, 3], [0, 1])
    assert lay_out(shape) == "a d b e c f"


def test_minor_to_major_1_0_is_row_major():
    shape = ShapeUtil.make_shape_with_layout("f32", [2, 3], [1, 0])
    assert lay_out(shape) == "a b c d e f"


def test_default_layout_is_major_to_minor():
    shape = ShapeUtil.make_shape("f32", [2, 3])
    assert shape.layout.minor_to_major == (1, 0)
    assert lay_out(shape) == "a b c d e f"
    assert LayoutUtil.is_monotonic_with_dim0_major(shape.layout)


def test_padded_column_major_example():
    shape = Shape("f32", [2, 3], Layout([0, 1], [3, 5], PaddingValue.ZERO_PAD))
    assert lay_out(shape) == "a d 0 b e 0 c f 0 0 0 0 0 0 0"


def test_padded_example_equals_the_padded_array():
    # "This is equivalent to the layout of the following array with the same
    # minor-to-major dimension order":  a b c 0 0 / d e f 0 0 / 0 0 0 0 0
    padded = "a b c 0 0 d e f 0 0 0 0 0 0 0".split()
    same = ShapeUtil.make_shape_with_layout("f32", [3, 5], [0, 1])
    assert lay_out(same, padded) == "a d 0 b e 0 c f 0 0 0 0 0 0 0"


@pytest.mark.parametrize(
    "minor_to_major, widths, expected",
    [
        ((0, 1), (2, 3), "a d b e c f"),
        ((1, 0), (2, 3), "a b c d e f"),
        ((0, 1), (3, 5), "a d 0 b e 0 c f 0 0 0 0 0 0 0"),
    ],
)
def test_reference_draws_the_spec_pictures(minor_to_major, widths, expected):
    shape = Shape("f32", (2, 3), Layout(minor_to_major, widths))
    memory = reference.linear_values(shape, LETTERS, fill="0")
    assert " ".join(memory) == expected


def test_padded_example_reads_back():
    shape = Shape("f32", [2, 3], Layout([0, 1], [3, 5]))
    memory = "a d 0 b e 0 c f 0 0 0 0 0 0 0".split()
    back = [
        [memory[IndexUtil.multidimensional_index_to_linear_index(shape, (i, j))] for j in range(3)]
        for i in range(2)
    ]
    assert back == [["a", "b", "c"], ["d", "e", "f"]]
    for offset, letter in enumerate(memory):
        if letter == "0":
            with pytest.raises(IndexError, match=r"padding|out of bounds"):
                IndexUtil.linear_index_to_multidimensional_index(shape, offset)
        else:
            i, j = IndexUtil.linear_index_to_multidimensional_index(shape, offset)
            assert LETTERS[3 * i + j] == letter


def test_rank_and_true_rank():
    # "The true rank of an array is the number of dimensions which have a
    # size greater than 1."
    shape = Shape("f32", [4, 1, 3, 1])
    assert shape.rank == 4
    assert shape.true_rank == 2
    assert ShapeUtil.true_rank(Shape("f32", [1, 1])) == 0
    # Size-0 dimensions count, as in XLA's TrueRank (sizes other than 1).
    assert Shape("f32", [0, 1, 3]).true_rank == 2


def test_negative_dimension_numbers():
    # "for the 3-dimensional array described above, dimension -1 has size C,
    # dimension -2 has size B and so on."
    a, b, c = 5, 6, 7
    shape = ShapeUtil.make_shape("f32", [a, b, c])
    assert [shape.dimension(i) for i in (-1, -2, -3)] == [c, b, a]
    assert [ShapeUtil.get_dimension(shape, i) for i in (0, 1, 2)] == [a, b, c]


@pytest.mark.parametrize(
    "dims, letters",
    [
        ((2, 3), {"y": 2, "x": 3}),
        ((4, 2, 3), {"z": 4, "y": 2, "x": 3}),
        ((5, 4, 2, 3), {"p": 5, "z": 4, "y": 2, "x": 3}),
    ],
)
def test_dimension_letters(dims, letters):
    shape = Shape("f32", dims)
    assert {k: getattr(shape, k) for k in letters} == letters
    for missing in set("pzyx") - set(letters):
        with pytest.raises(AttributeError, match=f"this shape is rank {len(dims)}"):
            getattr(shape, missing)


def test_make_shape_lists_dimensions_in_order():
    # "ShapeUtil::MakeShape(F32, {A, B, C, D}) will create a shape whose
    # dimension size array consists of the sequence [A, B, C, D]."
    assert ShapeUtil.make_shape("f32", [2, 3, 5, 7]).dimensions == (2, 3, 5, 7)
