"""Batch conversion on many threads: results independent of the thread
count, the earliest bad row reported whatever the split, the thread-count
setting, and a forked child converting after its parent used the pool."""

import numpy as np
import pytest
from oracles import numpy_ravel

import xlashape as xs
from xlashape.linear import packing

DIMS = (3, 4, 5)
ROWS = np.array([[0, 0, 0], [2, 3, 4], [1, 2, 3], [2, 0, 4], [1, 1, 1]])


@pytest.mark.parametrize("threads", [1, 2, 3, 7])
def test_results_do_not_depend_on_the_thread_count(threads, every_split):
    rng = np.random.default_rng(threads)
    shape = xs.Shape("f32", [37, 11, 5, 3], xs.Layout([2, 0, 3, 1], [40, 11, 7, 3]))
    rows = np.stack([rng.integers(0, d, 300_000) for d in shape.dimensions], axis=1)
    expected = numpy_ravel(shape, rows)
    for variant in (rows, np.asfortranarray(rows), rows[::-1]):
        got = xs.ravel(variant, shape, threads=threads)
        np.testing.assert_array_equal(got, numpy_ravel(shape, variant))
    np.testing.assert_array_equal(xs.unravel(expected, shape, threads=threads), rows)
    # Bad rows in different chunks (the later chunk's found too): the
    # earliest is reported whatever the thread count.
    bad = rows.copy()
    bad[280_000, 1] = -1
    bad[100_000, 2] = 5
    with pytest.raises(xs.IndexOutOfBoundsError, match="at row 100000 of the batch"):
        xs.ravel(bad, shape, threads=threads)
    wrong = expected.copy()
    wrong[290_000] = -3
    wrong[123_457] = -3
    with pytest.raises(xs.IndexOutOfBoundsError, match="at row 123457 of the batch"):
        xs.unravel(wrong, shape, threads=threads)


def test_thread_count_setting():
    previous = xs.set_num_threads(1)
    try:
        assert xs.get_num_threads() == 1
    finally:
        xs.set_num_threads(previous)
    with pytest.raises(ValueError, match="threads must be >= 1"):
        xs.set_num_threads(0)
    with pytest.raises(ValueError, match="threads must be >= 1"):
        xs.ravel(ROWS, xs.Shape("f32", DIMS), threads=-2)
    with pytest.raises(TypeError, match="threads must be an integer"):
        xs.ravel(ROWS, xs.Shape("f32", DIMS), threads=1.5)


@pytest.mark.parametrize("text", ["f32[1000,1000]", "f32[1000,1000]{1,0:T(8,128)}"])
def test_a_forked_child_converts_after_the_parent_used_the_pool(text):
    multiprocessing = pytest.importorskip("multiprocessing")
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    shape = xs.ShapeUtil.parse_shape_string(text)  # untiled, and tiled (its own pool)
    rows = np.zeros((400_000, 2), dtype=np.int64)
    xs.ravel(rows, shape, threads=2)  # starts the pool in the parent
    with multiprocessing.get_context("fork").Pool(1) as pool:
        result = pool.apply_async(_ravel_in_child, (rows, shape))
        assert result.get(timeout=60) == 0


def _ravel_in_child(rows, shape):
    return int(xs.ravel(rows, shape, threads=2).sum())


@pytest.mark.parametrize("text", [
    "f32[300,517]{0,1}",              # one transpose, cut along the destination's lines
    "bf16[64,9,130]{0,2,1}",          # a transpose under an outer axis
    "f32[300,700]{1,0:T(8,128)}",     # tiles, runs
    "s8[33,1000]{1,0:T(8,128)(4,1)}",  # interleaved tiles
])
@pytest.mark.parametrize("threads", [2, 3, 7])
def test_relayouts_do_not_depend_on_the_thread_count(text, threads, every_split):
    # Split on 64-byte lines of the destination wherever it starts: an out=
    # at every multiple of 4 bytes within a line, streamed and not.
    shape = xs.ShapeUtil.parse_shape_string(text)
    dtype = {"f32": np.float32, "bf16": np.uint16, "s8": np.int8}[text.split("[")[0]]
    values = (np.arange(np.prod(shape.dimensions)) % 251).astype(dtype).reshape(shape.dimensions)
    if text.startswith("bf16"):
        values = values.view(packing.storage_dtype(shape.element_type))
    expected = xs.to_linear(values, shape, threads=1)
    for stream in (0, xs.cpu.MAX_THRESHOLD_BYTES):
        previous = xs.cpu.set_stream_bytes(stream)
        try:
            for offset in range(0, 64, 4):
                raw = np.zeros(expected.nbytes + offset, np.uint8)
                out = raw[offset:].view(expected.dtype)
                assert xs.to_linear(values, shape, out=out, threads=threads) is out
                np.testing.assert_array_equal(out, expected)
            np.testing.assert_array_equal(xs.from_linear(expected, shape, threads=threads), values)
        finally:
            xs.cpu.set_stream_bytes(previous)
