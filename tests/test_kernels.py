"""The batch kernels: every CPU level, thread count and rank against the
oracles, exact bounds and division, the worker pool, and ``out=`` overlap."""

import itertools
import json
import os
import subprocess
import sys
import threading

import numpy as np
import pytest
from inputs import fits
from oracles import numpy_ravel, numpy_unravel

import xlashape as xs
from xlashape import cpu, reference
from xlashape.core.threads import available_cpus

LEVELS = xs.cpu_features()["supported"]
INDEX_DTYPES = (np.int32, np.int64, np.uint32, np.uint64, np.int16, np.uint8)


@pytest.fixture(params=LEVELS)
def level(request):
    previous = cpu.set_cpu_level(request.param)
    yield request.param
    cpu.set_cpu_level(previous)


def layouts(rank, rng):
    """(name, Shape) for one rank: row-major, permuted, padded+permuted,
    power-of-two widths, padded power-of-two."""
    dims = tuple(int(d) for d in rng.integers(2, 7, rank))
    perm = tuple(int(p) for p in rng.permutation(rank))
    pow2 = tuple(1 << int(b) for b in rng.integers(0, 4, rank))
    yield "row-major", xs.Shape("f32", dims)
    yield "permuted", xs.Shape("f32", dims, xs.Layout(perm))
    yield "padded", xs.Shape("f32", dims, xs.Layout(perm, [d + k % 3 for k, d in enumerate(dims)]))
    yield "pow2", xs.Shape("f32", pow2, xs.Layout(perm))
    yield "pow2-padded", xs.Shape("f32", [max(1, w - 1) for w in pow2], xs.Layout(perm, pow2))


def valid_rows(shape, n, rng):
    return np.stack([rng.integers(0, d, n) for d in shape.dimensions], axis=1)


@pytest.mark.parametrize("rank", [1, 2, 3, 4, 5, 6, 7, 8, 9, 16])
def test_every_level_and_rank_matches_numpy(level, rank):
    rng = np.random.default_rng(rank)
    for name, shape in layouts(rank, rng):
        rows = valid_rows(shape, 1000, rng)
        offsets = numpy_ravel(shape, rows)
        for dtype in INDEX_DTYPES:
            typed = rows.astype(dtype)
            np.testing.assert_array_equal(xs.ravel(typed, shape), offsets, err_msg=f"{name} {dtype}")
            if fits(offsets, dtype):
                got = xs.unravel(offsets.astype(dtype), shape)
                np.testing.assert_array_equal(got, rows, err_msg=f"{name} {dtype}")
        # the (rank, N) result of the drop-in, and separate columns
        columns = xs.unravel_index(offsets, shape.dimensions, order=shape.layout.minor_to_major,
                                   padded_dims=shape.padded_dimensions)
        np.testing.assert_array_equal(np.stack(columns, axis=1), rows)
        again = xs.ravel_multi_index(tuple(rows.T), shape.dimensions,
                                     order=shape.layout.minor_to_major,
                                     padded_dims=shape.padded_dimensions)
        np.testing.assert_array_equal(again, offsets)


@pytest.mark.parametrize("threads", [1, 2, 3, 7])
def test_levels_and_thread_counts_give_identical_results(threads):
    rng = np.random.default_rng(threads)
    shape = xs.Shape("f32", [37, 11, 5, 3], xs.Layout([2, 0, 3, 1], [40, 11, 7, 3]))
    rows = valid_rows(shape, 200_000, rng)
    offsets = numpy_ravel(shape, rows)
    bad_rows = rows.copy()
    bad_rows[150_000, 1] = 11
    bad_rows[90_001, 3] = -1
    bad_offsets = offsets.copy()
    bad_offsets[170_000] = shape.buffer_size
    bad_offsets[60_001] = 5  # the most minor position is dimension 2, of size 5 in width 7
    for name in LEVELS:
        previous = cpu.set_cpu_level(name)
        try:
            for dtype in (np.int32, np.int64):
                np.testing.assert_array_equal(xs.ravel(rows.astype(dtype), shape, threads=threads), offsets)
                np.testing.assert_array_equal(xs.unravel(offsets.astype(dtype), shape, threads=threads), rows)
                with pytest.raises(xs.IndexOutOfBoundsError, match="at row 90001 of the batch"):
                    xs.ravel(bad_rows.astype(dtype), shape, threads=threads)
                with pytest.raises(xs.IndexOutOfBoundsError, match="at row 60001 of the batch"):
                    xs.unravel(bad_offsets.astype(dtype), shape, threads=threads)
        finally:
            cpu.set_cpu_level(previous)


def test_bounds_are_exact_for_extreme_values(level):
    # Width 8 pads dimension 0 (size 5): an offset is valid when it lies in
    # [0, 56) and its remainder by 8 is below 5.
    shape = xs.Shape("f32", [5, 7], xs.Layout([0, 1], [8, 7]))
    for dtype in (np.int8, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        info = np.iinfo(dtype)
        for value in (info.min, info.max, -1, 4, 5, 7, 8, 55, 56, 2**31, 2**63):
            if not info.min <= value <= info.max:
                continue
            rows = np.zeros((20, 2), dtype=dtype)
            rows[13, 0] = value
            offsets = np.zeros(20, dtype=dtype)
            offsets[13] = value
            if 0 <= value < 5:
                assert xs.ravel(rows, shape)[13] == value
            else:
                with pytest.raises(xs.IndexOutOfBoundsError, match="at row 13 of the batch"):
                    xs.ravel(rows, shape)
            if 0 <= value < 56 and value % 8 < 5:
                assert tuple(xs.unravel(offsets, shape)[13]) == (value % 8, value // 8)
            else:
                with pytest.raises(xs.IndexOutOfBoundsError, match="at row 13 of the batch"):
                    xs.unravel(offsets, shape)


def test_uint64_above_int64_max_is_never_wrapped_onto_a_valid_offset(level):
    # 2**64 - 1 wraps to -1 as int64, and 2**64 + k to k modulo 2**64: both
    # are out of bounds, never a valid offset.
    shape = xs.Shape("f32", [4, 4])
    rows = np.array([[0, 0], [2**64 - 1, 0], [0, 2**63]], dtype=np.uint64)
    with pytest.raises(xs.IndexOutOfBoundsError, match="at row 1 of the batch"):
        xs.ravel(rows, shape)
    with pytest.raises(xs.IndexOutOfBoundsError, match="at row 2 of the batch"):
        xs.unravel(np.array([3, 15, 2**63 + 3], dtype=np.uint64), shape)


@pytest.mark.parametrize("text", ["f32[3,4]{1,0}", "f32[3,4]{0,1:T(2,2)}"])
def test_wrap_and_clip_take_python_ints_no_numpy_dtype_holds(text):
    # NumPy types [-1, 2**64 + 1] as object: no integer dtype holds both.
    # 'wrap' and 'clip' apply to them as to any int, and 'raise' names them.
    shape = xs.ShapeUtil.parse_shape_string(text)
    rows = [[-1, 2**64 + 1], [2**70, -(2**70)], [1, 2]]
    for modes, apply in [("wrap", lambda v, n: v % n), ("clip", lambda v, n: min(max(v, 0), n - 1))]:
        expected = [reference.linear_index_of(shape, [apply(v, n) for v, n in zip(row, (3, 4))])
                    for row in rows]
        assert xs.ravel(rows, shape, mode=modes).tolist() == expected
    wrapped_then_clipped = [reference.linear_index_of(shape, [row[0] % 3, min(max(row[1], 0), 3)])
                            for row in rows]
    assert xs.ravel(rows, shape, mode=("wrap", "clip")).tolist() == wrapped_then_clipped
    with pytest.raises(xs.IndexOutOfBoundsError, match="-1"):
        xs.ravel(rows, shape)
    with pytest.raises(xs.IndexOutOfBoundsError):
        xs.ravel(rows, shape, mode=("raise", "wrap"))
    assert rows == [[-1, 2**64 + 1], [2**70, -(2**70)], [1, 2]]  # the input is not modified


def test_rows_whose_offset_wraps_modulo_2_64_are_refused(level):
    # 3 * 2**62 wraps to a small offset modulo 2**64; the index is out of
    # range, which is what the kernel reports.
    shape = xs.Shape("f32", [2**31, 2**31])
    rows = np.array([[0, 1], [3 * 2**31, 0]], dtype=np.int64)
    with pytest.raises(xs.IndexOutOfBoundsError, match="at row 1 of the batch"):
        xs.ravel(rows, shape)


@pytest.mark.parametrize("widths", [(3, 2**50), (2**26 + 1, 2**26 - 3), (7, 3, 2**49 - 1),
                                    (2**31 - 1, 2**31 - 1, 1), (3, 2**30 - 1, 2**31 - 1), (1, 2**52), (1, 5, 2**60 // 5)])
def test_unravel_division_is_exact_near_2_52_and_beyond(level, widths):
    # Sizes up to 2**52 take the double-precision division; larger ones the
    # 128-bit one. Offsets at both ends of every quotient are checked.
    shape = xs.Shape("f32", widths, xs.Layout(tuple(range(len(widths)))))
    size = shape.buffer_size
    rng = np.random.default_rng(len(widths))
    offsets = np.concatenate([
        [0, 1, size - 1, size - 2, size // 2, size // 3],
        rng.integers(0, size, 3000, dtype=np.int64),
        np.array([k * widths[0] - 1 for k in range(1, 200)] + [k * widths[0] for k in range(1, 200)], np.int64),
    ]).astype(np.int64)
    offsets = offsets[(offsets >= 0) & (offsets < size)]
    expected = []
    for n in offsets.tolist():
        row = []
        for w in widths:  # dimension 0 is most minor
            n, r = divmod(n, w)
            row.append(r)
        expected.append(row)
    np.testing.assert_array_equal(xs.unravel(offsets, shape), np.array(expected))
    np.testing.assert_array_equal(xs.ravel(np.array(expected), shape), offsets)


# -- the pool --------------------------------------------------------------------


def test_more_threads_than_the_pool_holds_still_run():
    shape = xs.Shape("f32", [100, 100])
    rows = np.tile(np.array([[99, 98]]), (300_000, 1))
    np.testing.assert_array_equal(xs.ravel(rows, shape, threads=10_000), np.full(300_000, 9998))


def test_calls_from_several_python_threads_at_once():
    shape = xs.Shape("f32", [37, 11, 5, 3], xs.Layout([2, 0, 3, 1], [40, 11, 7, 3]))
    rng = np.random.default_rng(5)
    rows = valid_rows(shape, 150_000, rng)
    offsets = numpy_ravel(shape, rows)
    failures = []

    def work():
        for _ in range(5):
            if not np.array_equal(xs.ravel(rows, shape, threads=2), offsets):
                failures.append("ravel")
            if not np.array_equal(xs.unravel(offsets, shape, threads=2), rows):
                failures.append("unravel")

    workers = [threading.Thread(target=work) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert failures == []


def _run_python(code, **env):
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True,
        env={**os.environ, **env}, cwd=os.path.dirname(__file__), timeout=120,
    )
    return result


def test_default_threads_follow_affinity_and_the_environment():
    if hasattr(os, "sched_getaffinity"):
        assert xs.get_num_threads() <= len(os.sched_getaffinity(0)) or "XLASHAPE_NUM_THREADS" in os.environ
    result = _run_python("import xlashape; print(xlashape.get_num_threads())", XLASHAPE_NUM_THREADS="3")
    assert result.stdout.strip() == "3", result.stderr
    result = _run_python("import xlashape", XLASHAPE_NUM_THREADS="zero")
    assert result.returncode != 0 and "XLASHAPE_NUM_THREADS must be an integer" in result.stderr


@pytest.mark.parametrize("name", LEVELS)
def test_the_environment_forces_a_lower_level(name):
    result = _run_python("import xlashape; print(xlashape.cpu_features()['level'])", XLASHAPE_CPU=name)
    assert result.stdout.strip() == name, result.stderr


@pytest.mark.parametrize("name", cpu.LEVELS)
def test_the_environment_and_set_cpu_level_refuse_the_same_levels(name):
    # A level this CPU lacks: set_cpu_level raises, and so does the import
    # under XLASHAPE_CPU, naming the variable, the level and the best there is.
    # (Every level passes on a CPU with AVX-512; the next test simulates one
    # without.)
    try:
        previous = cpu.set_cpu_level(name)
    except ValueError:
        refused = True
    else:
        refused = False
        cpu.set_cpu_level(previous)
    result = _run_python("import xlashape; print(xlashape.cpu_features()['level'])", XLASHAPE_CPU=name)
    if refused:
        best = xs.cpu_features()["best"]
        assert result.returncode != 0 and result.stdout == ""
        assert f"ValueError: XLASHAPE_CPU={name!r} asks for a level this CPU lacks" in result.stderr
        assert f"the best it supports is {best!r}" in result.stderr
    else:
        assert result.stdout.strip() == name, result.stderr


@pytest.mark.parametrize("best", cpu.LEVELS[:-1])
def test_the_environment_refuses_a_level_above_the_best(best):
    # A CPU whose best level is ``best``, as xlashape.cpu reads it at import:
    # the import under XLASHAPE_CPU set to the next level up raises. (The
    # process starts with the variable set to a level this CPU has; the
    # module is then imported again with the CPU's answer replaced.)
    wanted = cpu.LEVELS[cpu.LEVELS.index(best) + 1]
    code = (
        "import importlib, os, xlashape\n"
        "from xlashape import cpu\n"
        "from xlashape.core import _batch\n"
        f"_batch.best_cpu_level = lambda: {best!r}\n"
        f"os.environ['XLASHAPE_CPU'] = {wanted!r}\n"
        "importlib.reload(cpu)\n"
    )
    result = _run_python(code, XLASHAPE_CPU="baseline")
    assert result.returncode != 0
    assert result.stderr.strip().splitlines()[-1] == (
        f"ValueError: XLASHAPE_CPU={wanted!r} asks for a level this CPU lacks; the best it "
        f"supports is {best!r} (set XLASHAPE_CPU to that or lower, or unset it to use the best)"
    )
    result = _run_python(code.replace(f"= {wanted!r}", f"= {best!r}") + "print(cpu.cpu_features()['level'])",
                         XLASHAPE_CPU="baseline")
    assert result.stdout.strip() == best, result.stderr


def test_cpu_features_report_the_pool_before_and_after_it_starts():
    # Before the first call split across threads, the pool reports the
    # workers it will start (threads - 1, never a misleading 0, and never
    # more than the CPUs this process may use, less one) and that it has not
    # started; after, the workers it started and their wake-up time.
    code = (
        "import json, numpy as np, xlashape as xs\n"
        "before = xs.cpu_features()\n"
        "rows = np.zeros((1_000_000, 2), np.int64)\n"
        "xs.ravel(rows, xs.Shape('f32', [4, 4]))\n"
        "after = xs.cpu_features()\n"
        "print(json.dumps([before, after]))\n"
    )
    result = _run_python(code, XLASHAPE_NUM_THREADS="3")
    assert result.returncode == 0, result.stderr
    before, after = json.loads(result.stdout)
    workers = min(3, available_cpus()) - 1
    assert before["threads"] == after["threads"] == min(3, available_cpus())
    assert before["pool_started"] is False and before["pool_workers"] == workers
    assert before["pool_wake_ns"] is None
    if workers:
        assert after["pool_started"] is True and after["pool_workers"] == workers
        assert after["pool_wake_ns"] > 0
    else:
        assert after["pool_started"] is False


def test_no_call_runs_on_more_threads_than_the_cpus():
    # threads= past the CPUs this process may use starts no more workers
    # than those CPUs less one: more would only take turns on them.
    code = (
        "import json, numpy as np, xlashape as xs\n"
        "rows = np.zeros((4_000_000, 2), np.int64)\n"
        "for threads in (16, 64, 300):\n"
        "    xs.ravel(rows, xs.Shape('f32', [4, 4]), threads=threads)\n"
        "    xs.unravel(np.zeros(4_000_000, np.int64), xs.Shape('f32', [4, 4]), threads=threads)\n"
        "    xs.to_linear(np.zeros((4096, 4096), np.float32), 'f32[4096,4096]{0,1}', threads=threads)\n"
        "print(xs.cpu_features()['pool_workers'])\n"
    )
    result = _run_python(code)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) <= available_cpus() - 1
    result = _run_python("import xlashape as xs; print(xs.cpu_features()['pool_workers'])",
                         XLASHAPE_NUM_THREADS="1")
    assert result.stdout.strip() == "0", result.stderr


def test_features_count_only_the_threads_a_call_may_run_on():
    # Where the build has no pool (Windows) the CPU limit is 1 from import;
    # the same limit set here shows what cpu_features says there.
    code = (
        "import json, xlashape as xs\n"
        "from xlashape.core import _batch\n"
        "print(json.dumps([_batch.POOL_THREADED, _batch.cpu_limit()]))\n"
        "_batch.set_cpu_limit(1)\n"
        "xs.ravel(__import__('numpy').zeros((4_000_000, 2), 'int64'), xs.Shape('f32', [4, 4]), threads=8)\n"
        "f = xs.cpu_features()\n"
        "print(json.dumps([f['threads'], f['pool_workers'], f['pool_started']]))\n"
    )
    result = _run_python(code, XLASHAPE_NUM_THREADS="8")
    assert result.returncode == 0, result.stderr
    (threaded, limit), features = map(json.loads, result.stdout.splitlines())
    assert limit == (available_cpus() if threaded else 1)
    assert features == [1, 0, False]


def test_unknown_levels_are_refused():
    with pytest.raises(ValueError, match="unknown CPU level"):
        cpu.set_cpu_level("sse9")
    result = _run_python("import xlashape", XLASHAPE_CPU="sse9")
    assert result.returncode != 0 and "XLASHAPE_CPU must be one of" in result.stderr
    features = xs.cpu_features()
    assert features["level"] in features["supported"] and features["best"] == features["supported"][-1]


# -- out= overlap (issue 12, item 3) ------------------------------------------------


def test_out_overlapping_a_byteswapped_input_is_refused():
    # The check compares out with what the caller passed, not with the
    # native-order copy made of it.
    shape = xs.Shape("f32", [4, 4])
    raw = np.array([[1, 2], [2, 3]], ">i8")
    with pytest.raises(ValueError, match="overlaps"):
        xs.ravel(raw, shape, out=raw.reshape(-1)[:2].view(np.int64))
    np.testing.assert_array_equal(raw, [[1, 2], [2, 3]])
    linear = np.array([1, 2, 3, 4, 5, 6, 7, 8], ">i8")
    with pytest.raises(ValueError, match="overlaps"):
        xs.unravel(linear[:4], shape, out=linear.view(np.int64).reshape(4, 2))
    np.testing.assert_array_equal(linear, [1, 2, 3, 4, 5, 6, 7, 8])


def test_out_overlapping_a_narrower_input_is_refused():
    shape = xs.Shape("f32", [4, 4])
    raw = np.zeros(8, dtype=np.int64)
    small = raw.view(np.int32)[:4].reshape(2, 2)  # int32 rows inside raw's bytes
    with pytest.raises(ValueError, match="overlaps"):
        xs.ravel(small, shape, out=raw[:2])
    with pytest.raises(ValueError, match="overlaps"):
        xs.IndexUtil.multidimensional_index_to_linear_index(shape, small, out=raw[:2])


def test_drop_in_out_overlapping_the_callers_array_is_refused():
    raw = np.array([[1, 2], [2, 3]], ">i8")
    with pytest.raises(ValueError, match="overlaps"):
        xs.ravel_multi_index(raw, (4, 4), out=raw.reshape(-1)[:2].view(np.int64))
    columns = (np.array([1, 2], ">i8"), np.array([2, 3], ">i8"))
    with pytest.raises(ValueError, match="overlaps"):
        xs.ravel_multi_index(columns, (4, 4), out=columns[0].view(np.int64))
    linear = np.array([1, 2, 3, 4], ">i8")
    with pytest.raises(ValueError, match="overlaps"):
        xs.unravel_index(linear[:2], (4, 4), out=linear.view(np.int64).reshape(2, 2))
@pytest.mark.parametrize("n", [1, 2, 3])
def test_one_row_with_strided_entries_reads_each_entry(level, n):
    # a single row whose entries are not adjacent (a column-sliced view) was
    # once read as if it were contiguous: [[2, 5, 0, 0, 2, 0]] gave 159, not 206
    shape = xs.Shape("f32", [4, 6, 4, 1, 3, 1])
    for dtype in INDEX_DTYPES:
        wide = np.zeros((2 * n, 18), dtype)
        rows = wide[::2, ::3]
        rows[:] = [2, 5, 0, 0, 2, 0]
        np.testing.assert_array_equal(xs.ravel(rows, shape), numpy_ravel(shape, rows))
        np.testing.assert_array_equal(xs.ravel(wide[1:2, ::3], shape), [0])


# -- the vector kernels' paths (in-register rows, the division without correction) --

# Rows past two 256-row blocks and not a multiple of any vector width (4, 8),
# so that full vectors, block edges and the scalar tail all run.
VECTOR_N = 2 * 256 + 8 * 5 + 3
# Bad rows at the edges of vectors, blocks and the tail.
EDGE_ROWS = (0, 3, 4, 7, 8, 255, 256, 511, 512, VECTOR_N - 3, VECTOR_N - 1)
# and those of 32-bit lanes (16 rows a vector at AVX-512)
EDGE_ROWS_COLUMNS = tuple(sorted({*EDGE_ROWS, 15, 16, 17}))


def every_order(rank):
    """All orders for ranks up to 4 (each permutation gives the in-register
    transposes their own index vectors), a few above."""
    if rank <= 4:
        return list(itertools.permutations(range(rank)))
    rng = np.random.default_rng(rank)
    return [tuple(range(rank)), tuple(range(rank - 1, -1, -1))] + [tuple(rng.permutation(rank)) for _ in range(2)]


def vector_shapes(rank):
    """Odd widths, padded odd widths, and power-of-two widths, padded and not."""
    rng = np.random.default_rng(rank + 100)
    dims = [int(d) for d in rng.integers(2, 9, rank)]
    pow2 = [1 << int(b) for b in rng.integers(0, 4, rank)]
    for order in every_order(rank):
        yield "odd", xs.Shape("f32", dims, xs.Layout(order))
        yield "padded", xs.Shape("f32", dims, xs.Layout(order, [d + 1 + k % 2 for k, d in enumerate(dims)]))
        yield "pow2", xs.Shape("f32", pow2, xs.Layout(order))
        yield "pow2-padded", xs.Shape("f32", [max(1, w - 1) for w in pow2], xs.Layout(order, pow2))


def out_forms(n, rank):
    """A C-contiguous out=, every other column of a wider array, and the
    transpose of a (rank, N) array."""
    yield "C", np.full((n, rank), -7, np.int64)
    yield "column-strided", np.full((n, 2 * rank), -7, np.int64)[:, ::2]
    yield "transposed", np.full((rank, n), -7, np.int64).T


@pytest.mark.parametrize("rank", [1, 2, 3, 4, 5, 6, 7, 8])
def test_unravel_paths_match_numpy_and_the_reference(level, rank):
    rng = np.random.default_rng(rank)
    for name, shape in vector_shapes(rank):
        offsets = rng.integers(0, shape.buffer_size, VECTOR_N)
        offsets[:2] = [0, shape.buffer_size - 1]
        expected = numpy_unravel(shape, offsets)
        valid = np.all(expected < np.array(shape.dimensions), axis=1)
        offsets, expected = offsets[valid], expected[valid]
        for dtype in (np.int32, np.int64):
            typed = offsets.astype(dtype)
            for form, out in out_forms(len(offsets), rank):
                got = xs.unravel(typed, shape, out=out)
                assert got is out
                np.testing.assert_array_equal(out, expected, err_msg=f"{name} {shape.layout} {dtype} {form}")
        for k in (0, 1, len(offsets) // 2, len(offsets) - 1):
            assert tuple(expected[k]) == reference.multi_index_at(shape, int(offsets[k]))


@pytest.mark.parametrize("rank", [1, 2, 3, 4, 5, 6, 7])
@pytest.mark.parametrize("dims", [[3, 5, 2, 7, 3, 2, 4], [3, 7, 1, 15, 3, 1, 7]])  # widths odd, or powers of two
def test_unravel_names_the_first_bad_row_at_vector_and_block_edges(level, rank, dims):
    dims = dims[:rank]
    for order in every_order(rank)[:6]:
        shape = xs.Shape("f32", dims, xs.Layout(order, [d + 1 for d in dims]))
        good = np.zeros(VECTOR_N, np.int64)  # offset 0 is valid
        for row in EDGE_ROWS:
            # outside the buffer, negative, and on the most minor dimension's padding
            for bad_value in (shape.buffer_size, -1, dims[order[0]]):
                for dtype in (np.int32, np.int64):
                    offsets = good.astype(dtype)
                    offsets[row:row + 3] = bad_value  # later bad rows too: the first is named
                    for _, out in out_forms(VECTOR_N, rank):
                        with pytest.raises(xs.IndexOutOfBoundsError, match=f"at row {row} of the batch"):
                            xs.unravel(offsets, shape, out=out)


@pytest.mark.parametrize("rank", [1, 2, 3, 4])
def test_unravel_into_32_bit_rows_matches_numpy_and_names_the_first_bad_row(level, rank):
    # C-contiguous 32-bit rows (ranks 1, 2 and 4, every order) and
    # contiguous 32-bit columns (ranks 2 to 4) come straight from the
    # vector registers at the vector levels; the others narrow an int64
    # block
    rng = np.random.default_rng(rank + 300)
    for name, shape in vector_shapes(rank):
        offsets = rng.integers(0, shape.buffer_size, VECTOR_N)
        expected = numpy_unravel(shape, offsets)
        valid = np.all(expected < np.array(shape.dimensions), axis=1)
        outside = [shape.buffer_size, *offsets[~valid][:1]]  # past the end, and on padding
        offsets, expected = offsets[valid], expected[valid]
        for linear, result in ((np.int32, np.int32), (np.int64, np.uint32)):
            got = xs.unravel(offsets.astype(linear), shape, dtype=result)
            assert got.dtype == result and got.flags.c_contiguous
            np.testing.assert_array_equal(got, expected, err_msg=f"{name} {shape.layout} {linear}")
            columns = np.full((rank, len(offsets)), 7, dtype=result).T
            xs.unravel(offsets.astype(linear), shape, out=columns)
            np.testing.assert_array_equal(columns, expected, err_msg=f"{name} {shape.layout} {linear}")
        for row, value in itertools.product((0, 3, 4, len(offsets) - 1), outside):
            bad = offsets.copy()
            bad[row:] = value  # later bad rows too: the first is named
            for out in (None, np.empty((rank, len(offsets)), np.int32).T):
                with pytest.raises(xs.IndexOutOfBoundsError, match=f"at row {row} of the batch"):
                    xs.unravel(bad.astype(np.int32), shape, dtype=np.int32, out=out)


@pytest.mark.parametrize("dims", [(5, 7), (3, 5, 7), (64, 128, 256, 32), (101, 37, 23, 13)])
def test_unravel_into_short_32_bit_columns_matches_numpy(level, dims):
    # Fewer rows than a vector: the kernel's scalar tail writes them, a
    # one-row result then being columns one item apart
    rng = np.random.default_rng(len(dims))
    shape = xs.Shape("f32", dims)
    for n in range(1, 10):
        offsets = rng.integers(0, shape.buffer_size, n)
        for result in (np.int32, np.uint32):
            columns = np.full((len(dims), n), 7, dtype=result).T
            xs.unravel(offsets.astype(np.int32), shape, out=columns)
            np.testing.assert_array_equal(columns, np.stack(np.unravel_index(offsets, dims), axis=1))


@pytest.mark.parametrize("widths", [(3, 2**50 // 3), (2**25 + 1, 2**25 - 1), (1, 2**50), (7, 3, 2**50 // 21),
                                    (2**50 - 1,), (5, 2**48 + 1), (2**50 + 1,),
                                    (49, 103, 2**50 // (49 * 103))])
def test_unravel_is_exact_at_the_vector_division_limit(level, widths):
    # Buffers of at most 2**50 elements divide by floor(fma(n, 1/w, 1/(2w)))
    # at the vector levels; one element more takes the exact 128-bit path.
    # (Widths 49 and 103 are ones where floor(n * (1/w)) alone is one too
    # small at n = w.)
    shape = xs.Shape("f32", widths, xs.Layout(tuple(range(len(widths)))))
    size = shape.buffer_size
    rng = np.random.default_rng(size % 1000)
    edges = [k * widths[0] + e for k in (1, 2, 3, size // widths[0] - 1, size // widths[0] // 2) for e in (-1, 0, 1)]
    offsets = np.array([0, 1, size - 1, size - 2, size // 2] + edges, np.int64)
    offsets = np.concatenate([offsets, rng.integers(0, size, 4000, dtype=np.int64), size - 1 - offsets])
    offsets = offsets[(offsets >= 0) & (offsets < size)]
    expected = np.array([reference.multi_index_at(shape, int(n)) for n in offsets])
    np.testing.assert_array_equal(xs.unravel(offsets, shape), expected)
    np.testing.assert_array_equal(xs.ravel(expected, shape), offsets)


@pytest.mark.parametrize(("dims", "widths"), [
    ((2**16, 2**15), (2**16, 2**15)),  # 2**31 elements: 32-bit arithmetic, the last offset 2**31 - 1
    ((2**16, 2**15 + 1), (2**16, 2**15 + 1)),  # past 2**31: offsets that 32 bits would wrap
    ((2**16 - 1, 2**15), (2**16, 2**15 + 1)),  # past 2**31 by its padding only
    ((2**17, 2**16), (2**17, 2**16)),  # past 2**32: offsets that 32 bits would wrap
    ((2**31 + 1, 1), (2**31 + 1, 1)),  # an extent past 2**31: -1 read unsigned is within it
])
def test_int32_columns_into_int64_at_the_32_bit_buffer_limit(level, dims, widths):
    rng = np.random.default_rng(31)
    for order in ((1, 0), (0, 1)):
        shape = xs.Shape("f32", dims, xs.Layout(order, widths))
        rows = valid_rows(shape, VECTOR_N, rng)
        last = [min(d - 1, 2**31 - 1) for d in dims]  # the last index int32 holds
        rows[:3] = [last, [0, last[1]], [last[0], 0]]
        expected = numpy_ravel(shape, rows)
        columns = np.asfortranarray(rows.astype(np.int32))
        np.testing.assert_array_equal(xs.ravel(columns, shape), expected, err_msg=f"{order}")
        got = xs.ravel_multi_index(tuple(columns.T), dims, order=order, padded_dims=widths)
        np.testing.assert_array_equal(got, expected, err_msg=f"{order}")
        for row in (0, 17, VECTOR_N - 1):
            bad = columns.copy()
            bad[row, 0] = -1
            with pytest.raises(xs.IndexOutOfBoundsError, match=f"at row {row} of the batch"):
                xs.ravel(bad, shape)


def ravel_shapes(rank):
    """Layouts whose extents and strides fit in 32 bits (the 32x32-bit
    product) and ones whose strides do not, each in several orders."""
    rng = np.random.default_rng(rank + 200)
    small = [int(d) for d in rng.integers(2, 9, rank)]
    big = [3] * (rank - 2) + [2**17, 2**17 + 3] if rank >= 2 else [2**33]
    for order in every_order(rank)[:8]:
        yield "narrow", xs.Shape("f32", small, xs.Layout(order, [d + k % 2 for k, d in enumerate(small)]))
        yield "wide", xs.Shape("f32", big, xs.Layout(order))


@pytest.mark.parametrize("rank", [1, 2, 3, 4, 5, 8])
def test_ravel_paths_match_numpy_and_name_the_first_bad_row(level, rank):
    rng = np.random.default_rng(rank)
    for name, shape in ravel_shapes(rank):
        rows = valid_rows(shape, VECTOR_N, rng)
        rows[0] = [d - 1 for d in shape.dimensions]
        expected = numpy_ravel(shape, rows)
        assert reference.linear_index_of(shape, rows[0].tolist()) == expected[0]
        for dtype in (np.int32, np.int64) if fits(rows, np.int32) else (np.int64,):
            typed = rows.astype(dtype)
            # C rows, and contiguous columns (the fused column kernels; int32
            # ones into a buffer of at most 2**31 elements in 32-bit arithmetic)
            for form in (np.ascontiguousarray, np.asfortranarray):
                got = xs.ravel(form(typed), shape)
                np.testing.assert_array_equal(got, expected, err_msg=f"{name} {shape.layout} {dtype} {form.__name__}")
            for row in EDGE_ROWS_COLUMNS:
                d = row % rank
                # just past the extent, negative, and (int64) 2**32 past a valid
                # value, which a 32-bit product would take for that value
                for value in (shape.dimensions[d], -1, 2**32 + 1):
                    if not fits(np.array([value]), dtype) or 0 <= value < shape.dimensions[d]:
                        continue
                    bad = typed.copy()
                    bad[row:row + 3, d] = value  # later bad rows too: the first is named
                    for form in (np.ascontiguousarray, np.asfortranarray):
                        with pytest.raises(xs.IndexOutOfBoundsError, match=f"at row {row} of the batch"):
                            xs.ravel(form(bad), shape)
