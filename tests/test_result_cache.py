"""The result cache (xlashape/core/result_cache.py): large results of calls
without out= reuse the memory of freed ones, and only theirs. Results stay
right, independent and ordinary arrays; the bounds and the off switch hold;
memory does not pile up; threads and a forked child are safe."""

import os
import pickle
import subprocess
import sys
import threading
import tracemalloc

import numpy as np
import pytest
from oracles import numpy_ravel, numpy_unravel

import xlashape as xs
from xlashape import reference
from xlashape.core import result_cache

SHAPE = xs.Shape("f32", [1000, 700], xs.Layout([0, 1], [1003, 700]))
N = 700_000  # ravel's result 5.6 MB, unravel's 11.2 MB: both over the 4 MiB minimum
MIB = 1 << 20


def _rows(seed, n=N):
    rng = np.random.default_rng(seed)
    return np.stack([rng.integers(0, d, n) for d in SHAPE.dimensions], axis=1)


def _address(array):
    return array.__array_interface__["data"][0]


@pytest.fixture
def cache():
    """A cache with room for 4 buffers of 64 MiB in all, emptied before and
    restored after the test."""
    previous = xs.set_result_cache(0)
    xs.set_result_cache(64 * MIB, 4)
    yield
    xs.set_result_cache(previous["max_bytes"], previous["max_buffers"])


def test_minimum_size_is_the_documented_one():
    assert result_cache.RESULT_CACHE_MIN_BYTES == 4 * MIB
    assert N * 8 >= 4 * MIB


def test_results_are_right_and_ordinary_arrays(cache):
    rows = _rows(0)
    before = rows.copy()
    for _ in range(3):  # the first allocation maps fresh memory, the next ones reuse it
        linear = xs.ravel(rows, SHAPE)
        np.testing.assert_array_equal(linear, numpy_ravel(SHAPE, rows))
        back = xs.unravel(linear, SHAPE)
        np.testing.assert_array_equal(back, numpy_unravel(SHAPE, linear))
        np.testing.assert_array_equal(back, rows)
        for result, shape in ((linear, (N,)), (back, (N, 2))):
            assert result.dtype == np.int64 and result.shape == shape
            assert result.flags.owndata and result.base is None
            assert result.flags.writeable and result.flags.c_contiguous and result.flags.aligned
        del linear, back
    np.testing.assert_array_equal(rows, before)  # inputs never modified
    assert xs.result_cache_info()["hits"] > 0


def test_results_agree_with_the_reference_module(cache):
    rows = _rows(1)
    for _ in range(2):
        linear = xs.ravel(rows, SHAPE)
        back = xs.unravel(linear, SHAPE)
        sample = range(0, N, 3499)
        assert [int(linear[k]) for k in sample] == [
            reference.linear_index_of(SHAPE, rows[k].tolist()) for k in sample]
        assert [tuple(back[k].tolist()) for k in sample] == [
            reference.multi_index_at(SHAPE, int(linear[k])) for k in sample]
        del linear, back


def test_a_freed_result_is_reused_and_a_live_one_never(cache):
    rows = _rows(2)
    first = xs.ravel(rows, SHAPE)
    kept = first.copy()
    second = xs.ravel(rows[::-1], SHAPE)  # first is alive: fresh memory
    assert not np.shares_memory(first, second)
    second[:] = -1
    np.testing.assert_array_equal(first, kept)
    address = _address(second)
    del second
    hits = xs.result_cache_info()["hits"]
    third = xs.ravel(rows, SHAPE)
    assert _address(third) == address  # the freed buffer, reused
    assert xs.result_cache_info()["hits"] == hits + 1
    np.testing.assert_array_equal(third, kept)
    assert not np.shares_memory(first, third)


def test_a_freed_buffer_is_reused_by_a_result_it_fits_closely_enough(cache):
    # The rule result_cache.h states: a buffer is reused by a result it fits
    # with at most 1/8 of the result's size plus 2 MiB to spare.
    line = xs.Shape("s64", [1 << 24])
    rows = np.arange(10 * MIB // 8).reshape(-1, 1)

    def result(megabytes):
        return xs.ravel(rows[: megabytes * MIB // 8], line)

    first = result(4)  # 4 MiB in a 6 MiB mapping: 2 MiB - 4 KiB to spare
    address = _address(first)
    del first
    second = result(4)
    assert _address(second) == address
    large = result(10)  # 10 MiB in a 12 MiB mapping
    address = _address(large)
    del large
    misses = xs.result_cache_info()["misses"]
    small = result(4)  # 8 MiB - 4 KiB to spare: more than 1/8 of 4 MiB plus 2 MiB
    assert _address(small) != address and xs.result_cache_info()["misses"] == misses + 1
    close = result(9)  # 3 MiB - 4 KiB to spare: less than 1/8 of 9 MiB plus 2 MiB
    assert _address(close) == address
    np.testing.assert_array_equal(close, rows[: 9 * MIB // 8, 0])
    del second, small, close


def test_a_view_keeps_the_memory_of_its_base(cache):
    rows = _rows(3)
    view = xs.ravel(rows, SHAPE)[10:20]
    expected = view.copy()
    others = [xs.ravel(rows[::-1], SHAPE) for _ in range(3)]
    for other in others:
        assert not np.shares_memory(view, other)
    del others
    np.testing.assert_array_equal(view, expected)


def test_results_pickle_resize_and_survive_the_cache(cache):
    rows = _rows(4)
    linear = xs.ravel(rows, SHAPE)
    expected = numpy_ravel(SHAPE, rows)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(linear)), expected)
    linear.resize(N + 1_000_000, refcheck=False)  # grows through the handler's realloc
    np.testing.assert_array_equal(linear[:N], expected)
    linear.resize(N // 2, refcheck=False)
    np.testing.assert_array_equal(linear, expected[: N // 2])
    del linear
    np.testing.assert_array_equal(xs.ravel(rows, SHAPE), expected)


def test_small_results_do_not_use_the_cache(cache):
    info = xs.result_cache_info()
    for _ in range(3):
        xs.ravel(_rows(5, 1000), SHAPE)
    after = xs.result_cache_info()
    assert (after["hits"], after["misses"], after["held_buffers"]) == (
        info["hits"], info["misses"], 0)


def test_the_cache_honours_its_bounds(cache):
    offsets = numpy_ravel(SHAPE, _rows(9))
    results = [xs.unravel(offsets, SHAPE) for _ in range(6)]  # 6 live buffers
    assert xs.result_cache_info()["held_buffers"] == 0
    del results
    info = xs.result_cache_info()
    assert info["held_buffers"] == 4 and info["held_bytes"] <= 64 * MIB
    xs.set_result_cache(max_buffers=2)
    assert xs.result_cache_info()["held_buffers"] == 2
    xs.set_result_cache(max_bytes=20 * MIB)  # one 11.2 MB buffer (12 MiB mapped) fits
    info = xs.result_cache_info()
    assert info["held_buffers"] == 1 and info["held_bytes"] <= 20 * MIB
    xs.set_result_cache(max_bytes=8 * MIB)  # none fits
    assert xs.result_cache_info()["held_bytes"] == 0
    del info
    freed = [xs.unravel(offsets, SHAPE) for _ in range(2)]
    del freed  # too large to keep: unmapped at once
    assert xs.result_cache_info()["held_bytes"] == 0


def test_the_off_switch(cache):
    previous = xs.set_result_cache(0)
    assert previous["enabled"] and not xs.result_cache_info()["enabled"]
    rows = _rows(6)
    first = xs.ravel(rows, SHAPE)
    address = _address(first)
    del first
    info = xs.result_cache_info()
    assert info["held_bytes"] == 0 and info["held_buffers"] == 0
    second = xs.ravel(rows, SHAPE)
    np.testing.assert_array_equal(second, numpy_ravel(SHAPE, rows))
    assert xs.result_cache_info()["misses"] == info["misses"]  # not through the handler
    del second, address


def test_bad_bounds_are_refused(cache):
    with pytest.raises(ValueError, match="max_bytes must be >= 0"):
        xs.set_result_cache(-1)
    with pytest.raises(ValueError, match="max_buffers must be between 0 and 64"):
        xs.set_result_cache(max_buffers=65)
    with pytest.raises(ValueError, match=f"max_bytes must be >= 0 and at most {sys.maxsize}, got {2**64}"):
        xs.set_result_cache(2**64)  # not an OverflowError from the C conversion
    for bad in (1.5, "64", True):  # not truncated or parsed into a bound
        with pytest.raises(TypeError, match="max_bytes must be an integer"):
            xs.set_result_cache(bad)
        with pytest.raises(TypeError, match="max_buffers must be an integer"):
            xs.set_result_cache(max_buffers=bad)
    info = xs.result_cache_info()
    assert (info["max_bytes"], info["max_buffers"]) == (64 * MIB, 4)
    xs.set_result_cache(np.int64(32 * MIB), np.uint8(3))  # NumPy integers are integers
    info = xs.result_cache_info()
    assert (info["max_bytes"], info["max_buffers"]) == (32 * MIB, 3)


@pytest.mark.parametrize(("value", "enabled", "max_bytes"), [("0", False, 0), ("100", True, 100 * MIB)])
def test_the_environment_variable(value, enabled, max_bytes, tmp_path):
    # Run outside the checkout, whose xlashape/ is not built in place.
    code = "import xlashape as xs; i = xs.result_cache_info(); print(i['enabled'], i['max_bytes'])"
    env = {**os.environ, "XLASHAPE_RESULT_CACHE_MB": value}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, cwd=tmp_path).stdout.split()
    assert out == [str(enabled), str(max_bytes)]


@pytest.mark.parametrize("value", ["lots", "-1", "1.5", str(1 << 44)])  # 2**44 MiB: 2**64 bytes
def test_a_bad_environment_variable_is_named(value, tmp_path):
    env = {**os.environ, "XLASHAPE_RESULT_CACHE_MB": value}
    done = subprocess.run([sys.executable, "-c", "import xlashape"], env=env, capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.returncode != 0
    assert (f"ValueError: XLASHAPE_RESULT_CACHE_MB must be an integer >= 0 and at most "
            f"{sys.maxsize >> 20}" in done.stderr)
    assert repr(value) in done.stderr


def test_memory_does_not_pile_up(cache):
    rows = _rows(7)
    for _ in range(3):  # warm up: the cache fills to its steady state
        xs.unravel(xs.ravel(rows, SHAPE), SHAPE)
    tracemalloc.start()
    try:
        for _ in range(20):
            xs.unravel(xs.ravel(rows, SHAPE), SHAPE)
        current, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert current < MIB  # no result outlives its loop turn
    info = xs.result_cache_info()
    assert info["held_buffers"] <= 4 and info["held_bytes"] <= 64 * MIB
    assert info["hits"] >= 40


def test_threads_converting_at_once_get_their_own_results(cache):
    rows = [_rows(10 + k) for k in range(4)]
    expected = [numpy_ravel(SHAPE, r) for r in rows]
    failures = []

    def work(k):
        for _ in range(5):
            linear = xs.ravel(rows[k], SHAPE, threads=1)
            back = xs.unravel(linear, SHAPE, threads=1)
            if not (np.array_equal(linear, expected[k]) and np.array_equal(back, rows[k])):
                failures.append(k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_a_forked_child_starts_with_an_empty_cache(cache):
    multiprocessing = pytest.importorskip("multiprocessing")
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    rows = _rows(8)
    xs.ravel(rows, SHAPE)  # freed at once: the parent keeps its buffer
    assert xs.result_cache_info()["held_buffers"] == 1
    with multiprocessing.get_context("fork").Pool(1) as pool:
        held, right = pool.apply_async(_convert_in_child, (rows,)).get(timeout=60)
    assert held == 0 and right
    assert xs.result_cache_info()["held_buffers"] == 1


def _convert_in_child(rows):
    held = xs.result_cache_info()["held_buffers"]
    right = all(np.array_equal(xs.ravel(rows, SHAPE), numpy_ravel(SHAPE, rows)) for _ in range(3))
    return held, right


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux's /proc")
def test_evicted_buffers_are_returned_to_the_system(cache):
    # Results of ten sizes that mostly do not fit each other's buffers: the
    # cache keeps at most 4 (64 MiB) and must unmap the rest as it goes.
    rows = _rows(20, 1_900_000)
    sizes = [600_000 + k * 140_000 for k in range(10)]

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    def one_pass():
        for n in sizes:
            xs.ravel(rows[:n], SHAPE)

    one_pass()
    before = rss()
    for _ in range(4):
        one_pass()
    grown = rss() - before
    assert grown < 32 * MIB  # a leak of even the misses would pass 400 MiB
    info = xs.result_cache_info()
    assert info["held_buffers"] <= 4 and info["held_bytes"] <= 64 * MIB
    assert info["misses"] > 10  # it did map and unmap along the way


def test_the_largest_buffer_count_is_kept_without_overrunning(tmp_path):
    # With max_buffers at its largest (64), the 65th buffer freed into a full
    # cache must push out the oldest one. Run in a child: the code before
    # wrote it one past the end of the cache's table, over its counters.
    code = (
        "import numpy as np, xlashape as xs\n"
        "shape = xs.Shape('s64', [1 << 20])\n"
        "xs.set_result_cache(1 << 30, 64)\n"
        "rows = np.arange(1 << 19).reshape(-1, 1)  # results of 4 MiB, 6 MiB mapped\n"
        "results = [xs.ravel(rows, shape) for _ in range(65)]\n"
        "del results\n"
        "info = xs.result_cache_info()\n"
        "again = xs.ravel(rows, shape)\n"
        "right = np.array_equal(again, rows[:, 0])\n"
        "print(info['held_buffers'], info['held_bytes'], xs.result_cache_info()['hits'], right)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["64", str(64 * 6 * MIB), "1", "True"]


def _leave_poisoned_buffer(items):
    """Leave in the cache a freed buffer that the next result of ``items``
    int64s reuses, every byte of it written (-7)."""
    line = xs.Shape("s64", [items])
    poison = xs.ravel(np.zeros((items, 1), np.int64), line)
    poison.fill(-7)
    del poison


def test_no_entry_point_leaves_memory_of_a_freed_result_unwritten(cache):
    # A fresh mapping reads as zeros, a reused buffer holds what its last
    # owner wrote: each call without out= must write every item of its result.
    rows = _rows(30)
    tiled = xs.Shape("f32", [1000, 700], xs.Layout([1, 0], tiles=[(8, 128)]))
    offsets = numpy_ravel(SHAPE, rows)
    dims = tuple(SHAPE.padded_dimensions[d] for d in SHAPE.layout.major_to_minor)
    columns = tuple(rows[:, d] for d in SHAPE.layout.major_to_minor)
    calls = [
        (lambda: xs.ravel(rows, SHAPE), numpy_ravel(SHAPE, rows)),
        (lambda: xs.ravel(rows, SHAPE, mode="clip"), numpy_ravel(SHAPE, rows)),
        (lambda: xs.ravel(rows, tiled), xs.ravel(rows, tiled, out=np.zeros(N, np.int64))),
        (lambda: xs.unravel(offsets, SHAPE), rows),
        (lambda: xs.ravel_multi_index(columns, dims), np.ravel_multi_index(columns, dims)),
        (lambda: xs.ravel_multi_index(np.stack(columns), dims), np.ravel_multi_index(columns, dims)),
        (lambda: np.stack(xs.unravel_index(offsets, dims)), np.stack(np.unravel_index(offsets, dims))),
    ]
    for k, (call, expected) in enumerate(calls):
        _leave_poisoned_buffer(expected.size)
        hits = xs.result_cache_info()["hits"]
        result = call()
        assert xs.result_cache_info()["hits"] == hits + 1, k  # the poisoned buffer, reused
        np.testing.assert_array_equal(result, expected, err_msg=f"call {k}")
        del result
    sample = range(0, N, 7919)
    assert [int(calls[2][1][k]) for k in sample] == [
        reference.linear_index_of(tiled, rows[k].tolist()) for k in sample]


def test_the_handler_is_set_only_around_the_result_and_only_in_its_thread(cache):
    # NumPy keeps the current handler per context (per thread): xlashape's is
    # current only while its own result is allocated, and only in that thread.
    from numpy._core.multiarray import get_handler_name

    rows = _rows(31)
    stop = threading.Event()
    seen = set()

    def allocate_elsewhere():
        while not stop.is_set():
            seen.add(get_handler_name(np.empty(N)))  # large enough for the cache

    other = threading.Thread(target=allocate_elsewhere)
    other.start()
    try:
        for _ in range(20):
            result = xs.ravel(rows, SHAPE)
            assert get_handler_name(result) == "xlashape_result_cache"
            assert get_handler_name() == get_handler_name(np.empty(N)) == "default_allocator"
            del result
    finally:
        stop.set()
        other.join()
    assert seen == {"default_allocator"}
