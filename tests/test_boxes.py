"""The compiled box writer behind ``indices_in_physical_order``
(``xlashape.core._boxes.write_boxes``), against the boxes written out in plain
Python, at every thread count, and its refusals."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlashape.core._boxes import write_boxes


def boxes_in_python(starts, counts, dims, steps):
    """Every row of every box: the first index moved on by k[i] * steps[i]
    along dims[i], the last axis fastest."""
    rows = []
    for start, count in zip(starts.tolist(), counts.tolist()):
        for k in itertools.product(*(range(c) for c in count)):
            row = list(start)
            for d, step, n in zip(dims, steps, k):
                row[d] += n * step
            rows.append(row)
    return np.array(rows, dtype=np.int64).reshape(-1, starts.shape[1])


@st.composite
def boxes(draw):
    rank = draw(st.integers(1, 5))
    axes = draw(st.integers(1, 4))
    n = draw(st.integers(0, 30))
    starts = np.array(draw(st.lists(st.lists(st.integers(-50, 50), min_size=rank, max_size=rank),
                                    min_size=n, max_size=n)), dtype=np.int64).reshape(n, rank)
    counts = np.array(draw(st.lists(st.lists(st.integers(0, 5), min_size=axes, max_size=axes),
                                    min_size=n, max_size=n)), dtype=np.int64).reshape(n, axes)
    dims = draw(st.lists(st.integers(0, rank - 1), min_size=axes, max_size=axes))
    steps = draw(st.lists(st.integers(-3, 3), min_size=axes, max_size=axes))
    return starts, counts, dims, steps


def first_rows(counts):
    first = np.zeros(counts.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.prod(counts, axis=1), out=first[1:])
    return first


@given(boxes(), st.sampled_from([1, 2, 7]))
def test_boxes_match_python(case, threads):
    starts, counts, dims, steps = case
    first = first_rows(counts)
    out = np.full((int(first[-1]), starts.shape[1]), -999, dtype=np.int64)
    inputs = (starts.copy(), counts.copy(), first.copy())
    write_boxes(starts, counts, first, np.array(dims, np.int64), np.array(steps, np.int64), out, threads=threads)
    np.testing.assert_array_equal(out, boxes_in_python(starts, counts, dims, steps))
    for before, after in zip(inputs, (starts, counts, first)):
        np.testing.assert_array_equal(before, after)


def test_many_boxes_on_the_pool_match_one_thread():
    rng = np.random.default_rng(5)
    starts = rng.integers(-1000, 1000, size=(20_000, 3))
    counts = rng.integers(0, 6, size=(20_000, 2))
    first = first_rows(counts)
    dims, steps = np.array([2, 0], np.int64), np.array([3, -1], np.int64)
    results = []
    for threads in (1, 2, 8):
        out = np.empty((int(first[-1]), 3), dtype=np.int64)
        write_boxes(starts, counts, first, dims, steps, out, threads=threads)
        results.append(out)
    np.testing.assert_array_equal(results[0], results[1])
    np.testing.assert_array_equal(results[0], results[2])
    np.testing.assert_array_equal(results[0][: 200], boxes_in_python(starts, counts, dims, steps)[: 200])


GOOD = {
    "starts": np.zeros((2, 2), np.int64), "counts": np.array([[2], [3]], np.int64),
    "first": np.array([0, 2, 5], np.int64), "dims": np.array([1], np.int64), "steps": np.array([1], np.int64),
    "out": np.zeros((5, 2), np.int64),
}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"first": np.array([0, 2], np.int64)}, "need 3 bounds"),
        ({"counts": np.array([[2, 1], [3, 1]], np.int64)}, "2 x 1 counts"),
        ({"out": np.zeros((5, 3), np.int64)}, "2 columns"),
        ({"dims": np.array([2], np.int64)}, "moves dimension 2, but the rows have 2 columns"),
        ({"dims": np.zeros(65, np.int64), "steps": np.zeros(65, np.int64),
              "counts": np.ones((2, 65), np.int64), "first": np.array([0, 1, 2], np.int64),
              "out": np.zeros((2, 2), np.int64)}, "at most 64 axes, got 65"),
        ({"first": np.array([0, 3, 5], np.int64)}, "by the product of each box's counts"),
        ({"first": np.array([0, 2, 6], np.int64)}, "the 5 rows of out"),
        ({"counts": np.array([[-2], [3]], np.int64), "first": np.array([0, 0, 5], np.int64)}, "counts"),
    ],
)
def test_bad_boxes_are_refused(change, message):
    arguments = {**GOOD, **change}
    with pytest.raises(ValueError, match=message):
        write_boxes(**arguments)
