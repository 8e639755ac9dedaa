"""'wrap' and 'clip' inside the kernels, the fused column kernel, and 32-bit
results: every CPU level, input form (rows, a tuple of columns, a (rank, N)
array), thread count and block edge, against an exact oracle (the modes
applied to Python ints, then NumPy or the reference)."""

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given

import xlashape as xs
from xlashape import cpu, reference

LEVELS = xs.cpu_features()["supported"]
MODES = ("raise", "wrap", "clip")
# Sizes about the vector widths and the 2048-row blocks that the raise
# kernels run by under 'wrap' and 'clip'; 20000 is split over threads.
SIZES = (1, 7, 9, 2047, 2049, 5000, 20000)
DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


@pytest.fixture(params=LEVELS)
def level(request):
    previous = cpu.set_cpu_level(request.param)
    yield request.param
    cpu.set_cpu_level(previous)


def resolve(values, size, mode):
    """``values`` as ``mode`` takes them, exactly (Python ints: a uint64 above
    int64's maximum is the unsigned value it is, which NumPy wraps; numpy
    issue 19832)."""
    if mode == "wrap":
        return [int(v) % size for v in values]
    if mode == "clip":
        return [min(max(int(v), 0), size - 1) for v in values]
    return [int(v) for v in values]


@st.composite
def mode_batches(draw):
    """A rank 1-8 row-major or permuted shape, a mode per dimension, a size
    about the block edges, and (N, rank) indices of one dtype: in range for
    'raise' dimensions; elsewhere in range with runs out of range (past the
    extent, negative, the dtype's ends) in a few places, or in none."""
    rank = draw(st.integers(1, 8))
    dims = draw(st.lists(st.integers(1, 9), min_size=rank, max_size=rank))
    order = draw(st.permutations(range(rank)))
    modes = tuple(draw(st.sampled_from(MODES)) for _ in range(rank))
    n = draw(st.sampled_from(SIZES))
    dtype = draw(st.sampled_from(DTYPES))
    info = np.iinfo(dtype)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    rows = np.stack([rng.integers(0, d, n) for d in dims], axis=1).astype(dtype)
    ends = [int(info.min), int(info.max), -1, 2**63 + 5]
    for _ in range(draw(st.integers(0, 3))):
        d = draw(st.integers(0, rank - 1))
        if modes[d] == "raise":
            continue
        start = draw(st.integers(0, n - 1))
        value = draw(st.sampled_from([dims[d], dims[d] + 5, -3, *ends]))
        if int(info.min) <= value <= int(info.max):
            rows[start:start + draw(st.integers(1, 40)), d] = value
    return xs.Shape("f32", dims, xs.Layout(order)), modes, rows


def expected_offsets(shape, modes, rows):
    resolved = [resolve(rows[:, d], size, mode) for d, (size, mode) in enumerate(zip(shape.dimensions, modes))]
    order = shape.layout.major_to_minor
    return np.ravel_multi_index(tuple(np.array(resolved[d], dtype=np.int64) for d in order),
                                tuple(shape.dimensions[d] for d in order))


@given(batch=mode_batches(), threads=st.sampled_from([1, 2]))
def test_modes_match_the_oracle_at_every_level_and_in_every_form(batch, threads):
    shape, modes, rows = batch
    expected = expected_offsets(shape, modes, rows)
    previous = cpu.set_cpu_level(LEVELS[0])
    try:
        for level in LEVELS:
            cpu.set_cpu_level(level)
            check_every_form(shape, modes, rows, threads, expected)
    finally:
        cpu.set_cpu_level(previous)


def check_every_form(shape, modes, rows, threads, expected):
    mode = modes[0] if len(set(modes)) == 1 else modes
    dims, m2m = shape.dimensions, shape.layout.minor_to_major
    np.testing.assert_array_equal(xs.ravel(rows, shape, mode=mode, threads=threads), expected)
    columns = tuple(np.ascontiguousarray(rows[:, d]) for d in range(shape.rank))
    np.testing.assert_array_equal(
        xs.ravel_multi_index(columns, dims, mode=mode, order=m2m, threads=threads), expected)
    np.testing.assert_array_equal(  # a C-contiguous (rank, N) array, read in place
        xs.ravel_multi_index(np.ascontiguousarray(rows.T), dims, mode=mode, order=m2m, threads=threads),
        expected)
    np.testing.assert_array_equal(  # strided columns: the column kernels
        xs.ravel_multi_index(tuple(rows.T), dims, mode=mode, order=m2m, threads=threads), expected)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_modes_of_batches_split_over_threads(level, threads):
    # 70000 rows: large enough to be split over the pool (the hypothesis
    # batches above are not, before the pool has started)
    rng = np.random.default_rng(threads)
    shape = xs.Shape("f32", [5, 7, 3, 4], xs.Layout([2, 0, 3, 1]))
    modes = ("wrap", "clip", "raise", "wrap")
    rows = np.stack([rng.integers(-9, 15, 70000), rng.integers(-9, 15, 70000),
                     rng.integers(0, 3, 70000), rng.integers(0, 4, 70000)], axis=1)
    rows[60000:60100, 3] = -2**40
    expected = expected_offsets(shape, modes, rows)
    check_every_form(shape, modes, rows, threads, expected)
    out = np.empty(70000, dtype=np.uint32)
    np.testing.assert_array_equal(xs.ravel(rows, shape, mode=modes, out=out, threads=threads), expected)
    rows_out = np.empty((70000, 4), dtype=np.int32)
    np.testing.assert_array_equal(xs.unravel(expected, shape, out=rows_out, threads=threads),
                                  xs.unravel(expected, shape))


@pytest.mark.parametrize("mode", ["wrap", "clip"])
def test_raise_dimensions_still_raise_beside_modes_and_name_the_first_row(level, mode):
    shape = xs.Shape("f32", [5, 7, 3])
    rng = np.random.default_rng(1)
    rows = np.stack([rng.integers(-20, 20, 6000), rng.integers(0, 7, 6000), rng.integers(-9, 9, 6000)], 1)
    rows[:, 1] = rng.integers(0, 7, 6000)
    rows[4100, 1] = 7
    rows[5000, 1] = -1
    with pytest.raises(xs.IndexOutOfBoundsError, match="at row 4100 of the batch"):
        xs.ravel(rows, shape, mode=(mode, "raise", mode))
    with pytest.raises(xs.IndexOutOfBoundsError, match="row 4100"):
        xs.ravel_multi_index(tuple(rows.T), (5, 7, 3), mode=(mode, "raise", mode))


@pytest.mark.parametrize("mode", ["wrap", "clip"])
def test_tiled_modes_match_the_reference(level, mode):
    shape = xs.Shape("f32", [37, 300], xs.Layout([1, 0], tiles=[(8, 128)]))
    rng = np.random.default_rng(2)
    for dtype in (np.int32, np.int64):
        rows = np.stack([rng.integers(-80, 80, 5000), rng.integers(0, 300, 5000)], 1).astype(dtype)
        rows[2000:2100, 1] = 700  # out of range in one block only
        resolved = np.array([resolve(rows[:, d], size, mode) for d, size in enumerate(shape.dimensions)]).T
        got = xs.ravel(rows, shape, mode=mode)
        np.testing.assert_array_equal(got, xs.ravel(resolved, shape))
        for i in (0, 2050, 4999):
            assert got[i] == reference.linear_index_of(shape, resolved[i].tolist())


# -- 32-bit results ------------------------------------------------------------


def narrow_shapes():
    yield xs.Shape("f32", [64, 128, 256, 32])
    yield xs.Shape("f32", [5, 7, 3], xs.Layout([0, 2, 1], [6, 9, 3]))
    yield xs.Shape("f32", [37, 300], xs.Layout([1, 0], tiles=[(8, 128)]))


@pytest.mark.parametrize("dtype", [np.int32, np.uint32])
@pytest.mark.parametrize("threads", [1, 2])
def test_32_bit_results_match_int64_results(level, dtype, threads):
    rng = np.random.default_rng(3)
    for shape in narrow_shapes():
        for n in (1, 9, 1023, 1025, 20000):
            rows = np.stack([rng.integers(0, d, n) for d in shape.dimensions], axis=1)
            offsets = xs.ravel(rows, shape)
            out = np.full(n, 7, dtype=dtype)
            assert xs.ravel(rows, shape, out=out, threads=threads) is out
            np.testing.assert_array_equal(out, offsets)
            got = xs.ravel(rows.astype(np.int32), shape, dtype=dtype, mode="clip", threads=threads)
            assert got.dtype == dtype
            np.testing.assert_array_equal(got, offsets)
            got = xs.ravel(rows.astype(np.int32), shape, dtype=dtype, threads=threads)
            np.testing.assert_array_equal(got, offsets)
            for column_dtype in (np.int32, np.uint32, np.int64, np.uint16):
                # the transpose of a C (rank, N) array: contiguous columns,
                # raveled in 32-bit arithmetic straight into out
                columns = np.ascontiguousarray(rows.T, dtype=column_dtype)
                got = xs.ravel(columns.T, shape, dtype=dtype, threads=threads)
                np.testing.assert_array_equal(got, offsets, err_msg=f"{shape} {column_dtype}")
            # unravel into a strided (Fortran) 32-bit out, and by dtype=
            rows_out = np.full((shape.rank, n), 7, dtype=dtype).T
            assert xs.unravel(offsets, shape, out=rows_out, threads=threads) is rows_out
            np.testing.assert_array_equal(rows_out, rows)
            got = xs.unravel(offsets.astype(np.int32), shape, dtype=dtype, threads=threads)
            assert got.dtype == dtype
            np.testing.assert_array_equal(got, rows)


def test_32_bit_results_name_the_first_bad_row(level):
    shape = xs.Shape("f32", [64, 128, 256, 32])
    rows = np.zeros((5000, 4), dtype=np.int64)
    rows[3000, 2] = 256
    with pytest.raises(xs.IndexOutOfBoundsError, match="at row 3000 of the batch"):
        xs.ravel(rows, shape, dtype=np.int32)
    for dtype, value in ((np.int32, -1), (np.int32, 256), (np.uint32, 2**32 - 1), (np.int64, 2**32 + 1)):
        columns = np.zeros((4, 5000), dtype=dtype)
        columns[2, 3000:] = value  # later bad rows too: the first is named
        for batch in (columns.T, np.ascontiguousarray(columns.T)):  # columns, then rows
            with pytest.raises(xs.IndexOutOfBoundsError, match="at row 3000 of the batch"):
                xs.ravel(batch, shape, dtype=np.uint32)
    offsets = np.zeros(5000, dtype=np.int64)
    offsets[4001] = 64 * 128 * 256 * 32
    with pytest.raises(xs.IndexOutOfBoundsError, match="row 4001"):
        xs.unravel(offsets, shape, dtype=np.uint32)


def test_32_bit_rank_4_rows_flag_a_bad_index_in_every_lane(level):
    # int32 rows of rank 4 into 32-bit results: the vector levels read 8 or
    # 16 rows a step and sum them by in-lane unpacks and one permute; every
    # row's place in a step, every dimension, and the rows after the last
    # whole step
    shape = xs.Shape("f32", [5, 7, 11, 13], xs.Layout([0, 2, 1, 3]))
    rng = np.random.default_rng(4)
    rows = np.stack([rng.integers(0, d, 37) for d in shape.dimensions], axis=1).astype(np.int32)
    offsets = xs.ravel(rows.astype(np.int64), shape)
    np.testing.assert_array_equal(xs.ravel(rows, shape, dtype=np.int32), offsets)
    for row in range(37):
        for dim in range(4):
            for value in (-1, shape.dimensions[dim]):
                bad = rows.copy()
                bad[row, dim] = value
                with pytest.raises(xs.IndexOutOfBoundsError, match=f"at row {row} of the batch"):
                    xs.ravel(bad, shape, dtype=np.int32)
                expected = offsets.copy()
                expected[row] = xs.ravel(np.clip(bad[row:row + 1], 0, np.array(shape.dimensions) - 1), shape)[0]
                np.testing.assert_array_equal(xs.ravel(bad, shape, dtype=np.uint32, mode="clip"), expected)


def test_32_bit_results_are_refused_before_writing_where_values_do_not_fit():
    big = xs.Shape("f32", [2**16, 2**15 + 1])  # 2**31 + 2**16 elements
    out = np.full(1, 7, dtype=np.int32)
    with pytest.raises(ValueError, match=r"int32 cannot hold every offset .* 2147549184 elements"):
        xs.ravel([[0, 0]], big, out=out)
    assert out[0] == 7
    assert xs.ravel([[2**16 - 1, 2**15]], big, dtype=np.uint32).tolist() == [2**31 + 2**16 - 1]
    with pytest.raises(ValueError, match="uint32 cannot hold every offset"):
        xs.ravel([[0, 0]], xs.Shape("f32", [2**16, 2**16 + 1]), dtype="uint32")
    wide = xs.Shape("f32", [2**31 + 1, 2])
    with pytest.raises(ValueError, match=r"int32 cannot hold every index .* dimension 0 has size 2147483649"):
        xs.unravel([0], wide, dtype=np.int32)
    assert xs.unravel([2**31 * 2], wide, dtype=np.uint32).tolist() == [[2**31, 0]]


def test_dtype_and_out_must_agree():
    shape = xs.Shape("f32", [3, 4])
    with pytest.raises(TypeError, match="out must have dtype int32"):
        xs.ravel([[1, 2]], shape, dtype=np.int32, out=np.empty(1, np.int64))
    with pytest.raises(TypeError, match="dtype must be int64, int32 or uint32, got int16"):
        xs.ravel([[1, 2]], shape, dtype=np.int16)
    with pytest.raises(TypeError, match="out must have dtype int64"):
        xs.unravel([1], shape, out=np.empty((1, 2), np.int16))
    assert xs.ravel([[1, 2]], shape, dtype="int64").dtype == np.int64


def _documented_out_dtypes(function):
    """The dtypes that ``function``'s docstring allows for ``out``."""
    line = next(line for line in function.__doc__.splitlines() if line.strip().startswith("out : "))
    names = line.split("ndarray of ")[1].split(", shape")[0]  # "int64, int32 or uint32"
    return [np.dtype(name) for name in names.replace(" or ", ", ").split(", ")]


@pytest.mark.parametrize("convert", ["ravel", "unravel"])
@pytest.mark.parametrize("dtype", [*DTYPES, np.float64, np.float32, np.bool_])
@pytest.mark.parametrize("byte_order", ["=", ">"])
def test_out_of_any_dtype_is_taken_or_refused_naming_every_documented_dtype(convert, dtype, byte_order):
    # An out= of a dtype the function refuses is named with every dtype its
    # docstring allows; one it allows gives what NumPy gives.
    shape = xs.Shape("f32", [3, 4])
    documented = _documented_out_dtypes(getattr(xs, convert))
    assert documented == [np.dtype(np.int64), np.dtype(np.int32), np.dtype(np.uint32)]
    out_dtype = np.dtype(dtype).newbyteorder(byte_order)
    if convert == "ravel":
        args, out = ([[1, 2], [2, 3]], shape), np.zeros(2, out_dtype)
        expected = np.ravel_multi_index(([1, 2], [2, 3]), (3, 4))
    else:
        args, out = ([6, 11], shape), np.zeros((2, 2), out_dtype)
        expected = np.stack(np.unravel_index([6, 11], (3, 4)), axis=1)
    if out_dtype.isnative and out_dtype in documented:
        assert getattr(xs, convert)(*args, out=out) is out
        np.testing.assert_array_equal(out, expected)
        return
    allowed = ", ".join(str(d) for d in documented[:-1]) + f" or {documented[-1]}"
    with pytest.raises(TypeError) as refused:
        getattr(xs, convert)(*args, out=out)
    assert str(refused.value) == f"out must have dtype {allowed} (native byte order), got {out_dtype}"
    assert not out.any()


def test_traffic_loop_reads_and_writes_every_item(level):
    from xlashape.core._batch import traffic

    src = np.arange(4000, dtype=np.int64)
    dst = np.zeros(1000, dtype=np.int64)
    traffic(src, dst)
    np.testing.assert_array_equal(dst, src.reshape(4, 1000).sum(axis=0))
    wide = np.zeros(8000, dtype=np.int64)
    traffic(src, wide)
    np.testing.assert_array_equal(wide, np.tile(src, 2))
