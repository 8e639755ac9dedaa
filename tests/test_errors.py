"""IndexOutOfBoundsError carries its facts as fields, keeps them through
pickle, and restates its row without parsing its own message."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import xlashape as xs
from xlashape.errors import (
    IndexOutOfBoundsError,
    index_out_of_bounds,
    linear_index_on_padding,
    linear_index_out_of_bounds,
)

SHAPE = xs.Shape("f32", [3, 4])
PADDED = xs.Shape("f32", [3, 4], xs.Layout([0, 1], [4, 4]))


def _raised(call) -> IndexOutOfBoundsError:
    with pytest.raises(IndexOutOfBoundsError) as caught:
        call()
    return caught.value


def _fields(error: IndexOutOfBoundsError) -> tuple[object, ...]:
    return error.row, error.dimension, error.value, error.size


@pytest.mark.parametrize(
    "call, fields",
    [
        (lambda: xs.ravel(np.array([[0, 0], [1, 2], [2, 9]]), SHAPE), (2, 1, 9, 4)),
        (lambda: xs.ravel(np.array([[0, 0], [-1, 2]]), SHAPE), (1, 0, -1, 3)),
        (lambda: xs.unravel(np.array([0, 5, 12]), SHAPE), (2, None, 12, 12)),
        (lambda: xs.unravel(np.array([0, 3]), PADDED), (1, 0, 3, 3)),
        (lambda: xs.IndexUtil.multidimensional_index_to_linear_index(SHAPE, (3, 0)), (None, 0, 3, 3)),
        (lambda: xs.IndexUtil.linear_index_to_multidimensional_index(SHAPE, -1), (None, None, -1, 12)),
        (lambda: xs.ravel_multi_index((np.array([0, 1]), np.array([4, 0])), (3, 4)), (0, 1, 4, 4)),
        (lambda: xs.unravel_index(np.array([0, 1, 13]), (3, 4)), (2, None, 13, 12)),
    ],
)
def test_the_error_carries_row_dimension_value_and_size(call, fields):
    error = _raised(call)
    assert _fields(error) == fields
    assert f"index {error.value} " in str(error)
    if error.row is not None:
        assert f" at row {error.row} of the batch" in str(error)


def test_constructors_keep_their_signatures_and_messages():
    error = index_out_of_bounds(7, 1, 4, (2, 7), 5)
    assert str(error) == (
        "index 7 is out of bounds for dimension 1 with size 4 at row 5 of the batch; "
        "multi-index (2, 7)"
    )
    assert str(index_out_of_bounds(7, 1, 4, (2, 7))).startswith(
        "index 7 is out of bounds for dimension 1 with size 4; "
    )
    assert str(linear_index_out_of_bounds(12, 12, 3)) == (
        "linear index 12 is out of bounds for a buffer of 12 elements at row 3 of the "
        "batch; expected 0 <= index < 12"
    )
    assert str(linear_index_on_padding(3, 0, 3, 3, 4)) == (
        "linear index 3 lands on padding: it puts dimension 0 at 3, past its size 3 "
        "(padded width 4)"
    )


def test_restated_names_the_new_row_and_keeps_the_fields():
    error = _raised(lambda: xs.unravel(np.array([0, 3]), PADDED))
    moved = error.restated(41, "in.npy")
    assert str(moved).startswith("linear index 3 at row 41 of in.npy lands on padding")
    assert _fields(moved) == (41, 0, 3, 3)
    assert isinstance(moved, IndexError) and isinstance(moved, ValueError)


def test_fields_survive_pickle():
    error = index_out_of_bounds(7, 1, 4, (2, 7), 5)
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is IndexOutOfBoundsError
    assert str(back) == str(error) and _fields(back) == _fields(error)
    assert str(back.restated(9, "x.npy")) == str(error.restated(9, "x.npy"))


def test_a_plain_message_still_makes_an_error():
    error = IndexOutOfBoundsError("index -1 is out of bounds")
    assert _fields(error) == (None, None, None, None)
    assert str(error.restated(3, "x.npy")) == "index -1 is out of bounds"
