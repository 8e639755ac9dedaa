"""How the kernels store results (csrc/vec/kernels_store.h): plain stores in
cache, aligned slots past the aligned-slot threshold, non-temporal stores
past the streaming threshold. Each is checked against NumPy at every CPU
level, at every ``out=`` alignment (the head and tail written under
masks), for int32 and int64 results, with the thresholds forced so that
small batches take each way; and the thresholds' derivation from the
CPU's caches; and the ravel's prefetch modes, which change no result."""

import subprocess
import sys

import numpy as np
import pytest
from command_line import command_env
from inputs import buffer_at
from oracles import numpy_ravel

import xlashape as xs
from xlashape import cpu

LEVELS = xs.cpu_features()["supported"]
# rank 4 (the vector rows of every level), power-of-two widths, ranks 3, 8,
# 5 and 7 (rows laid out on the stack at some level, then streamed), rank 1
SHAPES = [
    xs.Shape("f32", [37, 11, 5, 3], xs.Layout([2, 0, 3, 1], [40, 11, 7, 3])),
    xs.Shape("f32", [16, 8, 32, 4], xs.Layout([3, 2, 1, 0])),  # every width a power of two
    xs.Shape("f32", [9, 10, 11], xs.Layout([1, 2, 0])),
    xs.Shape("f32", [3, 2, 3, 2, 3, 2, 3, 2]),
    xs.Shape("f32", [5, 4, 3, 6, 7], xs.Layout([4, 2, 0, 1, 3], [5, 5, 3, 6, 8])),
    xs.Shape("f32", [2, 3, 4, 2, 3, 4, 2], xs.Layout([0, 1, 2, 3, 4, 5, 6])),
    xs.Shape("f32", [1000]),
]
# the odd count leaves a tail that is no whole vector
COUNTS = (1_000, 30_011)


@pytest.fixture(params=LEVELS)
def level(request):
    previous = cpu.set_cpu_level(request.param)
    yield request.param
    cpu.set_cpu_level(previous)


@pytest.fixture(params=["plain", "aligned", "streamed"])
def threshold(request):
    """How every call of the test stores its results."""
    stream = cpu.set_stream_bytes(0 if request.param == "streamed" else cpu.MAX_THRESHOLD_BYTES)
    align = cpu.set_align_bytes(cpu.MAX_THRESHOLD_BYTES if request.param == "plain" else 0)
    yield request.param
    cpu.set_stream_bytes(stream)
    cpu.set_align_bytes(align)


def rows_of(shape, n, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return np.stack([rng.integers(0, d, n) for d in shape.dimensions], axis=1).astype(dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("out_dtype", [np.int64, np.int32])
def test_every_out_alignment(level, threshold, shape, n, out_dtype):
    itemsize = np.dtype(out_dtype).itemsize
    for index_dtype in (np.int64, np.int32):
        rows = rows_of(shape, n, index_dtype)
        offsets = numpy_ravel(shape, rows.astype(np.int64))
        linear = offsets.astype(index_dtype)
        for start in range(0, 64, itemsize):
            for given in (rows, np.asfortranarray(rows)):  # C rows, and contiguous columns
                out = buffer_at((n,), out_dtype, start)
                assert xs.ravel(given, shape, out=out, threads=1) is out
                np.testing.assert_array_equal(out, offsets, err_msg=f"ravel into out= at {start} mod 64")
            out = buffer_at((n, shape.rank), out_dtype, start)
            xs.unravel(linear, shape, out=out, threads=1)
            np.testing.assert_array_equal(out, rows, err_msg=f"unravel into out= at {start} mod 64")


@pytest.mark.parametrize("out_dtype", [np.int64, np.int32])
@pytest.mark.parametrize("bad_row", [0, 1, 2, 30_000])
def test_a_bad_offset_is_found_wherever_out_starts(level, threshold, out_dtype, bad_row):
    # The rows before the first on a 64-byte boundary run apart (rows of
    # 16 bytes at 16 mod 64: three), then the rest: an offset outside the
    # buffer is named in either part.
    shape = xs.Shape("f32", [37, 11, 5, 3], xs.Layout([2, 0, 3, 1]))
    for rank_shape in (shape, xs.Shape("f32", [37, 11])):
        offsets = numpy_ravel(rank_shape, rows_of(rank_shape, 30_011, np.int64))
        offsets[bad_row] = rank_shape._plan.size
        itemsize = np.dtype(out_dtype).itemsize
        for start in range(0, 64, itemsize):
            out = buffer_at((len(offsets), rank_shape.rank), out_dtype, start)
            with pytest.raises(xs.IndexOutOfBoundsError, match=f"at row {bad_row} of the batch"):
                xs.unravel(offsets, rank_shape, out=out, threads=1)


@pytest.mark.parametrize("out_dtype", [np.int64, np.int32])
@pytest.mark.parametrize("bad_row", [0, 1, 2, 30_000])
def test_a_bad_index_is_found_wherever_out_starts(level, threshold, out_dtype, bad_row):
    # A ravel stored other than plainly runs the rows before the first
    # whose result starts a 64-byte line apart from the rest: an index out
    # of range is named in either part.
    shape = SHAPES[0]
    rows = rows_of(shape, 30_011, np.int64)
    rows[bad_row, 2] = shape.dimensions[2]
    for start in range(0, 64, np.dtype(out_dtype).itemsize):
        for given in (rows, rows.astype(np.int32), np.asfortranarray(rows.astype(np.int32))):
            out = buffer_at((len(rows),), out_dtype, start)
            with pytest.raises(xs.IndexOutOfBoundsError, match=f"row {bad_row}"):
                xs.ravel(given, shape, out=out, threads=1)


def test_no_byte_outside_the_result_is_written(level, threshold):
    # out= a window of a larger buffer filled with a marker: the masked
    # head and tail must leave the bytes on either side alone.
    shape = SHAPES[0]
    rows = rows_of(shape, 30_011, np.int64)
    offsets = numpy_ravel(shape, rows)
    for start in (0, 8, 16, 56):
        whole = buffer_at((30_011 * 4 + 32,), np.int64, start)
        whole[:] = -7
        xs.unravel(offsets, shape, out=whole[16:-16].reshape(-1, 4), threads=1)
        assert (whole[:16] == -7).all() and (whole[-16:] == -7).all()
        np.testing.assert_array_equal(whole[16:-16].reshape(-1, 4), rows)
        whole[:] = -7
        xs.ravel(rows, shape, out=whole[16:16 + 30_011], threads=1)
        assert (whole[:16] == -7).all() and (whole[16 + 30_011:] == -7).all()
        np.testing.assert_array_equal(whole[16:16 + 30_011], offsets)


@pytest.mark.parametrize("threads", [2, 3, 7])
def test_threads_write_neighbouring_chunks(level, threshold, threads):
    # Chunk boundaries fall inside vectors and cache lines: each thread's
    # masked head and tail leave its neighbours' items alone. Several
    # calls, since a call may run alone while splitting measures slower.
    shape = SHAPES[0]
    rows = rows_of(shape, 200_003, np.int64, seed=threads)
    offsets = numpy_ravel(shape, rows)
    for start in (8, 16, 40):
        for _ in range(3):
            out = buffer_at((len(rows),), np.int64, start)
            np.testing.assert_array_equal(xs.ravel(rows, shape, out=out, threads=threads), offsets)
            out = buffer_at(rows.shape, np.int64, start)
            np.testing.assert_array_equal(xs.unravel(offsets, shape, out=out, threads=threads), rows)


@pytest.mark.parametrize("mode", ["clip", "wrap"])
def test_blocks_of_a_mode_each_stream_on_their_own(level, threshold, mode):
    # Under clip and wrap the kernel runs block by block, each block a
    # stream that starts mid-array; a block with an index out of range is
    # redone after its stream ended.
    # Blocks end where the results reach a 64-byte line, wherever out=
    # starts.
    shape = SHAPES[0]
    rows = rows_of(shape, 30_011, np.int64)
    rows[20_000] = [40, -1, 9, 3]
    dims = np.array(shape.dimensions)
    expected = numpy_ravel(shape, np.clip(rows, 0, dims - 1) if mode == "clip" else rows % dims)
    for out_dtype in (np.int64, np.int32):
        for start in (0, 4, 16, 56):
            for given in (rows, np.asfortranarray(rows.astype(np.int32))):  # and int32 columns
                out = buffer_at((len(rows),), out_dtype, start)
                xs.ravel(given, shape, out=out, mode=mode, threads=1)
                np.testing.assert_array_equal(out, expected, err_msg=f"out= at {start} mod 64")


@pytest.mark.parametrize(
    ("name", "derived"), [("stream", cpu._cache_threshold), ("align", cpu._l2_threshold)]
)
def test_thresholds_are_set_and_reported(name, derived):
    get, put = getattr(cpu, f"{name}_bytes"), getattr(cpu, f"set_{name}_bytes")
    previous = put(12345)
    try:
        assert get() == 12345
        assert xs.cpu_features()[f"{name}_bytes"] == 12345
        assert put(None) == 12345
        assert get() == derived()
    finally:
        put(previous)
    with pytest.raises(ValueError, match=f"set_{name}_bytes: nbytes must be a byte count from 0 to MAX_THRESHOLD_BYTES.* got -1"):
        put(-1)


def write_cache(root, index, level, kind, size, shared):
    folder = root / f"index{index}"
    folder.mkdir()
    (folder / "level").write_text(f"{level}\n")
    (folder / "type").write_text(f"{kind}\n")
    (folder / "size").write_text(f"{size}\n")
    (folder / "shared_cpu_list").write_text(f"{shared}\n")


def test_threshold_derived_as_glibc_derives_its_own(tmp_path):
    # The Intel Xeon VM of issue 17: L3 of 491 520 KiB shared by CPUs 0-1,
    # L2 of 2 MiB: glibc 2.36 reports 181.5 MiB.
    write_cache(tmp_path, 0, 1, "Data", "48K", "0")
    write_cache(tmp_path, 1, 1, "Instruction", "64K", "0")
    write_cache(tmp_path, 2, 2, "Unified", "2048K", "0")
    write_cache(tmp_path, 3, 3, "Unified", "491520K", "0-1")
    assert cpu._cache_threshold(tmp_path) == int(181.5 * 2**20)
    assert cpu._l2_threshold(tmp_path) == 1536 * 1024  # three quarters of the L2


def test_threshold_of_other_cache_layouts(tmp_path):
    # No L3: three quarters of the L2's share; a list of CPUs with gaps.
    write_cache(tmp_path, 0, 2, "Unified", "1024K", "0,2,4-5")
    assert cpu._cache_threshold(tmp_path) == 1024 * 1024 // 4 * 3 // 4
    assert cpu._l2_threshold(tmp_path) == 1024 * 1024 // 4 * 3 // 4
    # Nothing readable: the documented defaults.
    assert cpu._cache_threshold(tmp_path / "missing") == 32 << 20
    assert cpu._l2_threshold(tmp_path / "missing") == 1 << 20
    assert cpu._cpu_count("0-3,8,10-11") == 7


def import_with(variable, value, cwd):
    """What cpu_features() reports for ``variable`` after importing with it set."""
    feature = {"XLASHAPE_STREAM_BYTES": "stream_bytes", "XLASHAPE_PREFETCH": "prefetch"}[variable]
    code = f"import xlashape as xs; print(xs.cpu_features()[{feature!r}])"
    env = dict(command_env(), **{variable: value})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=120, check=False)


def test_environment_variable_sets_the_threshold(tmp_path):
    done = import_with("XLASHAPE_STREAM_BYTES", "4096", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "4096"
    done = import_with("XLASHAPE_STREAM_BYTES", "4 MiB", tmp_path)
    assert done.returncode != 0
    assert "XLASHAPE_STREAM_BYTES must be a byte count (digits) from 0 to" in done.stderr
    assert "got '4 MiB'" in done.stderr


def test_prefetch_is_set_and_reported():
    previous = cpu.set_prefetch("off")
    try:
        assert cpu.prefetch() == "off"
        assert xs.cpu_features()["prefetch"] == "off"
        assert cpu.set_prefetch("l2") == "off"
        assert cpu.set_prefetch(None) == "l2"
        assert cpu.prefetch() == cpu._cache_prefetch()
    finally:
        cpu.set_prefetch(previous)
    assert cpu.PREFETCH_MODES == ("off", "l1", "l2")
    with pytest.raises(ValueError, match=r"set_prefetch: mode must be one of off, l1, l2 or None, got 'L2'"):
        cpu.set_prefetch("L2")
    with pytest.raises(TypeError, match=r"set_prefetch: mode must be a str \(one of off, l1, l2\) or None, got int"):
        cpu.set_prefetch(2)
    assert cpu.prefetch() == previous


def test_prefetch_mode_derived_from_the_l2(tmp_path):
    x86, arm = ("baseline", "avx2", "avx512"), ("baseline", "neon")
    # The Intel Xeon model 207: 2 MiB of L2 a core.
    write_cache(tmp_path, 0, 1, "Data", "48K", "0")
    write_cache(tmp_path, 2, 2, "Unified", "2048K", "0")
    write_cache(tmp_path, 3, 3, "Unified", "307200K", "0-15")
    assert cpu._cache_prefetch(tmp_path, x86) == "l2"
    assert cpu._cache_prefetch(tmp_path, ("baseline",)) == "l1"  # not x86-64 kernels
    assert cpu._cache_prefetch(tmp_path, arm) == "l1"
    # The cache's size decides, not one CPU's share: two threads of a core.
    shared = tmp_path / "two_threads"
    shared.mkdir()
    write_cache(shared, 2, 2, "Unified", "2048K", "0,8")
    assert cpu._cache_prefetch(shared, x86) == "l2"
    # AMD EPYC Zen 4 (1 MiB), Intel's older server cores (1.25 MiB), no sysfs.
    for size in ("1024K", "1280K", "2047K"):
        smaller = tmp_path / size
        smaller.mkdir()
        write_cache(smaller, 2, 2, "Unified", size, "0")
        assert cpu._cache_prefetch(smaller, x86) == "l1", size
    assert cpu._cache_prefetch(tmp_path / "missing", x86) == "l1"


def test_environment_variable_sets_the_prefetch(tmp_path):
    for mode in cpu.PREFETCH_MODES:
        done = import_with("XLASHAPE_PREFETCH", f" {mode.upper()} ", tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == mode
    done = import_with("XLASHAPE_PREFETCH", "", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == cpu._cache_prefetch()
    done = import_with("XLASHAPE_PREFETCH", "l3", tmp_path)
    assert done.returncode != 0
    assert "XLASHAPE_PREFETCH must be one of off, l1, l2, got 'l3'" in done.stderr


@pytest.mark.parametrize("shape", SHAPES[:3], ids=str)
@pytest.mark.parametrize("out_dtype", [np.int64, np.int32])
def test_every_prefetch_mode_gives_the_same_offsets(level, threshold, prefetch, shape, out_dtype):
    """The C rows' ravel, whole and by the blocks of 'clip', into out= at
    three alignments, and a bad row still found."""
    n = 30_011
    for index_dtype in (np.int64, np.int32):
        rows = rows_of(shape, n, index_dtype, seed=3)
        offsets = numpy_ravel(shape, rows.astype(np.int64))
        for start in (0, 8, 16):
            for mode in ("raise", "clip"):
                out = buffer_at((n,), out_dtype, start)
                xs.ravel(rows, shape, out=out, mode=mode, threads=1)
                np.testing.assert_array_equal(out, offsets, err_msg=f"{mode}, out= at {start} mod 64")
        bad = rows.copy()
        bad[n - 9, 0] = shape.dimensions[0]
        with pytest.raises(IndexError, match=f"row {n - 9}"):
            xs.ravel(bad, shape, out=buffer_at((n,), out_dtype, 0), threads=1)


def test_results_into_pages_not_yet_touched(level, threshold):
    # A fresh np.empty of several MiB (pages not yet in memory) is written
    # by ordinary stores even past the threshold; the results are the same.
    shape = SHAPES[0]
    rows = rows_of(shape, 100_003, np.int64)
    offsets = numpy_ravel(shape, rows)
    np.testing.assert_array_equal(xs.unravel(offsets, shape, out=np.empty(rows.shape, np.int64)), rows)
    np.testing.assert_array_equal(xs.ravel(rows, shape, out=np.empty(len(rows), np.int64)), offsets)
    np.testing.assert_array_equal(xs.unravel(offsets, shape), rows)


TILED = [
    xs.ShapeUtil.parse_shape_string("f32[61,300]{1,0:T(8,128)}"),
    xs.ShapeUtil.parse_shape_string("bf16[5,7,33,260]{3,2,1,0:T(8,128)(2,1)}"),
]


def in_small_calls(convert, values, shape):
    """``convert`` by calls of 1,000 rows, each under 1 MiB: plain stores,
    which the tiled tests check against the reference."""
    return np.concatenate([convert(values[i:i + 1_000], shape) for i in range(0, len(values), 1_000)])


@pytest.mark.parametrize("shape", TILED, ids=str)
def test_tiled_results_past_1_mib(level, threshold, shape):
    # Tiled kernels store plainly at every size (staging their rows through
    # a block on the stack and the store stream measured slower): every
    # out= alignment, threads and clip blocks.
    rows = rows_of(shape, 50_003, np.int64)
    offsets = in_small_calls(xs.ravel, rows, shape)
    for start in (0, 8, 16, 56):
        out = buffer_at((len(rows),), np.int64, start)
        np.testing.assert_array_equal(xs.ravel(rows, shape, out=out, threads=1), offsets)
        out = buffer_at(rows.shape, np.int64, start)
        np.testing.assert_array_equal(xs.unravel(offsets, shape, out=out, threads=1), rows)
    np.testing.assert_array_equal(xs.ravel(rows, shape, mode="clip", threads=2), offsets)
