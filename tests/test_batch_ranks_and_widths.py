"""Batch conversion past the unrolled kernels (ranks up to 32) and through
the power-of-two path (shift and mask), against NumPy."""

import numpy as np
import pytest
from oracles import numpy_ravel, numpy_unravel

import xlashape as xs


@pytest.mark.parametrize("rank", [0, 1, 7, 8, 9, 16, 32])
@pytest.mark.parametrize("order", ["C", "F", "permuted"])
def test_ranks_up_to_32_match_numpy(rank, order):
    rng = np.random.default_rng(rank)
    dims = tuple(int(d) for d in rng.integers(1, 4, rank))
    m2m = {"C": tuple(range(rank - 1, -1, -1)), "F": tuple(range(rank)), "permuted": tuple(rng.permutation(rank))}[order]
    shape = xs.Shape("f32", dims, xs.Layout(m2m))
    rows = np.stack([rng.integers(0, d, 500) for d in dims], axis=1) if rank else np.zeros((500, 0), int)
    expected = numpy_ravel(shape, rows)
    np.testing.assert_array_equal(xs.ravel(rows, shape), expected)
    np.testing.assert_array_equal(xs.ravel(np.asfortranarray(rows), shape, mode="wrap"), expected)
    np.testing.assert_array_equal(xs.unravel(expected, shape), rows)


@pytest.mark.parametrize("widths", [(2, 4, 8, 16), (1, 1, 2, 1), (2**31, 2**31, 1)])
def test_power_of_two_widths_unravel_by_shift_and_mask(widths):
    shape = xs.Shape("u8", widths, xs.Layout([2, 0, 3, 1][: len(widths)] if len(widths) == 4 else [1, 2, 0]))
    rng = np.random.default_rng(1)
    offsets = rng.integers(0, shape.buffer_size, 2000, dtype=np.int64)
    offsets[:2] = [0, shape.buffer_size - 1]
    expected = numpy_unravel(shape, offsets)
    np.testing.assert_array_equal(xs.unravel(offsets, shape), expected)
    np.testing.assert_array_equal(xs.ravel(expected, shape), offsets)
    with pytest.raises(xs.IndexOutOfBoundsError, match="at row 3"):
        xs.unravel(np.r_[offsets[:3], shape.buffer_size], shape)


def test_power_of_two_padding_is_still_checked():
    shape = xs.Shape("f32", [3, 4], xs.Layout([0, 1], [4, 4]))  # dimension 0 padded 3 -> 4

    np.testing.assert_array_equal(xs.unravel(np.array([0, 5, 14]), shape), [[0, 0], [1, 1], [2, 3]])
    with pytest.raises(xs.IndexOutOfBoundsError, match="linear index 7 at row 1 of the batch lands on padding"):
        xs.unravel(np.array([0, 7]), shape)
